import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { tagTest } from './tagTest.mts';

const { run, expr, rl, requests, tagId, ok, refused } = tagTest();

describe('Virtual Number → Tag → Rename', () => {
	test('Rename sends update_tag with the tag ID and the new name', async () => {
		const id = tagId('Unused');
		const [tag] = ok(await run({ operation: 'rename', tagId: rl(id), newName: 'Summer' }));
		assert.deepEqual(requests('update_tag')[0].body, { tag_id: String(id), tag_name: 'Summer' });
		assert.equal(tag.tag_id, id);
		assert.equal(tag.tag_name, 'Summer');
		assert.equal(tagId('Summer'), id);
		await refused(
			{ operation: 'rename', tagId: rl(id), newName: expr(' ') },
			/New Name: is required/,
		);
	});
});
