import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { tagTest } from './tagTest.mts';

const { run, rl, requests, tagId, members, ok } = tagTest();

describe('Virtual Number → Tag → Remove Number', () => {
	test('Remove Number sends remove_member_from_tag_id', async () => {
		const id = tagId('Google');
		const [output] = ok(
			await run({ operation: 'removeMember', tagId: rl(id), virtualnum: rl('0722000101') }),
		);
		assert.deepEqual(requests('remove_member_from_tag_id')[0].body, {
			tag_id: String(id),
			virtualnum: '0722000101',
		});
		assert.equal(output.success, true);
		assert.deepEqual(members('Google'), ['0722000100']);
		const again = await run({
			operation: 'removeMember',
			tagId: rl(id),
			virtualnum: rl('0722000101'),
		});
		assert.match(String(again.error?.message), /The number is not in this tag \(code 5008\)/);
	});
});
