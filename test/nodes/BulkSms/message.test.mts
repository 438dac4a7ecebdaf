import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, test } from 'node:test';

import { DateTime } from 'luxon';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../../dev/sandbox/index.mts';
import { runWorkflow, type RunResult } from '../../../dev/harness/engine.mts';
import { startRecorder, type Recorder } from '../../../dev/harness/recorder.mts';

const NODE = 'Bulk SMS';

interface SendParams {
	sender?: string | IDataObject;
	to?: string;
	message?: string;
	options?: IDataObject;
}

function sendParameters({
	sender = 'VirtualNum',
	to = '={{ $json.to }}',
	message = 'Hello from n8n',
	options = {},
}: SendParams = {}) {
	return {
		resource: 'message',
		operation: 'send',
		sender: typeof sender === 'string' ? { __rl: true, mode: 'id', value: sender } : sender,
		to,
		message,
		options,
	};
}

/** The items the node output, or none when it failed. */
const outputOf = (result: RunResult) =>
	result.run.data.resultData.runData[NODE]?.[0]?.data?.main?.[0] ?? [];

/** A sender the sandbox's account does not have, for items the service refuses. */
const UNAPPROVED = 'NotOurs';
const SENDER_OF_ITEM = `={{ $json.sender ?? 'VirtualNum' }}`;

/** Distinct, valid Israeli mobile numbers. */
const phone = (i: number) => `9725${String(10000000 + i).padStart(8, '0')}`;

