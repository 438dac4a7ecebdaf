/**
 * Send → Campaign → Output: Summary: one item for the run, with what became of every recipient,
 * while every failure is still its own error item paired to its input item (on the error output
 * under "Continue (using error output)"); and the Campaign ID carried to the delivery reports.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { failure, jsons, sandboxPerFile } from '../../../../../dev/harness/nodeTest.mts';
import { NODE, runCampaign, sentMessages } from './campaignRun.mts';

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

describe('Bulk SMS → Send → Campaign → Campaign ID', () => {
	test('default: the execution ID, in each item and in the Delivery Report URL', async () => {
		const result = await runCampaign(sandbox, ['0541110010'], {
			options: { callbackUrl: 'https://n8n.example.com/webhook/abc?secret=s3&campaignId=old' },
			campaign: { output: 'perRecipient' },
		});
		assert.equal(jsons(result, NODE)[0].campaignId, 'test-execution');
		assert.equal(
			sentMessages(sandbox)[0].callback_url,
			'https://n8n.example.com/webhook/abc?secret=s3&campaignId=test-execution',
		);
	});

	test('set by an expression: encoded in the URL', async () => {
		await runCampaign(sandbox, ['0541110010'], {
			options: { callbackUrl: 'https://n8n.example.com/webhook/abc' },
			campaign: { campaignId: "={{ 'Sale ' + 'א/1' }}" },
		});
		assert.equal(
			sentMessages(sandbox)[0].callback_url,
			'https://n8n.example.com/webhook/abc?campaignId=Sale%20%D7%90%2F1',
		);
	});

	test('without Campaign options nothing changes: no campaignId, the URL as typed', async () => {
		const result = await runCampaign(sandbox, ['0541110010'], {
			options: { callbackUrl: 'https://n8n.example.com/webhook/abc' },
		});
		assert.equal(jsons(result, NODE)[0].campaignId, undefined);
		assert.equal(sentMessages(sandbox)[0].callback_url, 'https://n8n.example.com/webhook/abc');
	});
});
