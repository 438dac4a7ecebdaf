// How Send groups its messages into batches and sends them, Batches in Flight at a time
// (nodes/BulkSms/actions/message/deliver.ts).
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { runWorkflow } from '../../../../../dev/harness/engine.mts';
import { startRecorder } from '../../../../../dev/harness/recorder.mts';
import {
	NODE,
	outputOf,
	phone,
	SENDER_OF_ITEM,
	sendParameters,
	sendTest,
	UNAPPROVED,
} from './sendTest.mts';

describe('Send: batches', () => {
	const { send, sendRequests } = sendTest();

	/** One recipient per item, each item with its own Batch Size: the items of each request, in order. */
	async function batchesOf(sizes: number[]): Promise<number[][]> {
		const input = sizes.map((size, i) => ({ to: phone(i), size }));
		const itemOf = new Map(input.map((json, i) => [json.to, i]));
		const result = await send(input, { options: { batchSize: '={{ $json.size }}' } });
		assert.equal(result.error, undefined, result.error?.message);
		return sendRequests().map((r) =>
			(r.body as IDataObject[]).map((message) => itemOf.get(String(message.dest))!),
		);
	}

	test('equal Batch Sizes: full batches in order, the rest last', async () => {
		assert.deepEqual(await batchesOf([2, 2, 2, 2, 2]), [[0, 1], [2, 3], [4]]);
	});
	test('a smaller Batch Size closes the batch early; no batch exceeds the size of any of its entries', async () => {
		const sizes = [3, 3, 1, 3, 3, 3, 3];
		const batches = await batchesOf(sizes);
		assert.deepEqual(batches, [[0, 1], [2], [3, 4, 5], [6]]);
		for (const batch of batches) for (const item of batch) assert.ok(batch.length <= sizes[item]);
	});
	test('no messages, no batch', async () => {
		const result = await send([{ to: 'not a phone' }], {}, { continueOnFail: true });
		assert.equal(result.error, undefined, result.error?.message);
		assert.deepEqual(sendRequests(), []);
	});

	for (const batchesInFlight of [1, 4])
		test(`Batches in Flight ${batchesInFlight}: Batch Size 1 sends each recipient in its own request`, async () => {
			const result = await send([{}], {
				to: '0501234561, 0501234562, 0501234563, 0501234564, 0501234565',
				message: 'Hello',
				options: { batchSize: 1, batchesInFlight },
			});
			assert.equal(result.error, undefined, result.error?.message);
			assert.equal(sendRequests().length, 5, 'one request per batch');
		});
});

