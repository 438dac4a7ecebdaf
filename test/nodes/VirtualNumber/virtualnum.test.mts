import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import { startSandbox, type Sandbox } from '../../../dev/sandbox/index.mts';
import { expr, failure, jsons, rl, vnRequests, vnRunner } from './vnRun.mts';

let sandbox: Sandbox;
const run = vnRunner(() => sandbox);

before(async () => {
	sandbox = await startSandbox();
});
after(async () => await sandbox.close());
beforeEach(() => sandbox.control.reset());

const ACTIVE = ['0722000100', '0722000101', '0722000102', '0722000103', '0722000104'];
const SUSPENDED = '0722000105';

/** Asserts the node failed naming the field, before any request reached the service. */
async function refused(parameters: Record<string, unknown>, field: RegExp, rule?: RegExp) {
	sandbox.control.clearRequests();
	const error = failure(await run(parameters));
	assert.match(error.message, field);
	if (rule) assert.match(error.message, rule);
	assert.deepEqual(vnRequests(sandbox), [], 'no request may reach the service');
}

/** The working-hours pattern of the spec, built independently of the node. */
function pattern(open: Array<[day: number, from: number, to: number]>): string {
	const hours = Array(168).fill('0');
	for (const [day, from, to] of open)
		for (let h = from; h < to; h++) hours[(day * 24 + h) % 168] = '1';
	return hours.join('');
}

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

