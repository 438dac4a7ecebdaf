import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { DateTime } from 'luxon';

import { InputChecks } from '../../../nodes/shared/checks.ts';
import {
	SERVICE_TIME_ZONE,
	addCallTimesWithOffset,
	formatSmsSendtime,
	formatVirtualnumDate,
	serviceZone,
	toDateTime,
} from '../../../nodes/shared/dates.ts';

const node = {
	id: '1',
	name: 'Node',
	type: 'x',
	typeVersion: 1,
	position: [0, 0] as [number, number],
	parameters: {},
};
const checks = new InputChecks(node, 3);
const format = (value: unknown, zone = 'Asia/Jerusalem') =>
	formatVirtualnumDate(value, zone, 'Start Time', checks);

describe('dates: any n8n date input to the service format', () => {
	const cases: Array<[string, unknown, string]> = [
		['the service format', '2024-05-01 13:30:00', '2024-05-01 13:30:00'],
		['without seconds', '2024-05-01 13:30', '2024-05-01 13:30:00'],
		['a date only (midnight)', '2024-05-01', '2024-05-01 00:00:00'],
		[
			'the date picker (ISO, no offset: workflow zone)',
			'2024-05-01T13:30:00',
			'2024-05-01 13:30:00',
		],
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
		assert.equal(
			toDateTime('2024-05-01 10:30:00', 'America/New_York', 'x', checks).toUTC().toISO(),
			'2024-05-01T14:30:00.000Z',
		);
	});

	const bad: Array<[string, unknown, RegExp]> = [
		['empty text', '', /^Start Time: is required and cannot be empty$/],
		['undefined', undefined, /^Start Time: is required/],
		['a word', 'tomorrow', /^Start Time: must be a date.*\(got "tomorrow"\)/],
		[
			'a US-style date (JavaScript would read it month first, in the server zone)',
			'12/31/2025 09:30',
			/^Start Time: must be a date/,
		],
		['a lone digit (JavaScript reads "1" as the year 2001)', '1', /^Start Time: must be a date/],
		['a Unix time of zero', 0, /^Start Time: must be a date/],
		['a negative Unix time', -5, /^Start Time: must be a date/],
		['an impossible day', '2024-02-30 10:00:00', /^Start Time: must be a date/],
		['an impossible hour', '2024-02-10 25:00:00', /^Start Time: must be a date/],
		['SQL', "2024-01-01' OR '1'='1", /^Start Time: must be a date/],
		['an invalid JS Date', new Date('x'), /^Start Time: must be a date/],
		['NaN', Number.NaN, /^Start Time: must be a date/],
		['an object', { year: 2024 }, /^Start Time: must be a date/],
	];
	for (const [name, value, expected] of bad) {
		test(`${name} is refused naming the field and the item`, () => {
			assert.throws(
				() => format(value),
				(error: Error & { description?: string }) => {
					assert.match(error.message, expected);
					assert.match(String(error.description), /item 3/);
					return true;
				},
			);
		});
	}
});

