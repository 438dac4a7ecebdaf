import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { tagTest } from './tagTest.mts';

const { run, expr, requests, ok, refused } = tagTest();

describe('Virtual Number → Tag → Get by Name', () => {
	test('Get by Name sends view_tag_by_name with tag_name', async () => {
		const items = ok(await run({ operation: 'getByName', name: 'VIP' }));
		assert.deepEqual(requests('view_tag_by_name')[0].query, {
			service: 'view_tag_by_name',
			format: 'json',
			tag_name: 'VIP',
		});
		assert.deepEqual(
			items.map((t) => [t.tag_name, t.members_count]),
			[['VIP', 1]],
		);
		await refused({ operation: 'getByName', name: expr('  ') }, /Name: is required/);
	});
});
