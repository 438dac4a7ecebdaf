/**
 * Send → Campaign → Output: Summary (nodes/BulkSms/actions/message/summary.ts): one item for the
 * run, with what became of every recipient, while every failure is still its own error item paired
 * to its input item (on the error output under "Continue (using error output)").
 *
 * Summary builds each batch's messages only while it is sent. The failures in the middle of a run,
 * Retry On Fail and Check Credit First must come out as with One Item per Recipient: the same
 * requests, the same error items paired to their input items, the same error when the node fails.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { IDataObject, INode } from 'n8n-workflow';

import type { FaultSpec } from '../../../../../dev/sandbox/index.mts';
import { runWorkflow } from '../../../../../dev/harness/engine.mts';
import { credentialsFor, failure, sandboxPerFile } from '../../../../../dev/harness/nodeTest.mts';
import { NODE, runCampaign, sendParameters, sentMessages } from './campaignRun.mts';
import { faultOnBatch } from './sendTest.mts';

const sandbox = sandboxPerFile();

const SUMMARY = { output: 'summary' };

describe('Bulk SMS → Send → Campaign → Output: Summary', () => {
	test('one item: sent, not sent by reason, parts, credits, first and last message ID', async () => {
		const recipients = ['0541110010', '0541110011', '+972-54-111-0011', '0541110012', '0541110013'];
		const result = await runCampaign(sandbox, recipients, {
			options: { sendOncePerNumber: true },
			campaign: {
				...SUMMARY,
				campaignId: 'spring-sale',
				optOuts: { source: { from: 'list', numbers: '054-111-0012' } },
			},
		});
		const sent = sandbox.control.messages();
		assert.equal(sent.length, 3);
		const items = result.items(NODE);
		assert.equal(items.length, 1);
		assert.deepEqual(items[0].json, {
			campaignId: 'spring-sale',
			recipients: 5,
			sent: 3,
			notSent: { optedOut: 1, sameNumber: 1, outsideWindow: 0 },
			failed: 0,
			failedItems: 0,
			smsParts: 3,
			estimatedCredits: 3,
			chargedCredits: 3,
			firstMessageId: sent[0].message_id,
			lastMessageId: sent[2].message_id,
			tries: 1,
		});
		assert.deepEqual(
			items[0].pairedItem,
			[0, 1, 2, 3, 4].map((item) => ({ item })),
		);
	});

	test('three bad numbers: the summary on the success output, three error items on the error output', async () => {
		const recipients = ['0541110010', 'not a phone', '12', '0541110011', '05411100x'];
		const result = await runCampaign(
			sandbox,
			recipients,
			{ campaign: SUMMARY },
			{ onError: 'continueErrorOutput' },
		);
		const [success, errors] = result.outputs(NODE);
		assert.equal(success.length, 1);
		assert.equal(success[0].json.sent, 2);
		assert.equal(success[0].json.failedItems, 3);
		assert.deepEqual(
			errors.map((item) => item.pairedItem),
			[{ item: 1 }, { item: 2 }, { item: 4 }],
		);
		for (const item of errors) assert.match(String(item.json.error), /^To: /);
		assert.equal(sentMessages(sandbox).length, 2);
	});

	test('a recipient the service refuses: an error item paired to its input item, counted as failed', async () => {
		sandbox.control.setCredit(2);
		const result = await runCampaign(
			sandbox,
			['0541110010', '0541110011', '0541110012'],
			{ campaign: SUMMARY },
			{ onError: 'continueErrorOutput' },
		);
		const [success, errors] = result.outputs(NODE);
		assert.deepEqual(
			[success[0].json.sent, success[0].json.failed, success[0].json.chargedCredits],
			[2, 1, 2],
		);
		assert.deepEqual(
			errors.map((item) => item.pairedItem),
			[{ item: 2 }],
		);
		assert.match(String(errors[0].json.error), /^The message to 0541110012 was not sent/);
	});

	test('without Continue On Fail a failure still fails the node, as with one item per recipient', async () => {
		const result = await runCampaign(sandbox, ['0541110010', 'not a phone'], { campaign: SUMMARY });
		assert.match(failure(result, NODE).message, /^To: /);
		assert.equal(sentMessages(sandbox).length, 0);
	});
});

/** Six recipients, one per item, in three batches of two. */
const DESTS = ['0521000001', '0521000002', '0521000003', '0521000004', '0521000005', '0521000006'];

interface Run {
	output: 'summary' | 'perRecipient';
	onError?: INode['onError'];
	retry?: boolean;
	options?: IDataObject;
}

const send = ({ output, onError, retry, options = {} }: Run) =>
	runWorkflow({
		nodes: [
			{
				name: NODE,
				type: 'bulkSms',
				parameters: sendParameters({
					options: { batchSize: 2, batchesInFlight: 1, ...options },
					campaign: { output },
				}),
				onError,
				retryOnFail: retry,
				maxTries: retry ? 3 : undefined,
				waitBetweenTries: retry ? 1 : undefined,
				typeVersion: 1.1,
			},
		],
		input: DESTS.map((to) => ({ json: { to } })),
		credentials: credentialsFor('bulkSms', sandbox),
	});

const requested = () =>
	sandbox.control
		.requests({ service: 'sms', operation: 'send_sms' })
		.map((request) => request.body as IDataObject[]);
