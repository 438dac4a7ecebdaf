import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { testCredential } from '../../dev/harness/engine.mts';
import { startN8nStandIn, type N8nStandIn } from '../../dev/harness/n8nPublicApi.mts';
import { startRecorder, type Recorder } from '../../dev/harness/recorder.mts';
import { specUnauthorizedTexts } from '../../dev/harness/spec.mts';

let server: Recorder;
before(async () => {
	server = await startRecorder();
});
after(async () => await server.close());

describe('Virtual Number API credential test', () => {
	const TOKEN = 'vn-credential-token';
	const check = () =>
		testCredential('virtualNumber', 'virtualnumApi', { baseUrl: server.url, accessToken: TOKEN });

	test('passes when `test` answers status.code 200, sending format=json and the Bearer token', async () => {
		server.answer({ body: { service: 'test', status: { code: 200, description: 'OK' } } });
		const result = await check();
		assert.deepEqual(result, { status: 'OK', message: 'Connection successful' });
		const request = server.requests.at(-1)!;
		assert.equal(request.path, '/api/');
		assert.deepEqual(request.query, { service: 'test', format: 'json' });
		assert.equal(request.headers.authorization, `Bearer ${TOKEN}`);
	});

	test('also works when the Base URL is pasted with /api/', async () => {
		server.answer({ body: { service: 'test', status: { code: 200, description: 'OK' } } });
		const result = await testCredential('virtualNumber', 'virtualnumApi', {
			baseUrl: `${server.url}/api/`,
			accessToken: TOKEN,
		});
		assert.equal(result.status, 'OK');
		assert.equal(server.requests.at(-1)!.path, '/api/');
	});

	test('fails unless status.code is 200', async () => {
		server.answer({
			body: { service: 'test', status: { code: 999, description: 'Internal error' } },
		});
		const result = await check();
		assert.equal(result.status, 'Error');
		assert.match(result.message, /code 999/);
		assert.match(result.message, /Internal error/);
	});

	const advice: Record<string, RegExp> = {
		'IP Address': /Add the IP of your n8n server to the account's allowed IP list/,
		'Token Required': /Enter the account's API access token/,
		'Token Expired': /Create a new access token/,
		'Invalid Token': /token of this service/,
		'Account Suspended': /Contact the provider/,
	};
	for (const specText of specUnauthorizedTexts()) {
		const text = specText.replace('<ip>', '198.51.100.4');
		const key = Object.keys(advice).find((k) => text.includes(k))!;
		test(`a 401 "${text}" says what to do`, async () => {
			server.answer({ status: 401, body: text });
			const result = await check();
			assert.equal(result.status, 'Error');
			assert.match(result.message, advice[key]);
			assert.ok(!result.message.includes(TOKEN));
		});
	}

	test('an HTML page (wrong Base URL) fails with a hint about the Base URL', async () => {
		server.answer({
			status: 200,
			headers: { 'Content-Type': 'text/html' },
			body: '<html><body>Welcome</body></html>',
		});
		const result = await check();
		assert.equal(result.status, 'Error');
		assert.match(result.message, /HTML page/);
		assert.match(result.message, /Base URL/);
	});

	test('an unreachable host fails naming the host', async () => {
		const result = await testCredential('virtualNumber', 'virtualnumApi', {
			baseUrl: 'http://127.0.0.1:9',
			accessToken: TOKEN,
		});
		assert.equal(result.status, 'Error');
		assert.match(result.message, /127\.0\.0\.1:9/);
	});
});

