import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { expr, failure, jsons, vnRequests, vnTest } from '../../vnRun.mts';

const { sandbox, run, refused } = vnTest();

describe('Virtual Number → Offline Conversion → Set', () => {
	test('Set stores the value (POST); Get reads it back with its update time', async () => {
		const callUuid = sandbox.control.cdrs()[4].cdr_uniqueid;
		const set = jsons(
			await run({
				resource: 'offlineConversion',
				operation: 'set',
				callUuid,
				conversionValue: 249.9,
			}),
		);
		const [request] = vnRequests(sandbox, 'set_ads_offline_conversion');
		assert.equal(request.method, 'POST');
		assert.deepEqual(request.body, { call_uuid: callUuid, conversion_value: '249.9' });
		// The call under the vocabulary's name, first; the service's own name for it is not repeated.
		assert.deepEqual(Object.keys(set[0]).slice(0, 2), ['callId', 'conversion_value']);
		assert.equal(set[0].callId, callUuid);
		assert.equal(set[0].call_uuid, undefined);
		assert.equal(set[0].conversion_value, 249.9);

		const got = jsons(await run({ resource: 'offlineConversion', operation: 'get', callUuid }));
		assert.equal(vnRequests(sandbox, 'get_ads_offline_conversion')[0].query.call_uuid, callUuid);
		assert.equal(got[0].callId, callUuid);
		assert.equal(got[0].call_uuid, undefined);
		assert.equal(got[0].conversion_value, 249.9);
		assert.match(String(got[0].update_time), /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
	});

	test('Set accepts a numeric text from an expression', async () => {
		const callUuid = sandbox.control.cdrs()[1].cdr_uniqueid;
		jsons(
			await run({
				resource: 'offlineConversion',
				operation: 'set',
				callUuid,
				conversionValue: '={{ "120" }}',
			}),
		);
		assert.equal(
			(vnRequests(sandbox, 'set_ads_offline_conversion')[0].body as Record<string, string>)
				.conversion_value,
			'120',
		);
	});

	test('Set on an unknown call fails with the meaning of 1125', async () => {
		const error = failure(
			await run({
				resource: 'offlineConversion',
				operation: 'set',
				callUuid: '1.999999',
				conversionValue: 5,
			}),
		);
		assert.match(error.message, /No call found for this ID \(code 1125\)/);
	});

	test('a value that is not a number and an empty call ID are refused by Set before any request', async () => {
		sandbox.control.clearRequests();
		const error = failure(
			await run({
				resource: 'offlineConversion',
				operation: 'set',
				callUuid: '1.1',
				conversionValue: expr('ten'),
			}),
		);
		assert.match(error.message, /Conversion Value/);
		assert.deepEqual(vnRequests(sandbox), []);
		await refused(
			{ resource: 'offlineConversion', operation: 'set', callUuid: expr(''), conversionValue: 1 },
			/^Call ID: is required/,
		);
	});
});
