import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { expr, failure, vnTest } from '../../vnRun.mts';

const { sandbox, run, refused } = vnTest();

describe('Virtual Number → Offline Conversion → Get', () => {
	test('Get on a call without a conversion fails with the meaning of 1115', async () => {
		const callUuid = sandbox.control.cdrs()[2].cdr_uniqueid;
		const error = failure(await run({ resource: 'offlineConversion', operation: 'get', callUuid }));
		assert.match(error.message, /No offline conversion for this call \(code 1115\)/);
	});

	test('a call ID that is not numeric is refused by Get before any request', async () => {
		await refused(
			{ resource: 'offlineConversion', operation: 'get', callUuid: 'abc-17' },
			/^Call ID: must be numeric/,
		);
		await refused(
			{ resource: 'offlineConversion', operation: 'get', callUuid: '17.' },
			/^Call ID: must be numeric/,
		);
		await refused(
			{ resource: 'offlineConversion', operation: 'get', callUuid: '1e5' },
			/^Call ID: must be numeric/,
		);
		await refused(
			{ resource: 'offlineConversion', operation: 'get', callUuid: expr(' ') },
			/^Call ID: is required/,
		);
	});
});
