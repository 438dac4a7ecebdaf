import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { tagTest } from './tagTest.mts';

const { run, expr, requests, tagId, ok, refused } = tagTest();

describe('Virtual Number → Tag → Create', () => {
	test('Create sends create_tag as a POST and outputs the new tag', async () => {
		const [tag] = ok(await run({ operation: 'create', name: 'Spring Campaign' }));
		const [request] = requests('create_tag');
		assert.equal(request.method, 'POST');
		assert.deepEqual(request.body, { tag_name: 'Spring Campaign' });
		assert.equal(tag.success, true);
		assert.equal(tag.tag_name, 'Spring Campaign');
		assert.equal(tag.tag_id, tagId('Spring Campaign'));
		assert.equal(tag.members_count, 0);
	});

	test('Create with a taken name explains 5072 (the code public integrations report); an empty name is refused before any request', async () => {
		const result = await run({ operation: 'create', name: 'Google' });
		assert.match(
			String(result.error?.message),
			/create_tag failed: A tag with this name exists \(code 5072\)/,
		);
		await refused({ operation: 'create', name: expr('') }, /Name: is required/);
	});
});
