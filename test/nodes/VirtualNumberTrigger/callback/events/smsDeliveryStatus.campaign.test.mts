/**
 * SMS Delivery Status with a campaign: Bulk SMS Send (Campaign options) sends with the trigger's
 * URL as its Delivery Report URL, the sandbox's SMS service reports each delivery to it, and each
 * item carries the Campaign ID beside the message ID and the recipient. A report without one keeps
 * the shape it always had.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { runWorkflow } from '../../../../../dev/harness/engine.mts';
import { credentialsFor, jsons, rl } from '../../../../../dev/harness/nodeTest.mts';
import { callbackSetup } from '../callbackSetup.mts';

describe('Virtual Number Trigger → SMS Delivery Status → Campaign ID', () => {
	const { sandbox, activated } = callbackSetup();

	async function send(campaign: IDataObject) {
		const trigger = await activated({ events: ['smsDelivery'] });
		const result = await runWorkflow({
			nodes: [
				{
					name: 'Bulk SMS',
					type: 'bulkSms',
					typeVersion: 1.1,
					parameters: {
						resource: 'message',
						operation: 'send',
						sender: rl('VirtualNum', 'id'),
						to: '0541110010, 0541110020',
						message: 'Spring sale',
						options: { callbackUrl: trigger.webhookUrl },
						campaign,
					},
				},
			],
			credentials: credentialsFor('bulkSms', sandbox),
		});
		await sandbox.control.flushScheduled();
		await sandbox.control.settle();
		const reports = trigger.executions
			.map((items) => items[0].json)
			.sort((a, b) => Number(a.messageId) - Number(b.messageId));
		return { sent: jsons(result, 'Bulk SMS'), reports };
	}

	test('each delivery report carries the campaign ID with the message ID and the recipient', async () => {
		const { sent, reports } = await send({ campaignId: 'spring-2026' });
		assert.deepEqual(
			reports.map((r) => [r.event, r.campaignId, r.messageId, r.recipient, r.deliveryStatus]),
			sent.map((s) => ['sms.delivery', 'spring-2026', String(s.message_id), s.dest, 'DELIVERED']),
		);
	});

	test('the default Campaign ID is the execution ID of the sending run', async () => {
		const { reports } = await send({ output: 'perRecipient' });
		assert.deepEqual(
			reports.map((r) => r.campaignId),
			['test-execution', 'test-execution'],
		);
	});

	test('a report of a message sent without Campaign options has no campaignId', async () => {
		const { reports } = await send({});
		assert.equal(reports.length, 2);
		for (const report of reports) assert.equal('campaignId' in report, false);
	});
});
