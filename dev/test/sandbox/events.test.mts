// Events made on the service's side: inbound SMS to a number's URL, call routing by the answer to
// the call-start callback, and new call rows appearing in cdr_query.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { control, start, startReceiver, vn } from './helpers.mts';
import type { Sandbox } from './helpers.mts';

let sb: Sandbox;
let answer = '';
let receiver: Awaited<ReturnType<typeof startReceiver>>;

before(async () => {
	sb = await start();
	receiver = await startReceiver(() => answer);
});
after(async () => {
	await sb.close();
	await receiver.close();
});
beforeEach(() => {
	sb.control.reset();
	sb.control.setProfile({ profile: 'contract' });
	receiver.received.length = 0;
	answer = '';
});

function numberWithCallback(path: string, option = 3): string {
	const number = sb.control.virtualnums()[0].virtualnum;
	sb.control.seed({
		virtualnum: {
			virtualnum: number,
			callback_url: `${receiver.url}${path}`,
			callback_url_option: option,
		},
	});
	return number;
}

describe('inbound SMS', () => {
	test('GET from, to, msg, time to the number callback_url, the query already there kept', async () => {
		const number = numberWithCallback('/sms?secret=s3cr3t');
		answer = 'ok';
		const sent = await sb.control.inboundSms({
			virtualnum: number,
			from: '+972-54-123-4567',
			text: 'STOP please',
			time: '2025-03-01 10:20:30',
		});
		assert.equal(sent.kind, 'sms.inbound');
		assert.equal(sent.responseStatus, 200);
		assert.equal(receiver.received.length, 1);
		const got = receiver.received[0];
		assert.equal(got.method, 'GET');
		assert.deepEqual(got.query, {
			secret: 's3cr3t',
			from: '972541234567',
			to: number,
			msg: 'STOP please',
			time: '2025-03-01 10:20:30',
		});
		assert.deepEqual(
			sb.control.callbacks({ kind: 'sms.inbound' }).map((c) => c.query.msg),
			['STOP please'],
		);
	});

	test('over HTTP, to another URL, time now by default; refusals name the problem', async () => {
		const number = sb.control.virtualnums()[1].virtualnum;
		const fired = await control(sb, 'POST', 'sms/inbound', {
			virtualnum: number,
			from: '0541234567',
			text: 'שלום',
			url: `${receiver.url}/elsewhere`,
		});
		assert.equal(fired.status, 200, JSON.stringify(fired.body));
		assert.match(receiver.received[0].query.time, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
		assert.equal(receiver.received[0].query.msg, 'שלום');
		const none = await control(sb, 'POST', 'sms/inbound', {
			virtualnum: number,
			from: '05',
			text: 'x',
		});
		assert.equal(none.status, 400);
		assert.match(none.body.error, /has no callback_url/);
		const suspended = await control(sb, 'POST', 'sms/inbound', {
			virtualnum: '0722000105',
			from: '0541234567',
			text: 'x',
			url: receiver.url,
		});
		assert.match(suspended.body.error, /suspended/);
	});
});

describe('call routing by answer', () => {
	test('a bare phone number answered to the start routes the call there', async () => {
		const number = numberWithCallback('/calls');
		answer = ' 054-7654321\n';
		const { call, callbacks } = await sb.control.placeCall({
			virtualnum: number,
			caller: '0541234567',
		});
		assert.equal(call.user_phone, '0547654321');
		assert.equal(sb.control.cdr(call.cdr_uniqueid)?.user_phone, '0547654321');
		assert.equal(JSON.parse(receiver.received[1].body).user_phone, '0547654321', 'the end says so');
		assert.equal(callbacks.length, 2);
		assert.deepEqual(sb.control.routes(), [
			{
				call_uuid: call.cdr_uniqueid,
				virtualnum: number,
				answer: '054-7654321',
				destination: '0547654321',
				routedTo: '0547654321',
			},
		]);
		assert.equal((await control(sb, 'GET', 'routes')).body[0].destination, '0547654321');
	});

	test('an empty answer, or anything but a number, leaves the number own routing', async () => {
		const number = numberWithCallback('/calls');
		const own = sb.control.virtualnum(number)!.default_dest;
		for (const text of ['', '{"message":"Workflow was started"}', 'call 0547654321']) {
			answer = text;
			const { call } = await sb.control.placeCall({ virtualnum: number, caller: '0541234567' });
			assert.equal(call.user_phone, own, JSON.stringify(text));
		}
		assert.deepEqual(
			sb.control.routes().map((r) => [r.destination, r.routedTo]),
			[
				['', own],
				['', own],
				['', own],
			],
		);
	});

	test('no start callback (option 2): nothing is routed or recorded', async () => {
		const number = numberWithCallback('/calls', 2);
		answer = '0547654321';
		const { call } = await sb.control.placeCall({ virtualnum: number, caller: '0541234567' });
		assert.notEqual(call.user_phone, '0547654321');
		assert.deepEqual(sb.control.routes(), []);
	});
});

describe('new call rows over time', () => {
	test('rows with rising ids and start times appear in cdr_query, no callback sent', async () => {
		const number = numberWithCallback('/calls');
		const first = sb.control.addCalls({ count: 3, virtualnum: number, caller: '0541234567' });
		const more = (
			await control(sb, 'POST', 'cdrs', { count: 2, virtualnum: number, status: 'NOANSWER' })
		).body as typeof first;
		const rows = [...first, ...more];
		for (let i = 1; i < rows.length; i++) {
			assert.ok(rows[i].id > rows[i - 1].id);
			assert.ok(rows[i].start_call > rows[i - 1].start_call, `${rows[i].start_call}`);
		}
		assert.equal(more[0].call_status, 'NOANSWER');
		assert.equal(more[0].has_recording, false);
		assert.equal(first[0].has_recording, true);
		assert.equal(receiver.received.length, 0);
		const query = await vn(sb, 'cdr_query', {
			sql: `SELECT cdr_uniqueid FROM webserviceview WHERE cdr_ddi = '${number}' AND start_call >= '${first[0].start_call}' ORDER BY start_call`,
		});
		assert.deepEqual(
			query.result.map((r: { cdr_uniqueid: string }) => r.cdr_uniqueid),
			rows.map((r) => r.cdr_uniqueid),
		);
	});

	test('a start time asked for is kept when it is after every row', () => {
		const [row] = sb.control.addCalls({ startCall: '2030-01-02 03:04:05' });
		assert.equal(row.start_call, '2030-01-02 03:04:05');
		const [next] = sb.control.addCalls({ startCall: '2029-01-01 00:00:00' });
		assert.equal(next.start_call, '2030-01-02 03:04:06', 'never before the newest row');
		assert.throws(() => sb.control.addCalls({ count: 0 }), /count must be/);
	});
});
