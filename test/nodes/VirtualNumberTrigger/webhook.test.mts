import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../../dev/sandbox/index.mts';
import {
	TriggerHost,
	selectedNumbers,
	type TriggerInstance,
} from '../../../dev/harness/trigger.mts';

const CALLS = ['callStarted', 'callEnded'];
const SECRET = 'Ab3$ecret+/=';

describe('Virtual Number Trigger → receiving callbacks', () => {
	let sandbox: Sandbox;
	let host: TriggerHost;
	const active: TriggerInstance[] = [];
	before(async () => {
		sandbox = await startSandbox();
		host = await TriggerHost.start();
	});
	after(async () => {
		await host.close();
		await sandbox.close();
	});
	beforeEach(async () => {
		for (const t of active.splice(0)) await t.deactivate().catch(() => undefined);
		sandbox.control.reset();
		sandbox.control.configure({ callbackStyle: 'json', callStartRepeats: 1 });
	});

	const numbers = () =>
		sandbox.control
			.virtualnums()
			.filter((r) => r.active_status === 1)
			.map((r) => r.virtualnum);
	async function activated(parameters: IDataObject): Promise<TriggerInstance> {
		const t = host.add({
			parameters,
			credentials: { virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn } },
		});
		await t.activate();
		active.push(t);
		return t;
	}
	const post = (url: string, body: string, contentType?: string) =>
		fetch(url, {
			method: 'POST',
			body,
			headers: contentType ? { 'Content-Type': contentType } : {},
		});

	/** The normalized fields a call's callbacks must come out with (the vocabulary of nodes/shared/callFields.ts). */
	/** A call time of the service with the offset of its clock (the credential's Service Time Zone). */
	const withOffset = (time: string) =>
		DateTime.fromSQL(time, { zone: 'Asia/Jerusalem' }).toISO({ suppressMilliseconds: true });
	function expectedCall(
		call: Awaited<ReturnType<Sandbox['control']['placeCall']>>['call'],
		event: 'call.started' | 'call.ended',
	) {
		const ended = event === 'call.ended';
		return {
			event,
			callId: call.cdr_uniqueid,
			virtualNumber: call.cdr_ddi,
			callerNumber: call.cdr_ani,
			destinationPhone: call.user_phone,
			numberDescription: call.user_name,
			callStatus: ended ? call.call_status : null,
			startTime: call.start_call,
			startedAt: withOffset(call.start_call),
			endTime: ended ? call.end_call : null,
			endedAt: ended ? withOffset(call.end_call) : null,
			durationSec: ended ? call.call_duration : null,
			recordingExists: ended ? call.has_recording : null,
			recordingUrl: null,
			agentRating: null,
			marketingMetadata: null,
			adClickId: null,
		};
	}
	const stable = (json: IDataObject) => {
		const { receivedAt, method, query, body, ...rest } = json;
		assert.ok(!Number.isNaN(Date.parse(String(receivedAt))), 'receivedAt is a timestamp');
		void method;
		void query;
		void body;
		return rest;
	};

	for (const style of ['json', 'form', 'query'] as const) {
		test(`a call placed on the sandbox fires start and end callbacks that come out as normalized items (${style})`, async () => {
			sandbox.control.configure({ callbackStyle: style });
			const [number] = numbers();
			const t = await activated({
				events: CALLS,
				numbers: 'selected',
				virtualnums: selectedNumbers([number]),
			});

			const { call, callbacks } = await sandbox.control.placeCall({
				virtualnum: number,
				caller: '0541234567',
				durationSec: 95,
			});

			assert.deepEqual(
				callbacks.map((c) => [c.kind, c.method, c.responseStatus]),
				[
					['call.start', style === 'query' ? 'GET' : 'POST', 200],
					['call.end', style === 'query' ? 'GET' : 'POST', 200],
				],
			);
			assert.equal(t.executions.length, 2);
			const [started, ended] = t.executions.map((items) => {
				assert.equal(items.length, 1, 'one item per callback');
				// as n8n stores it (query and form bodies are parsed into null-prototype objects)
				return JSON.parse(JSON.stringify(items[0].json)) as IDataObject;
			});
			assert.deepEqual(stable(started), expectedCall(call, 'call.started'));
			assert.deepEqual(stable(ended), expectedCall(call, 'call.ended'));
			assert.equal(ended.durationSec, 95);
			assert.equal(ended.method, style === 'query' ? 'GET' : 'POST');
			// the untouched request: the fields as sent, in the query (GET) or the body (POST)
			const sent = callbacks[1];
			if (style === 'query') {
				const { vnt, vnt_prev: previous, ...fields } = sent.query;
				assert.deepEqual(
					[vnt, previous],
					['live', '2'],
					"the trigger's own parameters travel with the callback",
				);
				assert.deepEqual(ended.query, fields, "and are left out of the item's query");
				assert.deepEqual(ended.body, {});
			} else {
				assert.deepEqual(ended.body, sent.body);
				assert.deepEqual(ended.query, {});
			}
		});
	}

	test('a filtered-out event is answered 200 and starts nothing', async () => {
		const [number] = numbers();
		const t = await activated({
			events: ['callEnded'],
			numbers: 'selected',
			virtualnums: selectedNumbers([number]),
		});
		// Someone makes the number report the start too: the trigger still starts only on the end.
		const record = sandbox.control.virtualnum(number)!;
		await fetch(`${sandbox.vnUrl}/api/?service=update_virtualnum&format=json`, {
			method: 'POST',
			headers: {
				Authorization: `Bearer ${sandbox.tokens.vn}`,
				'Content-Type': 'application/x-www-form-urlencoded',
			},
			body: new URLSearchParams({
				virtualnum: number,
				description: record.description,
				call_destination_phone: record.call_destination_phone,
				callback_url_option: '3',
			}),
		});
		const { callbacks } = await sandbox.control.placeCall({
			virtualnum: number,
			caller: '0541234567',
		});
		assert.deepEqual(
			callbacks.map((c) => [c.kind, c.responseStatus, c.responseBody]),
			[
				['call.start', 200, ''],
				['call.end', 200, ''],
			],
			'callbacks are answered with an empty body, started or not',
		);
		assert.equal(t.executions.length, 1);
		assert.equal(t.executions[0][0].json.event, 'call.ended');
		assert.equal(t.outcomes[0].started, false);
		assert.equal(t.outcomes[0].result?.workflowData, undefined);
	});

	test('with a secret: the registered URL carries it, callbacks pass, the item does not show it', async () => {
		const [number] = numbers();
		const t = await activated({
			events: CALLS,
			numbers: 'selected',
			virtualnums: selectedNumbers([number]),
			options: { secret: SECRET },
		});
		const { callbacks } = await sandbox.control.placeCall({
			virtualnum: number,
			caller: '0541234567',
		});
		assert.deepEqual(
			callbacks.map((c) => c.responseStatus),
			[200, 200],
		);
		assert.equal(t.executions.length, 2);
		for (const [item] of t.executions) {
			assert.deepEqual(item.json.query, {}, 'the secret is taken out of the query');
			assert.ok(!JSON.stringify(item.json).includes(SECRET));
		}
	});

	test('a request without the secret, or with a wrong one, gets 401 and starts nothing', async () => {
		const t = await activated({ events: CALLS, options: { secret: SECRET } });
		const logsFrom = host.logCount;
		const body = JSON.stringify({
			event: 'call.start',
			call_uuid: '1.1',
			cdr_ddi: '0722000100',
			cdr_ani: '0541234567',
		});
		const attempts = [
			await post(t.webhookUrl, body, 'application/json'),
			await post(`${t.webhookUrl}?secret=wrong`, body, 'application/json'),
			await post(`${t.webhookUrl}?secret=${encodeURIComponent(SECRET)}x`, body, 'application/json'),
			await post(
				`${t.webhookUrl}?secret=${encodeURIComponent(SECRET)}&secret=${encodeURIComponent(SECRET)}`,
				body,
				'application/json',
			),
			// the right value under another parameter name
			await fetch(
				`${t.webhookUrl}?${new URLSearchParams({ event: 'start', call_uuid: '1.2', Secret: SECRET })}`,
			),
		];
		for (const answer of attempts) {
			assert.equal(answer.status, 401);
			assert.equal(await answer.text(), 'Unauthorized');
		}
		assert.equal(t.executions.length, 0, 'nothing started');
		assert.ok(
			t.outcomes.every(
				(o) => o.result?.noWebhookResponse === true && o.result.workflowData === undefined,
			),
		);
		const logs = host.logsSince(logsFrom).join('\n');
		assert.match(logs, /refused a request without the right secret/);
		assert.ok(!logs.includes(SECRET), 'the secret is never logged');

		const ok = await post(
			`${t.webhookUrl}?secret=${encodeURIComponent(SECRET)}`,
			body,
			'application/json',
		);
		assert.equal(ok.status, 200);
		assert.equal(t.executions.length, 1);
	});

	test('a request from an address outside Allowed IPs gets 401 and starts nothing', async () => {
		const [number] = numbers();
		const t = await activated({
			events: CALLS,
			numbers: 'selected',
			virtualnums: selectedNumbers([number]),
			options: { allowedIps: '203.0.113.0/24, 2001:db8::/32' },
		});
		const { callbacks } = await sandbox.control.placeCall({
			virtualnum: number,
			caller: '0541234567',
		});
		assert.deepEqual(
			callbacks.map((c) => [c.responseStatus, c.responseBody]),
			[
				[401, 'Unauthorized'],
				[401, 'Unauthorized'],
			],
		);
		assert.equal(t.executions.length, 0);
	});

	test('a request from an allowed address (IPv4, CIDR, IPv6-mapped IPv4) starts the workflow', async () => {
		const [number] = numbers();
		const t = await activated({
			events: CALLS,
			numbers: 'selected',
			virtualnums: selectedNumbers([number]),
			options: { allowedIps: '203.0.113.7 127.0.0.0/8' },
		});
		await sandbox.control.placeCall({ virtualnum: number, caller: '0541234567' });
		assert.equal(t.executions.length, 2);
		const payload = { body: { event: 'start', call_uuid: '9.9', cdr_ddi: number } };
		assert.equal(
			(await t.receive({ ...payload, ip: '::ffff:203.0.113.7' })).started,
			true,
			'IPv6-mapped IPv4 matches an IPv4 entry',
		);
		assert.equal((await t.receive({ ...payload, ip: '203.0.113.8' })).status, 401);
		const v6 = host.add({
			...t.options,
			parameters: { ...t.options.parameters, options: { allowedIps: '2001:db8::/32, ::1' } },
		});
		assert.equal((await v6.receive({ ...payload, ip: '2001:db8:1::5' })).started, true);
		assert.equal((await v6.receive({ ...payload, ip: '::1' })).started, true);
		assert.equal((await v6.receive({ ...payload, ip: '2001:db9::1' })).status, 401);
		assert.equal(
			(await v6.receive({ ...payload, ip: undefined })).status,
			401,
			'no address known: refused',
		);
		assert.equal((await t.receive({ ...payload, ip: undefined })).status, 401);
	});

	test('a body over the size limit gets 413 and starts nothing', async () => {
		const t = await activated({ events: CALLS, options: { maxBodyKb: 2 } });
		const big = JSON.stringify({
			event: 'call.start',
			call_uuid: '1.1',
			padding: 'x'.repeat(3000),
		});
		const answer = await post(t.webhookUrl, big, 'application/json');
		assert.equal(answer.status, 413);
		assert.equal(await answer.text(), 'Payload Too Large');
		const small = await post(
			t.webhookUrl,
			JSON.stringify({ event: 'call.start', call_uuid: '1.1' }),
			'application/json',
		);
		assert.equal(small.status, 200);
		assert.equal(t.executions.length, 1);
		// the default limit (64 KB), on a trigger that registers nothing (only one trigger can hold a number)
		const byDefault = await activated({ events: ['smsDelivery'] });
		const huge = await post(
			byDefault.webhookUrl,
			JSON.stringify({ event: 'end', padding: 'x'.repeat(70 * 1024) }),
			'application/json',
		);
		assert.equal(huge.status, 413);
		assert.equal(byDefault.executions.length, 0);
	});

	test('SMS delivery statuses sent to the trigger URL come out as sms.delivery items', async () => {
		const t = await activated({ events: ['smsDelivery'] });
		const send = await fetch(`${sandbox.smsUrl}/api/ws_json_bulk.php`, {
			method: 'POST',
			headers: {
				Authorization: `Bearer ${sandbox.tokens.sms}`,
				'Content-Type': 'application/json',
			},
			body: JSON.stringify([
				{
					dest: '0541112222',
					sender: 'VirtualNum',
					message: 'Your order shipped',
					callback_url: t.webhookUrl,
				},
				{
					dest: '0540000000',
					sender: 'VirtualNum',
					message: 'Your order shipped',
					callback_url: t.webhookUrl,
				},
			]),
		});
		const results = (await send.json()) as Array<{ message_id: number; status: string }>;
		assert.deepEqual(
			results.map((r) => r.status),
			['Message in Action', 'Message in Action'],
		);
		await sandbox.control.flushScheduled();
		await sandbox.control.settle();
		const items = t.executions
			.map((items) => items[0].json)
			.sort((a, b) => Number(a.messageId) - Number(b.messageId));
		assert.equal(items.length, 2);
		const sent = sandbox.control.messages();
		assert.deepEqual(
			items.map((item) => {
				const { receivedAt, method, query, body, ...rest } = item;
				void receivedAt;
				void method;
				void query;
				void body;
				return rest;
			}),
			sent.map((m) => ({
				event: 'sms.delivery',
				messageId: String(m.message_id),
				recipient: m.dest,
				sender: m.sender,
				deliveryStatus: m.dest.endsWith('0000') ? 'FAILED' : 'DELIVERED',
				statusTime: m.status_time,
				sendTime: m.sendtime,
			})),
		);
		assert.deepEqual(
			items.map((i) => String(i.messageId)),
			results.map((r) => String(r.message_id)),
		);
	});

	test('SMS delivery statuses are answered 200 and start nothing when only call events are chosen', async () => {
		const t = await activated({
			events: ['callEnded'],
			numbers: 'selected',
			virtualnums: selectedNumbers([numbers()[0]]),
		});
		const answer = await post(
			t.webhookUrl,
			JSON.stringify({ message_id: 7, dest: '0541112222', sender: 'Shop24', status: 'DELIVERED' }),
			'application/json',
		);
		assert.equal(answer.status, 200);
		assert.equal(await answer.text(), '');
		assert.equal(t.executions.length, 0);
	});

	describe('bodies of every shape', () => {
		let t: TriggerInstance;
		beforeEach(async () => {
			t = await activated({ events: [...CALLS, 'smsDelivery'] });
		});

		test('plain text that is no format comes out as raw text', async () => {
			const answer = await post(t.webhookUrl, 'garbage <<not a payload>>', 'text/plain');
			assert.equal(answer.status, 200);
			const item = t.executions[0][0].json;
			assert.equal(item.event, 'unknown');
			assert.equal(item.rawBody, 'garbage <<not a payload>>');
			assert.deepEqual(item.body, {});
		});

		test('bytes of an unknown content type come out as raw text', async () => {
			await post(t.webhookUrl, 'a\u0000b\u00ff', 'application/octet-stream');
			const item = t.executions[0][0].json;
			assert.equal(item.event, 'unknown');
			assert.equal(item.rawBody, 'a\u0000b\u00ff');
		});

		test('JSON or form fields sent without a content type are still read', async () => {
			await post(
				t.webhookUrl,
				JSON.stringify({
					event: 'end',
					call_uuid: '5.5',
					cdr_ddi: '0722000100',
					call_duration: '61',
				}),
			);
			await post(t.webhookUrl, 'message_id=44&dest=0541112222&status=DELIVERED');
			const [call, sms] = t.executions.map((items) => items[0].json);
			assert.equal(call.event, 'call.ended');
			assert.equal(call.durationSec, 61);
			assert.deepEqual(call.body, {
				event: 'end',
				call_uuid: '5.5',
				cdr_ddi: '0722000100',
				call_duration: '61',
			});
			assert.equal(sms.event, 'sms.delivery');
			assert.equal(sms.messageId, '44');
			assert.equal(sms.deliveryStatus, 'DELIVERED');
		});

		test('an XML body is read from its root element', async () => {
			await post(
				t.webhookUrl,
				'<callback><event>end</event><cdr_uniqueid>8.8</cdr_uniqueid><cdr_ddi>0722000101</cdr_ddi><cdr_ani>0541234567</cdr_ani><call_status>BUSY</call_status><call_duration>0</call_duration></callback>',
				'application/xml',
			);
			const item = t.executions[0][0].json;
			assert.equal(item.event, 'call.ended');
			assert.equal(item.callId, '8.8');
			assert.equal(item.callStatus, 'BUSY');
			assert.equal(item.durationSec, 0);
		});

		test('without an event field, the fields tell start from end', async () => {
			await post(
				t.webhookUrl,
				JSON.stringify({ cdr_uniqueid: '1', cdr_ddi: '0722000100', cdr_ani: '0541234567' }),
				'application/json',
			);
			await post(
				t.webhookUrl,
				JSON.stringify({ cdr_uniqueid: '1', cdr_ddi: '0722000100', call_status: 'ANSWER' }),
				'application/json',
			);
			assert.deepEqual(
				t.executions.map((items) => items[0].json.event),
				['call.started', 'call.ended'],
			);
		});

		test('an empty request (a reachability check) is answered 200 and starts nothing', async () => {
			const answer = await fetch(t.webhookUrl);
			assert.equal(answer.status, 200);
			assert.equal(await answer.text(), '');
			const empty = await post(t.webhookUrl, '', 'application/json');
			assert.equal(empty.status, 200);
			assert.equal(t.executions.length, 0);
		});

		test('JSON that n8n could not parse never reaches the node; the node given such a body passes it on as raw text', async () => {
			const answer = await post(t.webhookUrl, '{"event": "end", "call_uuid": ', 'application/json');
			assert.equal(answer.status, 422, "n8n's webhook server refuses it before the node");
			const direct = await t.receive({
				method: 'POST',
				body: {},
				rawBody: '{"event": "end", "call_uuid": ',
				headers: { 'content-type': 'application/json' },
			});
			assert.equal(direct.started, true);
			assert.equal(direct.items[0].json.rawBody, '{"event": "end", "call_uuid": ');
		});

		test('hostile keys do not pollute anything', async () => {
			const body = JSON.parse(
				'{"__proto__": {"polluted": "yes"}, "constructor": "x", "event": "end", "call_uuid": "3.3"}',
			) as IDataObject;
			const outcome = await t.receive({
				method: 'POST',
				body,
				query: JSON.parse('{"__proto__": {"q": 1}}') as IDataObject,
			});
			assert.equal(outcome.started, true);
			assert.equal(outcome.items[0].json.event, 'call.ended');
			assert.equal(({} as IDataObject).polluted, undefined);
		});
	});
	describe('callbacks as integrators of the real service report them (upper-case fields, repeated starts)', () => {
		test('CLI, DDI, UUID, CALLSTATUS, DURATION, DEST and download come out under the vocabulary; STARTED is a start', async () => {
			sandbox.control.configure({ callbackStyle: 'upper' });
			const [number] = numbers();
			const t = await activated({
				events: CALLS,
				numbers: 'selected',
				virtualnums: selectedNumbers([number]),
			});
			const { call, callbacks } = await sandbox.control.placeCall({
				virtualnum: number,
				caller: '0541234567',
				durationSec: 61,
			});
			assert.deepEqual(
				callbacks.map((c) => [c.kind, c.method, c.responseStatus]),
				[
					['call.start', 'GET', 200],
					['call.end', 'GET', 200],
				],
			);
			assert.equal(callbacks[0].query.CALLSTATUS, 'STARTED');
			const [started, ended] = t.executions.map((items) => items[0].json);
			assert.equal(started.event, 'call.started', 'CALLSTATUS=STARTED is the start, not the end');
			assert.deepEqual(
				[
					started.callId,
					started.virtualNumber,
					started.callerNumber,
					started.destinationPhone,
					started.callStatus,
				],
				[call.cdr_uniqueid, number, '0541234567', call.user_phone, 'STARTED'],
			);
			assert.equal(ended.event, 'call.ended');
			assert.equal(ended.callStatus, 'ANSWER');
			assert.equal(ended.durationSec, 61);
			assert.equal(ended.recordingUrl, callbacks[1].query.download);
			assert.equal(ended.recordingExists, true, 'a download address means a recording exists');
			assert.equal(
				(ended.query as IDataObject).CLI,
				'0541234567',
				"the query as sent, without the trigger's own parameters",
			);
			assert.ok(!Object.keys(ended.query as IDataObject).some((key) => key.startsWith('vnt')));
		});

		for (const [status, event] of [
			['ENDED', 'call.ended'],
			['NOANSWER', 'call.ended'],
			['BUSY', 'call.ended'],
			['Ringing', 'call.started'],
			['STARTED', 'call.started'],
		] as const) {
			test(`CALLSTATUS=${status} is ${event}`, async () => {
				const t = host.add({
					parameters: { events: CALLS },
					credentials: {
						virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn },
					},
				});
				const outcome = await t.receive({
					method: 'POST',
					body: {
						UUID: '9.1',
						DDI: '0722000100',
						CLI: '0541234567',
						CALLSTATUS: status,
						CALLDURATION: '7',
					},
				});
				assert.equal(outcome.items[0].json.event, event);
				assert.equal(outcome.items[0].json.durationSec, 7, 'CALLDURATION is the duration');
			});
		}

		test('the start repeated for one call: every copy starts the workflow, unless "Call Started Once per Call" is on', async () => {
			sandbox.control.configure({ callbackStyle: 'upper', callStartRepeats: 3 });
			const [first, second] = numbers();
			const every = await activated({
				events: ['callStarted'],
				numbers: 'selected',
				virtualnums: selectedNumbers([first]),
			});
			const once = await activated({
				events: ['callStarted'],
				numbers: 'selected',
				virtualnums: selectedNumbers([second]),
				options: { onceCallStarted: true },
			});
			await sandbox.control.placeCall({ virtualnum: first, caller: '0541234567' });
			const { call, callbacks } = await sandbox.control.placeCall({
				virtualnum: second,
				caller: '0541234567',
			});
			assert.equal(callbacks.length, 3);
			assert.ok(
				callbacks.every((c) => c.responseStatus === 200 && c.responseBody === ''),
				'repeats are answered 200 like any callback',
			);
			assert.equal(every.executions.length, 3);
			assert.equal(once.executions.length, 1);
			assert.equal(once.executions[0][0].json.callId, call.cdr_uniqueid);
			// what n8n saved is what another process (queue mode: another webhook processor) reads
			const elsewhere = once.inAnotherProcess();
			const repeat = await elsewhere.receive({
				method: 'GET',
				query: { UUID: call.cdr_uniqueid, DDI: second, CALLSTATUS: 'STARTED' },
			});
			assert.equal(repeat.started, false, 'the repeat is recognised from the saved static data');
			const next = await elsewhere.receive({
				method: 'GET',
				query: { UUID: `${call.cdr_uniqueid}9`, DDI: second, CALLSTATUS: 'STARTED' },
			});
			assert.equal(next.started, true, 'another call starts it');
		});
	});

	test('an event or type named after Object.prototype is passed on, never dropped', async () => {
		const t = await activated({ events: CALLS });
		for (const name of Object.getOwnPropertyNames(Object.prototype)) {
			for (const field of ['event', 'type']) {
				const withCall = await t.receive({
					method: 'POST',
					body: { [field]: name, call_uuid: '4.2', cdr_ddi: '0722000100' },
				});
				assert.equal(withCall.started, true, `${field}=${name} with call fields`);
				assert.equal(withCall.items[0].json.event, 'call.started');
				const alone = await t.receive({ method: 'POST', body: { [field]: name } });
				assert.equal(alone.started, true, `${field}=${name} alone`);
				assert.equal(alone.items[0].json.event, 'unknown');
			}
		}
	});

	test('keys n8n refuses in expressions are renamed with a trailing underscore in the query and body, at any depth', async () => {
		const t = await activated({ events: CALLS });
		const body = JSON.parse(
			'{"caller": "0541234567", "caller_": "taken", "constructor": {"prototype": 1, "ok": 2}, "list": [{"__proto__": "x"}], "event": "end", "call_uuid": "5.1"}',
		) as IDataObject;
		const outcome = await t.receive({ method: 'POST', body, query: { arguments: 'a' } });
		const item = JSON.parse(JSON.stringify(outcome.items[0].json)) as IDataObject;
		assert.deepEqual(item.body, {
			caller__: '0541234567',
			caller_: 'taken',
			constructor_: { prototype_: 1, ok: 2 },
			list: [{ __proto___: 'x' }],
			event: 'end',
			call_uuid: '5.1',
		});
		assert.deepEqual(item.query, { arguments_: 'a' });
		assert.equal(item.callerNumber, '0541234567', 'the caller field itself is read under its name');
	});

	test('listening for a test event: the test URL receives one call, then the number goes back', async () => {
		const [number] = numbers();
		const t = host.add({
			parameters: {
				events: ['callStarted'],
				numbers: 'selected',
				virtualnums: selectedNumbers([number]),
			},
			credentials: { virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn } },
		});
		await t.listen();
		assert.ok(t.holds(sandbox.control.virtualnum(number)!.callback_url, 'test'));
		const { callbacks } = await sandbox.control.placeCall({
			virtualnum: number,
			caller: '0541234567',
		});
		assert.deepEqual(
			callbacks.map((c) => [c.kind, c.responseStatus, c.responseBody]),
			[['call.start', 200, '']],
		);
		// n8n answers first, then deregisters and runs the execution
		for (let i = 0; i < 100 && (t.executions.length === 0 || t.listening); i++)
			await new Promise((resolve) => setTimeout(resolve, 20));
		assert.equal(t.executions.length, 1);
		assert.equal(t.outcomes[0].mode, 'test');
		assert.equal(t.listening, false);
		assert.deepEqual(
			{
				url: sandbox.control.virtualnum(number)!.callback_url,
				option: sandbox.control.virtualnum(number)!.callback_url_option,
			},
			{ url: '', option: 2 },
		);
	});
});