describe('Bulk SMS → Message → Send', () => {
	let sandbox: Sandbox;
	before(async () => {
		sandbox = await startSandbox();
	});
	after(async () => await sandbox.close());
	beforeEach(() => sandbox.control.reset());

	const credentials = (overrides: IDataObject = {}) => ({
		virtualnumSmsApi: { baseUrl: sandbox.smsUrl, accessToken: sandbox.tokens.sms, ...overrides },
	});

	async function send(
		input: IDataObject[],
		params: SendParams = {},
		extra: { continueOnFail?: boolean; timezone?: string; credentials?: IDataObject } = {},
	): Promise<RunResult> {
		return await runWorkflow({
			nodes: [
				{
					name: NODE,
					type: 'bulkSms',
					parameters: sendParameters(params),
					continueOnFail: extra.continueOnFail,
				},
			],
			input: input.map((json) => ({ json })),
			credentials: credentials(extra.credentials),
			timezone: extra.timezone,
		});
	}

	const sendTo = send;
	const sendRequests = () => sandbox.control.requests({ service: 'sms', operation: 'send_sms' });
	const smsRequests = () => sandbox.control.requests({ service: 'sms' });
	const noToken = (result: RunResult) =>
		assert.ok(
			!JSON.stringify(result.run).includes(sandbox.tokens.sms),
			'the access token must not appear in the run data',
		);

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

	test('To: several numbers in one item, comma/semicolon/newline separated, normalized to digits, one message each', async () => {
		const result = await send([
			{ to: '+972-50-123 4567; (052) 111.2222\n0533333333, +972-50-123-4567' },
		]);
		assert.equal(result.error, undefined, result.error?.message);
		const [request] = sendRequests();
		assert.deepEqual(
			(request.body as IDataObject[]).map((m) => m.dest),
			['972501234567', '0521112222', '0533333333'],
			'a number listed twice in one item is sent once',
		);
		const items = result.items(NODE);
		assert.equal(items.length, 3);
		for (const item of items) assert.deepEqual(item.pairedItem, { item: 0 });
	});

	test('the sender picked from the list and a phone sender typed with dashes are both sent as the service expects', async () => {
		const result = await runWorkflow({
			nodes: [
				{
					name: 'From list',
					type: 'bulkSms',
					parameters: sendParameters({ sender: { __rl: true, mode: 'list', value: 'Shop24' } }),
				},
				{
					name: 'Typed phone',
					type: 'bulkSms',
					parameters: sendParameters({ sender: '050-123-4567', to: '0521112222' }),
				},
			],
			input: [{ json: { to: '0529998888' } }],
			credentials: credentials(),
		});
		assert.equal(result.error, undefined, result.error?.message);
		const [first, second] = sendRequests();
		assert.equal((first.body as IDataObject[])[0].sender, 'Shop24');
		assert.equal((second.body as IDataObject[])[0].sender, '0501234567');
		assert.equal(result.items('Typed phone')[0].json.status, 'Message in Action');
	});

	test('segments and encoding: Hebrew needs UCS-2, long Latin text is split in 153-character parts', async () => {
		const hebrew = 'שלום! ההזמנה שלך מוכנה לאיסוף';
		const long = 'x'.repeat(161);
		const result = await runWorkflow({
			nodes: [
				{
					name: NODE,
					type: 'bulkSms',
					parameters: sendParameters({ message: '={{ $json.text }}' }),
				},
			],
			input: [
				{ json: { to: phone(1), text: hebrew } },
				{ json: { to: phone(2), text: long } },
				{ json: { to: phone(3), text: 'Price: 10€ [promo]' } },
			],
			credentials: credentials(),
		});
		assert.equal(result.error, undefined, result.error?.message);
		const items = result.items(NODE).map((i) => i.json);
		assert.deepEqual(
			items.map((i) => [i.encoding, i.segments]),
			[
				['UCS-2', 1],
				['GSM-7', 2],
				['GSM-7', 1],
			],
		);
		assert.equal(items[0].message, hebrew, 'the Hebrew text reaches the service intact');
	});

	describe('failed recipients', () => {
		// A number that cannot be a phone is refused before sending (phones.ts); the service refuses a
		// message from a sender the account does not have: a per-message failure.
		const input = [
			{ to: phone(1) },
			{ to: phone(2), sender: UNAPPROVED },
			{ to: phone(3) },
			{ to: phone(4), sender: UNAPPROVED },
			{ to: phone(5) },
		];
		const send = async (...args: Parameters<typeof sendTo>) =>
			await sendTo(args[0], { sender: SENDER_OF_ITEM, ...args[1] }, args[2]);

		test('with Continue On Fail: the 2 failed recipients are error items beside the 3 sent ones, each paired to its input', async () => {
			const result = await send(input, {}, { continueOnFail: true });
			assert.equal(result.error, undefined, result.error?.message);
			assert.equal(sendRequests().length, 1);
			const items = result.items(NODE);
			assert.equal(items.length, 5);
			items.forEach((item, i) => assert.deepEqual(item.pairedItem, { item: i }));
			for (const i of [0, 2, 4]) {
				assert.equal(items[i].json.status, 'Message in Action');
				assert.equal(items[i].json.error, undefined);
			}
			for (const [i, dest] of [
				[1, phone(2)],
				[3, phone(4)],
			] as const) {
				// The package's error item shape (docs/errors.md): the recipient in errorDetails, the status as errorCode.
				const json = items[i].json;
				assert.deepEqual(json.errorDetails, { recipient: dest, sender: UNAPPROVED });
				assert.equal(json.errorCode, 'Error - 403 Forbidden');
				assert.match(String(json.errorDescription), /not an approved sender/);
				assert.match(
					String(json.error),
					new RegExp(`The message to ${dest} was not sent: Error - 403 Forbidden`),
				);
				assert.deepEqual(items[i].pairedItem, { item: i });
			}
		});

		test('without Continue On Fail: the node fails naming the failed recipients and listing the message ids already sent', async () => {
			const result = await send(input);
			assert.ok(result.error, 'the node should fail');
			assert.equal(sendRequests().length, 1);
			const sent = sandbox.control.messages();
			assert.equal(sent.length, 3);
			assert.match(result.error.message, /^2 of 5 SMS messages failed: /);
			assert.match(
				result.error.message,
				new RegExp(`${phone(2)} \\(item 1\\): Error - 403 Forbidden – Auth`),
			);
			assert.match(
				result.error.message,
				new RegExp(`${phone(4)} \\(item 3\\): Error - 403 Forbidden – Auth`),
			);
			const description = String(result.error.description);
			for (const message of sent) {
				assert.ok(
					description.includes(`${message.message_id} → ${message.dest}`),
					`the description lists message ${message.message_id}: ${description}`,
				);
			}
			assert.match(description, /Already sent \(3, do not send them again\)/);
			const data = (result.error.context as IDataObject).data as IDataObject;
			assert.deepEqual(
				(data.sent as IDataObject[]).map((s) => s.message_id),
				sent.map((m) => m.message_id),
			);
			assert.deepEqual(
				(data.failed as IDataObject[]).map((f) => [f.dest, f.inputItem]),
				[
					[phone(2), 1],
					[phone(4), 3],
				],
			);
		});

		test('without Continue On Fail the run stops after the batch with a failure: later batches are not sent, and the error says so', async () => {
			const result = await send(input, { options: { batchSize: 2 } });
			assert.ok(result.error);
			assert.equal(sendRequests().length, 1, 'only the first batch was sent');
			assert.match(
				result.error.message,
				new RegExp(`^1 of 5 SMS messages failed: ${phone(2)} \\(item 1\\)`),
			);
			assert.match(
				String(result.error.description),
				/Not sent \(3\): the messages of the later batches, items 2-4/,
			);
			const data = (result.error.context as IDataObject).data as IDataObject;
			assert.deepEqual(
				(data.notSent as IDataObject[]).map((n) => n.dest),
				[phone(3), phone(4), phone(5)],
			);
		});

		test("an unapproved (unverified) sender fails every message with the service's authorization error", async () => {
			const result = await send(
				[{ to: phone(1) }, { to: phone(2) }],
				{ sender: '0527654321' },
				{ continueOnFail: true },
			);
			const items = result.items(NODE);
			assert.equal(items.length, 2);
			for (const item of items) {
				assert.equal(item.json.errorCode, 'Error - 403 Forbidden');
				assert.match(String(item.json.errorDescription), /not verified/);
			}
		});
	});

	describe('missing token: the service answers each message with Error - 403 Forbidden', () => {
		test('without Continue On Fail the error names the recipients and points to the Access Token', async () => {
			const result = await send(
				[{ to: phone(1) }, { to: phone(2) }],
				{},
				{ credentials: { accessToken: '' } },
			);
			assert.ok(result.error);
			const [request] = sendRequests();
			assert.equal(
				request.headers.authorization?.trim() ?? '',
				'Bearer',
				'the request carried no token',
			);
			assert.match(result.error.message, /^2 of 2 SMS messages failed/);
			assert.match(
				result.error.message,
				new RegExp(
					`${phone(1)} \\(item 0\\): Error - 403 Forbidden – Missing mandatory fields: token`,
				),
			);
			assert.match(String(result.error.description), /check the credential's Access Token/);
			assert.match(
				String(result.error.description),
				/No message of this run was confirmed as sent/,
			);
			assert.equal(sandbox.control.messages().length, 0);
		});

		test("with Continue On Fail every recipient is an error item with the service's status and description", async () => {
			const result = await send(
				[{ to: phone(1) }, { to: phone(2) }],
				{},
				{ credentials: { accessToken: '' }, continueOnFail: true },
			);
			assert.equal(result.error, undefined);
			const items = result.items(NODE);
			assert.deepEqual(
				items.map((i) => [
					(i.json.errorDetails as IDataObject).recipient,
					i.json.errorCode,
					i.pairedItem,
				]),
				[
					[phone(1), 'Error - 403 Forbidden', { item: 0 }],
					[phone(2), 'Error - 403 Forbidden', { item: 1 }],
				],
			);
			assert.match(String(items[0].json.errorDescription), /\btoken\b/);
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

	describe('Recipients From: Input Fields', () => {
		const fieldsParameters = (extra: IDataObject = {}) => ({
			resource: 'message',
			operation: 'send',
			sender: { __rl: true, mode: 'id', value: 'VirtualNum' },
			recipientSource: 'inputFields',
			phoneField: 'phone',
			messageFrom: 'field',
			messageField: 'text',
			...extra,
		});
		const runWith = async (
			parameters: IDataObject,
			input: IDataObject[],
			options: { batchSize?: number } = {},
		) => {
			sandbox.control.reset();
			const result = await runWorkflow({
				nodes: [
					{
						name: NODE,
						type: 'bulkSms',
						parameters: { ...parameters, options },
						continueOnFail: true,
					},
				],
				input: input.map((json) => ({ json })),
				credentials: credentials(),
			});
			assert.equal(result.error, undefined, result.error?.message);
			// The send time is "now", to the second: the only value that may differ between two runs.
			const items = result.items(NODE).map((item) => ({
				json: { ...item.json, sendtime: item.json.sendtime ? 'now' : undefined } as IDataObject,
				pairedItem: item.pairedItem,
			}));
			return { items, requests: sendRequests().map((r) => r.body) };
		};
		/** The same failure named by its field: To (expression form) or the input field. */
		const sameFailure = (items: Array<{ json: IDataObject }>, label: string) =>
			JSON.parse(JSON.stringify(items).replaceAll(label, 'FIELD')) as unknown;

		const mixed: IDataObject[] = [
			{ phone: '+972-50-123 4567', text: 'Hello A' },
			{ phone: '0521112222; 0533333333', text: 'שלום, ההזמנה מוכנה' },
			{ phone: ['0544444444', 972555555555], text: 'An array of numbers' },
			{ phone: 972566666666, text: 12345 },
			{ phone: 'call me', text: 'Not a number' },
			{ text: 'No phone field' },
			{ phone: '0577777777', text: '' },
			{ phone: '0501234567, 0501234567', text: 'Listed twice' },
			{ phone: '0588888888', text: 'x'.repeat(200) },
		];

		test('the same requests and the same output as To = {{ $json.phone }} and Message = {{ $json.text }}, failures included', async () => {
			const expression = await runWith(
				sendParameters({ to: '={{ $json.phone }}', message: '={{ $json.text }}' }),
				mixed,
				{ batchSize: 3 },
			);
			const fields = await runWith(fieldsParameters(), mixed, { batchSize: 3 });
			assert.ok(expression.requests.length >= 3, 'several batches');
			assert.deepEqual(fields.requests, expression.requests);
			assert.equal(fields.items.length, expression.items.length);
			assert.deepEqual(
				fields.items.filter((item) => item.json.error === undefined),
				expression.items.filter((item) => item.json.error === undefined),
			);
			// A failure names the input field instead of To or Message; otherwise it is the same item.
			const failed = (run: typeof fields, labels: [string, string]) =>
				sameFailure(
					sameFailure(
						run.items.filter((item) => item.json.error !== undefined),
						labels[0],
					) as never,
					labels[1],
				);
			assert.deepEqual(
				failed(fields, ['phone (input field)', 'text (input field)']),
				failed(expression, ['To', 'Message']),
			);
			const errors = fields.items
				.filter((item) => item.json.error !== undefined)
				.map((item) => [item.pairedItem, item.json.error]);
			assert.deepEqual(
				errors.map(([paired]) => paired),
				[{ item: 4 }, { item: 5 }, { item: 6 }],
			);
			assert.match(String(errors[0][1]), /^phone \(input field\): must be phone numbers/);
			assert.match(String(errors[1][1]), /^phone \(input field\): is required/);
			assert.match(String(errors[2][1]), /^text \(input field\): is required/);
		});

		test('250 items, Batch Size 100, the same text for all (Message From: Message Below): the requests and output of the expression form', async () => {
			const input = Array.from({ length: 250 }, (_, i) => ({
				phone: `+972 5${String(10000000 + i).padStart(8, '0')}`,
			}));
			const expression = await runWith(
				sendParameters({ to: '={{ $json.phone }}', message: 'Sale starts today' }),
				input,
				{ batchSize: 100 },
			);
			const fields = await runWith(
				fieldsParameters({ messageFrom: 'text', message: 'Sale starts today' }),
				input,
				{ batchSize: 100 },
			);
			assert.deepEqual(
				fields.requests.map((body) => (body as unknown[]).length),
				[100, 100, 50],
			);
			assert.deepEqual(fields.requests, expression.requests);
			assert.deepEqual(fields.items, expression.items);
		});

		test('a dotted name reads a nested field; a field whose own name has the dot comes first', async () => {
			const input = [
				{ contact: { phone: '0501112222' }, text: 'Nested' },
				{ 'contact.phone': '0503334444', contact: { phone: '0509999999' }, text: 'Flat' },
			];
			const expression = await runWith(
				sendParameters({
					to: "={{ $json['contact.phone'] ?? $json.contact.phone }}",
					message: '={{ $json.text }}',
				}),
				input,
			);
			const fields = await runWith(fieldsParameters({ phoneField: 'contact.phone' }), input);
			assert.deepEqual(
				(fields.requests[0] as IDataObject[]).map((m) => m.dest),
				['0501112222', '0503334444'],
			);
			assert.deepEqual(fields.requests, expression.requests);
		});

		test("each item's own number is read from its field", async () => {
			const input = Array.from({ length: 50 }, (_, i) => ({ phone: phone(i) }));
			sandbox.control.reset();
			const result = await runWorkflow({
				nodes: [
					{
						name: NODE,
						type: 'bulkSms',
						parameters: {
							...fieldsParameters({ messageFrom: 'text', message: 'Hi' }),
							options: {},
						},
					},
				],
				input: input.map((json) => ({ json })),
				credentials: credentials(),
			});
			assert.equal(result.error, undefined, result.error?.message);
			assert.equal(result.items(NODE).length, 50);
			assert.deepEqual(
				(sendRequests()[0].body as IDataObject[]).map((m) => m.dest),
				input.map((item) => item.phone),
			);
		});

		test('an empty Phone Number Field fails every item, naming the setting', async () => {
			const empty = await runWorkflow({
				nodes: [
					{
						name: NODE,
						type: 'bulkSms',
						parameters: { ...fieldsParameters({ phoneField: ' ' }), options: {} },
					},
				],
				input: [{ json: { phone: phone(1), text: 'x' } }],
				credentials: credentials(),
			});
			assert.match(String(empty.error?.message), /^Phone Number Field: is required/);
			assert.equal(smsRequests().length, 0);
		});
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

	describe('scheduling and delivery reports', () => {
		let callbackServer: Recorder;
		before(async () => {
			callbackServer = await startRecorder();
		});
		after(async () => await callbackServer.close());
		beforeEach(() => callbackServer.requests.splice(0));

		test('a scheduled message is sent with sendtime DD/MM/YYYY HH:mm, and its delivery report reaches the given URL at its time', async () => {
			// The sandbox reads sendtime on its own (process) clock: the credential's Service Time Zone is the same here.
			const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
			const at = DateTime.now().setZone(zone).plus({ hours: 2 }).startOf('minute');
			const url = `${callbackServer.url}/webhook/sms-status?secret=abc`;
			const result = await send(
				[{ to: phone(7) }],
				{ options: { sendAt: at.toISO({ includeOffset: false }), callbackUrl: url } },
				{ timezone: 'America/New_York', credentials: { serviceTimeZone: zone } },
			);
			assert.equal(result.error, undefined, result.error?.message);
			const [request] = sendRequests();
			assert.deepEqual(request.body, [
				{
					service: 'send_sms',
					dest: phone(7),
					sender: 'VirtualNum',
					message: 'Hello from n8n',
					sendtime: at.toFormat('dd/MM/yyyy HH:mm'),
					callback_url: url,
				},
			]);
			const [item] = result.items(NODE);
			assert.equal(item.json.sendtime, at.toFormat('yyyy-MM-dd HH:mm:ss'));

			// Nothing is delivered before its time...
			await new Promise((resolve) => setTimeout(resolve, 300));
			assert.equal(callbackServer.requests.length, 0);
			// ...and the report arrives when the scheduled time comes.
			const callbacks = await sandbox.control.flushScheduled();
			assert.equal(callbacks.length, 1);
			assert.equal(callbackServer.requests.length, 1);
			const report = callbackServer.requests[0];
			assert.equal(report.path, '/webhook/sms-status');
			assert.equal(report.query.secret, 'abc');
			const body = JSON.parse(report.body) as IDataObject;
			assert.equal(body.message_id, item.json.message_id);
			assert.equal(body.dest, phone(7));
			assert.equal(body.status, 'DELIVERED');
			assert.equal(body.sendtime, at.toFormat('yyyy-MM-dd HH:mm:ss'));
		});

		test("an unscheduled message's delivery report arrives by itself", async () => {
			const url = `${callbackServer.url}/report`;
			const result = await send([{ to: phone(8) }], { options: { callbackUrl: url } });
			assert.equal(result.error, undefined, result.error?.message);
			for (let waited = 0; callbackServer.requests.length === 0 && waited < 3000; waited += 25) {
				await new Promise((resolve) => setTimeout(resolve, 25));
			}
			assert.equal(callbackServer.requests.length, 1);
			assert.equal(
				(JSON.parse(callbackServer.requests[0].body) as IDataObject).message_id,
				result.items(NODE)[0].json.message_id,
			);
		});

		const future = DateTime.utc().plus({ years: 2 }).year;
		const cases: Array<[string, string, string | undefined, string | undefined, string]> = [
			[
				'ISO text without offset, in the chosen time zone',
				`${future}-01-15T10:30:00`,
				'Asia/Jerusalem',
				undefined,
				`15/01/${future} 10:30`,
			],
			[
				'ISO text with Z, converted to the chosen time zone',
				`${future}-01-15T10:30:00Z`,
				'Asia/Jerusalem',
				undefined,
				`15/01/${future} 12:30`,
			],
			[
				'ISO text without offset, in the workflow time zone when chosen',
				`${future}-07-01T09:05:00`,
				'workflow',
				'America/New_York',
				`01/07/${future} 16:05`,
			],
			[
				'a Luxon DateTime from an expression',
				`={{ DateTime.fromISO('${future}-01-15T08:30:00Z') }}`,
				undefined,
				'Asia/Jerusalem',
				`15/01/${future} 10:30`,
			],
			[
				"a JS Date from an expression, on the service's clock (Asia/Jerusalem)",
				`={{ new Date('${future}-01-15T08:30:00Z') }}`,
				'Europe/London',
				undefined,
				`15/01/${future} 10:30`,
			],
			[
				"the service's own format, read in the chosen time zone",
				`20/03/${future} 18:45`,
				'UTC',
				undefined,
				`20/03/${future} 20:45`,
			],
			[
				"the service's own format, on the service's clock by default",
				`20/03/${future} 18:45`,
				undefined,
				'America/New_York',
				`20/03/${future} 18:45`,
			],
			[
				'epoch milliseconds from an expression',
				`={{ ${Date.UTC(future, 0, 15, 8, 30)} }}`,
				'UTC',
				undefined,
				`15/01/${future} 10:30`,
			],
		];
		for (const [name, sendAt, timeZone, workflowZone, expected] of cases) {
			test(`Send At: ${name} → ${expected}`, async () => {
				const options: IDataObject = { sendAt };
				if (timeZone) options.timeZone = timeZone;
				const result = await send([{ to: phone(1) }], { options }, { timezone: workflowZone });
				assert.equal(result.error, undefined, result.error?.message);
				assert.equal((sendRequests()[0].body as IDataObject[])[0].sendtime, expected);
			});
		}

		test('a past Send At is sent when Allow Past Time is on', async () => {
			const result = await send([{ to: phone(1) }], {
				options: { sendAt: '2020-01-01T00:00:00', allowPastTime: true },
			});
			assert.equal(result.error, undefined, result.error?.message);
			assert.equal((sendRequests()[0].body as IDataObject[])[0].sendtime, '01/01/2020 00:00');
		});
	});

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

	describe('bad input fails only the item concerned, before any request', () => {
		// Item 1 carries the bad value; items 0 and 2 are good.
		const cases: Array<[string, SendParams, IDataObject, RegExp]> = [
			[
				'an empty message',
				{ message: '={{ $json.text }}' },
				{ text: '   ' },
				/Message: is required and cannot be empty/,
			],
			[
				'a text sender that is too short',
				{ sender: '={{ $json.sender }}' },
				{ sender: 'ab' },
				/Sender: is not valid: a text sender must be 3-11 characters.* \(got "ab"\)/,
			],
			[
				'a text sender with a space',
				{ sender: '={{ $json.sender }}' },
				{ sender: 'My Shop' },
				/Sender: is not valid.*\(got "My Shop"\)/,
			],
			[
				'a text sender of 12 characters',
				{ sender: '={{ $json.sender }}' },
				{ sender: 'abcdefghijkl' },
				/Sender: is not valid/,
			],
			[
				'a phone sender with letters',
				{ sender: '={{ $json.sender }}' },
				{ sender: '050-CALL-NOW' },
				/Sender: is not valid/,
			],
			['an empty sender', { sender: '={{ $json.sender }}' }, { sender: '' }, /Sender: is required/],
			[
				'a phone number with letters',
				{},
				{ to: '050123abc' },
				/To: must be phone numbers .*each with digits and no letters.*\(got "050123abc"\)/,
			],
			[
				'a phone number with no digits',
				{},
				{ to: '+-' },
				/To: (must be phone numbers|needs at least one phone number)/,
			],
			[
				'one bad number among good ones',
				{},
				{ to: `${phone(9)}, call me` },
				/To: .*\(got "call me"\)/,
			],
			['no phone number', {}, { to: ' , ; ' }, /To: needs at least one phone number/],
			[
				'an unparseable Send At',
				{ options: { sendAt: '={{ $json.when }}' } },
				{ when: 'next tuesday-ish' },
				/Send At: must be a date.*\(got "next tuesday-ish"\)/,
			],
			[
				'a past Send At',
				{ options: { sendAt: '={{ $json.when }}' } },
				{ when: '2020-05-01T10:00:00' },
				/Send At: is in the past \(2020-05-01 10:00 \+03:00, Asia\/Jerusalem; now it is .*\(got "2020-05-01T10:00:00"\)/,
			],
			[
				'an empty Send At',
				{ options: { sendAt: '={{ $json.when }}' } },
				{ when: '' },
				/Send At: is empty/,
			],
			[
				'a Batch Size of 0',
				{ options: { batchSize: '={{ $json.size }}' } },
				{ size: 0 },
				/Batch Size: must be a whole number from 1 to 1000 \(got 0\)/,
			],
			[
				'a Batch Size of 1001',
				{ options: { batchSize: '={{ $json.size }}' } },
				{ size: 1001 },
				/Batch Size: must be a whole number from 1 to 1000 \(got 1001\)/,
			],
			[
				'a Batch Size of 2.5',
				{ options: { batchSize: '={{ $json.size }}' } },
				{ size: 2.5 },
				/Batch Size: must be a whole number/,
			],
			[
				'a Delivery Report URL that is not http(s)',
				{ options: { callbackUrl: '={{ $json.url }}' } },
				{ url: 'ftp://example.com/x' },
				/Delivery Report URL: must be a full http/,
			],
			[
				'an unknown time zone',
				{ options: { sendAt: '2099-01-01T10:00:00', timeZone: '={{ $json.zone }}' } },
				{ zone: 'Mars/Olympus' },
				/Time Zone: must be an IANA time zone.*\(got "Mars\/Olympus"\)/,
			],
			[
				'a Credit Path that is a full URL',
				{ options: { checkCreditFirst: true, creditPath: '={{ $json.path }}' } },
				{ path: 'https://elsewhere.example/credit' },
				/Credit Path: must be a path on the SMS service/,
			],
		];

		const defaults: IDataObject = {
			sender: 'VirtualNum',
			text: 'Hello',
			when: '2099-01-01T10:00:00',
			size: 100,
			url: 'https://example.com/r',
			zone: 'UTC',
			path: '/credit',
		};
		const inputFor = (bad: IDataObject) => [
			{ ...defaults, to: phone(0) },
			{ ...defaults, to: phone(1), ...bad },
			{ ...defaults, to: phone(2) },
		];

		for (const [name, params, bad, message] of cases) {
			test(`${name}: the node fails on item 1 before any request`, async () => {
				const result = await send(inputFor(bad), params);
				assert.ok(result.error, 'the node should fail');
				assert.match(result.error.message, message);
				assert.equal((result.error.context as IDataObject).itemIndex, 1);
				assert.match(String(result.error.description), /item 1/);
				assert.equal(smsRequests().length, 0, 'no request reached the service');
			});

			test(`${name}: with Continue On Fail only item 1 is an error item, the others are sent in one batch`, async () => {
				const result = await send(inputFor(bad), params, { continueOnFail: true });
				assert.equal(result.error, undefined, result.error?.message);
				const items: INodeExecutionData[] = result.items(NODE);
				assert.equal(items.length, 3);
				items.forEach((item, i) => assert.deepEqual(item.pairedItem, { item: i }));
				assert.match(String(items[1].json.error), message);
				assert.equal(items[0].json.status, 'Message in Action');
				assert.equal(items[2].json.status, 'Message in Action');
				const requests = sendRequests();
				assert.equal(requests.length, 1);
				assert.deepEqual(
					(requests[0].body as IDataObject[]).map((m) => m.dest),
					[phone(0), phone(2)],
				);
			});
		}
	});
});
