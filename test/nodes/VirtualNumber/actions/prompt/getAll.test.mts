import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { promptTest } from './promptTest.mts';

const { run, rl, requests, ok, listSearch } = promptTest();

describe('Virtual Number → Voice Prompt', () => {
	describe('Get Many', () => {
		test('sends get_prompts_list and outputs one item per prompt', async () => {
			const items = ok(await run({ operation: 'getAll', returnAll: true }));
			assert.deepEqual(requests('get_prompts_list')[0].query, {
				service: 'get_prompts_list',
				format: 'json',
			});
			assert.deepEqual(
				items.map((p) => p.name),
				['welcome', 'after_hours', 'hold_music'],
			);
			assert.deepEqual(Object.keys(items[0]).sort(), ['create_date', 'length', 'name', 'size']);
			assert.equal(ok(await run({ operation: 'getAll', returnAll: false, limit: 1 })).length, 1);
		});

		test('an account without prompts gives no items (9041)', async () => {
			for (const name of ['welcome', 'after_hours', 'hold_music'])
				ok(await run({ operation: 'delete', promptName: rl(name) }));
			assert.equal(ok(await run({ operation: 'getAll', returnAll: true })).length, 0);
		});

		test('the prompt list of the resource locator filters by name', async () => {
			assert.deepEqual(
				(await listSearch('searchPrompts')).results.map((r) => r.value),
				['welcome', 'after_hours', 'hold_music'],
			);
			assert.deepEqual((await listSearch('searchPrompts', 'HOLD')).results, [
				{ name: 'hold_music', value: 'hold_music' },
			]);
		});
	});
});
