import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { failure, vnTest } from '../../vnRun.mts';

const { run } = vnTest();

describe('Virtual Number → Virtual Number → Restore', () => {
	test('restoring an active number explains code 4043 as "already active"', async () => {
		const error = failure(
			await run({ resource: 'virtualnum', operation: 'restore', numberToRestore: '0722000100' }),
		);
		assert.match(error.message, /The number is already active \(code 4043\)/);
		assert.match(String(error.description), /Nothing to restore/);
	});
});
