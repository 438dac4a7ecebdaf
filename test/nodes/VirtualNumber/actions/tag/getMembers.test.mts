import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { tagTest } from './tagTest.mts';

const { run, rl, requests, tagId, ok } = tagTest();

describe('Virtual Number → Tag → Get Members', () => {
	test('Get Members sends get_members_by_tag_id and outputs number and description', async () => {
		const items = ok(await run({ operation: 'getMembers', tagId: rl(tagId('Facebook')) }));
		assert.deepEqual(requests('get_members_by_tag_id')[0].query, {
			service: 'get_members_by_tag_id',
			format: 'json',
			tag_id: String(tagId('Facebook')),
		});
		assert.deepEqual(
			items.map((m) => m.virtualnum),
			['0722000102', '0722000103'],
		);
		assert.ok(
			items.every((m) => typeof m.description === 'string' && m.statusDescription === undefined),
		);
		const empty = ok(await run({ operation: 'getMembers', tagId: rl(tagId('Unused')) }));
		assert.equal(empty.length, 0, 'an empty tag gives no items');
	});
});