describe('Virtual Number → Virtual Number → Get Many', () => {
	const getMany = (parameters: Record<string, unknown> = {}) =>
		run({ resource: 'virtualnum', operation: 'getAll', ...parameters });

	test('default: active numbers, page 0, limit 50, one item per number', async () => {
		const items = jsons(await getMany());
		assert.deepEqual(
			items.map((item) => item.virtualnum),
			ACTIVE,
		);
		const requests = vnRequests(sandbox, 'get_virtualnum');
		assert.equal(requests.length, 1);
		assert.deepEqual(
			{
				status: requests[0].query.status,
				page: requests[0].query.page,
				limit: requests[0].query.limit,
			},
			{ status: '1', page: '0', limit: '50' },
		);
	});

	test('Status Suspended sends status=0', async () => {
		const items = jsons(await getMany({ status: 'suspended' }));
		assert.deepEqual(
			items.map((item) => item.virtualnum),
			[SUSPENDED],
		);
		assert.equal(vnRequests(sandbox, 'get_virtualnum')[0].query.status, '0');
	});

	test('Status Any asks for active, then suspended, up to the limit', async () => {
		const items = jsons(await getMany({ status: 'any', limit: 6 }));
		assert.deepEqual(
			items.map((item) => item.virtualnum),
			[...ACTIVE, SUSPENDED],
		);
		const requests = vnRequests(sandbox, 'get_virtualnum');
		assert.deepEqual(
			requests.map((r) => [r.query.status, r.query.limit]),
			[
				['1', '6'],
				['0', '1'],
			],
		);
		const few = jsons(await getMany({ status: 'any', limit: 3 }));
		assert.equal(few.length, 3);
	});

	test('Limit applies to a general request', async () => {
		const items = jsons(await getMany({ limit: 2 }));
		assert.deepEqual(
			items.map((item) => item.virtualnum),
			ACTIVE.slice(0, 2),
		);
	});

	test('Return All over 2,500 numbers pages through page/limit and returns each number once', async () => {
		sandbox.control.seed({ numbers: 2500 });
		const expected = sandbox.control
			.virtualnums()
			.filter((r) => r.active_status === 1)
			.map((r) => r.virtualnum);
		assert.ok(expected.length >= 2500);
		sandbox.control.clearRequests();
		const items = jsons(await getMany({ returnAll: true }));
		assert.equal(items.length, expected.length);
		assert.deepEqual(
			items.map((item) => item.virtualnum),
			expected,
		);
		assert.equal(new Set(items.map((item) => item.virtualnum)).size, expected.length);
		const requests = vnRequests(sandbox, 'get_virtualnum');
		const pages = Math.ceil((expected.length + 1) / 1000);
		assert.deepEqual(
			requests.map((r) => [r.query.status, r.query.page, r.query.limit]),
			Array.from({ length: pages }, (_, page) => ['1', String(page), '1000']),
		);
	});

	test('Return All with Status Any pages both statuses', async () => {
		sandbox.control.seed({ numbers: 1200 });
		const total = sandbox.control.virtualnums().length;
		const items = jsons(await getMany({ returnAll: true, status: 'any' }));
		assert.equal(items.length, total);
		assert.equal(items.at(-1)?.virtualnum, SUSPENDED);
	});

	test('a field filter sends filter_name/operator/value and no status, page or limit', async () => {
		const items = jsons(
			await getMany({
				filterBy: 'field',
				filterField: 'description',
				filterOperator: 'LIKE',
				filterValue: 'Facebook%',
			}),
		);
		// One "Facebook" number is active, one suspended: Status (Active) is applied by the node.
		assert.deepEqual(
			items.map((item) => item.virtualnum),
			['0722000102'],
		);
		const [request] = vnRequests(sandbox, 'get_virtualnum');
		assert.equal(request.query.filter_name, 'description');
		assert.equal(request.query.filter_operator, 'LIKE');
		assert.equal(request.query.filter_value, 'Facebook%');
		for (const ignored of ['status', 'page', 'limit', 'virtualnum'])
			assert.equal(request.query[ignored], undefined, ignored);
	});

	test('with a filter, Status and Limit are applied to the answer by the node, never ignored', async () => {
		const filter = {
			filterBy: 'field',
			filterField: 'description',
			filterOperator: 'LIKE',
			filterValue: '%',
		};
		assert.deepEqual(
			jsons(await getMany({ ...filter, status: 'suspended' })).map((i) => i.virtualnum),
			[SUSPENDED],
		);
		assert.equal(jsons(await getMany({ ...filter, status: 'any', returnAll: true })).length, 6);
		assert.equal(jsons(await getMany({ ...filter, status: 'any', limit: 4 })).length, 4);
		assert.equal(jsons(await getMany({ ...filter, status: 'active', limit: 50 })).length, 5);
	});

	test('a filter that matches nothing outputs no items', async () => {
		const result = await getMany({
			filterBy: 'field',
			filterField: 'email',
			filterOperator: 'EQ',
			filterValue: 'nobody@example.com',
		});
		assert.deepEqual(jsons(result), []);
	});

	test('a filter field the service does not know fails with its meaning (4030)', async () => {
		const error = failure(
			await getMany({
				filterBy: 'field',
				filterField: 'no_such_field',
				filterOperator: 'EQ',
				filterValue: 'x',
			}),
		);
		assert.match(error.message, /filter field is not valid \(code 4030\)/);
	});

	test('bad inputs are refused before any request', async () => {
		await refused(
			{
				resource: 'virtualnum',
				operation: 'getAll',
				filterBy: 'field',
				filterField: 'email',
				filterValue: expr(' '),
			},
			/^Value: is required/,
		);
		await refused(
			{
				resource: 'virtualnum',
				operation: 'getAll',
				filterBy: 'field',
				filterField: "email' OR 1",
				filterValue: 'x',
			},
			/^Field: /,
		);
		await refused(
			{
				resource: 'virtualnum',
				operation: 'getAll',
				filterBy: 'field',
				filterField: 'email',
				filterOperator: 'BETWEEN',
				filterValue: 'x',
			},
			/^Operator: must be one of EQ, NE, LT, GT, LIKE/,
		);
		await refused(
			{ resource: 'virtualnum', operation: 'getAll', limit: 0 },
			/^Limit: must be a whole number from 1 to 10000/,
		);
		await refused({ resource: 'virtualnum', operation: 'getAll', limit: 10001 }, /^Limit: /);
	});
});

