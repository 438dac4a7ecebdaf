import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { tagTest } from './tagTest.mts';

const { run, rl, requests, ok } = tagTest();

describe('Virtual Number → Tag → Get Members by Tag Name', () => {
	test('Get Members by Tag Name sends get_members_by_tag_name', async () => {
		const items = ok(await run({ operation: 'getMembersByName', tagName: rl('Google') }));
		assert.deepEqual(requests('get_members_by_tag_name')[0].query, {
			service: 'get_members_by_tag_name',
			format: 'json',
			tag_name: 'Google',
		});
		assert.deepEqual(
			items.map((m) => m.virtualnum),
			['0722000100', '0722000101'],
		);
		const missing = await run({ operation: 'getMembersByName', tagName: rl('Nope', 'name') });
		assert.match(String(missing.error?.message), /The tag does not exist \(code 5003\)/);
	});
});
