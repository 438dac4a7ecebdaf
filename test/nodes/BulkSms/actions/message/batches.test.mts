// How Send groups its messages into batches, and how deep its path to n8n's HTTP helper is
// (nodes/BulkSms/actions/message/batches.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { makeBatches } from '../../../../../nodes/BulkSms/actions/message/batches.ts';
import { CredentialsHelper, loadPackage, runWorkflow } from '../../../../../dev/harness/engine.mts';
import {
	credentialsFor,
	NODE_NAMES,
	rl,
	sandboxPerFile,
} from '../../../../../dev/harness/nodeTest.mts';

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

/**
 * The frames of this package's code on the stack when a batch reaches n8n's HTTP helper
 * (`httpRequestWithAuthentication`), from the node's `execute` on: captured where the helper
 * first calls into the credentials helper, synchronously.
 */
describe('Send: the path from the node to n8n’s HTTP helper', () => {
	const sandbox = sandboxPerFile();

	async function packageFrames(options: { batchSize: number; batchesInFlight: number }) {
		const stacks: string[] = [];
		const credentials = credentialsFor('bulkSms', sandbox);
		class Recording extends CredentialsHelper {
			getParentTypes(): string[] {
				const limit = Error.stackTraceLimit;
				Error.stackTraceLimit = 100;
				stacks.push(new Error().stack ?? '');
				Error.stackTraceLimit = limit;
				return [];
			}
		}
		const result = await runWorkflow({
			nodes: [
				{
					name: NODE_NAMES.bulkSms,
					type: 'bulkSms',
					parameters: {
						resource: 'message',
						operation: 'send',
						sender: rl('VirtualNum', 'id'),
						to: '0501234561, 0501234562, 0501234563, 0501234564, 0501234565',
						message: 'Hello',
						options,
					},
				},
			],
			credentials,
			additionalData: { credentialsHelper: new Recording(await loadPackage(), credentials) },
		});
		assert.equal(result.error, undefined, result.error?.message);
		return stacks.map((stack) =>
			[
				...stack.matchAll(
					/^\s+at (?:async )?(?:\S+\.)?(\w+) \((?!.*node_modules)(?!.*\/test\/)(.*\/nodes\/.*)\)$/gm,
				),
			]
				.map((frame) => frame[1])
				.reverse(),
		);
	}

	for (const batchesInFlight of [1, 4])
		test(`Batches in Flight ${batchesInFlight}: every batch in at most 7 frames`, async () => {
			const paths = await packageFrames({ batchSize: 1, batchesInFlight });
			assert.equal(paths.length, 5, 'one request per batch');
			for (const path of paths) {
				assert.ok(path.length <= 7, `${path.length} frames: ${path.join(' → ')}`);
				assert.equal(path[0], 'execute');
				assert.equal(path.at(-1), 'attempt', 'the transport calls the helper');
			}
		});
});
