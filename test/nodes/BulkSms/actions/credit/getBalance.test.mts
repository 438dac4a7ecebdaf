import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { nodeRunner, sandboxPerFile } from '../../../../../dev/harness/nodeTest.mts';
import { startRecorder, type Recorder } from '../../../../../dev/harness/recorder.mts';

const NODE = 'Bulk SMS';

describe('Bulk SMS → Credit → Get Balance', () => {
	const sandbox = sandboxPerFile();
	const node = nodeRunner('bulkSms', sandbox, NODE);
	const run = (options: IDataObject = {}, input: IDataObject[] = [{}], continueOnFail = false) =>
		node({ resource: 'credit', operation: 'getBalance', options }, { input, continueOnFail });

	test('GET {sms_base_url}/credit with the Bearer token; the answer is returned as is', async () => {
		sandbox.control.setCredit(4321);
		const result = await run();
		assert.equal(result.error, undefined, result.error?.message);
		const [request] = sandbox.control.requests({ service: 'sms' });
		assert.equal(request.method, 'GET');
		assert.equal(request.path, '/credit');
		assert.equal(request.headers.authorization, `Bearer ${sandbox.tokens.sms}`);
		assert.deepEqual(
			result.items(NODE).map((i) => [i.json, i.pairedItem]),
			[[{ status: 'success', credit: 4321 }, { item: 0 }]],
		);
		assert.ok(!JSON.stringify(result.run).includes(sandbox.tokens.sms));
	});

	test('the Credit Path option changes the path', async () => {
		const result = await run({ creditPath: '/api/credit.php' });
		assert.equal(result.error, undefined, result.error?.message);
		assert.equal(sandbox.control.requests({ service: 'sms' })[0].path, '/api/credit.php');
	});

	test('a Credit Path that is a full URL fails its item before any request (the token must stay on the SMS host)', async () => {
		const result = await run({ creditPath: 'https://elsewhere.example/credit' });
		assert.ok(result.error);
		assert.match(result.error.message, /Credit Path: must be a path on the SMS service/);
		assert.equal(sandbox.control.requests({ service: 'sms' }).length, 0);
	});

	test('a 401 answer explains what to do', async () => {
		sandbox.control.injectFaults({
			kind: 'unauthorized',
			text: 'Account Suspended',
			server: 'sms',
			operation: 'credit',
		});
		const result = await run();
		assert.ok(result.error);
		assert.match(result.error.message, /Bulk SMS refused credit: The account is suspended/);
	});

	describe('answers the sandbox does not give', () => {
		let server: Recorder;
		before(async () => {
			server = await startRecorder();
		});
		after(async () => await server.close());

		const runOn = () =>
			node(
				{ resource: 'credit', operation: 'getBalance' },
				{ credentials: { baseUrl: server.url, accessToken: 'tok-credit-1' } },
			);

		test('a bare number is returned as { credit }', async () => {
			server.answer({ body: '250' });
			const result = await runOn();
			assert.equal(result.error, undefined, result.error?.message);
			assert.deepEqual(result.items(NODE)[0].json, { credit: 250 });
		});

		test('an HTML page points to the Credit Path option', async () => {
			server.answer({
				status: 404,
				headers: { 'Content-Type': 'text/html' },
				body: '<html><body>Not Found</body></html>',
			});
			const result = await runOn();
			assert.ok(result.error);
			assert.match(result.error.message, /HTTP 404/);
		});
	});
});
