// Send From: Reply From: the Number Texted (nodes/BulkSms/actions/message/numberTexted.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { NODE, phone, sendParameters, sendTest } from './sendTest.mts';
import { runWorkflow } from '../../../../../dev/harness/engine.mts';

/** SMS Received's items as the trigger makes them (from, to: the number texted, text). */
const texted = (to: string, i: number): IDataObject => ({
	event: 'sms.received',
	from: phone(i),
	to,
	text: 'Hi',
});

describe('Bulk SMS → Send → Send From: Reply From: the Number Texted', () => {
	const { sandbox, credentials, sendRequests } = sendTest();
	const parameters = (extra: IDataObject = {}) => ({
		...sendParameters({ to: '={{ $json.from }}', message: 'Thanks, we got it' }),
		sender: { __rl: true, mode: 'list', value: '' },
		sendFrom: 'numberTexted',
		...extra,
	});

	test("each reply goes out from the number its person texted: the trigger's to of its item", async () => {
		const result = await runWorkflow({
			startName: 'SMS Received',
			startType: 'virtualNumberTrigger',
			nodes: [{ name: NODE, type: 'bulkSms', parameters: parameters() }],
			input: [texted('0501234567', 1), texted('VirtualNum', 2)].map((json) => ({ json })),
			credentials: credentials(),
		});
		assert.equal(result.error, undefined, result.error?.message);
		const sent = sandbox.control.messages().slice(-2);
		assert.deepEqual(
			sent.map((m) => [m.dest.slice(-8), m.sender]),
			[
				[phone(1).slice(-8), '0501234567'],
				[phone(2).slice(-8), 'VirtualNum'],
			],
		);
		assert.deepEqual(
			result.items(NODE).map((item) => item.pairedItem),
			[{ item: 0 }, { item: 1 }],
		);
	});

	test('with no Virtual Number Trigger before the node, the item fails naming Send From and nothing is sent', async () => {
		const before = sendRequests().length;
		const result = await runWorkflow({
			nodes: [{ name: NODE, type: 'bulkSms', parameters: parameters(), continueOnFail: true }],
			input: [{ json: texted('0501234567', 3) }],
			credentials: credentials(),
		});
		assert.equal(result.error, undefined);
		const [item] = result.items(NODE);
		assert.match(
			String(item.json.error),
			/^Send From: the Number Texted needs a Virtual Number Trigger/,
		);
		assert.equal(sendRequests().length, before);
	});

	test('an item whose trigger item has no to (a call event) fails naming Send From; the others are sent', async () => {
		const result = await runWorkflow({
			startName: 'SMS Received',
			startType: 'virtualNumberTrigger',
			nodes: [{ name: NODE, type: 'bulkSms', parameters: parameters(), continueOnFail: true }],
			input: [{ json: { event: 'call.ended', from: phone(4) } }, { json: texted('0501234567', 5) }],
			credentials: credentials(),
		});
		assert.equal(result.error, undefined, result.error?.message);
		const items = result.items(NODE);
		assert.match(
			String(items[0].json.error),
			/Send From: the Number Texted is not known for this item/,
		);
		assert.equal(items[1].json.error, undefined);
		assert.equal(sandbox.control.messages().at(-1)?.sender, '0501234567');
	});
});
