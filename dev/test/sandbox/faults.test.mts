// Every fault kind, on both services, with server/operation matching and counts.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { control, smsBulk, start, vn, vnRaw } from './helpers.mts';
import type { Sandbox } from './helpers.mts';

let sb: Sandbox;
before(async () => {
	sb = await start();
});
after(() => sb.close());
beforeEach(() => sb.control.reset());

const three = () =>
	[1, 2, 3].map((i) => ({
		service: 'send_sms',
		dest: `054123456${i}`,
		sender: 'VirtualNum',
		message: `m${i}`,
	}));

describe('fault kinds', () => {
	test('http500', async () => {
		sb.control.injectFaults({ kind: 'http500' });
		assert.equal((await vnRaw(sb, { service: 'test' })).status, 500);
		assert.equal((await vnRaw(sb, { service: 'test' })).status, 200, 'count defaults to 1');
	});

	test('hang: no answer until the client gives up', async () => {
		sb.control.injectFaults({ kind: 'hang', server: 'vn' });
		await assert.rejects(
			fetch(`${sb.vnUrl}/api/?service=test`, {
				headers: { authorization: `Bearer ${sb.tokens.vn}` },
				signal: AbortSignal.timeout(200),
			}),
			/abort|timeout/i,
		);
		assert.equal((await vn(sb, 'test')).status.code, 200);
	});

	test('hang does not keep close() from finishing', async () => {
		const other = await start();
		other.control.injectFaults({ kind: 'hang' });
		const pending = fetch(`${other.smsUrl}/credit`, {
			headers: { authorization: `Bearer ${other.tokens.sms}` },
		}).catch((e: Error) => e);
		await new Promise((r) => setTimeout(r, 50));
		const started = Date.now();
		await other.close();
		assert.ok(Date.now() - started < 1000);
		assert.ok((await pending) instanceof Error, 'the hung request ends with a socket error');
	});

	test('html: a 502 proxy page', async () => {
		sb.control.injectFaults({ kind: 'html', server: 'sms' });
		const { status, body } = await smsBulk(sb, three());
		assert.equal(status, 502);
		assert.match(body, /<html>[\s\S]*502 Bad Gateway/);
	});

	test('truncatedJson: 200 with the first half of the answer', async () => {
		const full = await (await vnRaw(sb, { service: 'get_virtualnum' })).text();
		sb.control.injectFaults({ kind: 'truncatedJson', operation: 'get_virtualnum' });
		const res = await vnRaw(sb, { service: 'get_virtualnum' });
		assert.equal(res.status, 200);
		const text = await res.text();
		assert.ok(full.startsWith(text) && text.length < full.length);
		assert.throws(() => JSON.parse(text));
		sb.control.injectFaults({ kind: 'truncatedJson', server: 'sms' });
		const sms = await fetch(`${sb.smsUrl}/api/ws_json_bulk.php`, {
			method: 'POST',
			headers: { authorization: `Bearer ${sb.tokens.sms}` },
			body: JSON.stringify(three()),
		});
		const smsText = await sms.text();
		assert.ok(smsText.startsWith('[{') && !smsText.endsWith(']'));
		assert.throws(() => JSON.parse(smsText));
	});

	test('xml: XML despite format=json', async () => {
		sb.control.injectFaults({ kind: 'xml', operation: 'test' });
		const res = await vnRaw(sb, { service: 'test' }, { format: 'json' });
		assert.match(await res.text(), /^<\?xml[\s\S]*<code>200<\/code>/);
	});

	test('wrongLength: one result fewer, or delta more', async () => {
		sb.control.injectFaults({ kind: 'wrongLength', server: 'sms' });
		assert.equal((await smsBulk(sb, three())).body.length, 2);
		sb.control.injectFaults({ kind: 'wrongLength', server: 'sms', delta: 2 });
		assert.equal((await smsBulk(sb, three())).body.length, 5);
		sb.control.injectFaults({ kind: 'wrongLength', server: 'vn', delta: -3 });
		assert.equal((await vn(sb, 'get_virtualnum')).result.length, 2);
	});

	test('unauthorized: each spec text as plain text', async () => {
		for (const text of [
			'IP',
			'Token Required',
			'Token Expired',
			'Invalid Token',
			'Account Suspended',
		] as const) {
			sb.control.injectFaults({ kind: 'unauthorized', text });
			const res = await vnRaw(sb, { service: 'test' });
			assert.equal(res.status, 401);
			const body = await res.text();
			assert.equal(
				body,
				text === 'IP'
					? "Unauthorized - IP Address:'127.0.0.1' is not allowed"
					: `Unauthorized - ${text}`,
			);
		}
	});

	test('slow: the normal answer after the delay', async () => {
		sb.control.injectFaults({ kind: 'slow', delayMs: 300, server: 'sms' });
		const started = Date.now();
		const { body } = await smsBulk(sb, three());
		assert.ok(Date.now() - started >= 290);
		assert.equal(body.length, 3);
		assert.equal(body[0].status, 'Message in Action');
	});

	test('empty: 200 with an empty body', async () => {
		sb.control.injectFaults({ kind: 'empty' });
		const res = await vnRaw(sb, { service: 'get_users' });
		assert.equal(res.status, 200);
		assert.equal(await res.text(), '');
	});

	test('serviceError: the operation answers the code (VN) or every item fails (SMS)', async () => {
		sb.control.injectFaults({
			kind: 'serviceError',
			code: 999,
			description: 'Database is down',
			operation: 'get_users',
		});
		const answer = await vn(sb, 'get_users');
		assert.deepEqual(answer.status, { code: 999, description: 'Database is down' });
		sb.control.injectFaults({
			kind: 'serviceError',
			code: 500,
			server: 'sms',
			operation: 'send_sms',
		});
		const { body } = await smsBulk(sb, three());
		assert.deepEqual(
			body.map((r: any) => r.status),
			['Error - 500', 'Error - 500', 'Error - 500'],
		);
		assert.equal(sb.control.messages().length, 0);
	});
});

