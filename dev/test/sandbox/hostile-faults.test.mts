// Faults of a flaky or hostile service: rate limits, bodies that stall or drip, paging ignored,
// huge texts, and tokens (or a delivery URL's secret) echoed back.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { control, smsBulk, smsWs, start, vn, vnRaw } from './helpers.mts';
import type { Sandbox } from './helpers.mts';

let sb: Sandbox;

before(async () => {
	sb = await start();
});
after(async () => {
	await sb.close();
});
beforeEach(() => {
	sb.control.reset();
});

describe('rateLimit', () => {
	test('429 with Retry-After in seconds for N requests of the chosen operation', async () => {
		sb.control.injectFaults({
			kind: 'rateLimit',
			retryAfterSec: 7,
			operation: 'get_virtualnum',
			count: 2,
		});
		assert.equal((await vn(sb, 'test')).status.code, 200, 'another operation is not limited');
		for (let i = 0; i < 2; i++) {
			const res = await vnRaw(sb, { service: 'get_virtualnum' });
			assert.equal(res.status, 429);
			assert.equal(res.headers.get('retry-after'), '7');
			await res.text();
		}
		assert.equal((await vn(sb, 'get_virtualnum')).status.code, 200);
	});

	test('Retry-After as an HTTP date, on the SMS service too', async () => {
		sb.control.injectFaults({
			kind: 'rateLimit',
			retryAfterSec: 30,
			httpDate: true,
			server: 'sms',
		});
		const res = await fetch(`${sb.smsUrl}/credit`, {
			headers: { authorization: `Bearer ${sb.tokens.sms}` },
		});
		assert.equal(res.status, 429);
		const at = Date.parse(res.headers.get('retry-after') ?? '');
		assert.ok(
			at > Date.now() + 25_000 && at < Date.now() + 35_000,
			res.headers.get('retry-after')!,
		);
		await res.text();
	});
});

describe('bodies that never finish', () => {
	test('headersThenSilence: headers arrive, the body never ends', async () => {
		sb.control.injectFaults({ kind: 'headersThenSilence', contentType: 'audio/wav' });
		const res = await vnRaw(sb, { service: 'get_record_by_call_uuid', call_uuid: '1.1' });
		assert.equal(res.status, 200);
		assert.equal(res.headers.get('content-type'), 'audio/wav');
		const reading = res.arrayBuffer();
		const outcome = await Promise.race([
			reading.then(() => 'finished'),
			new Promise((r) => setTimeout(() => r('still open'), 300)),
		]);
		assert.equal(outcome, 'still open');
		reading.catch(() => undefined);
	});

	test('drip: the real answer, one byte every intervalMs', async () => {
		sb.control.injectFaults({ kind: 'drip', intervalMs: 5, operation: 'test' });
		const started = Date.now();
		const res = await vnRaw(sb, { service: 'test' });
		const text = await res.text();
		const elapsed = Date.now() - started;
		assert.deepEqual(JSON.parse(text), {
			service: 'test',
			status: { code: 200, description: 'OK' },
		});
		assert.ok(elapsed >= text.length * 5 * 0.8, `${text.length} bytes in ${elapsed} ms`);
	});
});

describe('ignorePage', () => {
	test('every page request gets the first page again', async () => {
		sb.control.seed({ numbers: 10 });
		const first = await vn(sb, 'get_virtualnum', { limit: 3, page: 0 });
		const second = await vn(sb, 'get_virtualnum', { limit: 3, page: 1 });
		assert.notDeepEqual(second.result, first.result);
		sb.control.injectFaults({ kind: 'ignorePage', operation: 'get_virtualnum', count: 5 });
		for (const page of [1, 2, 50]) {
			const again = await vn(sb, 'get_virtualnum', { limit: 3, page });
			assert.deepEqual(again.result, first.result, `page ${page}`);
		}
	});
});

