import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { expr, jsons, vnRequests, vnTest } from '../../vnRun.mts';

const { sandbox, run, refused } = vnTest();

describe('Virtual Number → Virtual Number → Get Available', () => {
	const available = (parameters: Record<string, unknown>) =>
		run({ resource: 'virtualnum', operation: 'getAvailable', ...parameters });

	test('by prefix: sends prefix and amount, outputs one item per number, allocates nothing', async () => {
		const before = sandbox.control.pool().length;
		const items = jsons(await available({ searchBy: 'prefix', prefix: '07230000', amount: 3 }));
		assert.equal(items.length, 3);
		for (const item of items) assert.match(String(item.virtualnum), /^07230000/);
		const [request] = vnRequests(sandbox, 'get_available_virtualnum');
		assert.equal(request.query.prefix, '07230000');
		assert.equal(request.query.amount, '3');
		assert.equal(sandbox.control.pool().length, before);
	});

	test('by part of the number sends it as virtualnum; default amount 5', async () => {
		const items = jsons(await available({ searchBy: 'part', part: '000' }));
		assert.equal(items.length, 5);
		for (const item of items) assert.match(String(item.virtualnum), /000/);
		const [request] = vnRequests(sandbox, 'get_available_virtualnum');
		assert.equal(request.query.virtualnum, '000');
		assert.equal(request.query.amount, '5');
		assert.equal(request.query.prefix, undefined);
	});

	test('no number with the prefix gives no items (4051), not an error', async () => {
		assert.deepEqual(jsons(await available({ searchBy: 'prefix', prefix: '0999', amount: 5 })), []);
		assert.equal(vnRequests(sandbox, 'get_available_virtualnum').length, 1);
	});

	test('amount outside 1-50 and non-digit prefixes are refused before any request', async () => {
		await refused(
			{ resource: 'virtualnum', operation: 'getAvailable', amount: 51 },
			/^Amount: must be a whole number from 1 to 50/,
		);
		await refused({ resource: 'virtualnum', operation: 'getAvailable', amount: 0 }, /^Amount: /);
		await refused(
			{ resource: 'virtualnum', operation: 'getAvailable', searchBy: 'prefix', prefix: '07a' },
			/^Prefix: must contain digits only/,
		);
		await refused(
			{ resource: 'virtualnum', operation: 'getAvailable', searchBy: 'part', part: expr('') },
			/^Part of Number: /,
		);
	});
});