const messageIds = () => sandbox.control.messages().map((message) => message.message_id);

/** The same run with One Item per Recipient, then with Summary: what the service got and what n8n showed. */
async function bothOutputs(run: Omit<Run, 'output'>, fault?: () => void) {
	const seen = [];
	for (const output of ['perRecipient', 'summary'] as const) {
		sandbox.control.reset();
		fault?.();
		const result = await send({ ...run, output });
		seen.push({ result, requests: requested(), ids: messageIds() });
	}
	return { perRecipient: seen[0], summary: seen[1] };
}

const REFUSED: FaultSpec = {
	kind: 'serviceError',
	code: 403,
	description: 'Sender blocked for this route',
};

describe('Bulk SMS → Send → Output: Summary, batch by batch', { concurrency: 1 }, () => {
	test('the middle batch refused, under the error output: the same requests, its two recipients on the error output', async () => {
		const { perRecipient, summary } = await bothOutputs({ onError: 'continueErrorOutput' }, () =>
			faultOnBatch(sandbox, 2, REFUSED),
		);
		assert.deepEqual(summary.requests, perRecipient.requests);
		assert.equal(summary.requests.length, 3);
		const [success, errors] = summary.result.outputs(NODE);
		assert.deepEqual(errors, perRecipient.result.outputs(NODE)[1]);
		assert.deepEqual(
			errors.map((item) => item.pairedItem),
			[{ item: 2 }, { item: 3 }],
		);
		assert.match(String(errors[0].json.error), /^The message to 0521000003 was not sent/);
		assert.deepEqual(
			[success[0].json.sent, success[0].json.failed, success[0].json.recipients],
			[4, 2, 6],
		);
		const ids = summary.ids;
		assert.deepEqual(
			[success[0].json.firstMessageId, success[0].json.lastMessageId],
			[ids[0], ids[ids.length - 1]],
		);
	});

	test('the middle batch fails without Continue On Fail: the same error, listing the messages of the dropped first batch', async () => {
		const { perRecipient, summary } = await bothOutputs({}, () =>
			faultOnBatch(sandbox, 2, { kind: 'http500' }),
		);
		assert.deepEqual(summary.requests, perRecipient.requests);
		assert.equal(summary.requests.length, 2, 'nothing after the failed batch');
		const error = summary.result.error;
		assert.ok(error);
		const before = perRecipient.result.error!;
		const data = (error.context as IDataObject).data as IDataObject;
		assert.equal(error.message, before.message);
		assert.equal(
			error.description,
			String(before.description)
				.replaceAll(String(perRecipient.ids[0]), String(summary.ids[0]))
				.replaceAll(String(perRecipient.ids[1]), String(summary.ids[1])),
		);
		assert.deepEqual(data.sent, [
			{ dest: '0521000001', message_id: summary.ids[0], inputItem: 0 },
			{ dest: '0521000002', message_id: summary.ids[1], inputItem: 1 },
		]);
		assert.deepEqual(data.notSent, [
			{ dest: '0521000005', inputItem: 4 },
			{ dest: '0521000006', inputItem: 5 },
		]);
		assert.deepEqual(data.failedBatch, [
			{ dest: '0521000003', inputItem: 2 },
			{ dest: '0521000004', inputItem: 3 },
		]);
	});

	test('Retry On Fail: the batch refused before the service read it is sent by the next try, the others once', async () => {
		const { perRecipient, summary } = await bothOutputs({ retry: true }, () =>
			faultOnBatch(sandbox, 2, { kind: 'unauthorized', text: 'Token Expired' }),
		);
		assert.equal(summary.result.error, undefined, summary.result.error?.message);
		assert.deepEqual(summary.requests, perRecipient.requests);
		assert.deepEqual(
			summary.requests.map((body) => body.map((message) => message.dest)),
			[DESTS.slice(0, 2), DESTS.slice(2, 4), DESTS.slice(2, 4), DESTS.slice(4, 6)],
		);
		const [item] = summary.result.items(NODE);
		assert.deepEqual(
			[item.json.sent, item.json.failed, item.json.tries, item.json.firstMessageId],
			[6, 0, 2, summary.ids[0]],
		);
		assert.equal(item.json.lastMessageId, summary.ids[5]);
	});

	test('Check Credit First: too little credit for the run fails it before any message, as without Summary', async () => {
		const { perRecipient, summary } = await bothOutputs(
			{ options: { checkCreditFirst: true } },
			() => sandbox.control.setCredit(5),
		);
		assert.deepEqual(summary.requests, []);
		assert.equal(summary.result.error?.message, perRecipient.result.error?.message);
		assert.match(
			String(summary.result.error?.message),
			/^Not enough SMS credit: the balance is 5, and this run has 6 recipients/,
		);
	});

	test('Check Credit First under the error output: every item on the error output, nothing sent', async () => {
		sandbox.control.setCredit(5);
		const result = await send({
			output: 'summary',
			onError: 'continueErrorOutput',
			options: { checkCreditFirst: true },
		});
		assert.deepEqual(requested(), []);
		const [success, errors] = result.outputs(NODE);
		assert.deepEqual(
			errors.map((item) => item.pairedItem),
			DESTS.map((_, item) => ({ item })),
		);
		assert.deepEqual(
			[success[0].json.recipients, success[0].json.sent, success[0].json.failedItems],
			[0, 0, 6],
		);
	});
});