describe('dates: one rule for numbers, for every date input', () => {
	// 2024-12-01 00:00:00 UTC as seconds, as text, and as milliseconds: the same instant every time.
	for (const value of [1733011200, '1733011200', 1733011200000, '1733011200000']) {
		test(`${JSON.stringify(value)} is 2024-12-01 00:00:00 UTC`, () => {
			assert.equal(formatVirtualnumDate(value, 'UTC', 'x', checks), '2024-12-01 00:00:00');
			assert.equal(formatSmsSendtime(checks, value, 'UTC', true), '01/12/2024 00:00');
		});
	}
	test('the boundary: 99,999,999,999 is seconds (the year 5138), 100,000,000,000 milliseconds (1973)', () => {
		assert.match(formatVirtualnumDate(99_999_999_999, 'UTC', 'x', checks), /^5138-/);
		assert.match(formatVirtualnumDate(100_000_000_000, 'UTC', 'x', checks), /^1973-/);
	});
	test('8 digits are an ISO date (basic format), not a Unix time', () => {
		assert.equal(formatVirtualnumDate('20241201', 'UTC', 'x', checks), '2024-12-01 00:00:00');
	});
	test('the day-first form of the SMS service, in every date input', () => {
		assert.equal(
			formatVirtualnumDate('01/12/2024 09:05', 'UTC', 'x', checks),
			'2024-12-01 09:05:00',
		);
		assert.equal(
			formatVirtualnumDate('2024-12-01 9:05:00', 'Asia/Jerusalem', 'x', checks),
			'2024-12-01 09:05:00',
		);
	});
	// Each form docs/inputs.md lists, with the examples it gives, as the nodes read them (UTC).
	const DOCUMENTED_FORMS: Array<[string, unknown[], string]> = [
		[
			'A DateTime from an expression ({{ $now }}, {{ $today.plus({ days: 1 }) }}) or a JavaScript Date',
			[DateTime.fromISO('2025-12-31T09:30:00Z'), new Date('2025-12-31T09:30:00Z')],
			'2025-12-31 09:30:00',
		],
		[
			'A Unix time, as a number or as text of 9 to 13 digits: seconds below 100,000,000,000 ' +
				'(up to 11 digits), milliseconds from there on (12 or 13 digits)',
			[1767173400, '1767173400', 1767173400000, '1767173400000'],
			'2025-12-31 09:30:00',
		],
		[
			'ISO 8601, as the date picker gives it: 2025-12-31T09:30:00, 2025-12-31T09:30, ' +
				'2025-12-31, with or without an offset (…Z, …+02:00)',
			[
				'2025-12-31T09:30:00',
				'2025-12-31T09:30',
				'2025-12-31T09:30:00Z',
				'2025-12-31T11:30:00+02:00',
			],
			'2025-12-31 09:30:00',
		],
		['', ['2025-12-31'], '2025-12-31 00:00:00'],
		[
			'SQL: 2025-12-31 09:30:00, 2025-12-31 09:30, 2025-12-31 9:30',
			['2025-12-31 09:30:00', '2025-12-31 09:30', '2025-12-31 9:30'],
			'2025-12-31 09:30:00',
		],
		[
			'Day first, as the SMS service writes dates: 31/12/2025 09:30, 31/12/2025 09:30:00, 31/12/2025',
			['31/12/2025 09:30', '31/12/2025 09:30:00'],
			'2025-12-31 09:30:00',
		],
		['', ['31/12/2025'], '2025-12-31 00:00:00'],
		[
			'RFC 2822 and HTTP dates: Wed, 31 Dec 2025 09:30:00 +0200',
			['Wed, 31 Dec 2025 11:30:00 +0200', 'Wed, 31 Dec 2025 09:30:00 GMT'],
			'2025-12-31 09:30:00',
		],
	];
	test('docs/inputs.md lists the accepted forms, and every example it gives is read', () => {
		const page = readFileSync(new URL('../../../docs/inputs.md', import.meta.url), 'utf8');
		const list = /Accepted, in the order they are tried:\n\n((?:- .*\n)+)/.exec(page)?.[1];
		assert.deepEqual(
			list?.trim().split('\n'),
			DOCUMENTED_FORMS.filter(([form]) => form !== '').map(([form]) => `- ${form}`),
		);
		for (const [, values, expected] of DOCUMENTED_FORMS)
			for (const value of values)
				assert.equal(formatVirtualnumDate(value, 'UTC', 'x', checks), expected, String(value));
	});
});

const NOW = Date.UTC(2030, 5, 10, 12, 0, 0);

describe('Send At → sendtime', () => {
	const cases: Array<[string, unknown, string, string]> = [
		[
			'ISO without offset is read in the zone',
			'2030-06-11T09:30:00',
			'Asia/Jerusalem',
			'11/06/2030 09:30',
		],
		[
			'ISO with offset is converted to the zone',
			'2030-06-11T09:30:00+00:00',
			'Asia/Jerusalem',
			'11/06/2030 12:30',
		],
		['ISO date only is midnight in the zone', '2030-06-11', 'UTC', '11/06/2030 00:00'],
		[
			'a Luxon DateTime',
			DateTime.fromISO('2030-06-11T09:30:00Z'),
			'America/New_York',
			'11/06/2030 05:30',
		],
		['a JS Date', new Date('2030-12-24T22:15:00Z'), 'Asia/Jerusalem', '25/12/2030 00:15'],
		['epoch milliseconds', Date.UTC(2030, 5, 11, 9, 30), 'UTC', '11/06/2030 09:30'],
		['epoch seconds', Date.UTC(2030, 5, 11, 9, 30) / 1000, 'UTC', '11/06/2030 09:30'],
		['the service format', '11/06/2030 09:30', 'Europe/London', '11/06/2030 09:30'],
		['SQL text', '2030-06-11 09:30:00', 'UTC', '11/06/2030 09:30'],
		['RFC 2822 text', 'Tue, 11 Jun 2030 09:30:00 +0000', 'UTC', '11/06/2030 09:30'],
		['seconds are dropped (minute precision)', '2030-06-11T09:30:59', 'UTC', '11/06/2030 09:30'],
	];
	for (const [name, value, zone, expected] of cases) {
		test(name, () => assert.equal(formatSmsSendtime(checks, value, zone, false, NOW), expected));
	}

	test('a time within the current minute is not "past"', () => {
		assert.equal(
			formatSmsSendtime(checks, new Date(NOW - 59_000), 'UTC', false, NOW),
			'10/06/2030 11:59',
		);
		assert.throws(
			() => formatSmsSendtime(checks, new Date(NOW - 61_000), 'UTC', false, NOW),
			/Send At: is in the past/,
		);
	});

	test('a past time fails the item, naming it, unless allowed', () => {
		assert.throws(
			() => formatSmsSendtime(checks, '2030-06-10T11:58:00', 'UTC', false, NOW),
			(error: Error & { context?: { itemIndex?: number } }) =>
				/^Send At: is in the past \(2030-06-10 11:58 \+00:00, UTC; now it is 2030-06-10 12:00 \+00:00\)/.test(
					error.message,
				) && error.context?.itemIndex === 3,
		);
		assert.equal(
			formatSmsSendtime(checks, '2030-06-10T11:58:00', 'UTC', true, NOW),
			'10/06/2030 11:58',
		);
	});

	for (const bad of [
		'tomorrow',
		'31/02/2030 10:00',
		'2030-13-01T00:00:00',
		{},
		true,
		DateTime.invalid('test'),
		new Date('nope'),
		-5,
	]) {
		test(`${JSON.stringify(bad) ?? String(bad)} cannot be read`, () => {
			assert.throws(
				() => formatVirtualnumDate(bad, 'UTC', 'Start Time', checks),
				/Start Time: must be a date/,
			);
			assert.throws(
				() => formatSmsSendtime(checks, bad, 'UTC', true, NOW),
				/Send At: must be a date/,
			);
		});
	}
});

