import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import { loadPackage } from '../../../dev/harness/engine.mts';
import { startSandbox, type Sandbox } from '../../../dev/sandbox/index.mts';
import { expr, failure, jsons, rl, vnRequests, vnRunner } from './vnRun.mts';

let sandbox: Sandbox;
const run = vnRunner(() => sandbox);

before(async () => {
	sandbox = await startSandbox();
});
after(async () => await sandbox.close());
beforeEach(() => sandbox.control.reset());

const NUMBER = '0722000100';
const SUSPENDED = '0722000105';

async function refused(parameters: Record<string, unknown>, field: RegExp) {
	sandbox.control.clearRequests();
	const error = failure(await run(parameters));
	assert.match(error.message, field);
	assert.deepEqual(vnRequests(sandbox), [], 'no request may reach the service');
}

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

describe('Virtual Number → Call → Two-Leg Call', () => {
	const twoLeg = (parameters: Record<string, unknown>) =>
		run({
			resource: 'call',
			operation: 'twoLegCall',
			virtualnum1: rl(NUMBER),
			destination1: '0501234567',
			destination2: '+972 52 765 4321',
			...parameters,
		});

	test('sends both legs and every custom parameter; they are stored on the call', async () => {
		const items = jsons(
			await twoLeg({
				customParameters: {
					parameter: [
						{ name: 'crm_lead_id', value: '42' },
						{ name: 'campaign', value: 'spring sale' },
					],
				},
				options: { virtualnum2: '0722000101' },
			}),
		);
		const [request] = vnRequests(sandbox, 'create_virtualnum_call_v2');
		assert.equal(request.method, 'POST');
		assert.deepEqual(request.body, {
			virtualnum1: NUMBER,
			virtualnum2: '0722000101',
			destination1: '0501234567',
			destination2: '972527654321',
			crm_lead_id: '42',
			campaign: 'spring sale',
		});
		assert.match(String(items[0].call_uuid), /^\d+\.\d+$/);
		assert.deepEqual(items[0].custom_parameters, { crm_lead_id: '42', campaign: 'spring sale' });
		const record = sandbox.control.cdr(String(items[0].call_uuid));
		assert.deepEqual(JSON.parse(String(record?.cdr_meta_data)), {
			crm_lead_id: '42',
			campaign: 'spring sale',
		});
	});

	test('any number of custom parameters (25) reach the service', async () => {
		const parameter = Array.from({ length: 25 }, (_, i) => ({ name: `p${i}`, value: `v${i}` }));
		jsons(await twoLeg({ customParameters: { parameter } }));
		const body = vnRequests(sandbox, 'create_virtualnum_call_v2')[0].body as Record<string, string>;
		for (let i = 0; i < 25; i++) assert.equal(body[`p${i}`], `v${i}`);
		assert.equal(body.virtualnum2, undefined, 'the second caller ID defaults on the service side');
	});

	test("custom parameters named as Object's own properties are plain names, refused only when used twice", async () => {
		const parameter = ['constructor', 'toString', 'hasOwnProperty', 'valueOf'].map((name) => ({
			name,
			value: `v-${name}`,
		}));
		jsons(await twoLeg({ customParameters: { parameter } }));
		const body = vnRequests(sandbox, 'create_virtualnum_call_v2')[0].body as Record<string, string>;
		for (const { name, value } of parameter) assert.equal(body[name], value);
		const twice = failure(
			await twoLeg({
				customParameters: {
					parameter: [
						{ name: 'constructor', value: '1' },
						{ name: 'constructor', value: '2' },
					],
				},
			}),
		);
		assert.match(twice.message, /^Custom Parameters \(parameter 2\): Name: is used twice/);
	});

	test('outside the working hours of a number fails with the meaning of 3039', async () => {
		sandbox.control.seed({ virtualnum: { virtualnum: NUMBER, working_hours: '0'.repeat(168) } });
		const error = failure(await twoLeg({}));
		assert.match(error.message, /Outside the working hours of one of the numbers \(code 3039\)/);
	});

	test('bad custom parameters and numbers are refused before any request', async () => {
		const base = {
			resource: 'call',
			operation: 'twoLegCall',
			virtualnum1: rl(NUMBER),
			destination1: '0501234567',
			destination2: '0527654321',
		};
		const custom = (...parameter: Array<{ name: string; value: string }>) => ({
			...base,
			customParameters: { parameter },
		});
		await refused(
			custom({ name: 'destination1', value: '0509999999' }),
			/^Custom Parameters \(parameter 1\): Name: cannot be destination1/,
		);
		await refused(custom({ name: 'Service', value: 'x' }), /cannot be Service/);
		await refused(
			custom({ name: 'a', value: '1' }, { name: 'a', value: '2' }),
			/^Custom Parameters \(parameter 2\): Name: is used twice/,
		);
		await refused(
			custom({ name: '1abc', value: '1' }),
			/must be letters, digits and underscores, starting with a letter/,
		);
		await refused(custom({ name: 'a b', value: '1' }), /must be letters, digits and underscores/);
		await refused(custom({ name: expr(''), value: '1' }), /Name: is required/);
		await refused(
			{ ...base, destination2: expr('x') },
			/^Second Destination: must be a phone number/,
		);
		await refused({ ...base, destination1: expr('') }, /^First Destination: is required/);
		await refused(
			{ ...base, options: { virtualnum2: '12ab' } },
			/^Caller ID for Second Leg: must be a phone number/,
		);
	});
});

