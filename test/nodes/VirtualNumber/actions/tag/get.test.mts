import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { tagTest } from './tagTest.mts';

const { run, expr, rl, requests, tagId, ok, refused } = tagTest();

describe('Virtual Number → Tag → Get', () => {
	test('Get sends view_tag_by_id and outputs the tag; an unknown ID explains 5003', async () => {
		const id = tagId('Google');
		const items = ok(await run({ operation: 'get', tagId: rl(id) }));
		assert.deepEqual(requests('view_tag_by_id')[0].query, {
			service: 'view_tag_by_id',
			format: 'json',
			tag_id: String(id),
		});
		assert.deepEqual(
			items.map((t) => [t.tag_id, t.tag_name, t.members_count]),
			[[id, 'Google', 2]],
		);
		const missing = await run({ operation: 'get', tagId: rl(9999, 'id') });
		assert.match(
			String(missing.error?.message),
			/view_tag_by_id failed: The tag does not exist \(code 5003\)/,
		);
		assert.match(String(missing.error?.description), /meaning is the one this package assumes/);
	});

	test('a tag ID that is not a whole number is refused before any request', async () => {
		await refused({ operation: 'get', tagId: rl(expr('Google'), 'id') }, /Tag: must be a tag ID/);
		await refused({ operation: 'get', tagId: rl(expr('')) }, /Tag: is required/);
	});
});
