import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { expr, failure, jsons, rl, vnRequests, vnTest } from '../../vnRun.mts';

const { sandbox, run, refused } = vnTest();

const NUMBER = '0722000100';
const SUSPENDED = '0722000105';

describe('Virtual Number → Call → Click to Call', () => {
	const call = (parameters: Record<string, unknown>) =>
		run({
			resource: 'call',
			operation: 'clickToCall',
			virtualnum: rl(NUMBER),
			destination: '050-123 4567',
			...parameters,
		});

	test('places the call with create_virtualnum_call (POST, digits) and outputs the call ID', async () => {
		const items = jsons(await call({}));
		const [request] = vnRequests(sandbox, 'create_virtualnum_call');
		assert.equal(request.method, 'POST');
		assert.deepEqual(request.body, { virtualnum: NUMBER, destination: '0501234567' });
		assert.equal(items.length, 1);
		assert.match(String(items[0].call_uuid), /^\d+\.\d+$/);
		assert.equal(items[0].virtualnum, NUMBER);
		assert.equal(items[0].destination, '0501234567');
		await sandbox.control.settle();
		const record = sandbox.control.cdr(String(items[0].call_uuid));
		assert.equal(record?.cdr_ddi, NUMBER);
		assert.equal(record?.cdr_ani, '0501234567');
	});

	test('"Call the Virtual Number First" sends first_target=virtualnum', async () => {
		jsons(await call({ callVirtualnumFirst: true }));
		assert.deepEqual(vnRequests(sandbox, 'create_virtualnum_call')[0].body, {
			virtualnum: NUMBER,
			destination: '0501234567',
			first_target: 'virtualnum',
		});
	});

	test('a suspended number fails with the meaning of 3014 and what to do', async () => {
		const error = failure(await call({ virtualnum: rl(SUSPENDED) }));
		assert.match(error.message, /The virtual number is suspended \(code 3014\)/);
		assert.match(String(error.description), /Activate the number first/);
	});

	test('a blacklisted destination fails with the meaning of 3013', async () => {
		const error = failure(await call({ destination: '0501111111' }));
		assert.match(error.message, /The destination is blacklisted \(code 3013\)/);
	});

	test('with Continue On Fail each failed item becomes an error item paired to it', async () => {
		const result = await run(
			{
				resource: 'call',
				operation: 'clickToCall',
				virtualnum: rl(NUMBER),
				destination: '={{ $json.phone }}',
			},
			{
				continueOnFail: true,
				input: [
					{ json: { phone: '0501234567' } },
					{ json: { phone: 'not a phone' } },
					{ json: { phone: '0501111111' } },
				],
			},
		);
		const items = jsons(result);
		assert.equal(items.length, 3);
		assert.match(String(items[0].call_uuid), /^\d+\.\d+$/);
		assert.match(String(items[1].error), /^Phone Number to Call: must be a phone number/);
		assert.match(String(items[2].error), /code 3013/);
		assert.deepEqual(
			result.items('VN').map((item) => item.pairedItem),
			[{ item: 0 }, { item: 1 }, { item: 2 }],
		);
		assert.equal(
			vnRequests(sandbox, 'create_virtualnum_call').length,
			2,
			'the bad item sent nothing',
		);
	});

	test('bad inputs are refused before any request', async () => {
		const base = { resource: 'call', operation: 'clickToCall', virtualnum: rl(NUMBER) };
		await refused({ ...base, destination: expr('') }, /^Phone Number to Call: is required/);
		await refused(
			{ ...base, destination: expr('call me maybe') },
			/^Phone Number to Call: must be a phone number/,
		);
		await refused(
			{ ...base, destination: '0501234567', virtualnum: rl(expr('12'), 'id') },
			/^Virtual Number: must be a phone number of at least 5 digits/,
		);
	});
});

describe("Virtual Number → Call: the placed call's ID by node version", () => {
	const clickToCall = {
		resource: 'call',
		operation: 'clickToCall',
		virtualnum: rl(NUMBER),
		destination: '0501234567',
	};
	const twoLeg = {
		resource: 'call',
		operation: 'twoLegCall',
		virtualnum1: rl(NUMBER),
		destination1: '0501234567',
		destination2: '0527654321',
	};

	for (const [name, parameters] of [
		['Click to Call', clickToCall],
		['Two-Leg Call', twoLeg],
	] as const) {
		test(`${name}, version 1.1: callId first (the trigger's and Call Record's name), no call_uuid; it is the call the service recorded`, async () => {
			const [item] = jsons(await run(parameters, { typeVersion: 1.1 }));
			assert.equal(Object.keys(item)[0], 'callId');
			assert.match(String(item.callId), /^\d+\.\d+$/);
			assert.equal('call_uuid' in item, false);
			await sandbox.control.settle();
			assert.equal(sandbox.control.cdr(String(item.callId))?.cdr_ddi, NUMBER);
		});

		test(`${name}, version 1: call_uuid as before (saved workflows read it)`, async () => {
			const [item] = jsons(await run(parameters, { typeVersion: 1 }));
			assert.match(String(item.call_uuid), /^\d+\.\d+$/);
			assert.equal('callId' in item, false);
		});
	}
});
