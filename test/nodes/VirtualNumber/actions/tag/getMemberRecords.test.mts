import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { tagTest } from './tagTest.mts';

const { run, rl, requests, tagId, ok } = tagTest();

describe('Virtual Number → Tag → Get Member Records', () => {
	test('Get Member Records sends view_virtualnum_members_by_tag_id and outputs full number records', async () => {
		const items = ok(await run({ operation: 'getMemberRecords', tagId: rl(tagId('Google')) }));
		assert.equal(
			requests('view_virtualnum_members_by_tag_id')[0].query.tag_id,
			String(tagId('Google')),
		);
		assert.deepEqual(
			items.map((n) => n.virtualnum),
			['0722000100', '0722000101'],
		);
		for (const field of ['description', 'call_destination_phone', 'active_status'])
			assert.ok(field in items[0], field);
	});
});
