import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { expr, failure, hoursPattern, jsons, rl, vnRequests, vnTest } from '../../vnRun.mts';

const { sandbox, run, refused } = vnTest();

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
		const expectedHours = hoursPattern(
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
			hoursPattern([
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
