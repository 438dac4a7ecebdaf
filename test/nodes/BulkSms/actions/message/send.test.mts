// The run of Send: the credit checked once before anything is sent (nodes/BulkSms/actions/message/send.operation.ts).
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';

import { NODE, phone, sendTest } from './sendTest.mts';
import { type Sandbox, startSandbox } from '../../../../../dev/sandbox/index.mts';
import {
	type RunResult,
	runWorkflow,
	type WorkflowNode,
} from '../../../../../dev/harness/engine.mts';

describe('Bulk SMS → Message → Send: the run', () => {
	const { sandbox, send, sendRequests, smsRequests } = sendTest();

	describe('Check Credit First', () => {
		test('reads the balance once and sends nothing when it is smaller than the number of recipients', async () => {
			sandbox.control.setCredit(2);
			const result = await send([{ to: `${phone(1)},${phone(2)}` }, { to: phone(3) }], {
				options: { checkCreditFirst: true },
			});
			assert.ok(result.error);
			assert.match(
				result.error.message,
				/Not enough SMS credit: the balance is 2, and this run has 3 recipients/,
			);
			assert.match(String(result.error.description), /Nothing was sent/);
			assert.equal(sandbox.control.requests({ service: 'sms', operation: 'credit' }).length, 1);
			assert.equal(sendRequests().length, 0);
			assert.equal(sandbox.control.credit(), 2);
		});

		test('with Continue On Fail every item gets the credit error and nothing is sent', async () => {
			sandbox.control.setCredit(1);
			const result = await send(
				[{ to: phone(1) }, { to: phone(2) }],
				{ options: { checkCreditFirst: true } },
				{ continueOnFail: true },
			);
			assert.equal(result.error, undefined);
			const items = result.items(NODE);
			assert.equal(items.length, 2);
			items.forEach((item, i) => {
				assert.deepEqual(item.pairedItem, { item: i });
				assert.match(String(item.json.error), /Not enough SMS credit/);
			});
			assert.equal(sendRequests().length, 0);
		});

		test('with enough credit: one GET of the credit path with the Bearer token, then the batches', async () => {
			sandbox.control.setCredit(3);
			const input = Array.from({ length: 3 }, (_, i) => ({ to: phone(i) }));
			const result = await send(input, { options: { checkCreditFirst: true, batchSize: 1 } });
			assert.equal(result.error, undefined, result.error?.message);
			const requests = smsRequests();
			assert.deepEqual(
				requests.map((r) => r.operation),
				['credit', 'send_sms', 'send_sms', 'send_sms'],
			);
			assert.equal(requests[0].method, 'GET');
			assert.equal(requests[0].path, '/credit');
			assert.equal(requests[0].headers.authorization, `Bearer ${sandbox.tokens.sms}`);
			assert.equal(result.items(NODE).length, 3);
		});

		test('the Credit Path option is used', async () => {
			const result = await send([{ to: phone(1) }], {
				options: { checkCreditFirst: true, creditPath: 'api/credit' },
			});
			assert.equal(result.error, undefined, result.error?.message);
			assert.equal(smsRequests()[0].path, '/api/credit');
		});

		test('a failing credit request stops the run before anything is sent', async () => {
			sandbox.control.injectFaults({
				kind: 'unauthorized',
				text: 'Token Expired',
				server: 'sms',
				operation: 'credit',
			});
			const result = await send([{ to: phone(1) }], { options: { checkCreditFirst: true } });
			assert.ok(result.error);
			assert.match(result.error.message, /access token has expired/);
			assert.equal(sendRequests().length, 0);
		});
	});
});

/**
 * Send: message length, credits, one phone identity, Send Numbers As and the rate limit (HTTP 429),
 * through n8n's engine against the sandbox, under its contract and its field profile: the requests
 * the sandbox received and the items n8n outputs.
 */

interface Send {
	input: IDataObject[];
	to?: string;
	message?: string;
	options?: IDataObject;
	credential?: IDataObject;
	node?: Partial<WorkflowNode>;
}