describe('Virtual Number → Call → Create Click-to-Call Link', () => {
	test('the field description says the link currently places no call', async () => {
		const loader = await loadPackage();
		const properties = (
			loader.getNode('virtualNumber').type as {
				description: {
					properties: Array<{
						name: string;
						displayName: string;
						description?: string;
						type: string;
						displayOptions?: { show?: Record<string, unknown[]> };
					}>;
				};
			}
		).description.properties;
		const forLink = properties.filter((p) =>
			p.displayOptions?.show?.operation?.includes('createLink'),
		);
		assert.ok(
			forLink.some(
				(p) => p.type === 'notice' && /opening it currently places no call/.test(p.displayName),
			),
		);
		assert.match(
			String(forLink.find((p) => p.name === 'destination')?.description),
			/currently places no call/,
		);
	});

	test('creates a signed link with click2call_link and outputs its URL', async () => {
		const items = jsons(
			await run({
				resource: 'call',
				operation: 'createLink',
				virtualnum: rl(NUMBER),
				destination: '0501234567',
				options: { firstTarget: 'virtualnum', expireDays: 7 },
			}),
		);
		const [request] = vnRequests(sandbox, 'click2call_link');
		assert.deepEqual(
			{
				virtualnum: request.query.virtualnum,
				destination: request.query.destination,
				first_target: request.query.first_target,
				expire_days: request.query.expire_days,
			},
			{
				virtualnum: NUMBER,
				destination: '0501234567',
				first_target: 'virtualnum',
				expire_days: '7',
			},
		);
		const url = new URL(String(items[0].url));
		assert.equal(url.searchParams.get('virtualnum'), NUMBER);
		assert.ok(url.searchParams.get('signature'));
		const expires = Number(url.searchParams.get('expires')) * 1000;
		assert.ok(Math.abs(expires - (Date.now() + 7 * 86400_000)) < 60_000, 'valid for 7 days');
		assert.equal(items[0].virtualnum, NUMBER);
	});

	test('without options, the service defaults apply (nothing extra sent)', async () => {
		jsons(
			await run({
				resource: 'call',
				operation: 'createLink',
				virtualnum: rl(NUMBER),
				destination: '0501234567',
			}),
		);
		const [request] = vnRequests(sandbox, 'click2call_link');
		assert.equal(request.query.first_target, undefined);
		assert.equal(request.query.expire_days, undefined);
	});

	test('a suspended number fails with the meaning of 3020', async () => {
		const error = failure(
			await run({
				resource: 'call',
				operation: 'createLink',
				virtualnum: rl(SUSPENDED),
				destination: '0501234567',
			}),
		);
		assert.match(error.message, /code 3020/);
	});

	test('bad inputs are refused before any request', async () => {
		const base = {
			resource: 'call',
			operation: 'createLink',
			virtualnum: rl(NUMBER),
			destination: '0501234567',
		};
		await refused(
			{ ...base, options: { expireDays: 0 } },
			/^Valid for \(Days\): must be a whole number from 1/,
		);
		await refused({ ...base, destination: expr('abc') }, /^Destination: must be a phone number/);
		await refused(
			{ ...base, options: { firstTarget: 'caller' } },
			/^Call First: must be one of destination, virtualnum/,
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
