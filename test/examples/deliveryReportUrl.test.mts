/**
 * The scheduled campaign's Delivery Report URL is the Production URL of the delivery-report example's
 * trigger on the same n8n, with that trigger's Secret.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { NodeHelpers } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../dev/sandbox/index.mts';
import {
	asINode,
	loadExample,
	pinnedItems,
	runExample,
	triggerOf,
} from '../../dev/demo/workflows.mts';

describe("the campaign's Delivery Report URL", () => {
	let sandbox: Sandbox;
	before(async () => {
		sandbox = await startSandbox();
	});
	after(async () => await sandbox.close());

	test('is, in n8n, the Production URL of the delivery-report trigger (same webhook id) with its Secret', async () => {
		const campaign = loadExample('sms-campaign-scheduled.json');
		const reports = loadExample('sms-delivery-reports.json');
		const trigger = triggerOf(reports);
		const run = await runExample(campaign, {
			input: pinnedItems(campaign, triggerOf(campaign).name),
			credentials: {
				virtualnumSmsApi: { baseUrl: sandbox.smsUrl, accessToken: sandbox.tokens.sms },
			},
		});
		assert.equal(run.error, undefined, run.error?.message);
		const [request] = sandbox.control.requests({ operation: 'send_sms' });
		const messages = request.body as Array<{ callback_url?: string }>;
		// The harness runs as an n8n whose webhook base is http://localhost:5678/webhook.
		const production = NodeHelpers.getNodeWebhookUrl(
			'http://localhost:5678/webhook',
			'any',
			asINode(trigger),
			'webhook',
			false,
		);
		assert.equal(production, `http://localhost:5678/webhook/${trigger.webhookId}/webhook`);
		assert.equal(messages.length, 3);
		// With the trigger's Secret: its version 1.1 refuses a delivery report without it.
		const secret = (trigger.parameters as { options?: { secret?: string } }).options?.secret;
		assert.ok(secret, 'the delivery-report trigger has a Secret');
		for (const message of messages)
			assert.equal(message.callback_url, `${production}?secret=${secret}`);
	});
});