describe('Virtual Number SMS API credential test', () => {
	const TOKEN = 'sms-credential-token';

	test('passes when get_sender_list answers status success, with the account token when set', async () => {
		server.answer({ body: { status: 'success', senders: [] } });
		const result = await testCredential('bulkSms', 'virtualnumSmsApi', {
			baseUrl: server.url,
			accessToken: TOKEN,
			accountToken: 'acct-1',
		});
		assert.deepEqual(result, { status: 'OK', message: 'Connection successful' });
		const request = server.requests.at(-1)!;
		assert.equal(request.path, '/api/ws.php');
		assert.deepEqual(request.query, { service: 'get_sender_list', token: 'acct-1' });
		assert.equal(request.headers.authorization, `Bearer ${TOKEN}`);
	});

	test('sends no token parameter when the account token is empty', async () => {
		server.answer({ body: { status: 'success', senders: [] } });
		await testCredential('bulkSms', 'virtualnumSmsApi', {
			baseUrl: server.url,
			accessToken: TOKEN,
			accountToken: '',
		});
		assert.deepEqual(server.requests.at(-1)!.query, { service: 'get_sender_list' });
	});

	test("fails with the service's words unless status is success", async () => {
		server.answer({ body: { status: 'error', description: 'Account token does not match' } });
		const result = await testCredential('bulkSms', 'virtualnumSmsApi', {
			baseUrl: server.url,
			accessToken: TOKEN,
		});
		assert.equal(result.status, 'Error');
		assert.match(result.message, /Account token does not match/);
	});

	test('fails on a 401 with the advice for that text', async () => {
		server.answer({ status: 401, body: 'Unauthorized - Token Expired' });
		const result = await testCredential('bulkSms', 'virtualnumSmsApi', {
			baseUrl: server.url,
			accessToken: TOKEN,
		});
		assert.equal(result.status, 'Error');
		assert.match(result.message, /Create a new access token/);
	});

	// The real SMS service also checks the caller's IP (its public documentation; not the contract),
	// and may refuse in any form: every failure of the test names the allowed IP list.
	const refusals: Array<[string, () => void]> = [
		[
			'a 401 about the token',
			() => server.answer({ status: 401, body: 'Unauthorized - Invalid Token' }),
		],
		[
			'a 401 about the IP',
			() =>
				server.answer({
					status: 401,
					body: "Unauthorized - IP Address:'198.51.100.4' is not allowed",
				}),
		],
		[
			'a 403 page',
			() =>
				server.answer({
					status: 403,
					headers: { 'Content-Type': 'text/html' },
					body: '<html><body>Forbidden</body></html>',
				}),
		],
		[
			"the service's refusal",
			() => server.answer({ body: { status: 'error', description: 'Access denied' } }),
		],
	];
	for (const [name, answer] of refusals) {
		test(`${name}: the failure says that n8n's IP must be on the account's allowed IP list`, async () => {
			answer();
			const result = await testCredential('bulkSms', 'virtualnumSmsApi', {
				baseUrl: server.url,
				accessToken: TOKEN,
			});
			assert.equal(result.status, 'Error');
			assert.match(result.message, /allowed IP list/);
			// Said once: not added again where the answer itself is about the IP.
			assert.equal(
				result.message.match(/also checks the IP address/g)?.length ?? 0,
				/IP Address:/.test(result.message) ? 0 : 1,
				result.message,
			);
			assert.ok(!result.message.includes(TOKEN));
		});
	}

	test('a suspended account: one message, to contact the provider, with no reminder of the IP list', async () => {
		for (const [status, body] of [
			[401, 'Unauthorized - Account Suspended'],
			[200, 'Token invalid: the account is suspended'],
		] as const) {
			server.answer({ status, body });
			const result = await testCredential('bulkSms', 'virtualnumSmsApi', {
				baseUrl: server.url,
				accessToken: TOKEN,
			});
			assert.equal(result.status, 'Error');
			assert.match(
				result.message,
				/^Bulk SMS refused get_sender_list: The account is suspended\. Contact the provider to reactivate the account; the token and the IP are not the problem\. The service said: ".+"\.$/,
			);
			assert.doesNotMatch(result.message, /allowed IP list|token to check/);
		}
	});

	test('a credential without a Base URL names the Base URL only: nothing was sent', async () => {
		const result = await testCredential('bulkSms', 'virtualnumSmsApi', {
			baseUrl: '',
			accessToken: TOKEN,
		});
		assert.equal(result.status, 'Error');
		assert.match(result.message, /Base URL/);
		assert.doesNotMatch(result.message, /allowed IP list/);
	});

	test('an unreachable host (a firewall may drop refused addresses) names the IP list too', async () => {
		const result = await testCredential('bulkSms', 'virtualnumSmsApi', {
			baseUrl: 'http://127.0.0.1:9',
			accessToken: TOKEN,
		});
		assert.equal(result.status, 'Error');
		assert.match(result.message, /127\.0\.0\.1:9/);
		assert.match(result.message, /allowed IP list/);
	});
});

describe('n8n API credential test (answers by SMS reply)', () => {
	let n8n: N8nStandIn;
	before(async () => {
		n8n = await startN8nStandIn();
	});
	after(async () => await n8n.close());
	const check = (data: Record<string, string>) =>
		testCredential('bulkSms', 'virtualnumN8nApi', data);

	test("passes when n8n's public API lists Data Tables with the key; the Base URL may end in /api/v1", async () => {
		for (const baseUrl of [n8n.url, `${n8n.url}/api/v1/`]) {
			const result = await check({ baseUrl, apiKey: n8n.apiKey });
			assert.deepEqual(result, { status: 'OK', message: 'Connection successful' });
		}
		assert.deepEqual(
			n8n.requests.map((r) => `${r.method} ${r.path} ${JSON.stringify(r.query)}`),
			['GET /api/v1/data-tables {"limit":"1"}', 'GET /api/v1/data-tables {"limit":"1"}'],
		);
	});

	test('each refusal names its fix: a wrong key, a key without the scopes, an address that is not the API', async () => {
		const wrong = await check({ baseUrl: n8n.url, apiKey: 'n8n_api_wrong' });
		assert.equal(wrong.status, 'Error');
		assert.match(wrong.message, /the API key is not valid \(HTTP 401\).*Check the API Key/);
		n8n.keys.set('n8n_api_read', ['dataTableRow:read']);
		const narrow = await check({ baseUrl: n8n.url, apiKey: 'n8n_api_read' });
		assert.match(narrow.message, /lacks a scope \(HTTP 403\).*dataTable:list, dataTable:create/);
		const page = await check({ baseUrl: `${n8n.url}/editor`, apiKey: n8n.apiKey });
		assert.match(page.message, /answered with a web page/);
	});
});
