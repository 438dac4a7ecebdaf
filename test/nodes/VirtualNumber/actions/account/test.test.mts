import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { runWorkflow } from '../../../../../dev/harness/engine.mts';
import { startRecorder, type Recorder } from '../../../../../dev/harness/recorder.mts';

const TOKEN = 'vn-secret-token-123';

describe('Virtual Number → Account → Test Connection', () => {
	let server: Recorder;
	before(async () => {
		server = await startRecorder();
	});
	after(async () => await server.close());

	const run = () =>
		runWorkflow({
			nodes: [
				{
					name: 'Test',
					type: 'virtualNumber',
					parameters: { resource: 'account', operation: 'test' },
				},
			],
			credentials: { virtualnumApi: { baseUrl: server.url, accessToken: TOKEN } },
		});

	test('sends service=test with format=json and the Bearer token, and outputs the status', async () => {
		server.answer({ body: { service: 'test', status: { code: 200, description: 'OK' } } });
		const result = await run();
		assert.equal(result.error, undefined, result.error?.message);
		const request = server.requests.at(-1)!;
		assert.equal(request.method, 'GET');
		assert.equal(request.path, '/api/');
		assert.deepEqual(request.query, { service: 'test', format: 'json' });
		assert.equal(request.headers.authorization, `Bearer ${TOKEN}`);
		assert.deepEqual(
			result.items('Test').map((item) => item.json),
			[{ connected: true, statusCode: 200, statusDescription: 'OK' }],
		);
	});

	test("a 401 'IP not allowed' answer tells the user to allow the IP", async () => {
		server.answer({ status: 401, body: "Unauthorized - IP Address:'203.0.113.7' is not allowed" });
		const result = await run();
		assert.ok(result.error, 'the workflow should fail');
		assert.match(
			result.error.message,
			/IP address of your n8n server is not in the allowed IP list/,
		);
		assert.match(
			String(result.error.description),
			/Add the IP of your n8n server to the account's allowed IP list/,
		);
		assert.match(String(result.error.description), /203\.0\.113\.7/);
		assert.ok(
			!JSON.stringify(result.run).includes(TOKEN),
			'the token must not appear in the run data',
		);
	});
});

describe('Virtual Number → Account → Test Connection (sandbox)', () => {
	let sandbox: import('../../../../../dev/sandbox/index.mts').Sandbox;
	before(async () => {
		const { startSandbox } = await import('../../../../../dev/sandbox/index.mts');
		sandbox = await startSandbox();
	});
	after(async () => await sandbox.close());

	const run = (accessToken: string) =>
		runWorkflow({
			nodes: [
				{
					name: 'Test',
					type: 'virtualNumber',
					parameters: { resource: 'account', operation: 'test' },
				},
			],
			credentials: { virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken } },
		});

	test('a valid token: one item saying connected, after one request of service=test', async () => {
		const result = await run(sandbox.tokens.vn);
		assert.equal(result.error, undefined, result.error?.message);
		assert.deepEqual(
			result.items('Test').map((item) => item.json.connected),
			[true],
		);
		const [request] = sandbox.control.requests({ operation: 'test' });
		assert.equal(request.headers.authorization, `Bearer ${sandbox.tokens.vn}`);
	});

	test('an expired token fails with what to do', async () => {
		const result = await run(sandbox.tokens.expired);
		assert.ok(result.error);
		assert.match(`${result.error.message} ${result.error.description}`, /expired/i);
		assert.ok(
			!JSON.stringify(result.run).includes(sandbox.tokens.expired),
			'the token never appears',
		);
	});
});