describe('Virtual Number → Virtual Number → Get Available', () => {
	const available = (parameters: Record<string, unknown>) =>
		run({ resource: 'virtualnum', operation: 'getAvailable', ...parameters });

	test('by prefix: sends prefix and amount, outputs one item per number, allocates nothing', async () => {
		const before = sandbox.control.pool().length;
		const items = jsons(await available({ searchBy: 'prefix', prefix: '07230000', amount: 3 }));
		assert.equal(items.length, 3);
		for (const item of items) assert.match(String(item.virtualnum), /^07230000/);
		const [request] = vnRequests(sandbox, 'get_available_virtualnum');
		assert.equal(request.query.prefix, '07230000');
		assert.equal(request.query.amount, '3');
		assert.equal(sandbox.control.pool().length, before);
	});

	test('by part of the number sends it as virtualnum; default amount 5', async () => {
		const items = jsons(await available({ searchBy: 'part', part: '000' }));
		assert.equal(items.length, 5);
		for (const item of items) assert.match(String(item.virtualnum), /000/);
		const [request] = vnRequests(sandbox, 'get_available_virtualnum');
		assert.equal(request.query.virtualnum, '000');
		assert.equal(request.query.amount, '5');
		assert.equal(request.query.prefix, undefined);
	});

	test('no number with the prefix gives no items (4051), not an error', async () => {
		assert.deepEqual(jsons(await available({ searchBy: 'prefix', prefix: '0999', amount: 5 })), []);
		assert.equal(vnRequests(sandbox, 'get_available_virtualnum').length, 1);
	});

	test('amount outside 1-50 and non-digit prefixes are refused before any request', async () => {
		await refused(
			{ resource: 'virtualnum', operation: 'getAvailable', amount: 51 },
			/^Amount: must be a whole number from 1 to 50/,
		);
		await refused({ resource: 'virtualnum', operation: 'getAvailable', amount: 0 }, /^Amount: /);
		await refused(
			{ resource: 'virtualnum', operation: 'getAvailable', searchBy: 'prefix', prefix: '07a' },
			/^Prefix: must contain digits only/,
		);
		await refused(
			{ resource: 'virtualnum', operation: 'getAvailable', searchBy: 'part', part: expr('') },
			/^Part of Number: /,
		);
	});
});

