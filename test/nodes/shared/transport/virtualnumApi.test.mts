import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { runWorkflow } from '../../../../dev/harness/engine.mts';
import {
	startRecorder,
	type Recorder,
	type ScriptedAnswer,
} from '../../../../dev/harness/recorder.mts';

const TOKEN = 'transport-token-xyz';
/** Account → Test: one request, nothing else. */
const ACCOUNT_TEST = {
	name: 'Test',
	type: 'virtualNumber',
	parameters: { resource: 'account', operation: 'test' },
};

describe('virtual number transport: every kind of answer becomes a result or a clear error', () => {
	let server: Recorder;
	before(async () => {
		server = await startRecorder();
	});
	after(async () => await server.close());

	async function runWith(answer: ScriptedAnswer, continueOnFail = false, items = 1) {
		server.answer(answer);
		return await runWorkflow({
			nodes: [
				{
					name: 'Test',
					type: 'virtualNumber',
					parameters: { resource: 'account', operation: 'test' },
					continueOnFail,
				},
			],
			input: Array.from({ length: items }, (_, i) => ({ json: { i } })),
			credentials: { virtualnumApi: { baseUrl: server.url, accessToken: TOKEN } },
		});
	}

	const failures: Array<[string, ScriptedAnswer, RegExp, RegExp?]> = [
		[
			'a service status code other than 200',
			{ body: { service: 'test', status: { code: 999, description: 'db down' } } },
			/Virtual Number test failed: Internal error of the service \(code 999\)/,
			/The service said: "db down"/,
		],
		[
			'an XML status despite format=json',
			{
				headers: { 'Content-Type': 'text/xml' },
				body: '<?xml version="1.0"?><response><service>test</service><status><code>401</code><description>Token Expired</description></status></response>',
			},
			/code 401/,
			/Token Expired/,
		],
		[
			'an XML success despite format=json',
			{
				headers: { 'Content-Type': 'text/xml' },
				body: '<response><status><code>200</code><description>OK</description></status></response>',
			},
			/answered test in XML instead of JSON/,
		],
		[
			'an HTML proxy page',
			{
				status: 502,
				headers: { 'Content-Type': 'text/html' },
				body: '<html><body><h1>502 Bad Gateway</h1></body></html>',
			},
			/HTTP 502 \(server error\)/,
			/502 Bad Gateway/,
		],
		[
			'an HTML page with status 200',
			{
				headers: { 'Content-Type': 'text/html' },
				body: '<!DOCTYPE html><html><body>Login</body></html>',
			},
			/an HTML page instead of the service answer/,
			/Base URL/,
		],
		[
			'truncated JSON',
			{ body: '{"service":"test","status":{"co' },
			/not valid JSON \(it may have been cut off\)/,
		],
		['an empty body', { body: '' }, /an empty answer/],
		['JSON without a status', { body: { hello: 'world' } }, /a JSON answer without a status/],
		[
			'HTTP 500 with text',
			{ status: 500, body: 'Internal Server Error' },
			/HTTP 500 \(server error\)/,
			/Try again later/,
		],
	];
	for (const [name, answer, message, description] of failures) {
		test(`${name} fails the node with a clear error`, async () => {
			const result = await runWith(answer);
			assert.ok(result.error, 'the workflow should fail');
			assert.match(result.error.message, message);
			if (description) assert.match(String(result.error.description), description);
			assert.ok(!JSON.stringify(result.run).includes(TOKEN));
		});
	}

	test('with Continue On Fail every item gets an error item paired to it', async () => {
		const result = await runWith(
			{ body: { service: 'test', status: { code: 999, description: 'x' } } },
			true,
			3,
		);
		assert.equal(result.error, undefined);
		const items = result.items('Test');
		assert.equal(items.length, 3);
		items.forEach((item, index) => {
			assert.match(String(item.json.error), /code 999/);
			assert.deepEqual(item.pairedItem, { item: index });
		});
	});

	test('a request reads its credential once: n8n queries and decrypts it at every read', async () => {
		server.answer({ body: { service: 'test', status: { code: 200, description: 'OK' } } });
		let reads = 0;
		const saved = { baseUrl: server.url, accessToken: TOKEN };
		const before = server.requests.length;
		const result = await runWorkflow({
			nodes: [ACCOUNT_TEST],
			input: [{ json: { i: 0 } }, { json: { i: 1 } }],
			credentials: {
				get virtualnumApi() {
					reads++;
					return saved;
				},
			},
		});
		assert.equal(result.error, undefined);
		assert.equal(result.items('Test').length, 2);
		assert.equal(server.requests.length - before, 2);
		assert.equal(
			reads,
			2,
			'one read per request, for its Base URL, its masking and its authentication',
		);
	});

	test('an unreachable service fails naming the host, not the token', async () => {
		const result = await runWorkflow({
			nodes: [ACCOUNT_TEST],
			credentials: { virtualnumApi: { baseUrl: 'http://127.0.0.1:9', accessToken: TOKEN } },
		});
		assert.match(
			result.error!.message,
			/Could not reach the Virtual Number service at http:\/\/127\.0\.0\.1:9/,
		);
		assert.ok(!JSON.stringify(result.run).includes(TOKEN));
	});

	test('a credential without a usable Base URL fails before any request', async () => {
		const before = server.requests.length;
		const result = await runWorkflow({
			nodes: [ACCOUNT_TEST],
			credentials: { virtualnumApi: { baseUrl: 'not a url', accessToken: TOKEN } },
		});
		assert.match(result.error!.message, /no valid Base URL/);
		assert.equal(server.requests.length, before);
	});
});
