// Callbacks the sandbox sends: call start/end per callback_url_option, SMS delivery reports (also
// for scheduled messages, via flush), each callback style, and query strings kept on the URL.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sendtimeIn, smsBulk, start, startReceiver, vn, waitFor } from './helpers.mts';
import type { Sandbox } from './helpers.mts';

let sb: Sandbox;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

before(async () => {
	sb = await start();
	receiver = await startReceiver();
});
after(async () => {
	await sb.close();
	await receiver.close();
});
beforeEach(() => {
	sb.control.reset();
	sb.control.configure({ callbackStyle: 'json', callStartRepeats: 1 });
	receiver.received.length = 0;
});

function numberWithCallback(option: number, path = '/calls?secret=s3cr3t'): string {
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

describe('call callbacks', () => {
	for (const [option, kinds] of [
		[1, ['call.start']],
		[2, ['call.end']],
		[3, ['call.start', 'call.end']],
	] as const) {
		test(`callback_url_option ${option} sends ${kinds.join(' and ')}`, async () => {
			const number = numberWithCallback(option);
			const { call, callbacks } = await sb.control.placeCall({
				virtualnum: number,
				caller: '0541234567',
				durationSec: 42,
			});
			assert.equal(call.call_status, 'ANSWER');
			assert.equal(call.call_duration, 42);
			assert.deepEqual(
				callbacks.map((c) => c.kind),
				kinds,
			);
			assert.deepEqual(
				receiver.received.map((r) => JSON.parse(r.body).event),
				kinds,
			);
			for (const r of receiver.received) {
				assert.equal(r.method, 'POST');
				assert.equal(r.query.secret, 's3cr3t');
				assert.equal(r.headers['content-type'], 'application/json');
				const body = JSON.parse(r.body);
				assert.equal(body.call_uuid, call.cdr_uniqueid);
				assert.equal(body.cdr_ddi, number);
				assert.equal(body.cdr_ani, '0541234567');
			}
			if (option !== 1) {
				const end = JSON.parse(receiver.received.at(-1)!.body);
				assert.equal(end.call_status, 'ANSWER');
				assert.equal(end.call_duration, 42);
				assert.equal(end.record_file_exists, 1);
			}
			assert.equal(callbacks[0].responseStatus, 200);
			assert.equal(callbacks[0].responseBody, 'ok');
			assert.deepEqual(
				sb.control.callbacks().map((c) => c.kind),
				kinds,
			);
		});
	}

	test('an unanswered call, a blocked caller, a suspended number, closed hours', async () => {
		const number = numberWithCallback(3);
		const missed = await sb.control.placeCall({
			virtualnum: number,
			caller: '0541234567',
			answered: false,
		});
		assert.equal(missed.call.call_status, 'NOANSWER');
		assert.equal(missed.callbacks.length, 2);
		const blocked = await sb.control.placeCall({ virtualnum: number, caller: '+972-50-111-1111' });
		assert.equal(blocked.call.call_status, 'Black List');
		assert.equal(blocked.callbacks.length, 0, 'rejected before the call flow');
		sb.control.seed({ virtualnum: { virtualnum: number, working_hours: '0'.repeat(168) } });
		const late = await sb.control.placeCall({ virtualnum: number, caller: '0541234567' });
		assert.equal(late.call.call_status, 'OUT OF TIME');
		sb.control.seed({
			virtualnum: { virtualnum: number, out_of_time_destination_phone: '0509990000' },
		});
		const rerouted = await sb.control.placeCall({ virtualnum: number, caller: '0541234567' });
		assert.equal(rerouted.call.call_status, 'ANSWER');
		assert.equal(rerouted.call.user_phone, '0509990000');
		sb.control.seed({ virtualnum: { virtualnum: number, active_status: 0 } });
		const inactive = await sb.control.placeCall({ virtualnum: number, caller: '0541234567' });
		assert.equal(inactive.call.call_status, 'NOT ACTIVE');
		assert.equal(inactive.callbacks.length, 0);
	});

	test('API-placed calls and manual call records fire the callbacks too', async () => {
		const number = numberWithCallback(3);
		const call = await vn(sb, 'create_virtualnum_call', {
			virtualnum: number,
			destination: '0541234567',
		});
		await sb.control.settle();
		assert.deepEqual(
			sb.control.callbacks().map((c) => c.kind),
			['call.start', 'call.end'],
		);
		assert.equal((sb.control.callbacks()[0].body as any).call_uuid, call.result.call_uuid);
		sb.control.clearCallbacks();
		await vn(sb, 'create_virtualnum_cdr', { cdr_ddi: number, cdr_totac_sec: 30 });
		await sb.control.settle();
		assert.deepEqual(
			sb.control.callbacks().map((c) => c.kind),
			['call.end'],
			'end-of-call automation',
		);
	});

	test('a callback that cannot be delivered is recorded with its error', async () => {
		const number = sb.control.virtualnums()[0].virtualnum;
		sb.control.seed({
			virtualnum: {
				virtualnum: number,
				callback_url: 'http://127.0.0.1:1/closed',
				callback_url_option: 2,
			},
		});
		const { callbacks } = await sb.control.placeCall({ virtualnum: number, caller: '0541234567' });
		assert.equal(callbacks[0].responseStatus, null);
		assert.ok(callbacks[0].error);
	});
});

describe('SMS delivery callbacks', () => {
	test('each message reports to its own callback_url, keeping the query string', async () => {
		const answer = await smsBulk(sb, [
			{
				service: 'send_sms',
				dest: '0541234567',
				sender: 'VirtualNum',
				message: 'Hi',
				callback_url: `${receiver.url}/dlr?secret=abc&n=1`,
			},
			{
				service: 'send_sms',
				dest: '0540000000',
				sender: 'VirtualNum',
				message: 'Hi',
				callback_url: `${receiver.url}/dlr?secret=abc&n=2`,
			},
			{ service: 'send_sms', dest: '0541111111', sender: 'VirtualNum', message: 'No callback' },
		]);
		await waitFor(() => receiver.received.length === 2);
		await sb.control.settle();
		const byN = Object.fromEntries(
			receiver.received.map((r) => [r.query.n, { ...r, payload: JSON.parse(r.body) }]),
		);
		assert.equal(byN['1'].query.secret, 'abc');
		assert.deepEqual(Object.keys(byN['1'].payload), [
			'message_id',
			'dest',
			'sender',
			'status',
			'status_time',
			'sendtime',
		]);
		assert.equal(byN['1'].payload.message_id, answer.body[0].message_id);
		assert.equal(byN['1'].payload.status, 'DELIVERED');
		assert.equal(byN['2'].payload.status, 'FAILED', 'destinations ending in 0000 fail');
		assert.equal(byN['1'].payload.sendtime, answer.body[0].sendtime);
		assert.deepEqual(
			sb.control.messages().map((m) => m.status),
			['DELIVERED', 'FAILED', 'DELIVERED'],
		);
	});

	test('a scheduled message reports at its sendtime, or at once on flush', async () => {
		const sendtime = sendtimeIn(2);
		const answer = await smsBulk(sb, [
			{
				service: 'send_sms',
				dest: '0541234567',
				sender: 'Shop24',
				message: 'Later',
				sendtime,
				callback_url: `${receiver.url}/dlr?secret=xyz`,
			},
		]);
		const [d, m, y, hm] = sendtime.split(/[/ ]/);
		assert.equal(answer.body[0].sendtime, `${y}-${m}-${d} ${hm}:00`);
		await new Promise((r) => setTimeout(r, 150));
		assert.equal(receiver.received.length, 0, 'nothing before the sendtime');
		const flushed = await sb.control.flushScheduled();
		assert.equal(flushed.length, 1);
		assert.equal(flushed[0].kind, 'sms.delivery');
		assert.equal(receiver.received.length, 1);
		assert.equal(receiver.received[0].query.secret, 'xyz');
		assert.equal(JSON.parse(receiver.received[0].body).sendtime, answer.body[0].sendtime);
	});

	test('callbackStyle form posts urlencoded fields', async () => {
		sb.control.configure({ callbackStyle: 'form' });
		await smsBulk(sb, [
			{
				service: 'send_sms',
				dest: '0541234567',
				sender: 'VirtualNum',
				message: 'Hi',
				callback_url: `${receiver.url}/dlr?secret=f`,
			},
		]);
		await sb.control.flushScheduled();
		const [r] = receiver.received;
		assert.equal(r.method, 'POST');
		assert.equal(r.headers['content-type'], 'application/x-www-form-urlencoded');
		const fields = Object.fromEntries(new URLSearchParams(r.body));
		assert.equal(fields.status, 'DELIVERED');
		assert.equal(fields.dest, '0541234567');
		assert.equal(r.query.secret, 'f');
	});

	test('callbackStyle query sends a GET with the fields added to the query string', async () => {
		sb.control.configure({ callbackStyle: 'query' });
		await smsBulk(sb, [
			{
				service: 'send_sms',
				dest: '0541234567',
				sender: 'VirtualNum',
				message: 'Hi',
				callback_url: `${receiver.url}/dlr?secret=q`,
			},
		]);
		const [sent] = await sb.control.flushScheduled();
		const [r] = receiver.received;
		assert.equal(r.method, 'GET');
		assert.equal(r.body, '');
		assert.equal(r.query.secret, 'q');
		assert.equal(r.query.status, 'DELIVERED');
		assert.equal(r.query.sender, 'VirtualNum');
		assert.equal(sent.query.secret, 'q');
		assert.equal(sent.method, 'GET');
	});

	test('callbackStyle upper sends a GET with the upper-case fields integrators report, and the recording address at the end', async () => {
		sb.control.configure({ callbackStyle: 'upper' });
		const number = numberWithCallback(3);
		const { call } = await sb.control.placeCall({
			virtualnum: number,
			caller: '0541234567',
			durationSec: 42,
		});
		const [start, end] = receiver.received;
		assert.deepEqual([start.method, end.method], ['GET', 'GET']);
		assert.equal(start.query.secret, 's3cr3t', 'the query string on the URL is kept');
		assert.deepEqual(
			[
				start.query.UUID,
				start.query.DDI,
				start.query.CLI,
				start.query.DEST,
				start.query.CALLSTATUS,
				start.query.DURATION,
			],
			[call.cdr_uniqueid, number, '0541234567', call.user_phone, 'STARTED', undefined],
		);
		assert.deepEqual([end.query.CALLSTATUS, end.query.DURATION], ['ANSWER', '42']);
		assert.equal(
			end.query.download,
			`${sb.vnUrl}/api/?service=get_record_by_call_uuid&call_uuid=${call.cdr_uniqueid}`,
		);
		assert.equal(end.query.event, undefined, 'no lower-case event field in this style');
	});

	test('callStartRepeats sends the start callback that many times; the end once', async () => {
		assert.throws(
			() => sb.control.configure({ callStartRepeats: 0 }),
			/callStartRepeats must be a whole number from 1 to 10/,
		);
		assert.equal(sb.control.configure({ callStartRepeats: 3 }).callStartRepeats, 3);
		const number = numberWithCallback(3);
		const { callbacks } = await sb.control.placeCall({ virtualnum: number, caller: '0541234567' });
		assert.deepEqual(
			callbacks.map((c) => c.kind),
			['call.start', 'call.start', 'call.start', 'call.end'],
		);
		assert.equal(
			new Set(receiver.received.slice(0, 3).map((r) => r.body)).size,
			1,
			'the same start, repeated',
		);
	});

	test('the style can also be chosen at start', async () => {
		const other = await start({ callbackStyle: 'query' });
		try {
			const number = other.control.virtualnums()[0].virtualnum;
			other.control.seed({
				virtualnum: {
					virtualnum: number,
					callback_url: `${receiver.url}/c?k=v`,
					callback_url_option: 2,
				},
			});
			await other.control.placeCall({ virtualnum: number, caller: '0541234567' });
			assert.equal(receiver.received[0].method, 'GET');
			assert.equal(receiver.received[0].query.k, 'v');
			assert.equal(receiver.received[0].query.event, 'call.end');
		} finally {
			await other.close();
		}
	});
});