describe('Virtual Number → Virtual Number → Create', () => {
	const create = (parameters: Record<string, unknown>) =>
		run({
			resource: 'virtualnum',
			operation: 'create',
			description: 'Radio ad',
			callDestinationPhone: '0501234567,0527654321',
			...parameters,
		});

	test("every setting in the user's words becomes the service's value", async () => {
		const items = jsons(
			await create({
				allocation: 'auto',
				prefix: '07230000',
				additionalFields: {
					activeStatus: 0,
					dialOption: 2,
					expose: 2,
					callbackUrl: 'https://example.com/hook',
					callbackUrlOption: 3,
					recordOption: 3,
					recordPercentage: 50,
					dialTimeoutInSec: 45,
					disallowCallback: 1,
					email: 'ops@example.com',
					smsDestinationPhone: '0501112222',
					outOfTimeDestinationPhone: '0503334444',
					greetingOut: 'welcome',
					greetingIn: 'whisper',
					ringbackTone: 'music',
					privateFields: {
						field: [
							{ name: 'private_field1', value: 'crm-17' },
							{ name: 'private_field10', value: 'x' },
						],
					},
					workingHours: {
						period: [
							{ days: ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday'], from: 9, to: 17 },
						],
					},
				},
			}),
		);
		const [request] = vnRequests(sandbox, 'create_virtualnum');
		assert.equal(request.method, 'POST');
		const expectedHours = pattern(
			[0, 1, 2, 3, 4].map((day) => [day, 9, 17] as [number, number, number]),
		);
		assert.deepEqual(request.body, {
			description: 'Radio ad',
			call_destination_phone: '0501234567,0527654321',
			prefix: '07230000',
			active_status: '0',
			dial_option: '2',
			expose: '2',
			callback_url: 'https://example.com/hook',
			callback_url_option: '3',
			record_option: '3',
			record_percentage: '50',
			dial_timeout_in_sec: '45',
			disallow_callback: '1',
			email: 'ops@example.com',
			sms_destination_phone: '0501112222',
			out_of_time_destination_phone: '0503334444',
			greeting_out: 'welcome',
			greeting_in: 'whisper',
			ringback_tone: 'music',
			private_field1: 'crm-17',
			private_field10: 'x',
			working_hours: expectedHours,
		});
		assert.equal(items.length, 1);
		const record = sandbox.control.virtualnum(String(items[0].virtualnum));
		assert.ok(record, 'the number is now in the account');
		assert.match(record.virtualnum, /^07230000/);
		assert.equal(record.working_hours, expectedHours);
		assert.equal(record.dial_option, 2);
		assert.equal(record.active_status, 0);
		assert.equal(items[0].description, 'Radio ad');
	});

	test('a specific number from the pool is requested as virtualnum', async () => {
		const wanted = sandbox.control.pool()[3];
		const items = jsons(await create({ allocation: 'specific', virtualnum: rl(wanted) }));
		assert.equal(items[0].virtualnum, wanted);
		assert.equal(
			vnRequests(sandbox, 'create_virtualnum')[0].body &&
				(vnRequests(sandbox, 'create_virtualnum')[0].body as Record<string, string>).virtualnum,
			wanted,
		);
		assert.ok(!sandbox.control.pool().includes(wanted));
	});

	test('an overnight period runs into the next day; Saturday night wraps to Sunday', async () => {
		jsons(
			await create({
				additionalFields: {
					workingHours: {
						period: [
							{ days: ['saturday'], from: 22, to: 6 },
							{ days: ['monday'], from: 0, to: 24 },
						],
					},
				},
			}),
		);
		const body = vnRequests(sandbox, 'create_virtualnum')[0].body as Record<string, string>;
		assert.equal(
			body.working_hours,
			pattern([
				[6, 22, 30],
				[1, 0, 24],
			]),
		);
		assert.equal(body.working_hours.slice(0, 6), '111111');
	});

	test('a raw 168-character pattern is sent as it is', async () => {
		const raw = '1'.repeat(24) + '0'.repeat(144);
		jsons(await create({ additionalFields: { workingHoursPattern: raw } }));
		assert.equal(
			(vnRequests(sandbox, 'create_virtualnum')[0].body as Record<string, string>).working_hours,
			raw,
		);
	});

	const base = {
		resource: 'virtualnum',
		operation: 'create',
		description: 'Ok',
		callDestinationPhone: '0501234567',
	};
	const badInputs: Array<[string, Record<string, unknown>, RegExp]> = [
		['an empty description', { description: expr('') }, /^Description: is required/],
		[
			'a 200-character description',
			{ description: 'd'.repeat(200) },
			/^Description: must be at most 199 characters/,
		],
		['empty destinations', { callDestinationPhone: expr(' ') }, /^Destination Phones: is required/],
		// The limit applies to what is sent: 13 numbers and 8 digits, as digits separated by commas, are 151 characters.
		[
			'151 characters of destinations',
			{ callDestinationPhone: `${'050-1234567, '.repeat(13)}77777777` },
			/^Destination Phones: must be at most 150 characters/,
		],
		[
			'a 255-character private field',
			{
				additionalFields: {
					privateFields: { field: [{ name: 'private_field3', value: 'p'.repeat(255) }] },
				},
			},
			/^Private Fields: Private Field 3: must be at most 254 characters/,
		],
		[
			'a private field set twice',
			{
				additionalFields: {
					privateFields: {
						field: [
							{ name: 'private_field2', value: 'a' },
							{ name: 'private_field2', value: 'b' },
						],
					},
				},
			},
			/^Private Fields: Private Field 2: is set twice/,
		],
		[
			'a 512-character callback URL',
			{ additionalFields: { callbackUrl: `https://x.example/${'u'.repeat(494)}` } },
			/^Callback URL: must be at most 511 characters/,
		],
		[
			'a dial timeout of 181 s',
			{ additionalFields: { dialTimeoutInSec: 181 } },
			/^Dial Timeout \(Seconds\): must be a whole number from 1 to 180/,
		],
		[
			'a dial timeout of 0 s',
			{ additionalFields: { dialTimeoutInSec: 0 } },
			/^Dial Timeout \(Seconds\): /,
		],
		[
			'a record percentage of 101',
			{ additionalFields: { recordPercentage: 101 } },
			/^Recording Percentage: must be a whole number from 0 to 100/,
		],
		[
			'a record percentage of -1',
			{ additionalFields: { recordPercentage: -1 } },
			/^Recording Percentage: /,
		],
		[
			'a dial option outside the choices',
			{ additionalFields: { dialOption: 4 } },
			/^Dial Option: must be one of the listed choices/,
		],
		[
			'a callback option outside the choices',
			{ additionalFields: { callbackUrlOption: 0 } },
			/^Callback When: /,
		],
		['a caller ID outside the choices', { additionalFields: { expose: 9 } }, /^Caller ID Shown: /],
		[
			'a record option outside the choices',
			{ additionalFields: { recordOption: 4 } },
			/^Recording Announcement: /,
		],
		[
			'a callback blocking outside the choices',
			{ additionalFields: { disallowCallback: 3 } },
			/^Callback Blocking: /,
		],
		[
			'a 100-character working-hours pattern',
			{ additionalFields: { workingHoursPattern: '1'.repeat(100) } },
			/^Working Hours Pattern: must be exactly 168 characters .*silently.*\(got "100 characters"\)/,
		],
		[
			'a 169-character working-hours pattern',
			{ additionalFields: { workingHoursPattern: '1'.repeat(169) } },
			/^Working Hours Pattern: must be exactly 168/,
		],
		[
			'both working-hours fields',
			{
				additionalFields: {
					workingHoursPattern: '1'.repeat(168),
					workingHours: { period: [{ days: ['monday'], from: 9, to: 17 }] },
				},
			},
			/^Working Hours: and Working Hours Pattern cannot both be set/,
		],
		[
			'a period without days',
			{ additionalFields: { workingHours: { period: [{ days: [], from: 9, to: 17 }] } } },
			/^Working Hours \(period 1\): needs at least one day/,
		],
		[
			'a period opening and closing at once',
			{ additionalFields: { workingHours: { period: [{ days: ['monday'], from: 9, to: 9 }] } } },
			/^Working Hours \(period 1\): opens and closes at the same hour/,
		],
		[
			'an empty Working Hours editor',
			{ additionalFields: { workingHours: {} } },
			/^Working Hours: needs at least one opening period/,
		],
		[
			'a prefix with letters',
			{ allocation: 'auto', prefix: '07x' },
			/^Prefix: must contain digits only/,
		],
		[
			'no specific number',
			{ allocation: 'specific', virtualnum: rl(expr('')) },
			/^Available Number: is required/,
		],
	];
	for (const [name, parameters, expected] of badInputs) {
		test(`${name} is refused before any request`, async () => {
			await refused({ ...base, ...parameters }, expected);
		});
	}

	test('an allocation the service refuses (4008) fails with its meaning', async () => {
		const error = failure(
			await create({ allocation: 'specific', virtualnum: rl('0799000000', 'id') }),
		);
		assert.match(error.message, /Allocating the number failed \(code 4008\)/);
	});
});

describe('Virtual Number → Virtual Number → Update', () => {
	const update = (updateFields: Record<string, unknown>, virtualnum = rl('0722000101')) =>
		run({ resource: 'virtualnum', operation: 'update', virtualnum, updateFields });

	test('only email set: the current description and destinations are sent with it, nothing else changes', async () => {
		const before = sandbox.control.virtualnum('0722000101')!;
		const items = jsons(await update({ email: 'new@example.com' }));
		const [request] = vnRequests(sandbox, 'update_virtualnum');
		assert.equal(request.method, 'POST');
		// Every setting is sent back as read (none lost if the service replaces the whole record).
		const body = request.body as Record<string, unknown>;
		assert.equal(body.email, 'new@example.com');
		assert.equal(body.virtualnum, '0722000101');
		assert.equal(body.description, before.description);
		assert.equal(body.call_destination_phone, before.call_destination_phone);
		assert.equal(body.working_hours, before.working_hours);
		assert.equal(body.create_time, undefined);
		const afterRecord = sandbox.control.virtualnum('0722000101')!;
		assert.deepEqual({ ...afterRecord, email: before.email }, before, 'only the email changed');
		assert.equal(afterRecord.email, 'new@example.com');
		assert.equal(items[0].email, 'new@example.com');
		assert.equal(items[0].description, before.description);
	});

	test('description and destinations set: sent as given, the other settings as read', async () => {
		const before = sandbox.control.virtualnum('0722000101')!;
		jsons(
			await update({ description: 'Renamed', callDestinationPhone: '0509999999', dialOption: 3 }),
		);
		assert.equal(
			vnRequests(sandbox, 'get_virtualnum').length,
			2,
			'read before and after the write',
		);
		const body = vnRequests(sandbox, 'update_virtualnum')[0].body as Record<string, unknown>;
		assert.equal(body.description, 'Renamed');
		assert.equal(body.call_destination_phone, '0509999999');
		assert.equal(body.dial_option, '3');
		assert.equal(body.virtualnum, '0722000101');
		assert.equal(body.private_field1, before.private_field1);
		assert.equal(sandbox.control.virtualnum('0722000101')!.dial_option, 3);
	});

	test('suspending a number with Status', async () => {
		const items = jsons(await update({ activeStatus: 0 }));
		assert.equal(items[0].active_status, 0);
		assert.equal(sandbox.control.virtualnum('0722000101')!.active_status, 0);
	});

	test('the working-hours editor replaces the pattern', async () => {
		jsons(await update({ workingHours: { period: [{ days: ['friday'], from: 8, to: 13 }] } }));
		assert.equal(sandbox.control.virtualnum('0722000101')!.working_hours, pattern([[5, 8, 13]]));
	});

	test('a 100-character working-hours value is refused before any request', async () => {
		await refused(
			{
				resource: 'virtualnum',
				operation: 'update',
				virtualnum: rl('0722000101'),
				updateFields: { workingHoursPattern: '1'.repeat(100) },
			},
			/^Working Hours Pattern: must be exactly 168 characters/,
		);
	});

	test('nothing to change is refused before any request', async () => {
		await refused(
			{
				resource: 'virtualnum',
				operation: 'update',
				virtualnum: rl('0722000101'),
				updateFields: {},
			},
			/^Update Fields: has nothing to change/,
		);
		await refused(
			{
				resource: 'virtualnum',
				operation: 'update',
				virtualnum: rl('0722000101'),
				updateFields: { email: '  ' },
			},
			/^Update Fields: has nothing to change/,
		);
	});

	test('limits are checked before any request', async () => {
		const base = { resource: 'virtualnum', operation: 'update', virtualnum: rl('0722000101') };
		await refused(
			{ ...base, updateFields: { description: 'd'.repeat(200) } },
			/^Description: must be at most 199/,
		);
		await refused(
			{ ...base, updateFields: { callDestinationPhone: `${'0501234567,'.repeat(13)}77777777` } },
			/^Destination Phones: must be at most 150/,
		);
		await refused(
			{ ...base, updateFields: { callbackUrl: 'h'.repeat(512) } },
			/^Callback URL: must be at most 511/,
		);
		await refused({ ...base, updateFields: { dialTimeoutInSec: 200 } }, /^Dial Timeout/);
	});

	test('a number not in the account fails naming it', async () => {
		const error = failure(await update({ email: 'a@b.c' }, rl('0799999999', 'id')));
		assert.match(error.message, /0799999999 is not in this account/);
		assert.equal(vnRequests(sandbox, 'update_virtualnum').length, 0);
	});
});

describe('Virtual Number → Virtual Number → Release and Restore', () => {
	test('release returns the number to the pool; restore brings it back', async () => {
		const released = jsons(
			await run({ resource: 'virtualnum', operation: 'release', virtualnum: rl('0722000104') }),
		);
		assert.equal(released[0].virtualnum, '0722000104');
		assert.equal(released[0].released, true);
		const [request] = vnRequests(sandbox, 'release_virtualnum');
		assert.equal(request.method, 'POST');
		assert.deepEqual(request.body, { virtualnum: '0722000104' });
		assert.equal(sandbox.control.virtualnum('0722000104'), undefined);
		assert.ok(sandbox.control.pool().includes('0722000104'));

		const restored = jsons(
			await run({ resource: 'virtualnum', operation: 'restore', numberToRestore: '0722000104' }),
		);
		assert.equal(restored[0].virtualnum, '0722000104');
		assert.equal(restored[0].restored, true);
		assert.deepEqual(vnRequests(sandbox, 'restore_virtualnum')[0].body, {
			virtualnum: '0722000104',
		});
		assert.equal(sandbox.control.virtualnum('0722000104')?.active_status, 1);
	});

	test('restoring an active number explains code 4043 as "already active"', async () => {
		const error = failure(
			await run({ resource: 'virtualnum', operation: 'restore', numberToRestore: '0722000100' }),
		);
		assert.match(error.message, /The number is already active \(code 4043\)/);
		assert.match(String(error.description), /Nothing to restore/);
	});

	test('releasing a number not in the account fails with the meaning of 4041', async () => {
		const error = failure(
			await run({
				resource: 'virtualnum',
				operation: 'release',
				virtualnum: rl('0799999999', 'id'),
			}),
		);
		assert.match(error.message, /The number does not exist \(code 4041\)/);
	});

	test('bad numbers are refused before any request', async () => {
		await refused(
			{ resource: 'virtualnum', operation: 'restore', numberToRestore: expr('') },
			/^Number to Restore: is required/,
		);
		await refused(
			{ resource: 'virtualnum', operation: 'restore', numberToRestore: '07x' },
			/^Number to Restore: must be a phone number/,
		);
		await refused(
			{ resource: 'virtualnum', operation: 'release', virtualnum: rl(expr('abc'), 'id') },
			/^Virtual Number: /,
		);
	});
});

describe('Virtual Number → list searches', () => {
	test('the node registers the list searches its locators name', async () => {
		const { loadPackage } = await import('../../../dev/harness/engine.mts');
		const loader = await loadPackage();
		const node = loader.getNode('virtualNumber').type as unknown as {
			methods?: { listSearch?: Record<string, unknown> };
			description: { properties: Array<Record<string, unknown>> };
		};
		const methods = Object.keys(node.methods?.listSearch ?? {});
		const named = new Set<string>();
		const walk = (value: unknown) => {
			if (Array.isArray(value)) value.forEach(walk);
			else if (value && typeof value === 'object') {
				const record = value as Record<string, unknown>;
				if (typeof record.searchListMethod === 'string') named.add(record.searchListMethod);
				Object.values(record).forEach(walk);
			}
		};
		walk(node.description.properties);
		assert.ok(named.size >= 2);
		for (const method of named)
			assert.ok(methods.includes(method), `listSearch.${method} is registered`);
	});
});
