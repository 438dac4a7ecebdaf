import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { tagTest } from '../actions/tag/tagTest.mts';

const { sandbox, requests, listSearch } = tagTest();

describe('Virtual Number → Tag', () => {
	describe('resource locator lists', () => {
		test('list tags by ID, and by name, filtered on the service side', async () => {
			const byId = await listSearch('searchTags');
			assert.deepEqual(
				byId.results.map((r) => r.value),
				sandbox.control.tags().map((t) => String(t.tag_id)),
			);
			assert.ok(byId.results.some((r) => r.name === 'Google (2 numbers)'));
			sandbox.control.clearRequests();
			const byName = await listSearch('searchTagNames', 'face');
			assert.deepEqual(byName.results, [{ name: 'Facebook (2 numbers)', value: 'Facebook' }]);
			assert.equal(requests('view_tags')[0].query.tag_name, 'face');
			const none = await listSearch('searchTags', 'zzz');
			assert.deepEqual(none.results, []);
		});

		test('the virtual number list (searchVirtualnums) is registered for the number locators', async () => {
			const numbers = await listSearch('searchVirtualnums', '07220001');
			assert.deepEqual(
				numbers.results.map((r) => r.value),
				sandbox.control
					.virtualnums()
					.filter((n) => n.virtualnum.startsWith('07220001') && Number(n.active_status) === 1)
					.map((n) => n.virtualnum),
			);
		});
	});
});