describe('Bulk SMS → Message → Send: batches', () => {
	const { sandbox, send, sendRequests, noToken } = sendTest();

	test('250 items with Batch Size 100 → exactly 3 requests with the right bodies, 250 items each paired to its input', async () => {
		const input = Array.from({ length: 250 }, (_, i) => ({ to: phone(i) }));
		const result = await send(input, { message: 'Sale starts today', options: { batchSize: 100 } });
		assert.equal(result.error, undefined, result.error?.message);

		const requests = sendRequests();
		assert.equal(requests.length, 3);
		assert.deepEqual(
			requests.map((r) => (r.body as unknown[]).length),
			[100, 100, 50],
		);
		for (const [b, request] of requests.entries()) {
			assert.equal(request.method, 'POST');
			assert.equal(request.path, '/api/ws_json_bulk.php');
			assert.equal(request.headers.authorization, `Bearer ${sandbox.tokens.sms}`);
			assert.match(request.headers['content-type'], /^application\/json/);
			(request.body as IDataObject[]).forEach((message, k) =>
				assert.deepEqual(message, {
					service: 'send_sms',
					dest: phone(b * 100 + k),
					sender: 'VirtualNum',
					message: 'Sale starts today',
				}),
			);
		}

		const items = result.items(NODE);
		assert.equal(items.length, 250);
		const messages = sandbox.control.messages();
		assert.equal(messages.length, 250);
		items.forEach((item, i) => {
			assert.deepEqual(item.pairedItem, { item: i });
			assert.equal(item.json.inputItem, i);
			assert.equal(item.json.dest, phone(i));
			assert.equal(item.json.status, 'Message in Action');
			assert.equal(item.json.message_id, messages[i].message_id);
			assert.equal(item.json.encoding, 'GSM-7');
			assert.equal(item.json.segments, 1);
			assert.equal(typeof item.json.total_charge, 'number');
		});
		noToken(result);
	});

	test('the default Batch Size is 100, and batches span items with several recipients each', async () => {
		// 70 items × 3 recipients = 210 messages → 100 + 100 + 10.
		const input = Array.from({ length: 70 }, (_, i) => ({
			to: [phone(3 * i), phone(3 * i + 1), phone(3 * i + 2)].join(', '),
		}));
		const result = await send(input);
		assert.equal(result.error, undefined, result.error?.message);
		assert.deepEqual(
			sendRequests().map((r) => (r.body as unknown[]).length),
			[100, 100, 10],
		);
		const items = result.items(NODE);
		assert.equal(items.length, 210);
		items.forEach((item, k) => {
			assert.deepEqual(item.pairedItem, { item: Math.floor(k / 3) });
			assert.equal(item.json.dest, phone(k));
		});
	});

	describe('wrong number of results', () => {
		test('an answer with one result too few is an error that says how many were sent, and no result is guessed', async () => {
			sandbox.control.injectFaults({
				kind: 'wrongLength',
				server: 'sms',
				operation: 'send_sms',
				delta: -1,
			});
			const result = await send([{ to: phone(1) }, { to: phone(2) }, { to: phone(3) }]);
			assert.ok(result.error);
			assert.equal(sendRequests().length, 1);
			assert.match(result.error.message, /answered 2 results for a batch of 3 messages/);
			assert.match(
				String(result.error.description),
				/All 3 messages of this batch were sent to the service/,
			);
			assert.equal(outputOf(result).length, 0, 'no result is output');
		});

		test('a wrong-length second batch: the error lists the message ids of the first batch, and the third batch is not sent', async () => {
			// Faults are taken in order: a harmless slow(0) for the first batch, the wrong length for the second.
			sandbox.control.injectFaults({
				kind: 'slow',
				server: 'sms',
				operation: 'send_sms',
				delayMs: 0,
				count: 1,
			});
			sandbox.control.injectFaults({
				kind: 'wrongLength',
				server: 'sms',
				operation: 'send_sms',
				delta: 2,
			});
			const input = Array.from({ length: 5 }, (_, i) => ({ to: phone(i) }));
			const result = await send(input, { options: { batchSize: 2 } });
			assert.ok(result.error);
			assert.equal(sendRequests().length, 2);
			assert.match(result.error.message, /answered 4 results for a batch of 2 messages/);
			const first = sandbox.control.messages().slice(0, 2);
			const description = String(result.error.description);
			for (const message of first)
				assert.ok(description.includes(`${message.message_id} → ${message.dest}`), description);
			assert.match(description, /Not sent \(1\)/);
			const data = (result.error.context as IDataObject).data as IDataObject;
			assert.equal(data.sent && (data.sent as unknown[]).length, 2);
			assert.equal(data.answered, 4);
		});

		test('with Continue On Fail the recipients of the failed batch are error items and the other batches go on', async () => {
			sandbox.control.injectFaults({
				kind: 'wrongLength',
				server: 'sms',
				operation: 'send_sms',
				delta: -1,
			});
			const input = Array.from({ length: 4 }, (_, i) => ({ to: phone(i) }));
			const result = await send(input, { options: { batchSize: 2 } }, { continueOnFail: true });
			assert.equal(result.error, undefined);
			assert.equal(sendRequests().length, 2);
			const items = result.items(NODE);
			assert.equal(items.length, 4);
			items.forEach((item, i) => assert.deepEqual(item.pairedItem, { item: i }));
			assert.match(String(items[0].json.error), /answered 1 results for a batch of 2 messages/);
			assert.equal((items[0].json.errorDetails as IDataObject).recipient, phone(0));
			assert.equal(items[2].json.status, 'Message in Action');
		});
	});

	test('a batch-level failure (HTTP 500) is never retried', async () => {
		sandbox.control.injectFaults({ kind: 'http500', server: 'sms', operation: 'send_sms' });
		const result = await send([{ to: phone(1) }]);
		assert.ok(result.error);
		assert.equal(sendRequests().length, 1, 'exactly one request: a send is never repeated');
		assert.match(result.error.message, /HTTP 500/);
		assert.match(String(result.error.description), /may have been carried out/);
		noToken(result);
	});

	describe('Batches in Flight', () => {
		test('4 in flight: the same requests and the same output as one after the other', async () => {
			const input = Array.from({ length: 40 }, (_, i) => ({ to: phone(i) }));
			const sequential = await send(input, { options: { batchSize: 5 } });
			const bodies = sendRequests().map((r) => r.body);
			sandbox.control.reset();
			const parallel = await send(input, { options: { batchSize: 5, batchesInFlight: 4 } });
			assert.equal(parallel.error, undefined, parallel.error?.message);
			const sorted = (list: unknown[]) =>
				[...list].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
			assert.deepEqual(sorted(sendRequests().map((r) => r.body)), sorted(bodies));
			const strip = (items: INodeExecutionData[]) =>
				items.map((item) => [
					item.pairedItem,
					item.json.dest,
					item.json.status,
					item.json.inputItem,
				]);
			assert.deepEqual(
				strip(parallel.items(NODE)),
				strip(sequential.items(NODE)),
				'output in input order',
			);
		});

		test('4 in flight really are: a service that answers only once 4 batches are open gets 4 at once (1 without the option)', async () => {
			// Holds every answer until 4 requests are open (or 1 s has passed), and records how many were open at most.
			let open = 0;
			let most = 0;
			const waiting: Array<() => void> = [];
			const server = http.createServer((req, res) => {
				const chunks: Buffer[] = [];
				req.on('data', (chunk: Buffer) => chunks.push(chunk));
				req.on('end', () => {
					const messages = JSON.parse(Buffer.concat(chunks).toString('utf8')) as IDataObject[];
					const answer = () => {
						open--;
						res.writeHead(200, { 'Content-Type': 'application/json' });
						res.end(
							JSON.stringify(
								messages.map((m, k) => ({
									...m,
									status: 'Message in Action',
									message_id: Number(m.dest) + k,
								})),
							),
						);
					};
					open++;
					most = Math.max(most, open);
					waiting.push(answer);
					const release = () => waiting.splice(0).forEach((go) => go());
					if (open >= 4) release();
					else setTimeout(release, 1000);
				});
			});
			await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
			try {
				const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
				const input = Array.from({ length: 8 }, (_, i) => ({ to: phone(i) }));
				const run = (batchesInFlight?: number) =>
					runWorkflow({
						nodes: [
							{
								name: NODE,
								type: 'bulkSms',
								parameters: sendParameters({
									options: { batchSize: 2, ...(batchesInFlight ? { batchesInFlight } : {}) },
								}),
							},
						],
						input: input.map((json) => ({ json })),
						credentials: { virtualnumSmsApi: { baseUrl, accessToken: 't' } },
					});
				const parallel = await run(4);
				assert.equal(parallel.error, undefined, parallel.error?.message);
				assert.equal(most, 4);
				most = 0;
				const sequential = await run();
				assert.equal(sequential.error, undefined, sequential.error?.message);
				assert.equal(most, 1);
				assert.deepEqual(
					parallel.items(NODE).map((item) => item.json),
					sequential.items(NODE).map((item) => item.json),
				);
			} finally {
				server.closeAllConnections();
				await new Promise((resolve) => server.close(resolve));
			}
		});

		test('without Continue On Fail no batch starts after a failure; the batches in flight finish and are reported', async () => {
			// 6 batches of 1, 2 in flight: batch 2 is refused (a number the service rejects); batch 1 (in flight) is sent.
			const input = [
				{ to: phone(1) },
				{ to: phone(2), sender: UNAPPROVED },
				{ to: phone(3) },
				{ to: phone(4) },
				{ to: phone(5) },
				{ to: phone(6) },
			];
			const result = await send(input, {
				sender: SENDER_OF_ITEM,
				options: { batchSize: 1, batchesInFlight: 2 },
			});
			assert.ok(result.error);
			const sentTo = sendRequests().map((r) => (r.body as IDataObject[])[0].dest);
			assert.ok(
				sentTo.length <= 3,
				`at most the two in flight and the one started before the failure was seen: ${sentTo.join(', ')}`,
			);
			assert.match(
				result.error.message,
				new RegExp(`^1 of 6 SMS messages failed: ${phone(2)} \\(item 1\\)`),
			);
			const data = (result.error.context as IDataObject).data as IDataObject;
			assert.deepEqual(
				(data.sent as IDataObject[]).map((r) => r.dest),
				sandbox.control.messages().map((m) => m.dest),
				'every message the service took is listed as sent',
			);
			assert.equal(
				(data.sent as unknown[]).length + (data.notSent as unknown[]).length + 1,
				6,
				'each recipient is accounted for',
			);
		});
	});

	describe('the account token and the IP allow-list', () => {
		const ACCOUNT = 'sms-account-token';

		test("with the credential's Account Token, every batch item carries it as token; it never reaches the output", async () => {
			const result = await send(
				[{ to: `${phone(1)}, ${phone(2)}` }, { to: phone(3) }],
				{ options: { batchSize: 2 } },
				{ credentials: { accountToken: ACCOUNT } },
			);
			assert.equal(result.error, undefined, result.error?.message);
			const bodies = sendRequests().map((r) => r.body as IDataObject[]);
			assert.equal(bodies.length, 2);
			for (const message of bodies.flat()) assert.equal(message.token, ACCOUNT);
			assert.equal(result.items(NODE).length, 3);
			assert.ok(
				!JSON.stringify(result.run).includes(ACCOUNT),
				'the account token must not appear in the run data',
			);
			noToken(result);
		});

		test('without it, the items carry no token field (the Bearer header authenticates the batch)', async () => {
			await send([{ to: phone(1) }]);
			assert.deepEqual(Object.keys((sendRequests()[0].body as IDataObject[])[0]), [
				'service',
				'dest',
				'sender',
				'message',
			]);
		});

		test('a token echoed back in a result is removed from the output', async () => {
			const echo = await startRecorder();
			try {
				echo.answer({
					body: [
						{
							service: 'send_sms',
							status: 'Message in Action',
							message_id: 7,
							message: 'Hi',
							sender: 'VirtualNum',
							dest: phone(1),
							token: ACCOUNT,
						},
					],
				});
				const result = await runWorkflow({
					nodes: [
						{
							name: NODE,
							type: 'bulkSms',
							parameters: sendParameters({ to: phone(1), message: 'Hi' }),
						},
					],
					input: [{ json: {} }],
					credentials: {
						virtualnumSmsApi: { baseUrl: echo.url, accessToken: 'a', accountToken: ACCOUNT },
					},
				});
				assert.equal(result.error, undefined, result.error?.message);
				assert.equal(result.items(NODE)[0].json.message_id, 7);
				assert.ok(!JSON.stringify(result.run).includes(ACCOUNT));
			} finally {
				await echo.close();
			}
		});

		test('an unauthorized answer to a batch names the allowed IP list', async () => {
			sandbox.control.injectFaults({
				kind: 'unauthorized',
				text: 'Invalid Token',
				server: 'sms',
				operation: 'send_sms',
			});
			const result = await send([{ to: phone(1) }]);
			assert.match(String(result.error?.message), /refused send_sms/);
			assert.match(
				String(result.error?.description),
				/public IP of your n8n server must be on the account's allowed IP list/,
			);
			assert.match(
				String(result.error?.description),
				/Not sent \(1\)/,
				'a refused caller: nothing of the batch was sent',
			);
		});
	});
});

