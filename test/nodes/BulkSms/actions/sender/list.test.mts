import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { NODE, senderTest } from './senderTest.mts';

const { sandbox, run, senderRequests } = senderTest();

describe('Bulk SMS → Sender', () => {
	describe('List', () => {
		test('lists the senders with their type and verified flag', async () => {
			const result = await run('list', {});
			assert.equal(result.error, undefined, result.error?.message);
			const [request] = senderRequests();
			assert.equal(request.method, 'GET');
			assert.equal(request.path, '/api/ws.php');
			assert.deepEqual(request.query, { service: 'get_sender_list' });
			const senders = result.items(NODE).map((i) => i.json);
			assert.deepEqual(
				senders.map((s) => [s.sender, s.type, s.verified]),
				sandbox.control.senders().map((s) => [s.sender, s.type, s.verified]),
			);
			assert.ok(
				senders.some((s) => s.type === 'phone' && s.verified === false),
				'unverified senders are listed too',
			);
		});

		test('passes the search filter and the account token', async () => {
			const result = await run('list', { search: 'Shop' }, [{}], {
				credentials: { accountToken: sandbox.tokens.smsAccount },
			});
			assert.equal(result.error, undefined, result.error?.message);
			assert.deepEqual(senderRequests()[0].query, {
				service: 'get_sender_list',
				search: 'Shop',
				token: sandbox.tokens.smsAccount,
			});
			assert.deepEqual(
				result.items(NODE).map((i) => i.json.sender),
				['Shop24'],
			);
			assert.ok(!JSON.stringify(result.items(NODE)).includes(sandbox.tokens.smsAccount));
		});

		test('a search with other characters fails the item before any request', async () => {
			const result = await run('list', { search: 'Shop 24!' });
			assert.ok(result.error);
			assert.match(
				result.error.message,
				/Search: may contain digits and Latin letters only \(got "Shop 24!"\)/,
			);
			assert.equal(senderRequests().length, 0);
		});
	});
});
