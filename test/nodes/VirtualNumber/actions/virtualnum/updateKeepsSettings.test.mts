/**
 * Virtual Number → Update keeps every setting: the number is read first and every settable field of
 * create_virtualnum is sent back as read, with only the intended fields changed. Proven field by
 * field under the contract (only sent values change) and under the field profile's replace semantics
 * (`update-replaces`: settable fields not sent are cleared).
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import { startSandbox, type Sandbox } from '../../../../../dev/sandbox/index.mts';
import { jsons, rl, vnRequests, vnRunner } from '../../vnRun.mts';

let sandbox: Sandbox;
const run = vnRunner(() => sandbox);

const NUMBER = '0722000190';
/** A working-hours pattern that is not the default (always open): Sunday to Thursday 08-17. */
const HOURS = Array.from({ length: 168 }, (_, h) =>
	h % 24 >= 8 && h % 24 < 17 && h < 120 ? '1' : '0',
).join('');

/** Every settable field of create_virtualnum with a value that is not create's default. */
const SETTINGS: Record<string, string | number> = {
	description: 'Kitchen line',
	call_destination_phone: '0501111111,0502222222',
	active_status: 1,
	dial_option: 2,
	dial_timeout_in_sec: 33,
	record_option: 3,
	record_percentage: 40,
	expose: 2,
	disallow_callback: 1,
	callback_url: 'https://crm.example.com/hook?a=1',
	callback_url_option: 3,
	greeting_in: 'welcome',
	greeting_out: 'goodbye',
	ringback_tone: 'ring1',
	email: 'desk@example.com',
	sms_destination_phone: '0503333333',
	working_hours: HOURS,
	out_of_time_destination_phone: '0504444444',
	...Object.fromEntries(
		Array.from({ length: 10 }, (_, i) => [`private_field${i + 1}`, `pf${i + 1}`]),
	),
};

/** Each reading pinned (whatever SANDBOX_PROFILE says): the contract, replace alone, the whole field profile. */
const PROFILES = {
	contract: { profile: 'contract' },
	'update-replaces': { profile: 'contract', behaviours: ['update-replaces'] },
	field: { profile: 'field' },
} as const;

for (const [profile, settings] of Object.entries(PROFILES)) {
	describe(`Virtual Number → Update keeps every setting (${profile})`, () => {
		before(async () => {
			sandbox = await startSandbox({
				...settings,
				behaviours: [...(('behaviours' in settings && settings.behaviours) || [])],
			});
		});
		after(async () => await sandbox.close());
		beforeEach(() => {
			sandbox.control.reset();
			sandbox.control.seed({ virtualnum: { virtualnum: NUMBER, ...SETTINGS } });
			sandbox.control.clearRequests();
		});

		const update = (updateFields: Record<string, unknown>) =>
			run({ resource: 'virtualnum', operation: 'update', virtualnum: rl(NUMBER), updateFields });

		test('changing the email: every other setting is sent back as read and stays, field by field', async () => {
			const before = sandbox.control.virtualnum(NUMBER)!;
			const items = jsons(await update({ email: 'new@example.com' }));
			assert.deepEqual(
				vnRequests(sandbox).map((request) => request.operation),
				['get_virtualnum', 'update_virtualnum', 'get_virtualnum'],
				'the number is read first, and again after the write',
			);
			const [request] = vnRequests(sandbox, 'update_virtualnum');
			const expected = Object.fromEntries(
				Object.entries({ ...SETTINGS, email: 'new@example.com', virtualnum: NUMBER }).map(
					([k, v]) => [k, String(v)],
				),
			);
			assert.deepEqual(request.body, expected, 'every settable field is sent, the email changed');
			assert.equal(
				(request.body as Record<string, unknown>).create_time,
				undefined,
				'what the service sets is not sent',
			);
			const after = sandbox.control.virtualnum(NUMBER)!;
			for (const [field, value] of Object.entries(SETTINGS)) {
				if (field === 'email') continue;
				assert.equal(String(after[field as keyof typeof after]), String(value), `${field} kept`);
				assert.equal(String(items[0][field]), String(value), `${field} in the output`);
			}
			assert.equal(after.email, 'new@example.com');
			assert.equal(after.create_time, before.create_time);
			assert.equal(after.extenstion, before.extenstion);
		});

		test('changing working hours and a private field: only those change', async () => {
			jsons(
				await update({
					workingHoursPattern: '1'.repeat(168),
					privateFields: { field: [{ name: 'private_field3', value: 'new3' }] },
					description: 'Renamed',
				}),
			);
			const after = sandbox.control.virtualnum(NUMBER)!;
			const changed: Record<string, string> = {
				working_hours: '1'.repeat(168),
				private_field3: 'new3',
				description: 'Renamed',
			};
			for (const [field, value] of Object.entries(SETTINGS)) {
				const wanted = changed[field] ?? String(value);
				assert.equal(String(after[field as keyof typeof after]), wanted, `${field}`);
			}
		});

		test('suspending with Status keeps the rest', async () => {
			jsons(await update({ activeStatus: 0 }));
			const after = sandbox.control.virtualnum(NUMBER)!;
			assert.equal(after.active_status, 0);
			for (const [field, value] of Object.entries(SETTINGS)) {
				if (field === 'active_status') continue;
				assert.equal(String(after[field as keyof typeof after]), String(value), `${field} kept`);
			}
		});
	});
}
