import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { tagTest } from './tagTest.mts';

const { run, expr, rl, requests, tagId, members, ok, refused } = tagTest();

describe('Virtual Number → Tag → Add Number', () => {
	test('Add Number sends add_member_to_tag; adding it again explains 5044 (the code public integrations report)', async () => {
		const id = tagId('Unused');
		const [output] = ok(
			await run({ operation: 'addMember', tagId: rl(id), virtualnum: rl('0722000104') }),
		);
		assert.deepEqual(requests('add_member_to_tag')[0].body, {
			tag_id: String(id),
			virtualnum: '0722000104',
		});
		assert.equal(output.virtualnum, '0722000104');
		assert.equal(output.members_count, 1);
		assert.equal(output.statusDescription, 'Success');
		assert.equal(output.description, undefined);
		assert.deepEqual(members('Unused'), ['0722000104']);
		const again = await run({
			operation: 'addMember',
			tagId: rl(id),
			virtualnum: rl('0722000104'),
		});
		assert.match(String(again.error?.message), /The number is already in this tag \(code 5044\)/);
	});
	test('a missing or malformed virtual number is refused before any request', async () => {
		await refused(
			{ operation: 'addMember', tagId: rl(1), virtualnum: rl(expr('')) },
			/Virtual Number: is required/,
		);
		await refused(
			{ operation: 'removeMember', tagId: rl(1), virtualnum: rl(expr('abc'), 'id') },
			/Virtual Number: must be a phone number of at least 5 digits/,
		);
		await refused(
			{ operation: 'removeMemberByName', tagName: rl(expr('')), virtualnum: rl('0722000100') },
			/Tag: is required/,
		);
	});
});
