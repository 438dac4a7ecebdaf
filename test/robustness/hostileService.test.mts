/**
 * A flaky or hostile service, through n8n's engine against the sandbox's faults: rate limits,
 * answers that never end, pages that never end, tokens echoed back, the refusal texts seen in the
 * field and another identifier word. Each test asserts what the user sees (the error, the items)
 * and what the sandbox received.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { runWorkflow, testCredential, type RunResult } from '../../dev/harness/engine.mts';
import { TriggerHost } from '../../dev/harness/trigger.mts';
import { startSandbox, type Sandbox } from '../../dev/sandbox/index.mts';

const NODE = 'Node';
const MASK = '********';

function credentials(
	sandbox: Sandbox,
	vn: Record<string, string> = {},
): Record<string, ICredentialDataDecryptedObject> {
	return {
		virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn, ...vn },
		virtualnumSmsApi: {
			baseUrl: sandbox.smsUrl,
			accessToken: sandbox.tokens.sms,
			accountToken: sandbox.tokens.smsAccount,
		},
	};
}

async function run(
	sandbox: Sandbox,
	type: 'virtualNumber' | 'bulkSms',
	parameters: IDataObject,
	options: { continueOnFail?: boolean; vn?: Record<string, string> } = {},
): Promise<RunResult & { ms: number }> {
	const started = Date.now();
	const result = await runWorkflow({
		nodes: [{ name: NODE, type, parameters, continueOnFail: options.continueOnFail }],
		input: [{ json: {} }],
		credentials: credentials(sandbox, options.vn),
	});
	return Object.assign(result, { ms: Date.now() - started });
}

const errorText = (result: RunResult) => {
	assert.ok(result.error, 'the run should have failed');
	return `${result.error.message} ${result.error.description ?? ''}`;
};
/** Everything n8n keeps of a run: items, errors, error data. */
const everything = (result: RunResult) =>
	JSON.stringify(result.run.data.resultData) +
	(result.error
		? `${result.error.message} ${result.error.description} ${JSON.stringify(result.error.context)}`
		: '');

const accountTest = { resource: 'account', operation: 'test' };
const requestsOf = (sandbox: Sandbox, service: 'vn' | 'sms', operation: string) =>
	sandbox.control.requests({ service, operation }).length;

