/** Delivery reports sent to the trigger's URL, as sms.delivery items. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { selectedNumbers } from '../../../../../dev/harness/trigger.mts';
import { callbackSetup } from '../callbackSetup.mts';

describe('Virtual Number Trigger → SMS Delivery Status', () => {
	const { sandbox, numbers, activated, post } = callbackSetup();

	test('SMS delivery statuses sent to the trigger URL come out as sms.delivery items', async () => {
		const t = await activated({ events: ['smsDelivery'] });
		const send = await fetch(`${sandbox.smsUrl}/api/ws_json_bulk.php`, {
			method: 'POST',
			headers: {
				Authorization: `Bearer ${sandbox.tokens.sms}`,
				'Content-Type': 'application/json',
			},
			body: JSON.stringify([
				{
					dest: '0541112222',
					sender: 'VirtualNum',
					message: 'Your order shipped',
					callback_url: t.webhookUrl,
				},
				{
					dest: '0540000000',
					sender: 'VirtualNum',
					message: 'Your order shipped',
					callback_url: t.webhookUrl,
				},
			]),
		});
		const results = (await send.json()) as Array<{ message_id: number; status: string }>;
		assert.deepEqual(
			results.map((r) => r.status),
			['Message in Action', 'Message in Action'],
		);
		await sandbox.control.flushScheduled();
		await sandbox.control.settle();
		const items = t.executions
			.map((items) => items[0].json)
			.sort((a, b) => Number(a.messageId) - Number(b.messageId));
		assert.equal(items.length, 2);
		const sent = sandbox.control.messages();
		assert.deepEqual(
			items.map((item) => {
				const { receivedAt, method, query, body, ...rest } = item;
				void receivedAt;
				void method;
				void query;
				void body;
				return rest;
			}),
			sent.map((m) => ({
				event: 'sms.delivery',
				messageId: String(m.message_id),
				recipient: m.dest,
				sender: m.sender,
				deliveryStatus: m.dest.endsWith('0000') ? 'FAILED' : 'DELIVERED',
				statusTime: m.status_time,
				sendTime: m.sendtime,
			})),
		);
		assert.deepEqual(
			items.map((i) => String(i.messageId)),
			results.map((r) => String(r.message_id)),
		);
	});

	test('SMS delivery statuses are answered 200 and start nothing when only call events are chosen', async () => {
		const t = await activated({
			events: ['callEnded'],
			numbers: 'selected',
			virtualnums: selectedNumbers([numbers()[0]]),
		});
		const answer = await post(
			t.webhookUrl,
			JSON.stringify({ message_id: 7, dest: '0541112222', sender: 'Shop24', status: 'DELIVERED' }),
			'application/json',
		);
		assert.equal(answer.status, 200);
		assert.equal(await answer.text(), '');
		assert.equal(t.executions.length, 0);
	});
});
