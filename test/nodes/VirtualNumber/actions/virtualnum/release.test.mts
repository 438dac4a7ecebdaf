import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { expr, failure, jsons, rl, vnRequests, vnTest } from '../../vnRun.mts';

const { sandbox, run, refused } = vnTest();

describe('Virtual Number → Virtual Number → Release and Restore', () => {
	test('release returns the number to the pool; restore brings it back', async () => {
		const released = jsons(
			await run({ resource: 'virtualnum', operation: 'release', virtualnum: rl('0722000104') }),
		);
		assert.equal(released[0].virtualnum, '0722000104');
		assert.equal(released[0].released, true);
		const [request] = vnRequests(sandbox, 'release_virtualnum');
		assert.equal(request.method, 'POST');
		assert.deepEqual(request.body, { virtualnum: '0722000104' });
		assert.equal(sandbox.control.virtualnum('0722000104'), undefined);
		assert.ok(sandbox.control.pool().includes('0722000104'));

		const restored = jsons(
			await run({ resource: 'virtualnum', operation: 'restore', numberToRestore: '0722000104' }),
		);
		assert.equal(restored[0].virtualnum, '0722000104');
		assert.equal(restored[0].restored, true);
		assert.deepEqual(vnRequests(sandbox, 'restore_virtualnum')[0].body, {
			virtualnum: '0722000104',
		});
		assert.equal(sandbox.control.virtualnum('0722000104')?.active_status, 1);
	});

	test('releasing a number not in the account fails with the meaning of 4041', async () => {
		const error = failure(
			await run({
				resource: 'virtualnum',
				operation: 'release',
				virtualnum: rl('0799999999', 'id'),
			}),
		);
		assert.match(error.message, /The number does not exist \(code 4041\)/);
	});

	test('bad numbers are refused before any request', async () => {
		await refused(
			{ resource: 'virtualnum', operation: 'restore', numberToRestore: expr('') },
			/^Number to Restore: is required/,
		);
		await refused(
			{ resource: 'virtualnum', operation: 'restore', numberToRestore: '07x' },
			/^Number to Restore: must be a phone number/,
		);
		await refused(
			{ resource: 'virtualnum', operation: 'release', virtualnum: rl(expr('abc'), 'id') },
			/^Virtual Number: /,
		);
	});
});