for (const profile of ['contract', 'field'] as const) {
	describe(`Bulk SMS → Send: length, credits, numbers and 429 (${profile} profile)`, () => {
		let sandbox: Sandbox;
		before(async () => {
			sandbox = await startSandbox(profile === 'field' ? { profile: 'field' } : {});
		});
		after(async () => await sandbox.close());
		beforeEach(() => sandbox.control.reset());

		async function send({
			input,
			to = '={{ $json.to }}',
			message = '={{ $json.text ?? "Hello" }}',
			options = {},
			credential = {},
			node = {},
		}: Send): Promise<RunResult> {
			return await runWorkflow({
				nodes: [
					{
						name: NODE,
						type: 'bulkSms',
						typeVersion: 1.1,
						parameters: {
							resource: 'message',
							operation: 'send',
							sender: { __rl: true, mode: 'id', value: 'VirtualNum' },
							to,
							message,
							options,
						},
						...node,
					},
				],
				input: input.map((json) => ({ json })),
				credentials: {
					virtualnumSmsApi: {
						baseUrl: sandbox.smsUrl,
						accessToken: sandbox.tokens.sms,
						...credential,
					},
				},
			});
		}

		const sentBodies = () =>
			sandbox.control
				.requests({ service: 'sms', operation: 'send_sms' })
				.map((request) => request.body as IDataObject[]);
		const dests = () => sentBodies().flatMap((body) => body.map((message) => message.dest));
		const hintsOf = (result: RunResult) =>
			(result.run.data.resultData.runData[NODE]?.[0]?.hints ?? []).map((hint) => hint.message);

		describe('message length', () => {
			const long = 'x'.repeat(10_000);

			test('a 10,000-character message fails its item only, naming the item and the length; the others are sent', async () => {
				const result = await send({
					input: [{ to: '0501234567' }, { to: '0521234567', text: long }, { to: '0531234567' }],
					node: { continueOnFail: true },
				});
				assert.equal(result.error, undefined, result.error?.message);
				assert.deepEqual(dests(), ['0501234567', '0531234567'], 'one request, without item 1');
				const items = result.items(NODE);
				assert.deepEqual(
					items.map((item) => item.pairedItem),
					[{ item: 0 }, { item: 1 }, { item: 2 }],
				);
				assert.equal(items[0].json.status, 'Message in Action');
				assert.match(
					String(items[1].json.error),
					/^Message: is 10000 characters long, more than the 600 the SMS service accepts/,
				);
				assert.match(String(items[1].json.errorDescription), /item 1/);
				assert.match(String(items[1].json.error), /Maximum Message Length/);
			});

			test('without Continue On Fail nothing is sent, and the error names the item', async () => {
				const result = await send({
					input: [{ to: '0501234567' }, { to: '0521234567', text: long }],
				});
				assert.ok(result.error);
				assert.match(result.error.message, /is 10000 characters long/);
				assert.match(String(result.error.description), /item 1/);
				assert.equal(sentBodies().length, 0);
			});

			test('Maximum Message Length lets an account with another limit send longer messages, each with its credits', async () => {
				const text = 'y'.repeat(700);
				const result = await send({
					input: [{ to: '0501234567', text }],
					options: { maxMessageLength: 1000 },
				});
				assert.equal(result.error, undefined, result.error?.message);
				assert.equal(sentBodies()[0][0].message, text);
				const [item] = result.items(NODE);
				// 700 GSM-7 characters: 153 per part → 5 parts, 5 credits (the sandbox charges the same).
				assert.equal(item.json.segments, 5);
				assert.equal(item.json.estimatedCredits, 5);
				assert.equal(item.json.total_charge, 5);
			});

			test('a saved workflow of version 1 checks no length unless the option is set (as before)', async () => {
				const result = await send({
					input: [{ to: '0501234567', text: 'z'.repeat(800) }],
					node: { typeVersion: 1 },
				});
				assert.equal(result.error, undefined, result.error?.message);
				assert.equal(sentBodies().length, 1);
				const limited = await send({
					input: [{ to: '0501234567', text: 'z'.repeat(800) }],
					options: { maxMessageLength: 600 },
					node: { typeVersion: 1 },
				});
				assert.match(String(limited.error?.message), /is 800 characters long/);
			});

			test('a run of multi-part messages says so in a hint: how many, and the credits', async () => {
				const result = await send({
					input: [
						{ to: '0501234567', text: 'a'.repeat(200) },
						{ to: '0521234567', text: 'short' },
						{ to: '0531234567', text: 'שלום '.repeat(20) },
					],
				});
				assert.equal(result.error, undefined, result.error?.message);
				const credits = result.items(NODE).map((item) => item.json.estimatedCredits);
				// 200 GSM-7 → 2 parts; 100 UCS-2 characters → 2 parts (67 per part).
				assert.deepEqual(credits, [2, 1, 2]);
				assert.deepEqual(hintsOf(result), [
					'2 of the 3 messages sent take more than one SMS part (up to 2): an estimated 5 ' +
						'credits for this run, one per part. Shorten the text to use fewer.',
				]);
				const single = await send({ input: [{ to: '0501234567' }] });
				assert.deepEqual(hintsOf(single), [], 'no hint when every message is one part');
			});
		});

		describe('one number however it is written', () => {
			test('`0501234567, +972-50-123-4567` in one item is one message', async () => {
				const result = await send({ input: [{ to: '0501234567, +972-50-123-4567' }] });
				assert.equal(result.error, undefined, result.error?.message);
				assert.deepEqual(dests(), ['0501234567']);
				assert.equal(result.items(NODE).length, 1);
			});

			test('`+972 (0)50-123-4567` is sent to 972501234567, never 9720501234567', async () => {
				const result = await send({
					input: [{ to: '+972 (0)50-123-4567' }, { to: '972 050 765 4321' }],
				});
				assert.equal(result.error, undefined, result.error?.message);
				assert.deepEqual(dests(), ['972501234567', '972507654321']);
				assert.deepEqual(
					result.items(NODE).map((item) => item.json.dest),
					['972501234567', '972507654321'],
					'the output carries the number as the service answered it',
				);
			});

			test('Send Once per Number: a number an earlier item was sent to, in any form, is not sent again', async () => {
				const input = [
					{ to: '0501234567' },
					{ to: '+972 50 123 4567' },
					{ to: '(050) 765-4321' },
					{ to: '972507654321, 0509999999' },
				];
				const once = await send({ input, options: { sendOncePerNumber: true } });
				assert.equal(once.error, undefined, once.error?.message);
				assert.deepEqual(dests(), ['0501234567', '0507654321', '0509999999']);
				const items = once.items(NODE);
				assert.deepEqual(
					items.map((item) => [item.pairedItem, item.json.status, item.json.sentWithItem]),
					[
						[{ item: 0 }, 'Message in Action', undefined],
						[{ item: 1 }, 'Not sent: same number as an earlier item', 0],
						[{ item: 2 }, 'Message in Action', undefined],
						[{ item: 3 }, 'Not sent: same number as an earlier item', 2],
						[{ item: 3 }, 'Message in Action', undefined],
					],
				);
				assert.equal(sandbox.control.messages().length, 3);

				sandbox.control.reset();
				const off = await send({ input });
				assert.equal(off.error, undefined, off.error?.message);
				assert.equal(dests().length, 5, 'off: every item is sent, as before');
			});

			test('a number that cannot be a phone fails its item before sending, naming the item, the field and the fix', async () => {
				const result = await send({
					input: [{ to: '0501234567' }, { to: '0501234567, 12345' }, { to: '05012345678901' }],
					node: { continueOnFail: true },
				});
				assert.equal(result.error, undefined, result.error?.message);
				assert.deepEqual(dests(), ['0501234567']);
				const items = result.items(NODE);
				assert.match(
					String(items[1].json.error),
					/^To: "12345" has fewer than 7 digits, so it cannot be a phone number: write each number/,
				);
				assert.match(String(items[1].json.errorDescription), /"To" field of item 1/);
				assert.match(
					String(items[2].json.error),
					/^To: "05012345678901" is not a number of country code 972/,
				);
				assert.deepEqual(items[2].pairedItem, { item: 2 });
			});
		});

		describe("Send Numbers As (the SMS credential's)", () => {
			const input = [
				{ to: '050-123-4567' },
				{ to: '+972 52 765 4321' },
				{ to: '+44 20 7946 0958' },
			];

			for (const [format, expected] of [
				['asTyped', ['0501234567', '972527654321', '442079460958']],
				['local', ['0501234567', '0527654321', '442079460958']],
				['international', ['972501234567', '972527654321', '442079460958']],
			] as const) {
				test(`${format}: the service receives ${expected.join(', ')}`, async () => {
					const result = await send({ input, credential: { sendNumbersAs: format } });
					assert.equal(result.error, undefined, result.error?.message);
					assert.deepEqual(dests(), expected);
					assert.deepEqual(
						result.items(NODE).map((item) => item.json.dest),
						expected,
					);
				});
			}

			test('the output carries the number as the service answered it, in another form than sent', async () => {
				// A service that answers local numbers whatever form it was sent.
				const server = http.createServer((req, res) => {
					let body = '';
					req.on('data', (chunk: Buffer) => (body += chunk.toString()));
					req.on('end', () => {
						const messages = JSON.parse(body) as IDataObject[];
						res.writeHead(200, { 'content-type': 'application/json' });
						res.end(
							JSON.stringify(
								messages.map((message, i) => ({
									service: 'send_sms',
									status: 'Message in Action',
									message_id: 500 + i,
									message: message.message,
									sender: message.sender,
									dest: `0${String(message.dest).slice(3)}`,
								})),
							),
						);
					});
				});
				await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
				try {
					const { port } = server.address() as AddressInfo;
					const result = await send({
						input: [{ to: '+972 50 123 4567' }],
						credential: { sendNumbersAs: 'international', baseUrl: `http://127.0.0.1:${port}` },
					});
					assert.equal(result.error, undefined, result.error?.message);
					assert.equal(result.items(NODE)[0].json.dest, '0501234567');
					assert.equal(result.items(NODE)[0].json.message_id, 500);
				} finally {
					server.closeAllConnections();
					await new Promise((resolve) => server.close(resolve));
				}
			});

			test('International with the country code set beside it', async () => {
				const result = await send({
					input: [{ to: '020 7946 0958' }, { to: '+972 50 123 4567' }],
					credential: { sendNumbersAs: 'international', countryCode: '+44' },
				});
				assert.equal(result.error, undefined, result.error?.message);
				assert.deepEqual(dests(), ['442079460958', '972501234567']);
			});
		});

		describe('HTTP 429: a batch the service did not take', () => {
			test('is sent again after Retry-After, once; the items and a hint say how long it waited', async () => {
				sandbox.control.injectFaults({
					kind: 'rateLimit',
					retryAfterSec: 1,
					server: 'sms',
					operation: 'send_sms',
					count: 1,
				});
				const started = Date.now();
				const result = await send({
					input: [{ to: '0501234567' }, { to: '0521234567' }, { to: '0531234567' }],
					options: { batchSize: 1, batchesInFlight: 2 },
				});
				assert.equal(result.error, undefined, result.error?.message);
				assert.ok(Date.now() - started >= 1000, 'it waited Retry-After');
				assert.equal(
					sentBodies().length,
					4,
					'3 batches, one of them twice (the first was refused)',
				);
				assert.deepEqual(
					sandbox.control
						.messages()
						.map((message) => message.dest)
						.sort(),
					['0501234567', '0521234567', '0531234567'],
					'each message was taken once',
				);
				const items = result.items(NODE);
				assert.equal(items.filter((item) => item.json.rateLimitWaitSec === 1).length, 1);
				assert.deepEqual(hintsOf(result), [
					'The SMS service answered HTTP 429 (too many requests) 1 time: the refused batches ' +
						'were sent again after waiting 1 s in all, as it asked. No message was sent twice.',
				]);
			});

			test('a Retry-After beyond the cap is not waited: the batch is reported not sent (never "possibly sent"), and Retry On Fail sends it', async () => {
				sandbox.control.injectFaults({
					kind: 'rateLimit',
					retryAfterSec: 3600,
					server: 'sms',
					operation: 'send_sms',
					count: 1,
				});
				const failed = await send({
					input: [{ to: '0501234567' }],
					node: { continueOnFail: true },
				});
				const [item] = failed.items(NODE);
				assert.match(
					String(item.json.error),
					/HTTP 429 \(too many requests\): none of them was sent/,
				);
				assert.match(String(item.json.errorDescription), /A wait of more than 60 s is not made/);
				assert.doesNotMatch(String(item.json.errorDescription), /possibly sent/i);
				assert.equal(sandbox.control.messages().length, 0);

				sandbox.control.reset();
				sandbox.control.injectFaults({
					kind: 'rateLimit',
					retryAfterSec: 3600,
					server: 'sms',
					operation: 'send_sms',
					count: 1,
				});
				const retried = await send({
					input: [{ to: '0501234567' }],
					node: { retryOnFail: true, maxTries: 2, waitBetweenTries: 10 },
				});
				assert.equal(retried.error, undefined, retried.error?.message);
				assert.equal(sentBodies().length, 2);
				assert.equal(sandbox.control.messages().length, 1);
				assert.equal(retried.items(NODE)[0].json.attempt, 2);
			});
		});
	});
}
