/**
 * The trigger against the service as integrators observed it, beyond the contract's reading:
 * - update_virtualnum may replace the whole record, so every update the trigger sends carries
 *   every settable field of the number as read, with only the callback fields changed;
 * - the service appends `?event=<word>` to the callback URL even when it has a query string;
 * - a second, lower-case callback template.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../../../dev/sandbox/index.mts';
import { hostPerFile, sandboxPerFile } from '../../../../dev/harness/nodeTest.mts';
import {
	TriggerHost,
	selectedNumbers,
	startProxy,
	type TriggerInstance,
} from '../../../../dev/harness/trigger.mts';

const CALLS = ['callStarted', 'callEnded'];
const FOREIGN = 'https://crm.example.com/hooks/calls?source=virtualnum';

/** create_virtualnum's settable fields (docs/api), but the callback's two. */
const SETTABLE = [
	'description',
	'call_destination_phone',
	'active_status',
	'dial_option',
	'dial_timeout_in_sec',
	'record_option',
	'record_percentage',
	'expose',
	'disallow_callback',
	'greeting_in',
	'greeting_out',
	'ringback_tone',
	'email',
	'sms_destination_phone',
	'working_hours',
	'out_of_time_destination_phone',
	...Array.from({ length: 10 }, (_, index) => `private_field${index + 1}`),
];

/** A value for every settable field, none of them the sandbox's default. */
const SETTINGS: Record<string, string> = {
	description: 'Billboard with every setting',
	call_destination_phone: '0541234567,0559876543',
	active_status: '1',
	dial_option: '2',
	dial_timeout_in_sec: '45',
	record_option: '3',
	record_percentage: '50',
	expose: '2',
	disallow_callback: '1',
	greeting_in: 'welcome_in',
	greeting_out: 'welcome_out',
	ringback_tone: 'tone_classic',
	email: 'ops@example.com',
	sms_destination_phone: '0521112222',
	working_hours: '0'.repeat(48) + '1'.repeat(72) + '0'.repeat(48),
	out_of_time_destination_phone: '0533334444',
	...Object.fromEntries(
		Array.from({ length: 10 }, (_, index) => [`private_field${index + 1}`, `private ${index + 1}`]),
	),
};

