// Every (service, code) pair of the spec's service-code table is produced by at least one case here;
// the last test fails when the spec gains a code that no case produces. Internal failures that no
// input can provoke ("saving failed", ...) use the serviceError fault.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { specGeneralCodes, specServiceCodes, specUnauthorizedTexts } from '../../harness/spec.mts';
import { start, vn, vnRaw } from './helpers.mts';
import type { Sandbox } from './helpers.mts';
import type { Case, Ctx } from './vnCodes/case.mts';
import { NUMBER_CASES } from './vnCodes/numbers.mts';
import { RECORD_AND_CALL_CASES } from './vnCodes/records.mts';
import { TAG_CASES } from './vnCodes/tags.mts';
import { USER_CASES } from './vnCodes/users.mts';

let sb: Sandbox;
const produced = new Set<string>();

function context(): Ctx {
	const numbers = sb.control.virtualnums();
	const active = numbers.filter((n) => n.active_status === 1);
	return {
		sb,
		active: active[0].virtualnum,
		second: active[1].virtualnum,
		suspended: numbers.find((n) => n.active_status === 0)!.virtualnum,
		callUuid: sb.control.cdrs({ hasRecording: true, limit: 1 })[0].cdr_uniqueid,
		noRecordingUuid: sb.control.cdrs({ hasRecording: false, limit: 1 })[0].cdr_uniqueid,
	};
}

async function upload(params: Record<string, string | number>, file: Case['upload']): Promise<any> {
	const form = new FormData();
	form.set('service', 'upload_prompt');
	form.set('format', 'json');
	for (const [key, value] of Object.entries(params)) form.set(key, String(value));
	if (file && file !== 'none') form.set('prompt_file', new Blob([file.bytes]), file.filename);
	const res = await fetch(`${sb.vnUrl}/api/`, {
		method: 'POST',
		headers: { authorization: `Bearer ${sb.tokens.vn}` },
		body: form,
	});
	return res.json();
}

before(async () => {
	sb = await start();
});
after(() => sb.close());

describe("service codes of the spec table (and the sandbox's tag codes)", () => {
	for (const c of [...RECORD_AND_CALL_CASES, ...NUMBER_CASES, ...USER_CASES, ...TAG_CASES]) {
		test(`${c.service} ${c.code}: ${c.why}`, async () => {
			sb.control.reset();
			const ctx = context();
			await c.setup?.(ctx);
			if (c.internal)
				sb.control.injectFaults({
					kind: 'serviceError',
					code: c.code,
					server: 'vn',
					operation: c.service,
				});
			const params = c.params?.(ctx) ?? {};
			const answer = c.upload ? await upload(params, c.upload) : await vn(sb, c.service, params);
			assert.equal(answer.service, c.service);
			assert.equal(answer.status.code, c.code, `${c.service}: ${answer.status.description}`);
			assert.ok(answer.status.description.length > 0);
			produced.add(`${c.service} ${c.code}`);
		});
	}

	test('upload_prompt 9024: a file over 50 MB', async () => {
		sb.control.reset();
		const big = Buffer.alloc(50 * 1024 * 1024 + 1);
		big.write('RIFF', 0, 'latin1');
		big.write('WAVE', 8, 'latin1');
		const answer = await upload({}, { filename: 'huge.wav', bytes: big });
		assert.equal(answer.status.code, 9024);
		const [request] = sb.control.requests({ operation: 'upload_prompt' });
		assert.equal(request.files?.[0].size, big.length, 'size is counted even past the limit');
		assert.equal(
			sb.control.prompts().some((p) => p.name === 'huge'),
			false,
		);
		produced.add('upload_prompt 9024');
	});
});

describe('general codes and authentication', () => {
	test('998 without service, 999 for an unknown service', async () => {
		sb.control.reset();
		const missing = await vn(sb, '', {});
		assert.equal(missing.status.code, 998);
		const unknown = await vn(sb, 'launch_rocket', {});
		assert.equal(unknown.status.code, 999);
		assert.match(unknown.status.description, /launch_rocket/);
		const codes = specGeneralCodes().map((g) => g.code);
		assert.deepEqual(codes.sort(), [200, 401, 998, 999]);
	});

	test('each 401 text of the spec, as plain text', async () => {
		sb.control.reset();
		const texts = specUnauthorizedTexts();
		const seen: string[] = [];
		const check = async (token: string | null) => {
			const res = await vnRaw(sb, { service: 'test' }, { token });
			assert.equal(res.status, 401);
			assert.match(res.headers.get('content-type') ?? '', /text\/plain/);
			seen.push(await res.text());
		};
		await check(null);
		await check(sb.tokens.expired);
		await check('made-up-token');
		await check(sb.tokens.sms); // a token of the other service
		await check(sb.tokens.suspended);
		sb.control.setIpAllowed(false);
		await check(sb.tokens.vn);
		sb.control.setIpAllowed(true);
		assert.deepEqual(seen, [
			'Unauthorized - Token Required',
			'Unauthorized - Token Expired',
			'Unauthorized - Invalid Token',
			'Unauthorized - Invalid Token',
			'Unauthorized - Account Suspended',
			"Unauthorized - IP Address:'127.0.0.1' is not allowed",
		]);
		for (const text of texts) {
			const pattern = new RegExp(
				`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('<ip>', "[^']+")}$`,
			);
			assert.ok(
				seen.some((s) => pattern.test(s)),
				`no answer matched the spec text "${text}"`,
			);
		}
	});

	test("a deleted user's token stops working", async () => {
		sb.control.reset();
		const token = sb.control.issueToken(2);
		assert.equal((await vn(sb, 'test', {}, { token })).status.code, 200);
		assert.equal((await vn(sb, 'delete_user', { user_id: 2 })).status.code, 200);
		const res = await vnRaw(sb, { service: 'test' }, { token });
		assert.equal(res.status, 401);
		assert.equal(await res.text(), 'Unauthorized - Invalid Token');
	});
});

test('every (service, code) pair of the spec was produced', () => {
	const missing = specServiceCodes()
		.map((c) => `${c.service} ${c.code}`)
		.filter((key) => !produced.has(key));
	assert.deepEqual(missing, [], `no case produced: ${missing.join(', ')}`);
});
