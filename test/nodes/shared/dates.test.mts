import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { DateTime } from 'luxon';

import { InputChecks } from '../../../nodes/shared/checks.ts';
import { formatVirtualnumDate, toDateTime } from '../../../nodes/shared/dates.ts';

const node = { id: '1', name: 'Node', type: 'x', typeVersion: 1, position: [0, 0] as [number, number], parameters: {} };
const checks = new InputChecks(node, 3);
const format = (value: unknown, zone = 'Asia/Jerusalem') => formatVirtualnumDate(value, zone, 'Start Time', checks);

describe('dates: any n8n date input to the service format', () => {
	const cases: Array<[string, unknown, string]> = [
		['the service format', '2024-05-01 13:30:00', '2024-05-01 13:30:00'],
		['without seconds', '2024-05-01 13:30', '2024-05-01 13:30:00'],
		['a date only (midnight)', '2024-05-01', '2024-05-01 00:00:00'],
		['the date picker (ISO, no offset: workflow zone)', '2024-05-01T13:30:00', '2024-05-01 13:30:00'],
		['ISO with Z (converted)', '2024-05-01T10:30:00Z', '2024-05-01 13:30:00'],
		['ISO with an offset (converted)', '2024-12-01T10:30:00+01:00', '2024-12-01 11:30:00'],
		['ISO with milliseconds', '2024-05-01T10:30:00.250Z', '2024-05-01 13:30:00'],
		['a luxon DateTime', DateTime.fromISO('2024-05-01T10:30:00Z'), '2024-05-01 13:30:00'],
		['a JS Date', new Date('2024-05-01T10:30:00Z'), '2024-05-01 13:30:00'],
		['Unix seconds', 1714559400, '2024-05-01 13:30:00'],
		['Unix milliseconds', 1714559400000, '2024-05-01 13:30:00'],
		['Unix seconds as text', '1714559400', '2024-05-01 13:30:00'],
		['RFC 2822', 'Wed, 01 May 2024 10:30:00 +0000', '2024-05-01 13:30:00'],
		['surrounding spaces', '  2024-05-01 13:30:00 ', '2024-05-01 13:30:00'],
	];
	for (const [name, value, expected] of cases) {
		test(name, () => assert.equal(format(value), expected));
	}

	test('the zone decides how text without an offset and instants are read', () => {
		assert.equal(format('2024-05-01T10:30:00Z', 'UTC'), '2024-05-01 10:30:00');
		assert.equal(format('2024-05-01T10:30:00Z', 'America/New_York'), '2024-05-01 06:30:00');
		assert.equal(format('2024-05-01 10:30:00', 'America/New_York'), '2024-05-01 10:30:00');
		assert.equal(format('2024-05-01 10:30:00', ''), '2024-05-01 10:30:00');
		assert.equal(toDateTime('2024-05-01 10:30:00', 'America/New_York', 'x', checks).toUTC().toISO(), '2024-05-01T14:30:00.000Z');
	});

	const bad: Array<[string, unknown, RegExp]> = [
		['empty text', '', /^Start Time: is required and cannot be empty$/],
		['undefined', undefined, /^Start Time: is required/],
		['a word', 'tomorrow', /^Start Time: must be a date.*\(got "tomorrow"\)/],
		['an impossible day', '2024-02-30 10:00:00', /^Start Time: must be a date/],
		['an impossible hour', '2024-02-10 25:00:00', /^Start Time: must be a date/],
		['SQL', "2024-01-01' OR '1'='1", /^Start Time: must be a date/],
		['an invalid JS Date', new Date('x'), /^Start Time: must be a date/],
		['NaN', Number.NaN, /^Start Time: must be a date/],
		['an object', { year: 2024 }, /^Start Time: must be a date/],
	];
	for (const [name, value, expected] of bad) {
		test(`${name} is refused naming the field and the item`, () => {
			assert.throws(() => format(value), (error: Error & { description?: string }) => {
				assert.match(error.message, expected);
				assert.match(String(error.description), /item 3/);
				return true;
			});
		});
	}
});
