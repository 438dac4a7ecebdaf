import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { expr, failure, jsons, rl, vnRequests, vnTest } from '../../vnRun.mts';

const { sandbox, run, refused } = vnTest();

const SUSPENDED = '0722000105';

describe('Virtual Number → Virtual Number → Get', () => {
	const get = (virtualnum: unknown) =>
		run({ resource: 'virtualnum', operation: 'get', virtualnum });

	test('reads one number (any status) with get_virtualnum and outputs its record', async () => {
		const items = jsons(await get(rl(SUSPENDED)));
		assert.equal(items.length, 1);
		assert.equal(items[0].virtualnum, SUSPENDED);
		assert.equal(items[0].active_status, 0);
		assert.equal(items[0].description, 'Facebook leads 6');
		const [request] = vnRequests(sandbox, 'get_virtualnum');
		assert.equal(request.query.virtualnum, SUSPENDED);
		assert.equal(request.query.format, 'json');
	});

	test('a typed number may carry formatting; digits are sent', async () => {
		const items = jsons(await get(rl('072-200 0101', 'id')));
		assert.equal(items[0].virtualnum, '0722000101');
		assert.equal(vnRequests(sandbox, 'get_virtualnum')[0].query.virtualnum, '0722000101');
	});

	test('a number not in the account fails naming it', async () => {
		const error = failure(await get(rl('0799999999', 'id')));
		assert.match(error.message, /0799999999 is not in this account/);
	});

	test('a value that is no phone number is refused before any request', async () => {
		await refused(
			{ resource: 'virtualnum', operation: 'get', virtualnum: rl(expr("1' OR '1'='1"), 'id') },
			/^Virtual Number: /,
			/phone number/,
		);
		await refused(
			{ resource: 'virtualnum', operation: 'get', virtualnum: rl(expr(''), 'list') },
			/^Virtual Number: is required/,
		);
		await refused(
			{ resource: 'virtualnum', operation: 'get', virtualnum: rl(expr('1234'), 'id') },
			/at least 5 digits/,
		);
	});
});
