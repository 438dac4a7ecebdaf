// How Send groups its messages into batches (nodes/BulkSms/actions/message/batches.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { makeBatches } from '../../../../../nodes/BulkSms/actions/message/batches.ts';

describe('Send: batches', () => {
	const entries = (sizes: number[]) => sizes.map((batchSize, i) => ({ i, batchSize }));
	const shape = (batches: Array<Array<{ i: number }>>) => batches.map((b) => b.map((e) => e.i));

	test('equal Batch Sizes: full batches in order, the rest last', () => {
		assert.deepEqual(shape(makeBatches(entries([2, 2, 2, 2, 2]))), [[0, 1], [2, 3], [4]]);
	});
	test('a smaller Batch Size closes the batch early; no batch exceeds the size of any of its entries', () => {
		const batches = makeBatches(entries([3, 3, 1, 3, 3, 3, 3]));
		assert.deepEqual(shape(batches), [[0, 1], [2], [3, 4, 5], [6]]);
		for (const batch of batches)
			for (const entry of batch) assert.ok(batch.length <= entry.batchSize);
	});
	test('no messages, no batch', () => assert.deepEqual(makeBatches([]), []));
});
