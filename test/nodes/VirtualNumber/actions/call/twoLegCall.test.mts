import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { expr, failure, jsons, rl, vnRequests, vnTest } from '../../vnRun.mts';

const { sandbox, run, refused } = vnTest();

const NUMBER = '0722000100';

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
