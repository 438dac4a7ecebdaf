/**
 * Message → Send and Wait for Response: the execution part through n8n-core's WorkflowExecute (it
 * sends one SMS and leaves the execution waiting), the answer page through the node's webhook
 * function with n8n's WebhookContext. The resumption itself is n8n's (proven in dev/e2e/lib/sendAndWait.mts).
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';

import { Container } from '@n8n/di';
import { InstanceSettings } from 'n8n-core';
import type { IDataObject, INodeType } from 'n8n-workflow';
import { WAIT_INDEFINITELY } from 'n8n-workflow';

import { sandboxPerFile } from '../../../../../dev/harness/nodeTest.mts';
import { loadPackage, runWorkflow, type RunResult } from '../../../../../dev/harness/engine.mts';
import { TriggerHost, type TriggerInstance } from '../../../../../dev/harness/trigger.mts';
import { waitingNode } from './waitingNode.mts';

const NODE = 'Ask';
/** n8n's check of a signed resume URL (n8n-core signature-helpers, the same in 1.x and 2.x): HMAC-SHA256 of path and query. */
function signedAsN8n(url: URL): boolean {
	const unsigned = new URL(url);
	const signature = unsigned.searchParams.get('signature');
	unsigned.searchParams.delete('signature');
	const secret = Container.get(InstanceSettings).hmacSignatureSecret;
	const sign = (text: string) => createHmac('sha256', secret).update(text).digest('hex');
	// n8n 2.x signs the path and query; n8n 1.x the host too.
	return [
		`${unsigned.pathname}${unsigned.search}`,
		`${unsigned.host}${unsigned.pathname}${unsigned.search}`,
	].some((signed) => signature === sign(signed));
}

const LINK = /\nAnswer here: (http:\/\/localhost:5678\/webhook-waiting\/\S+)$/;

function parameters(overrides: IDataObject = {}): IDataObject {
	return {
		resource: 'message',
		operation: 'sendAndWait',
		sender: { __rl: true, mode: 'id', value: 'VirtualNum' },
		to: '={{ $json.phone }}',
		message: 'Approve the refund of order 1042?',
		responseType: 'approval',
		options: {},
		...overrides,
	};
}

