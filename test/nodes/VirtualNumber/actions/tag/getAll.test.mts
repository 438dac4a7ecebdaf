import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { tagTest } from './tagTest.mts';

const { sandbox, run, requests, ok } = tagTest();

describe('Virtual Number → Tag → Get Many', () => {
	test('Get Many sends view_tags and outputs one item per tag', async () => {
		const items = ok(await run({ operation: 'getAll', returnAll: true }));
		assert.deepEqual(requests('view_tags')[0].query, { service: 'view_tags', format: 'json' });
		assert.deepEqual(
			items.map((t) => t.tag_name),
			sandbox.control.tags().map((t) => t.tag_name),
		);
		assert.deepEqual(Object.keys(items[0]).sort(), [
			'create_time',
			'members_count',
			'tag_id',
			'tag_name',
		]);
	});

	test('Get Many filters by name on the service side and honours Limit', async () => {
		const items = ok(await run({ operation: 'getAll', returnAll: true, nameFilter: 'oo' }));
		assert.equal(requests('view_tags')[0].query.tag_name, 'oo');
		assert.deepEqual(
			items.map((t) => t.tag_name),
			['Google', 'Facebook'].filter((n) => n.includes('oo')),
		);
		const limited = ok(await run({ operation: 'getAll', returnAll: false, limit: 2 }));
		assert.equal(limited.length, 2);
	});

	test('Get Many with no match gives no items (5009), not an error', async () => {
		const items = ok(
			await run({ operation: 'getAll', returnAll: true, nameFilter: 'no such tag' }),
		);
		assert.equal(items.length, 0);
	});
});
