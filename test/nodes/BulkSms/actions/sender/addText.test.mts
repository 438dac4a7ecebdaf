import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { NODE, senderTest } from './senderTest.mts';

const { sandbox, run, senderRequests, noSecrets } = senderTest();

describe('Bulk SMS → Sender', () => {
	describe('Add Text Sender', () => {
		test('sends add_sender_text with the name and the account token, and the new sender is listed', async () => {
			const result = await run('addText', { textSender: 'MyShop_1' }, [{}], {
				credentials: { accountToken: sandbox.tokens.smsAccount },
			});
			assert.equal(result.error, undefined, result.error?.message);
			const [request] = senderRequests();
			assert.equal(request.method, 'GET');
			assert.deepEqual(request.query, {
				service: 'add_sender_text',
				sender: 'MyShop_1',
				token: sandbox.tokens.smsAccount,
			});
			const [item] = result.items(NODE);
			assert.equal(item.json.status, 'success');
			assert.equal(item.json.sender, 'MyShop_1');
			assert.ok(
				sandbox.control.senders().some((s) => s.sender === 'MyShop_1' && s.type === 'text'),
			);
		});

		test("the service's refusal (the sender exists) is an error in the service's words", async () => {
			const result = await run('addText', { textSender: 'Shop24' });
			assert.ok(result.error);
			assert.match(
				result.error.message,
				/Bulk SMS add_sender_text failed: The sender "Shop24" already exists/,
			);
			noSecrets(result);
		});

		const bad: Array<[string, string, RegExp]> = [
			[
				'too short',
				'ab',
				/Sender Name: is not valid: a text sender must be 3-11 characters.*\(got "ab"\)/,
			],
			['too long', 'abcdefghijkl', /Sender Name: is not valid.*\(got "abcdefghijkl"\)/],
			['a digit first', '1Shop', /Sender Name: is not valid.*\(got "1Shop"\)/],
			['a space', 'My Shop', /Sender Name: is not valid.*\(got "My Shop"\)/],
			['a Hebrew letter', 'Shopש', /Sender Name: is not valid/],
			['nothing in it', '', /Sender Name: is required/],
		];
		for (const [name, value, message] of bad) {
			test(`a sender name with ${name} fails only its item, before any request`, async () => {
				const input = [{ name: 'GoodOne' }, { name: value }, { name: 'GoodTwo' }];
				const failed = await run('addText', { textSender: '={{ $json.name }}' }, [
					{ name: 'GoodOne' },
					{ name: value },
				]);
				assert.ok(failed.error);
				assert.match(failed.error.message, message);
				assert.equal((failed.error.context as IDataObject).itemIndex, 1);
				// Sender operations run item by item: item 0 was sent, item 1 failed before its request.
				assert.deepEqual(
					senderRequests().map((r) => r.query.sender),
					['GoodOne'],
				);

				sandbox.control.reset();
				const result = await run('addText', { textSender: '={{ $json.name }}' }, input, {
					continueOnFail: true,
				});
				const items = result.items(NODE);
				assert.equal(items.length, 3);
				assert.match(String(items[1].json.error), message);
				assert.deepEqual(items[1].pairedItem, { item: 1 });
				assert.deepEqual(
					senderRequests().map((r) => r.query.sender),
					['GoodOne', 'GoodTwo'],
				);
			});
		}
	});
});
