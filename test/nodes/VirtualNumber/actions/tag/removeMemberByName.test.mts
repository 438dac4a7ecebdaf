import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { tagTest } from './tagTest.mts';

const { run, rl, requests, members, ok } = tagTest();

describe('Virtual Number → Tag → Remove Number by Tag Name', () => {
	test('Remove Number by Tag Name sends remove_member_from_tag_name', async () => {
		const [output] = ok(
			await run({
				operation: 'removeMemberByName',
				tagName: rl('Facebook', 'name'),
				virtualnum: rl('0722000102'),
			}),
		);
		assert.deepEqual(requests('remove_member_from_tag_name')[0].body, {
			tag_name: 'Facebook',
			virtualnum: '0722000102',
		});
		assert.equal(output.tag_name, 'Facebook');
		assert.deepEqual(members('Facebook'), ['0722000103']);
	});
});
