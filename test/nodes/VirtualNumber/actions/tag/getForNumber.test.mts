import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { tagTest } from './tagTest.mts';

const { run, rl, requests, ok } = tagTest();

describe('Virtual Number → Tag → Get Tags of Number', () => {
	test('Get Tags of Number sends view_tags_by_virtualnum', async () => {
		const items = ok(await run({ operation: 'getForNumber', virtualnum: rl('0722000100') }));
		assert.deepEqual(requests('view_tags_by_virtualnum')[0].query, {
			service: 'view_tags_by_virtualnum',
			format: 'json',
			virtualnum: '0722000100',
		});
		assert.deepEqual(items.map((t) => t.tag_name).sort(), ['Google', 'VIP']);
		const none = ok(await run({ operation: 'getForNumber', virtualnum: rl('0722000104') }));
		assert.equal(none.length, 0, 'a number without tags gives no items');
	});
});
