import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import { startSandbox, type Sandbox } from '../../../dev/sandbox/index.mts';
import { expr, failure, jsons, vnRequests, vnRunner } from './vnRun.mts';

let sandbox: Sandbox;
const run = vnRunner(() => sandbox);

before(async () => {
	sandbox = await startSandbox();
});
after(async () => await sandbox.close());
beforeEach(() => sandbox.control.reset());

async function refused(parameters: Record<string, unknown>, field: RegExp) {
	sandbox.control.clearRequests();
	const error = failure(await run(parameters));
	assert.match(error.message, field);
	assert.deepEqual(vnRequests(sandbox), [], 'no request may reach the service');
}

describe('Virtual Number → Offline Conversion', () => {
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

	test('Get on a call without a conversion fails with the meaning of 1115', async () => {
		const callUuid = sandbox.control.cdrs()[2].cdr_uniqueid;
		const error = failure(await run({ resource: 'offlineConversion', operation: 'get', callUuid }));
		assert.match(error.message, /No offline conversion for this call \(code 1115\)/);
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