describe("dates: the service's clock (Service Time Zone)", () => {
	test('the zone: an override first, then the credential, else Asia/Jerusalem; anything else fails naming the field', () => {
		assert.equal(serviceZone(checks), SERVICE_TIME_ZONE);
		assert.equal(serviceZone(checks, undefined, ''), 'Asia/Jerusalem');
		assert.equal(serviceZone(checks, '', ' UTC '), 'UTC');
		assert.equal(serviceZone(checks, 'Asia/Tokyo', 'UTC'), 'Asia/Tokyo');
		assert.throws(
			() => serviceZone(checks, undefined, 'Mars/Olympus'),
			(error: Error & { context?: { itemIndex?: number } }) =>
				/^Service Time Zone: must be an IANA time zone.*\(got "Mars\/Olympus"\)/.test(
					error.message,
				) && error.context?.itemIndex === 3,
		);
	});

	test('the service time with its offset: summer, winter, and what is not a service time', () => {
		const startedAt = (startTime: string, zone: string) =>
			addCallTimesWithOffset({ startTime }, zone).startedAt;
		assert.equal(startedAt('2026-07-01 09:30:00', 'Asia/Jerusalem'), '2026-07-01T09:30:00+03:00');
		assert.equal(startedAt('2026-12-01 09:30:00', 'Asia/Jerusalem'), '2026-12-01T09:30:00+02:00');
		assert.equal(startedAt('2026-12-01 09:30:00', 'UTC'), '2026-12-01T09:30:00Z');
		for (const bad of [null, '', 'soon', 12, '0000-00-00 00:00:00'])
			assert.ok(
				!('startedAt' in addCallTimesWithOffset({ startTime: bad }, 'Asia/Jerusalem')),
				String(bad),
			);
	});

	test('startedAt / endedAt right after startTime / endTime; an alias of the same name is kept', () => {
		const out = addCallTimesWithOffset(
			{ callId: 'a', startTime: '2026-12-01 09:30:00', endTime: null, durationSec: 1 },
			'Asia/Jerusalem',
		);
		assert.deepEqual(Object.entries(out), [
			['callId', 'a'],
			['startTime', '2026-12-01 09:30:00'],
			['startedAt', '2026-12-01T09:30:00+02:00'],
			['endTime', null],
			['durationSec', 1],
		]);
		assert.deepEqual(
			addCallTimesWithOffset({ startTime: '2026-12-01 09:30:00', startedAt: 'mine' }, 'UTC'),
			{ startTime: '2026-12-01 09:30:00', startedAt: 'mine' },
		);
	});

	test('a skipped wall-clock time is refused; Z, offsets and Unix times on that night are not', () => {
		assert.throws(
			() => format('2027-03-26 02:30:00'),
			/Start Time: does not exist in Asia\/Jerusalem: the clocks move forward/,
		);
		assert.equal(format('2027-03-26T00:30:00Z'), '2027-03-26 03:30:00');
		assert.equal(format('2027-03-26T02:30:00+02:00'), '2027-03-26 03:30:00');
		assert.equal(format(Date.UTC(2027, 2, 26, 0, 30) / 1000), '2027-03-26 03:30:00');
		assert.equal(format('2027-03-26 02:30:00', 'UTC'), '2027-03-26 02:30:00');
	});

	test('Send At read in another zone is sent on the service clock', () => {
		const now = Date.UTC(2030, 0, 1);
		assert.equal(
			formatSmsSendtime(
				checks,
				'2030-01-15 09:30',
				'Asia/Jerusalem',
				false,
				now,
				'America/New_York',
			),
			'15/01/2030 16:30',
		);
	});
});
