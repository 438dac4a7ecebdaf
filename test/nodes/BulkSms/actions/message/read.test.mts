// What Send reads from each item and checks before any request (nodes/BulkSms/actions/message/read.ts).
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import { DateTime } from 'luxon';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { runWorkflow } from '../../../../../dev/harness/engine.mts';
import { startRecorder, type Recorder } from '../../../../../dev/harness/recorder.mts';
import { NODE, phone, sendParameters, sendTest, type SendParams } from './sendTest.mts';

describe('Bulk SMS → Message → Send: items read and checked', () => {
	const { sandbox, credentials, send, sendRequests, smsRequests } = sendTest();

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