describe('Virtual Number Trigger → the service as observed in the field', () => {
	const sandbox = sandboxPerFile();
	const host = hostPerFile();

	const numbers = () =>
		sandbox.control
			.virtualnums()
			.filter((r) => r.active_status === 1)
			.map((r) => r.virtualnum);
	const trigger = (parameters: IDataObject, baseUrl = sandbox.vnUrl) =>
		host.add({
			parameters,
			credentials: { virtualnumApi: { baseUrl, accessToken: sandbox.tokens.vn } },
		});
	const updates = () =>
		sandbox.control
			.requests({ operation: 'update_virtualnum' })
			.map((r) => r.body as Record<string, string>);
	const callbackOf = (number: string) => {
		const record = sandbox.control.virtualnum(number)!;
		return { url: record.callback_url, option: record.callback_url_option };
	};
	async function update(params: Record<string, string>) {
		const answer = await fetch(`${sandbox.vnUrl}/api/?service=update_virtualnum&format=json`, {
			method: 'POST',
			headers: {
				Authorization: `Bearer ${sandbox.tokens.vn}`,
				'Content-Type': 'application/x-www-form-urlencoded',
			},
			body: new URLSearchParams(params),
		});
		assert.equal(((await answer.json()) as { status: { code: number } }).status.code, 200);
	}
	/** A number with every settable field set, and its callback pointing at a CRM. */
	async function fullySet(number: string) {
		await update({
			virtualnum: number,
			...SETTINGS,
			callback_url: FOREIGN,
			callback_url_option: '1',
		});
		const record = sandbox.control.virtualnum(number)! as unknown as Record<string, unknown>;
		for (const field of SETTABLE) assert.equal(String(record[field]), SETTINGS[field], field);
	}
	/** Every settable field is in the update, as read; the callback fields are the ones given. */
	function assertCarriesEverything(
		body: Record<string, string>,
		callback: { url: string; option: number },
		what: string,
	) {
		for (const field of SETTABLE)
			assert.equal(body[field], SETTINGS[field], `${what}: ${field} sent back as read`);
		assert.equal(body.callback_url, callback.url, `${what}: callback_url`);
		assert.equal(body.callback_url_option, String(callback.option), `${what}: callback_url_option`);
		assert.equal(body.create_time, undefined, `${what}: what the service sets itself is not sent`);
	}

	describe('no setting of a number is ever lost', () => {
		test('activation and deactivation send every settable field as read, working_hours included', async () => {
			const [a] = numbers();
			await fullySet(a);
			sandbox.control.clearRequests();
			const t = trigger({ events: CALLS, numbers: 'selected', virtualnums: selectedNumbers([a]) });
			await t.activate();
			const [registration] = updates();
			assertCarriesEverything(registration, callbackOf(a), 'activation');
			assert.ok(t.holds(callbackOf(a).url));

			sandbox.control.clearRequests();
			await t.deactivate();
			const [restore] = updates();
			assertCarriesEverything(restore, { url: FOREIGN, option: 1 }, 'deactivation');
			assert.deepEqual(callbackOf(a), { url: FOREIGN, option: 1 });
		});

		test('a failed activation puts the numbers back with every settable field as read', async () => {
			const [a, b] = numbers();
			await fullySet(a);
			await fullySet(b);
			let seen = 0;
			const proxy = await startProxy(sandbox.vnUrl, (request) => {
				if (request.params.service === 'update_virtualnum' && ++seen === 2)
					sandbox.control.injectFaults({
						kind: 'serviceError',
						code: 4021,
						operation: 'update_virtualnum',
					});
			});
			try {
				sandbox.control.clearRequests();
				const t = trigger(
					{ events: CALLS, numbers: 'selected', virtualnums: selectedNumbers([a, b]) },
					proxy.url,
				);
				await assert.rejects(t.activate());
				const sent = updates();
				assert.ok(sent.length >= 3, 'registration, the refused one, then the roll-back');
				for (const body of sent) {
					const callback = { url: body.callback_url, option: Number(body.callback_url_option) };
					assertCarriesEverything(body, callback, `update of ${body.virtualnum}`);
				}
				assert.deepEqual(callbackOf(a), { url: FOREIGN, option: 1 });
				assert.deepEqual(callbackOf(b), { url: FOREIGN, option: 1 });
			} finally {
				await proxy.close();
			}
		});
	});

	describe('the callback URL survives an appended ?event=<word>', () => {
		/** What the service calls: the number's URL with `?event=<word>` appended, then the template's fields. */
		async function callBack(
			t: TriggerInstance,
			number: string,
			word: string,
			fields: Record<string, string>,
		) {
			const before = t.outcomes.length;
			const url = `${callbackOf(number).url}?event=${word}&${new URLSearchParams(fields).toString()}`;
			const answer = await fetch(url);
			assert.equal(t.outcomes.length, before + 1, 'one request reached the trigger');
			return { status: answer.status, outcome: t.outcomes[before] };
		}

		for (const secret of ['', 's3cr&t/with?chars']) {
			test(`the event word drives the event and reaches the item; restore data intact (${secret ? 'with' : 'without'} a Secret)`, async () => {
				const [a] = numbers();
				await update({
					virtualnum: a,
					description: 'x',
					call_destination_phone: '0541234567',
					callback_url: FOREIGN,
					callback_url_option: '1',
				});
				const t = trigger({
					events: CALLS,
					numbers: 'selected',
					virtualnums: selectedNumbers([a]),
					options: secret ? { secret } : {},
				});
				await t.activate();
				const call = {
					CLI: '0541234567',
					DDI: a,
					UUID: 'call-1',
					CALLSTATUS: 'ANSWER',
					DURATION: '42',
				};

				const ended = await callBack(t, a, 'hangup', call);
				assert.equal(ended.status, 200);
				assert.equal(ended.outcome.started, true);
				const item = ended.outcome.items[0].json;
				assert.equal(item.event, 'call.ended');
				assert.equal(item.callId, 'call-1');
				assert.equal(item.durationSec, 42);
				const query = item.query as IDataObject;
				assert.equal(query.event, 'hangup', 'the appended word is kept in the query');
				assert.equal(
					query.vnt_prev,
					undefined,
					"the trigger's own parameters stay out of the item",
				);
				assert.equal(query.secret, undefined, 'the secret never reaches the item');
				assert.equal(JSON.stringify(item).includes('s3cr'), false);

				const started = await callBack(t, a, 'start', {
					CLI: '0541234567',
					DDI: a,
					UUID: 'call-2',
				});
				assert.equal(started.outcome.items[0].json.event, 'call.started');

				if (secret) {
					const wrong = `${callbackOf(a).url.replace(encodeURIComponent(secret), 'nope')}?event=hangup`;
					assert.equal((await fetch(wrong)).status, 401, 'a wrong secret is still refused');
				}
				await t.deactivate();
				assert.deepEqual(callbackOf(a), { url: FOREIGN, option: 1 }, 'vnt_prev restored whole');
			});
		}

		test('a URL pasted by hand whose last parameter is the Secret (SMS Delivery Status) keeps working', async () => {
			const t = trigger({ events: ['smsDelivery'], options: { secret: 'pasted' } });
			const answer = await fetch(
				`${t.webhookUrl}?secret=pasted?event=dlr&message_id=m1&dest=0541234567&status=2`,
			);
			assert.equal(answer.status, 200);
			const item = t.outcomes.at(-1)!.items[0].json;
			assert.equal(item.event, 'sms.delivery');
			assert.equal(item.messageId, 'm1');
			assert.equal((item.query as IDataObject).event, 'dlr');
		});
	});

	test('the lower-case callback template fills the same vocabulary; unformatted and private fields stay', async () => {
		const [a] = numbers();
		const t = trigger({ events: CALLS, numbers: 'selected', virtualnums: selectedNumbers([a]) });
		const fields = {
			cli: '054-123-4567',
			cli_unformatted: '972541234567',
			virtualnum: a,
			virtualnum_unformatted: `972${a.slice(1)}`,
			destination: '0559876543',
			destination_unformatted: '972559876543',
			uuid: 'call-lower-1',
			status: 'NO ANSWER',
			duration: '0',
			recording: 'https://recordings.example.com/call-lower-1.mp3',
			name: 'Billboard Tel Aviv',
			description: 'Billboard Tel Aviv',
			private_field1: 'campaign-7',
			private_field2: 'north',
		};
		const answer = await fetch(`${t.webhookUrl}?${new URLSearchParams(fields).toString()}`);
		assert.equal(answer.status, 200);
		const item = t.outcomes.at(-1)!.items[0].json;
		assert.equal(item.event, 'call.ended');
		assert.equal(item.callerNumber, '054-123-4567');
		assert.equal(item.virtualNumber, a);
		assert.equal(item.destinationPhone, '0559876543');
		assert.equal(item.callId, 'call-lower-1');
		assert.equal(item.callStatus, 'NOANSWER', '`NO ANSWER` is read as NOANSWER');
		assert.equal(item.durationSec, 0);
		assert.equal(item.recordingUrl, fields.recording);
		assert.equal(item.recordingExists, true);
		assert.equal(item.numberDescription, 'Billboard Tel Aviv');
		assert.equal(item.callerNumberUnformatted, '972541234567');
		assert.equal(item.virtualNumberUnformatted, fields.virtualnum_unformatted);
		assert.equal(item.destinationPhoneUnformatted, '972559876543');
		assert.equal(item.privateField1, 'campaign-7');
		assert.equal(item.privateField2, 'north');
		assert.equal(item.privateField3, undefined, 'only the private fields the callback carries');
	});
});

