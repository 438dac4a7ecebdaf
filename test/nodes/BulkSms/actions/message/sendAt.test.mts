import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { DateTime } from 'luxon';

import { PAST_TOLERANCE_MS, readDateTime, toSendtime } from '../../../../../nodes/BulkSms/actions/message/sendAt.ts';
import { InputChecks } from '../../../../../nodes/shared/checks.ts';

const node = { id: '1', name: 'Bulk SMS', type: 'x', typeVersion: 1, position: [0, 0] as [number, number], parameters: {} };
const check = new InputChecks(node, 4);
const NOW = Date.UTC(2030, 5, 10, 12, 0, 0);

describe('Send At → sendtime', () => {
	const cases: Array<[string, unknown, string, string]> = [
		['ISO without offset is read in the zone', '2030-06-11T09:30:00', 'Asia/Jerusalem', '11/06/2030 09:30'],
		['ISO with offset is converted to the zone', '2030-06-11T09:30:00+00:00', 'Asia/Jerusalem', '11/06/2030 12:30'],
		['ISO date only is midnight in the zone', '2030-06-11', 'UTC', '11/06/2030 00:00'],
		['a Luxon DateTime', DateTime.fromISO('2030-06-11T09:30:00Z'), 'America/New_York', '11/06/2030 05:30'],
		['a JS Date', new Date('2030-12-24T22:15:00Z'), 'Asia/Jerusalem', '25/12/2030 00:15'],
		['epoch milliseconds', Date.UTC(2030, 5, 11, 9, 30), 'UTC', '11/06/2030 09:30'],
		['epoch seconds', Date.UTC(2030, 5, 11, 9, 30) / 1000, 'UTC', '11/06/2030 09:30'],
		['the service format', '11/06/2030 09:30', 'Europe/London', '11/06/2030 09:30'],
		['SQL text', '2030-06-11 09:30:00', 'UTC', '11/06/2030 09:30'],
		['RFC 2822 text', 'Tue, 11 Jun 2030 09:30:00 +0000', 'UTC', '11/06/2030 09:30'],
		['seconds are dropped (minute precision)', '2030-06-11T09:30:59', 'UTC', '11/06/2030 09:30'],
	];
	for (const [name, value, zone, expected] of cases) {
		test(name, () => assert.equal(toSendtime(check, value, zone, false, NOW), expected));
	}

	test('a time within the current minute is not "past"', () => {
		assert.equal(toSendtime(check, new Date(NOW - PAST_TOLERANCE_MS + 1000), 'UTC', false, NOW), '10/06/2030 11:59');
	});

	test('a past time fails the item, naming it, unless allowed', () => {
		assert.throws(
			() => toSendtime(check, '2030-06-10T11:58:00', 'UTC', false, NOW),
			(error: Error & { context?: { itemIndex?: number } }) =>
				/^Send At: is in the past \(2030-06-10 11:58 UTC\)/.test(error.message) && error.context?.itemIndex === 4,
		);
		assert.equal(toSendtime(check, '2030-06-10T11:58:00', 'UTC', true, NOW), '10/06/2030 11:58');
	});

	for (const bad of ['tomorrow', '31/02/2030 10:00', '2030-13-01T00:00:00', '', {}, true, DateTime.invalid('test'), new Date('nope'), -5]) {
		test(`${JSON.stringify(bad) ?? String(bad)} cannot be read`, () => {
			assert.equal(readDateTime(bad, 'UTC'), undefined);
			assert.throws(() => toSendtime(check, bad, 'UTC', true, NOW), /Send At: must be a date and time/);
		});
	}
});
