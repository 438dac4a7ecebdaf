import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { tagTest } from './tagTest.mts';

const { run, rl, requests, tagId, members, ok } = tagTest();

describe('Virtual Number → Tag → Delete', () => {
	test('Delete sends delete_tag and the tag is gone', async () => {
		const id = tagId('VIP');
		const [output] = ok(await run({ operation: 'delete', tagId: rl(id) }));
		const [request] = requests('delete_tag');
		assert.equal(request.method, 'POST');
		assert.deepEqual(request.body, { tag_id: String(id) });
		assert.equal(output.deleted, true);
		assert.equal(output.tag_id, id);
		// The service's status text under its own name: `description` is a number's description (Get Members).
		assert.equal(output.statusDescription, 'Success');
		assert.equal(output.description, undefined);
		assert.equal(members('VIP'), undefined);
	});
});
