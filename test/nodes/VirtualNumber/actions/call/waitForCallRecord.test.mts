/**
 * Click to Call and Two-Leg Call under both readings of the placement's answer: `callId` only when
 * the service answers one (the field profile's `call-no-id` answers a status only), and Wait for
 * Call Record, which finds the call's record with cdr_query (by the ID, else by the numbers and a
 * time window) and outputs it in the call vocabulary.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import type { FieldBehaviour } from '../../../../../dev/sandbox/field.mts';
import { startSandbox, type Sandbox } from '../../../../../dev/sandbox/index.mts';
import { failure, jsons, rl, vnRequests, vnRunner } from '../../vnRun.mts';

let sandbox: Sandbox;
const runner = vnRunner(() => sandbox);
/** The current version (1.1): the call's ID as `callId`. */
const run = (parameters: Record<string, unknown>, options: { timezone?: string } = {}) =>
	runner(parameters, { ...options, typeVersion: 1.1 });

const NUMBER = '0722000100';
const CALLS = {
	'Click to Call': {
		parameters: {
			resource: 'call',
			operation: 'clickToCall',
			virtualnum: rl(NUMBER),
			destination: '050-123 4567',
		},
		placement: 'create_virtualnum_call',
		caller: '0501234567',
	},
	'Two-Leg Call': {
		parameters: {
			resource: 'call',
			operation: 'twoLegCall',
			virtualnum1: rl(NUMBER),
			destination1: '0501234567',
			destination2: '0527654321',
		},
		placement: 'create_virtualnum_call_v2',
		caller: '0501234567',
	},
} as const;

function sqlOf(request: { body: unknown }): string {
	return String((request.body as Record<string, unknown>).sql);
}

/** Each reading pinned (whatever SANDBOX_PROFILE says): the contract, no call ID alone, the whole field profile. */
const PROFILES = {
	contract: { profile: 'contract', behaviours: [] as FieldBehaviour[] },
	'call-no-id': { profile: 'contract', behaviours: ['call-no-id'] as FieldBehaviour[] },
	field: { profile: 'field', behaviours: [] as FieldBehaviour[] },
} as const;

for (const [profile, settings] of Object.entries(PROFILES)) {
	describe(`Virtual Number → Call: placement answer and Wait for Call Record (${profile})`, () => {
		before(async () => {
			sandbox = await startSandbox({ ...settings, behaviours: [...settings.behaviours] });
		});
		after(async () => await sandbox.close());
		beforeEach(() => sandbox.control.reset());

		for (const [name, call] of Object.entries(CALLS)) {
			test(`${name}: callId only when the service answers one; no cdr_query without the option`, async () => {
				const [item] = jsons(await run({ ...call.parameters }));
				assert.equal(vnRequests(sandbox, call.placement).length, 1);
				assert.equal(vnRequests(sandbox, 'cdr_query').length, 0, 'off by default: no look-up');
				if (profile === 'contract') {
					assert.match(String(item.callId), /^\d+\.\d+$/);
				} else {
					assert.equal('callId' in item, false, 'no ID is invented');
					assert.equal('call_uuid' in item, false);
					assert.equal(item.statusDescription, 'Call placed', "the service's status text");
				}
			});

			test(`${name}: Wait for Call Record outputs the call's record in the call vocabulary`, async () => {
				const items = jsons(
					await run({
						...call.parameters,
						waitForCallRecord: true,
						maxWaitSec: 5,
						checkEverySec: 1,
					}),
				);
				assert.equal(items.length, 1);
				const record = items[0];
				const placed = sandbox.control
					.cdrs({ virtualnum: NUMBER })
					.reduce((newest, row) => (row.id > newest.id ? row : newest));
				assert.equal(record.callId, placed.cdr_uniqueid, 'the record of the call just placed');
				assert.equal(record.virtualNumber, NUMBER);
				assert.equal(record.callerNumber, call.caller);
				assert.equal(record.callStatus, 'ANSWER');
				assert.equal(typeof record.durationSec, 'number');
				assert.equal(typeof record.recordingExists, 'boolean');
				assert.equal(record.cdr_uniqueid, undefined, "not the service's names");
				const [query] = vnRequests(sandbox, 'cdr_query');
				if (profile === 'contract') {
					assert.match(sqlOf(query), new RegExp(`WHERE cdr_uniqueid = '${placed.cdr_uniqueid}'`));
				} else {
					assert.match(
						sqlOf(query),
						/cdr_ddi LIKE '%722000100' AND cdr_ani LIKE '%501234567' AND start_call >= '\d{4}-\d\d-\d\d \d\d:\d\d:\d\d'/,
					);
				}
			});
		}
	});
}

describe('Virtual Number → Call → Wait for Call Record: no record within Max Wait (call-no-id)', () => {
	before(async () => {
		sandbox = await startSandbox({ profile: 'contract', behaviours: ['call-no-id'] });
	});
	after(async () => await sandbox.close());
	beforeEach(() => sandbox.control.reset());

	test('looks a few times, then fails saying how long it waited; the call is placed once', async () => {
		// A workflow zone 14 hours ahead of the service's clock: the window opens after every record.
		const started = Date.now();
		const error = failure(
			await run(
				{
					...CALLS['Click to Call'].parameters,
					waitForCallRecord: true,
					maxWaitSec: 2,
					checkEverySec: 1,
				},
				{ timezone: 'Pacific/Kiritimati' },
			),
		);
		const elapsed = Date.now() - started;
		assert.match(error.message, /call record did not appear within 2 s \(3 look-ups\)/);
		assert.match(String(error.description), /Max Wait \(Seconds\)/);
		assert.equal(vnRequests(sandbox, 'create_virtualnum_call').length, 1, 'placed once');
		assert.equal(vnRequests(sandbox, 'cdr_query').length, 3);
		assert.ok(elapsed >= 2000 && elapsed < 6000, `bounded by Max Wait (${elapsed} ms)`);
	});
});