describe('hostile long answers', () => {
	test('hostileBody: 80 KB of "<" by default, 1 MB of any text on request', async () => {
		sb.control.injectFaults({ kind: 'hostileBody' });
		const angles = await (await vnRaw(sb, { service: 'test' })).text();
		assert.equal(angles.length, 80 * 1024);
		assert.match(angles, /^<+$/);
		sb.control.injectFaults({
			kind: 'hostileBody',
			text: 'ab',
			bytes: 1024 * 1024,
			status: 500,
			contentType: 'text/plain',
		});
		const res = await vnRaw(sb, { service: 'test' });
		assert.equal(res.status, 500);
		assert.equal((await res.text()).length, 1024 * 1024);
	});

	test('longText: an 8,000-character description in every result, or in the status', async () => {
		sb.control.injectFaults({
			kind: 'longText',
			field: 'description',
			operation: 'get_virtualnum',
		});
		const answer = await vn(sb, 'get_virtualnum');
		assert.ok(answer.result.length > 1);
		for (const record of answer.result) assert.equal(record.description.length, 8000);
		sb.control.injectFaults({ kind: 'longText', length: 100_000, text: '%' });
		const status = await vn(sb, 'test');
		assert.equal(status.status.description, '%'.repeat(100_000));
	});
});

describe('tokens echoed back', () => {
	const secret = 'vn-sandbox-token';

	test('unauthorized: a 401 text quoting the Bearer token', async () => {
		sb.control.injectFaults({ kind: 'echoToken', where: 'unauthorized' });
		const res = await vnRaw(sb, { service: 'test' });
		assert.equal(res.status, 401);
		assert.equal(await res.text(), `Unauthorized - Invalid Token: Bearer ${secret}`);
	});

	test('status: the service status description quotes it', async () => {
		sb.control.injectFaults({ kind: 'echoToken', where: 'status' });
		const answer = await vn(sb, 'get_virtualnum');
		assert.equal(answer.status.code, 999);
		assert.match(answer.status.description, new RegExp(`Bearer ${secret}`));
	});

	test('html: a proxy page quotes it', async () => {
		sb.control.injectFaults({ kind: 'echoToken', where: 'html' });
		const res = await vnRaw(sb, { service: 'test' });
		assert.equal(res.status, 502);
		assert.match(res.headers.get('content-type') ?? '', /text\/html/);
		assert.match(await res.text(), new RegExp(`<p>.*Bearer ${secret}`));
	});

	test('smsItem: every Send item fails quoting the access and account tokens; nothing is sent', async () => {
		sb.control.injectFaults({ kind: 'echoToken', where: 'smsItem' });
		const credit = sb.control.credit();
		const { status, body } = await smsBulk(sb, [
			{ token: sb.tokens.smsAccount, dest: '0541234567', sender: 'VirtualNum', message: 'hi' },
		]);
		assert.equal(status, 200);
		assert.equal(body[0].status, 'Error - 401');
		assert.match(body[0].description, new RegExp(`Bearer ${sb.tokens.sms}`));
		assert.match(body[0].description, new RegExp(`token=${sb.tokens.smsAccount}`));
		assert.equal(sb.control.messages().length, 0);
		assert.equal(sb.control.credit(), credit);
	});

	test('senderList: a sender-list error quotes both tokens', async () => {
		sb.control.injectFaults({ kind: 'echoToken', where: 'senderList', server: 'sms', count: 2 });
		const other = await smsWs(sb, { service: 'add_sender_text', sender: 'Shop99' });
		assert.equal(other.body.status, 'success', 'only the sender list echoes');
		const { body } = await smsWs(sb, { service: 'get_sender_list', token: sb.tokens.smsAccount });
		assert.equal(body.status, 'error');
		assert.match(body.description, new RegExp(`Bearer ${sb.tokens.sms}`));
		assert.match(body.description, new RegExp(`token=${sb.tokens.smsAccount}`));
	});

	test('echoCallbackUrl: Send answers each message with its callback_url, secret included', async () => {
		await control(sb, 'POST', 'faults', { kind: 'echoCallbackUrl' }, 'sms');
		const url = 'https://n8n.example.com/webhook/abc/sms?secret=a%26b';
		const { body } = await smsBulk(sb, [
			{
				token: sb.tokens.smsAccount,
				dest: '0541234567',
				sender: 'VirtualNum',
				message: 'hi',
				callback_url: url,
			},
		]);
		assert.equal(body[0].status, 'Message in Action');
		assert.equal(body[0].callback_url, url);
	});

	test('a malformed fault is refused', async () => {
		assert.throws(
			() => sb.control.injectFaults({ kind: 'echoToken', where: 'everywhere' } as never),
			/echoToken needs where/,
		);
		assert.throws(
			() => sb.control.injectFaults({ kind: 'drip' } as never),
			/drip needs intervalMs/,
		);
	});
});