describe('A flaky or hostile service', { concurrency: 1 }, () => {
	let sandbox: Sandbox;
	before(async () => {
		sandbox = await startSandbox({ seed: { numbers: 1500 } });
	});
	after(async () => await sandbox.close());

	describe('429 and Retry-After', () => {
		test('a read answered 429 is asked again after Retry-After (seconds), and succeeds', async () => {
			const before = requestsOf(sandbox, 'vn', 'test');
			sandbox.control.injectFaults({
				kind: 'rateLimit',
				retryAfterSec: 1,
				operation: 'test',
				count: 1,
			});
			const result = await run(sandbox, 'virtualNumber', accountTest);
			assert.equal(result.error, undefined, result.error?.message);
			assert.equal(requestsOf(sandbox, 'vn', 'test') - before, 2);
			assert.ok(result.ms >= 900, `waited ${result.ms} ms`);
		});

		test('Retry-After as an HTTP date is read too', async () => {
			const before = requestsOf(sandbox, 'vn', 'test');
			sandbox.control.injectFaults({
				kind: 'rateLimit',
				retryAfterSec: 2,
				httpDate: true,
				operation: 'test',
				count: 1,
			});
			const result = await run(sandbox, 'virtualNumber', accountTest);
			assert.equal(result.error, undefined, result.error?.message);
			assert.equal(requestsOf(sandbox, 'vn', 'test') - before, 2);
		});

		test('a wait past the Timeout is not waited: the error says rate limit and how long to wait', async () => {
			const before = requestsOf(sandbox, 'vn', 'test');
			sandbox.control.injectFaults({
				kind: 'rateLimit',
				retryAfterSec: 120,
				operation: 'test',
				count: 1,
			});
			const result = await run(sandbox, 'virtualNumber', accountTest);
			assert.match(
				errorText(result),
				/too many requests \(rate limit, HTTP 429\); it asks to wait 120 seconds/,
			);
			assert.equal(requestsOf(sandbox, 'vn', 'test') - before, 1);
			assert.ok(result.ms < 5000);
		});

		test('on the SMS service too (Sender → List)', async () => {
			sandbox.control.injectFaults({
				kind: 'rateLimit',
				retryAfterSec: 300,
				server: 'sms',
				operation: 'get_sender_list',
				count: 1,
			});
			const result = await run(sandbox, 'bulkSms', { resource: 'sender', operation: 'list' });
			assert.match(errorText(result), /rate limit, HTTP 429\); it asks to wait 300 seconds/);
		});
	});

	describe('the Timeout is a deadline for the whole request', () => {
		test('Query: an answer dripping a byte every 1.5 s ends at the Timeout (3 s)', async () => {
			sandbox.control.injectFaults({
				kind: 'drip',
				intervalMs: 1500,
				operation: 'cdr_query',
				count: 1,
			});
			const result = await run(sandbox, 'virtualNumber', {
				resource: 'cdr',
				operation: 'query',
				options: { timeout: 3 },
			});
			assert.match(errorText(result), /did not answer cdr_query within 3 s/);
			assert.ok(result.ms < 6000, `ended after ${result.ms} ms`);
		});

		const recorded = () =>
			String(sandbox.control.cdrs().find((row) => row.has_recording)!.cdr_uniqueid);
		const download = { resource: 'cdr', operation: 'downloadRecording', options: { timeout: 2 } };

		test('Download Recording: headers then silence ends at the Timeout (2 s)', async () => {
			sandbox.control.injectFaults({
				kind: 'headersThenSilence',
				contentType: 'audio/wav',
				operation: 'get_record_by_call_uuid',
				count: 1,
			});
			const result = await run(sandbox, 'virtualNumber', { ...download, callUuid: recorded() });
			assert.match(
				errorText(result),
				/did not end within 2 s|did not answer get_record_by_call_uuid within 2 s/,
			);
			assert.ok(result.ms < 5000, `ended after ${result.ms} ms`);
		});

		test('Download Recording: a file dripping a byte every 1.5 s ends at the Timeout (2 s)', async () => {
			sandbox.control.injectFaults({
				kind: 'drip',
				intervalMs: 1500,
				operation: 'get_record_by_call_uuid',
				count: 1,
			});
			const result = await run(sandbox, 'virtualNumber', { ...download, callUuid: recorded() });
			assert.match(errorText(result), /within 2 s/);
			assert.ok(result.ms < 5000, `ended after ${result.ms} ms`);
		});
	});

	describe('paging never runs away', () => {
		const getMany = {
			resource: 'virtualnum',
			operation: 'getAll',
			returnAll: true,
			status: 'active',
		};

		test('Return All reads every page of 1,500 numbers in 2 requests', async () => {
			const before = requestsOf(sandbox, 'vn', 'get_virtualnum');
			const result = await run(sandbox, 'virtualNumber', getMany);
			assert.equal(result.error, undefined, result.error?.message);
			const active = sandbox.control.requests({
				service: 'vn',
				operation: 'get_virtualnum',
			}).length;
			assert.equal(active - before, 2);
			assert.ok(result.items(NODE).length >= 1000);
		});

		test('a service that ignores page: stopped at the repeated page with a clear error', async () => {
			const before = requestsOf(sandbox, 'vn', 'get_virtualnum');
			sandbox.control.injectFaults({
				kind: 'ignorePage',
				operation: 'get_virtualnum',
				count: 100000,
			});
			try {
				const result = await run(sandbox, 'virtualNumber', getMany);
				assert.match(
					errorText(result),
					/Reading the active numbers stopped at page 2: the service answered the same page again/,
				);
				assert.match(errorText(result), /ignores "page"/);
				assert.equal(requestsOf(sandbox, 'vn', 'get_virtualnum') - before, 2);
			} finally {
				sandbox.control.clearFaults();
			}
		});
	});

	describe('tokens echoed by the service are masked', () => {
		for (const where of ['unauthorized', 'html', 'status'] as const) {
			test(`Virtual Number: echoed in ${where}, never in the error or the error item`, async () => {
				for (const continueOnFail of [false, true]) {
					sandbox.control.injectFaults({ kind: 'echoToken', where, operation: 'test', count: 1 });
					const result = await run(sandbox, 'virtualNumber', accountTest, { continueOnFail });
					const seen = everything(result);
					assert.ok(
						!seen.includes(sandbox.tokens.vn),
						`token shown (${where}): ${seen.slice(0, 300)}`,
					);
					assert.ok(seen.includes(MASK), `no mask shown (${where})`);
				}
			});
		}

		test('a token with & and URL-encoded characters is masked whole', async () => {
			const token = 'ab&cd%2Fef=gh+ij';
			sandbox.control.injectFaults({
				kind: 'echoToken',
				where: 'unauthorized',
				operation: 'test',
				count: 1,
			});
			const result = await run(sandbox, 'virtualNumber', accountTest, {
				vn: { accessToken: token },
			});
			const seen = everything(result);
			for (const part of ['ab&cd', 'cd%2Fef', 'ef=gh', encodeURIComponent(token)])
				assert.ok(!seen.includes(part), `${part} shown`);
		});

		for (const where of ['senderList', 'unauthorized', 'html'] as const) {
			test(`Bulk SMS Sender → List: echoed in ${where}, neither SMS token shown`, async () => {
				sandbox.control.injectFaults({
					kind: 'echoToken',
					where,
					server: 'sms',
					operation: 'get_sender_list',
					count: 1,
				});
				const seen = everything(
					await run(
						sandbox,
						'bulkSms',
						{ resource: 'sender', operation: 'list' },
						{ continueOnFail: true },
					),
				);
				assert.ok(!seen.includes(sandbox.tokens.sms), 'access token shown');
				assert.ok(!seen.includes(sandbox.tokens.smsAccount), 'account token shown');
				assert.ok(seen.includes(MASK), 'the echo was not seen masked');
			});
		}

		const send = {
			resource: 'message',
			operation: 'send',
			sender: { __rl: true, mode: 'list', value: 'VirtualNum' },
			to: '050-1234567',
			message: 'hello',
		};

		test("Send: tokens echoed in an SMS item's description never reach the output", async () => {
			sandbox.control.injectFaults({
				kind: 'echoToken',
				where: 'smsItem',
				server: 'sms',
				operation: 'send_sms',
				count: 1,
			});
			const seen = everything(await run(sandbox, 'bulkSms', send, { continueOnFail: true }));
			assert.ok(!seen.includes(sandbox.tokens.sms), 'access token shown');
			assert.ok(!seen.includes(sandbox.tokens.smsAccount), 'account token shown');
			assert.ok(seen.includes(MASK), 'the echo was not seen masked');
		});

		test("Send: the Delivery Report URL's secret never reaches the output when callback_url is echoed", async () => {
			sandbox.control.injectFaults({
				kind: 'echoCallbackUrl',
				server: 'sms',
				operation: 'send_sms',
				count: 1,
			});
			const result = await run(
				sandbox,
				'bulkSms',
				{
					...send,
					options: { callbackUrl: 'https://n8n.example.com/webhook/dlr?secret=Dlr-Secret_77&x=1' },
				},
				{ continueOnFail: true },
			);
			const seen = everything(result);
			assert.ok(!seen.includes('Dlr-Secret_77'), `secret shown: ${seen.slice(0, 400)}`);
			assert.match(seen, /dlr\?secret=\*{8}/, 'callback_url was not echoed masked');
		});

		test('the credential test masks an echoed token', async () => {
			sandbox.control.injectFaults({
				kind: 'echoToken',
				where: 'unauthorized',
				operation: 'test',
				count: 1,
			});
			const result = await testCredential(
				'virtualNumber',
				'virtualnumApi',
				credentials(sandbox).virtualnumApi,
			);
			assert.equal(result.status, 'Error');
			assert.ok(!result.message.includes(sandbox.tokens.vn), result.message);
			assert.ok(result.message.includes(MASK), result.message);
		});
	});

	describe('the refusal texts seen in the field, whatever the HTTP status', () => {
		const cases = [
			['IP not legal', /allowed IP list/],
			['Token missing', /requires an access token.*Access Token of the Virtual Number credential/],
			['Token expired', /access token has expired.*Access Token of the Virtual Number credential/],
			['Token invalid', /access token is not valid.*Access Token of the Virtual Number credential/],
		] as const;
		for (const [text, expected] of cases) {
			for (const status of [200, 401, 403]) {
				test(`"${text}" with HTTP ${status}`, async () => {
					sandbox.control.injectFaults({
						kind: 'unauthorized',
						text,
						status,
						operation: 'test',
						count: 1,
					});
					const result = await run(sandbox, 'virtualNumber', accountTest);
					assert.match(errorText(result), expected);
					assert.equal(String(result.error?.httpCode), '401');
				});
			}
		}

		test('Bulk SMS: "Token expired" with HTTP 200 names the SMS credential', async () => {
			sandbox.control.injectFaults({
				kind: 'unauthorized',
				text: 'Token expired',
				server: 'sms',
				operation: 'get_sender_list',
				count: 1,
			});
			const result = await run(sandbox, 'bulkSms', { resource: 'sender', operation: 'list' });
			assert.match(
				errorText(result),
				/access token has expired.*Access Token of the Bulk SMS credential/,
			);
		});

		test('both credential tests under the field profile (refusal texts with HTTP 200)', async () => {
			const field = await startSandbox({ behaviours: ['refusal-texts'] });
			try {
				const vn = await testCredential('virtualNumber', 'virtualnumApi', {
					baseUrl: field.vnUrl,
					accessToken: 'not-the-token',
				});
				assert.equal(vn.status, 'Error');
				assert.match(vn.message, /Virtual Number refused test: .*token/i);
				const sms = await testCredential('bulkSms', 'virtualnumSmsApi', {
					baseUrl: field.smsUrl,
					accessToken: 'not-the-token',
				});
				assert.equal(sms.status, 'Error');
				assert.match(sms.message, /refused get_sender_list: .*token/i);
			} finally {
				await field.close();
			}
		});
	});

	describe('another identifier word', () => {
		let did: Sandbox;
		before(async () => {
			did = await startSandbox({ word: 'did' });
		});
		after(async () => await did.close());

		test('with Identifier Word "did": get_did is asked, and the output keeps the contract\'s names', async () => {
			const result = await run(
				did,
				'virtualNumber',
				{ resource: 'virtualnum', operation: 'getAll', returnAll: true, status: 'active' },
				{ vn: { identifierWord: 'did' } },
			);
			assert.equal(result.error, undefined, result.error?.message);
			const items = result.items(NODE);
			assert.ok(items.length > 0);
			assert.ok(items.every((item) => typeof item.json.virtualnum === 'string'));
			assert.ok(did.control.requests({ service: 'vn', operation: 'get_did' }).length > 0);
		});

		test('Get one number by number: the parameter is sent as did=', async () => {
			const list = await run(
				did,
				'virtualNumber',
				{
					resource: 'virtualnum',
					operation: 'getAll',
					returnAll: false,
					limit: 1,
					status: 'active',
				},
				{ vn: { identifierWord: 'did' } },
			);
			const first = String(list.items(NODE)[0].json.virtualnum);
			const result = await run(
				did,
				'virtualNumber',
				{
					resource: 'virtualnum',
					operation: 'get',
					virtualnum: { __rl: true, mode: 'list', value: first },
				},
				{ vn: { identifierWord: 'did' } },
			);
			assert.equal(result.error, undefined, result.error?.message);
			assert.equal(result.items(NODE)[0].json.virtualnum, first);
			const sent = did.control.requests({ service: 'vn', operation: 'get_did' }).at(-1)!;
			assert.equal(sent.query.did ?? (sent.body as Record<string, string>)?.did, first);
			assert.equal(sent.query.virtualnum, undefined);
		});

		test("without it, the contract's names are refused by such a service", async () => {
			const result = await run(did, 'virtualNumber', {
				resource: 'virtualnum',
				operation: 'getAll',
				returnAll: true,
				status: 'active',
			});
			assert.ok(result.error);
		});
	});

	describe("the Virtual Number Trigger's activation on All Numbers", () => {
		let host: TriggerHost;
		before(async () => {
			host = await TriggerHost.start();
		});
		after(async () => await host.close());
		const allNumbers = () =>
			host.add({
				parameters: { events: ['callStarted', 'callEnded'], numbers: 'all' },
				credentials: { virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn } },
			});

		test('a service that ignores page: the activation fails at the repeated page, 2 reads a try', async () => {
			const before = requestsOf(sandbox, 'vn', 'get_virtualnum');
			sandbox.control.injectFaults({
				kind: 'ignorePage',
				operation: 'get_virtualnum',
				count: 100000,
			});
			try {
				await assert.rejects(
					allNumbers().activate(),
					/stopped at page 2: the service answered the same page again/,
				);
				// The activation is tried again as n8n's publish does (see registration.ts); each try
				// stops at the second page (without the guard: thousands of reads).
				const reads = requestsOf(sandbox, 'vn', 'get_virtualnum') - before;
				assert.ok(reads % 2 === 0 && reads <= 14, `${reads} reads`);
				assert.equal(requestsOf(sandbox, 'vn', 'update_virtualnum'), 0);
			} finally {
				sandbox.control.clearFaults();
			}
		});

		test('an echoed token never in the activation error', async () => {
			sandbox.control.injectFaults({
				kind: 'echoToken',
				where: 'unauthorized',
				operation: 'get_virtualnum',
				count: 1,
			});
			const error = await allNumbers()
				.activate()
				.then(
					() => undefined,
					(thrown: Error & { description?: string }) => thrown,
				);
			assert.ok(error);
			const seen = `${error.message} ${error.description ?? ''}`;
			assert.ok(!seen.includes(sandbox.tokens.vn), seen);
			assert.ok(seen.includes(MASK), seen);
		});
	});
});