describe('Send: each result matched to its message by number', () => {
	/** A service answering each batch with the numbers `dests` makes of those sent. */
	async function sendBoth(dests: (sent: string[]) => string[]) {
		const service = await startRecorder();
		service.answer((request) => {
			const sent = (JSON.parse(request.body) as IDataObject[]).map((m) => String(m.dest));
			return {
				body: dests(sent).map((dest, k) => ({
					service: 'send_sms',
					status: 'Message in Action',
					message_id: 100 + k,
					message: 'Hi',
					sender: 'VirtualNum',
					dest,
				})),
			};
		});
		try {
			return await runWorkflow({
				nodes: [
					{
						name: NODE,
						type: 'bulkSms',
						parameters: sendParameters({ to: `${phone(1)}, ${phone(2)}`, message: 'Hi' }),
					},
				],
				input: [{ json: {} }],
				credentials: { virtualnumSmsApi: { baseUrl: service.url, accessToken: 'a' } },
			});
		} finally {
			await service.close();
		}
	}

	test('a number answered in its local form (0… for 972…) is its own message', async () => {
		const result = await sendBoth((sent) => sent.map((dest) => `0${dest.slice(3)}`));
		assert.equal(result.error, undefined, result.error?.message);
		assert.deepEqual(
			result.items(NODE).map((item) => [item.json.message_id, item.json.dest]),
			[
				[100, '0510000001'],
				[101, '0510000002'],
			],
		);
	});

	test('results in another order than the messages fail the run, naming the result', async () => {
		const result = await sendBoth((sent) => [...sent].reverse());
		assert.match(
			String(result.error?.message),
			/answered result 1 of a batch of 2 for 972510000002 instead of 972510000001/,
		);
		assert.match(String(result.error?.description), /results are not in request order/);
	});
});