describe('Bulk SMS → Message → Send and Wait for Response: the execution', () => {
	const sandbox = sandboxPerFile();

	async function run(
		overrides: IDataObject = {},
		extra: { continueOnFail?: boolean; retryOnFail?: boolean; phone?: string } = {},
	): Promise<RunResult> {
		return await runWorkflow({
			nodes: [
				{
					name: NODE,
					type: 'bulkSms',
					parameters: parameters(overrides),
					continueOnFail: extra.continueOnFail,
					retryOnFail: extra.retryOnFail,
				},
			],
			input: [{ json: { phone: extra.phone ?? '050-123-4567', order: 1042 } }],
			credentials: {
				virtualnumSmsApi: { baseUrl: sandbox.smsUrl, accessToken: sandbox.tokens.sms },
			},
		});
	}
	const sent = () =>
		sandbox.control
			.requests({ service: 'sms', operation: 'send_sms' })
			.flatMap((request) => request.body as IDataObject[]);

	test('sends exactly one SMS with one signed link and leaves the execution waiting, without a limit', async () => {
		const result = await run();
		assert.equal(result.error, undefined, result.error?.message);
		assert.equal(result.status, 'waiting');
		assert.equal(result.run.waitTill?.getTime(), WAIT_INDEFINITELY.getTime());

		const messages = sent();
		assert.equal(messages.length, 1);
		assert.equal(messages[0].dest, '0501234567');
		assert.equal(messages[0].sender, 'VirtualNum');
		const text = String(messages[0].message);
		assert.ok(text.startsWith('Approve the refund of order 1042?\n'), text);
		const link = LINK.exec(text)?.[1];
		assert.ok(link, `one link at the end of the SMS: ${text}`);
		assert.equal((text.match(/https?:\/\//g) ?? []).length, 1);
		const url = new URL(link);
		// n8n's resume URL of this execution and node, the recipient inside, signed as n8n checks it.
		assert.equal(url.pathname, '/webhook-waiting/test-execution/node-1');
		assert.equal(url.searchParams.get('to'), '0501234567');
		assert.equal(signedAsN8n(url), true);
		url.searchParams.set('to', '0529999999');
		assert.equal(signedAsN8n(url), false, 'another number is refused');
		assert.ok(text.length < 600, `${text.length} characters`);

		// n8n's own Send and Wait nodes output their input while waiting; the answer replaces it.
		const items = result.items(NODE);
		assert.deepEqual(
			items.map((item) => item.json),
			[{ phone: '050-123-4567', order: 1042 }],
		);
	});

	test('Limit Wait Time: after an interval, or at a date in the workflow time zone', async () => {
		const before = Date.now();
		const interval = await run({
			options: {
				limitWaitTime: {
					values: { limitType: 'afterTimeInterval', resumeAmount: 2, resumeUnit: 'hours' },
				},
			},
		});
		const waitTill = interval.run.waitTill?.getTime() ?? 0;
		assert.ok(
			waitTill >= before + 7_200_000 && waitTill <= Date.now() + 7_200_000,
			String(waitTill),
		);

		const at = new Date(Date.now() + 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z');
		const dated = await run({
			options: { limitWaitTime: { values: { limitType: 'atSpecifiedTime', maxDateAndTime: at } } },
		});
		assert.equal(dated.run.waitTill?.toISOString(), at.replace('Z', '.000Z'));
		assert.equal(sent().length, 2);
	});

	test('a limit date in the past is refused before the SMS goes out', async () => {
		const result = await run({
			options: {
				limitWaitTime: {
					values: { limitType: 'atSpecifiedTime', maxDateAndTime: '2020-01-01T00:00:00Z' },
				},
			},
		});
		assert.equal(result.status, 'error');
		assert.match(String(result.error?.message), /^Max Date and Time: must be in the future/);
		assert.equal(sent().length, 0);
	});

	test('a message that does not fit 600 characters with its link is refused, naming the length and the limit', async () => {
		const result = await run({ message: 'x'.repeat(480) });
		assert.equal(result.status, 'error');
		const message = String(result.error?.message);
		assert.match(
			message,
			/^Message: the SMS with its answer link is (\d+) characters, over the limit of 600 \(message 480, link \d+\): nothing was sent/,
		);
		assert.match(String(result.error?.description), /item 0/);
		assert.equal(sent().length, 0);
		assert.notEqual(result.run.waitTill instanceof Date, true);

		// An account with a longer limit sets it.
		const longer = await run({ message: 'x'.repeat(480), options: { maxLength: 1000 } });
		assert.equal(longer.status, 'waiting');
		assert.equal(sent().length, 1);
	});

	test('Continue On Fail: the refusal is an error item and the run goes on without waiting', async () => {
		const result = await run({ message: 'x'.repeat(600) }, { continueOnFail: true });
		assert.equal(result.status, 'success');
		const [item] = result.items(NODE);
		assert.match(String(item.json.error), /over the limit of 600/);
		assert.deepEqual(item.pairedItem, { item: 0 });
		assert.equal(sent().length, 0);
	});

	test('several input items: one SMS, for the first item, and a hint says so', async () => {
		const result = await runWorkflow({
			nodes: [{ name: NODE, type: 'bulkSms', parameters: parameters() }],
			input: [{ json: { phone: '0501234567' } }, { json: { phone: '0527654321' } }],
			credentials: {
				virtualnumSmsApi: { baseUrl: sandbox.smsUrl, accessToken: sandbox.tokens.sms },
			},
		});
		assert.equal(result.status, 'waiting');
		assert.deepEqual(
			sent().map((message) => message.dest),
			['0501234567'],
		);
		const hints = result.run.data.resultData.runData[NODE]?.[0]?.hints ?? [];
		assert.deepEqual(
			hints.map((hint) => hint.message),
			['One SMS was sent, for the first of 2 input items: one execution waits for one answer'],
		);
	});

	test('two numbers in To are refused: one SMS waits for one answer', async () => {
		const result = await run({}, { phone: '0501234567, 0527654321' });
		assert.match(String(result.error?.message), /^To: must be one phone number/);
		assert.equal(sent().length, 0);
	});

	test('Retry On Fail is refused before anything is sent', async () => {
		const result = await run({}, { retryOnFail: true });
		assert.match(String(result.error?.message), /send, and charge, the SMS again/);
		assert.equal(sent().length, 0);
	});

	test('the service refusing the SMS fails the node: nothing waits', async () => {
		const result = await run({ sender: { __rl: true, mode: 'id', value: 'NoSuchName' } });
		assert.equal(result.status, 'error');
		assert.match(
			String(result.error?.message),
			/^Bulk SMS refused the SMS to 0501234567: .*"NoSuchName" is not an approved sender/,
		);
		assert.notEqual(result.run.waitTill instanceof Date, true);
	});
});

describe('Bulk SMS → Message → Send and Wait for Response: the answer page', () => {
	let host: TriggerHost;
	before(async () => {
		host = await TriggerHost.start();
	});
	after(async () => await host.close());

	function page(overrides: IDataObject = {}): TriggerInstance {
		return waitingNode(host, parameters(overrides));
	}
	const query = { to: '0501234567', signature: 'checked-by-n8n' };

	test("the node declares n8n's send-and-wait webhooks: GET and POST on the node id, restarting the execution", async () => {
		const loader = await loadPackage();
		const { description } = loader.getNode('bulkSms').type as INodeType;
		// n8n-nodes-base 2.40's sendAndWaitWebhooksDescription (utils/sendAndWait/descriptions.js).
		const expected = [
			{
				name: 'default',
				httpMethod: 'GET',
				responseMode: 'onReceived',
				responseData: '',
				path: '={{ $nodeId }}',
				restartWebhook: true,
				isFullPath: true,
			},
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				responseData: '',
				path: '={{ $nodeId }}',
				restartWebhook: true,
				isFullPath: true,
			},
		];
		assert.deepEqual(description.webhooks, expected);
		assert.match(String(description.waitingNodeTooltip), /sendAndWait/);
	});

	test('GET shows the page with both buttons and records nothing', async () => {
		const outcome = await page().receive({ method: 'GET', query }, { execute: false });
		assert.equal(outcome.status, 200);
		assert.equal(outcome.started, false);
		assert.match(outcome.responseBody, /Approve the refund of order 1042\?/);
		assert.match(outcome.responseBody, /<form method="post">/);
		assert.match(outcome.responseBody, /name="answer" value="approve">Approve</);
		assert.match(outcome.responseBody, /name="answer" value="decline">Decline</);
	});

	test('POST approve resumes with approved: true, who answered and when', async () => {
		const before = Date.now();
		const outcome = await page().receive(
			{ method: 'POST', query, body: { answer: 'approve' } },
			{ execute: false },
		);
		assert.equal(outcome.started, true);
		const data = outcome.result?.workflowData?.[0]?.[0]?.json.data as IDataObject;
		assert.equal(data.approved, true);
		assert.equal(data.respondedBy, '0501234567');
		assert.ok(Date.parse(String(data.respondedAt)) >= before - 1000);
		assert.match(outcome.responseBody, /Your answer was recorded: <strong>Approve<\/strong>/);
		assert.match(outcome.responseBody, /opening it again shows that no action is required/);
	});

	test('POST decline with custom labels resumes with approved: false', async () => {
		const instance = page({
			approvalOptions: {
				values: { approvalType: 'double', approveLabel: 'Yes', disapproveLabel: 'No <way>' },
			},
		});
		const shown = await instance.receive({ method: 'GET', query }, { execute: false });
		assert.match(shown.responseBody, />Yes</);
		assert.match(shown.responseBody, />No &lt;way&gt;</);
		const outcome = await instance.receive(
			{ method: 'POST', query, body: { answer: 'decline' } },
			{ execute: false },
		);
		assert.equal(
			(outcome.result?.workflowData?.[0]?.[0]?.json.data as IDataObject).approved,
			false,
		);
	});

	test('Approve Only: no Decline button, and a forged decline records nothing', async () => {
		const instance = page({ approvalOptions: { values: { approvalType: 'single' } } });
		const shown = await instance.receive({ method: 'GET', query }, { execute: false });
		assert.doesNotMatch(shown.responseBody, /value="decline"/);
		const outcome = await instance.receive(
			{ method: 'POST', query, body: { answer: 'decline' } },
			{ execute: false },
		);
		assert.equal(outcome.status, 400);
		assert.equal(outcome.started, false);
		assert.match(outcome.responseBody, /Choose one of the buttons/);
	});

	test('Free Text: a form; its answer resumes with the text; an empty one is asked again', async () => {
		const instance = page({ responseType: 'freeText' });
		const shown = await instance.receive({ method: 'GET', query }, { execute: false });
		assert.match(shown.responseBody, /<textarea name="text"/);
		const empty = await instance.receive(
			{ method: 'POST', query, body: { text: '   ' } },
			{ execute: false },
		);
		assert.equal(empty.status, 400);
		assert.equal(empty.started, false);
		const outcome = await instance.receive(
			{ method: 'POST', query, body: { text: ' Refund only half ' } },
			{ execute: false },
		);
		const data = outcome.result?.workflowData?.[0]?.[0]?.json.data as IDataObject;
		assert.equal(data.text, 'Refund only half');
		assert.equal(data.respondedBy, '0501234567');
		assert.equal('approved' in data, false);
	});
});