describe('fault matching', () => {
	test('count, server and operation', async () => {
		sb.control.injectFaults({ kind: 'http500', server: 'vn', operation: 'get_users', count: 2 });
		assert.equal((await vn(sb, 'test')).status.code, 200, 'other operations are untouched');
		assert.equal((await smsBulk(sb, three())).status, 200, 'the other server is untouched');
		assert.equal((await vnRaw(sb, { service: 'get_users' })).status, 500);
		assert.equal(sb.control.faults()[0].remaining, 1);
		assert.equal((await vnRaw(sb, { service: 'get_users' })).status, 500);
		assert.equal((await vnRaw(sb, { service: 'get_users' })).status, 200);
		assert.deepEqual(sb.control.faults(), []);
	});

	test('callId: only the requests for that call, the others answered as usual', async () => {
		const [odd, other] = sb.control.cdrs({ hasRecording: true, limit: 2 });
		sb.control.injectFaults({ kind: 'http500', callId: odd.cdr_uniqueid, count: 2 });
		const recording = (call_uuid: string) =>
			vnRaw(sb, { service: 'get_record_by_call_uuid', call_uuid });
		assert.equal((await recording(other.cdr_uniqueid)).status, 200, 'another call');
		assert.equal((await vnRaw(sb, { service: 'get_users' })).status, 200, 'no call at all');
		assert.equal((await recording(odd.cdr_uniqueid)).status, 500);
		assert.equal((await recording(odd.cdr_uniqueid)).status, 500);
		assert.equal((await recording(odd.cdr_uniqueid)).status, 200, 'count spent');
		assert.throws(
			() => sb.control.injectFaults({ kind: 'http500', callId: '' }),
			/callId must be a call_uuid/,
		);
	});

	test('largeFile announced: false leaves the RIFF sizes open (a streaming WAV)', async () => {
		sb.control.injectFaults({ kind: 'largeFile', bytes: 4096, announced: false });
		const open = Buffer.from(
			await (await vnRaw(sb, { service: 'get_record_by_call_uuid' })).arrayBuffer(),
		);
		assert.equal(open.length, 4096);
		assert.deepEqual([open.readUInt32LE(4), open.readUInt32LE(40)], [0xffffffff, 0xffffffff]);
		sb.control.injectFaults({ kind: 'largeFile', bytes: 4096 });
		const sized = Buffer.from(
			await (await vnRaw(sb, { service: 'get_record_by_call_uuid' })).arrayBuffer(),
		);
		assert.deepEqual([sized.readUInt32LE(4), sized.readUInt32LE(40)], [4096 - 8, 4096 - 44]);
	});

	test('faults over HTTP, validation, clearFaults', async () => {
		const added = await control(
			sb,
			'POST',
			'faults',
			{ kind: 'empty', server: 'sms', operation: 'credit', count: 3 },
			'sms',
		);
		assert.equal(added.status, 200);
		assert.equal(added.body.remaining, 3);
		assert.equal((await control(sb, 'GET', 'faults')).body.length, 1);
		const bad = await control(sb, 'POST', 'faults', { kind: 'explode' });
		assert.equal(bad.status, 400);
		assert.match(bad.body.error, /unknown fault kind/);
		assert.throws(
			() => sb.control.injectFaults({ kind: 'unauthorized', text: 'Nope' } as never),
			/text must be/,
		);
		await control(sb, 'DELETE', 'faults');
		assert.deepEqual(sb.control.faults(), []);
		sb.control.injectFaults({ kind: 'http500' });
		sb.control.reset();
		assert.deepEqual(sb.control.faults(), [], 'reset clears faults');
	});
});
