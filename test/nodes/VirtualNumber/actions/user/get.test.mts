import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { userTest } from './userTest.mts';

const { run, json, user, requests, listSearch } = userTest();

describe('Virtual Number → User', () => {
	describe('Get and Get Many', () => {
		test('Get reads one user by ID', async () => {
			const result = await run({ operation: 'get', userId: user(2) });
			assert.equal(result.error, undefined, result.error?.message);
			assert.deepEqual(requests('get_user_by_id')[0].query, {
				service: 'get_user_by_id',
				format: 'json',
				user_id: '2',
			});
			const items = json(result);
			assert.equal(items.length, 1);
			assert.equal(items[0].user_id, 2);
			assert.equal(items[0].email, 'agent1@example.com');
			assert.ok(Array.isArray(items[0].virtualnums));
		});

		test('Get of an unknown user gives the 7032 explanation', async () => {
			const result = await run({ operation: 'get', userId: user(999) });
			assert.match(String(result.error?.message), /The user does not exist \(code 7032\)/);
		});

		test('Get Many outputs one item per user, and Limit cuts the list', async () => {
			const all = await run({ operation: 'getAll', returnAll: true });
			assert.deepEqual(
				json(all).map((u) => u.user_id),
				[1, 2],
			);
			assert.equal(requests('get_users')[0].method, 'GET');
			const one = await run({ operation: 'getAll', returnAll: false, limit: 1 });
			assert.deepEqual(
				json(one).map((u) => u.user_id),
				[1],
			);
		});

		test('the user list of the resource locator comes from get_users and filters on login or email', async () => {
			const all = await listSearch('searchUsers');
			assert.deepEqual(all.results, [
				{ name: 'admin — admin@example.com', value: '1' },
				{ name: 'agent1 — agent1@example.com', value: '2' },
			]);
			const filtered = await listSearch('searchUsers', 'AGENT');
			assert.deepEqual(
				filtered.results.map((r) => r.value),
				['2'],
			);
		});
	});
});
