/**
 * The scheduled campaign's Delivery Report URL is the Production URL of the delivery-report example's
 * trigger on the same n8n, with that trigger's Secret; so are those of the campaign ledger's two Send
 * nodes (the ledger's delivery-report trigger), with their campaign IDs.
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
	type ExampleWorkflow,
} from '../../dev/demo/workflows.mts';

/** The trigger's Production URL with its Secret, as n8n builds it (webhook id, path `webhook`). */
function reportUrl(reports: ExampleWorkflow): string {
	const trigger = triggerOf(reports);
	// The harness runs as an n8n whose webhook base is http://localhost:5678/webhook.
	const production = NodeHelpers.getNodeWebhookUrl(
		'http://localhost:5678/webhook',
		'any',
		asINode(trigger),
		'webhook',
		false,
	);
	assert.equal(production, `http://localhost:5678/webhook/${trigger.webhookId}/webhook`);
	// With the trigger's Secret: its version 1.1 refuses a delivery report without it.
	const secret = (trigger.parameters as { options?: { secret?: string } }).options?.secret;
	assert.ok(secret, 'the delivery-report trigger has a Secret');
	return `${production}?secret=${secret}`;
}

/**
 * The trigger and the named Send node only: the Data table nodes after it need n8n's server, where
 * `npm run e2e` runs them (dev/e2e/lib/campaignLedger.mts).
 */
function triggerAndSend(workflow: ExampleWorkflow, send: string): ExampleWorkflow {
	const trigger = triggerOf(workflow);
	return {
		...workflow,
		nodes: workflow.nodes.filter((node) => node === trigger || node.name === send),
		connections: { [trigger.name]: { main: [[{ node: send, type: 'main', index: 0 }]] } },
	};
}

describe("the campaign's Delivery Report URL", () => {
	let sandbox: Sandbox;
	before(async () => {
		sandbox = await startSandbox();
	});
	after(async () => await sandbox.close());

	/** The Delivery Report URL of each message the workflow sent. */
	async function sentUrls(
		workflow: ExampleWorkflow,
		input = pinnedItems(workflow, triggerOf(workflow).name),
	) {
		sandbox.control.clearRequests();
		const run = await runExample(workflow, {
			input,
			credentials: {
				virtualnumSmsApi: { baseUrl: sandbox.smsUrl, accessToken: sandbox.tokens.sms },
			},
		});
		assert.equal(run.error, undefined, run.error?.message);
		const [request] = sandbox.control.requests({ operation: 'send_sms' });
		return (request.body as Array<{ callback_url?: string }>).map(
			(message) => message.callback_url,
		);
	}

	test('is, in n8n, the Production URL of the delivery-report trigger (same webhook id) with its Secret', async () => {
		const expected = reportUrl(loadExample('sms-delivery-reports.json'));
		const urls = await sentUrls(loadExample('sms-campaign-scheduled.json'));
		assert.deepEqual(urls, [expected, expected, expected]);
	});

	test("in the campaign ledger, is the ledger trigger's Production URL with its Secret and the campaign ID", async () => {
		const expected = reportUrl(loadExample('sms-ledger-delivery-reports.json'));
		const campaign = await sentUrls(
			triggerAndSend(loadExample('sms-ledger-campaign.json'), 'Send campaign SMS'),
		);
		assert.equal(campaign.length, 3);
		for (const url of campaign)
			assert.match(String(url), /&campaignId=spring-sale-\d{4}-\d{2}-\d{2}$/);
		const campaignId = String(campaign[0]).split('&campaignId=')[1];
		assert.deepEqual(campaign, Array(3).fill(`${expected}&campaignId=${campaignId}`));

		// The re-send, fed one failed row of the ledger: the new campaign says what it re-sends.
		const failedRow = { campaignId, recipient: '972545550000', message: 'Spring sale' };
		const resend = await sentUrls(
			triggerAndSend(loadExample('sms-ledger-resend-failed.json'), 'Send again'),
			[{ json: failedRow }],
		);
		assert.deepEqual(resend, [
			`${expected}&campaignId=${encodeURIComponent(`re-send of ${campaignId}`)}`,
		]);
	});
});
