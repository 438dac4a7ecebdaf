import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { expr, failure, jsons, vnRequests, vnTest } from '../../vnRun.mts';

const { sandbox, run, refused } = vnTest();

describe('Virtual Number → Call Record → Get Metadata', () => {
	test('outputs the metadata sections of the call', async () => {
		const call = sandbox.control.cdrs().find((row) => row.gclid !== '')!;
		const items = jsons(
			await run({ resource: 'cdr', operation: 'getMetadata', callUuid: call.cdr_uniqueid }),
		);
		assert.equal(
			vnRequests(sandbox, 'get_cdr_metadata_by_call_uuid')[0].query.call_uuid,
			call.cdr_uniqueid,
		);
		assert.equal(items.length, 1);
		assert.equal(items[0].callId, call.cdr_uniqueid);
		assert.equal(Object.keys(items[0])[0], 'callId');
		assert.equal((items[0].cdr as Record<string, unknown>).cdr_uniqueid, call.cdr_uniqueid);
		assert.equal((items[0].ads_data as Record<string, unknown>).gclid, call.gclid);
	});

	test('an unknown call fails with the meaning of 1015', async () => {
		const error = failure(
			await run({ resource: 'cdr', operation: 'getMetadata', callUuid: '1.999999' }),
		);
		assert.match(error.message, /No metadata for this call \(code 1015\)/);
	});

	test('an empty call ID is refused before any request', async () => {
		await refused(
			{ resource: 'cdr', operation: 'getMetadata', callUuid: expr('') },
			/^Call ID: is required/,
		);
	});
});