describe('Virtual Number Trigger → an account whose service names numbers with another word', () => {
	let sandbox: Sandbox;
	let host: TriggerHost;
	before(async () => {
		sandbox = await startSandbox({ word: 'did', behaviours: ['callback-lower'] });
		host = await TriggerHost.start();
	});
	after(async () => {
		await host.close();
		await sandbox.close();
	});

	test('activation, a callback carrying `did` and `did_unformatted`, and deactivation', async () => {
		const [a] = sandbox.control
			.virtualnums()
			.filter((r) => r.active_status === 1)
			.map((r) => r.virtualnum);
		const t = host.add({
			parameters: { events: CALLS, numbers: 'selected', virtualnums: selectedNumbers([a]) },
			credentials: {
				virtualnumApi: {
					baseUrl: sandbox.vnUrl,
					accessToken: sandbox.tokens.vn,
					identifierWord: 'did',
				},
			},
		});
		await t.activate();
		assert.ok(
			t.holds(String(sandbox.control.virtualnum(a)?.callback_url)),
			'registered on get_did',
		);
		const fields = {
			cli: '054-123-4567',
			did: a,
			did_unformatted: `972${a.slice(1)}`,
			uuid: 'call-did-1',
			status: 'ANSWER',
			duration: '12',
		};
		const query = [...Object.entries(fields), ['__proto__', 'kept']]
			.map(([key, value]) => `${key}=${encodeURIComponent(value)}`)
			.join('&');
		assert.equal((await fetch(`${t.webhookUrl}?${query}`)).status, 200);
		const item = t.outcomes.at(-1)!.items[0].json;
		assert.equal(item.virtualNumber, a, 'the dialled number read from `did`');
		assert.equal(item.virtualNumberUnformatted, fields.did_unformatted);
		assert.equal(item.callId, 'call-did-1');
		assert.equal(Object.getPrototypeOf(item), Object.prototype, 'no key becomes a prototype');
		await t.deactivate();
		assert.ok(!t.holds(String(sandbox.control.virtualnum(a)?.callback_url)));
	});
});
