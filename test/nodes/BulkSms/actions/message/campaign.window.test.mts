/**
 * Send → Campaign → Sending Window (nodes/BulkSms/actions/message/campaign.ts), through n8n's
 * engine against the sandbox: the Send At the service receives and what each output item says.
 *
 * On the service's clock (the credential's Service Time Zone): a run outside the window is
 * scheduled for the next opening or not sent, as the user picks; a window that is never open is
 * refused before any request. The windows of the first tests are built from today's weekday in the
 * service's zone, so each means the same whenever it runs.
 *
 * Openings and closings are wall-clock times on the days the clocks change too, every change of
 * the field-data corpus (test/fixtures/field-data/clock-days.json): Israel's 2026 and 2027, a zone
 * whose half-hour offset changes (Australia/Adelaide) and one whose does not (Asia/Kolkata). The
 * days of 2026 are past: their Send At goes with Allow Past Time, which the window still moves.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { failure, jsons, sandboxPerFile } from '../../../../../dev/harness/nodeTest.mts';
import { clockDays, type ClockDay } from '../../../../corpus/corpus.mts';
import { NODE, runCampaign, sentMessages } from './campaignRun.mts';

const sandbox = sandboxPerFile();

const ZONE = 'Asia/Jerusalem';
const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const dayOf = (date: DateTime) => DAYS[date.weekday - 1];

const window = (
	hours: Array<{ days: string[]; from: string; until: string }>,
	outside?: string,
) => ({
	sendingWindow: { hours },
	...(outside ? { outsideWindow: outside } : {}),
});

describe('Bulk SMS → Send → Campaign → Sending Window', () => {
	test('open now (every day, all day): sent at once, no Send At', async () => {
		const result = await runCampaign(sandbox, ['0541110010'], {
			campaign: window([{ days: DAYS, from: '00:00', until: '24:00' }]),
		});
		assert.equal(jsons(result, NODE)[0].status, 'Message in Action');
		assert.equal(sentMessages(sandbox)[0].sendtime, undefined);
	});

	test('closed today: scheduled for the next opening, tomorrow 08:00 on the service clock', async () => {
		const tomorrow = DateTime.now().setZone(ZONE).plus({ days: 1 }).startOf('day');
		const result = await runCampaign(sandbox, ['0541110010', '0541110011'], {
			campaign: window([{ days: [dayOf(tomorrow)], from: '08:00', until: '09:30' }]),
		});
		const expected = tomorrow.set({ hour: 8 }).toFormat('dd/MM/yyyy HH:mm');
		assert.deepEqual(
			sentMessages(sandbox).map((m) => m.sendtime),
			[expected, expected],
		);
		assert.equal(jsons(result, NODE).length, 2);
	});

	test('a Send At outside the window moves to the opening after it', async () => {
		const tomorrow = DateTime.now().setZone(ZONE).plus({ days: 1 }).startOf('day');
		await runCampaign(sandbox, ['0541110010'], {
			options: { sendAt: tomorrow.set({ hour: 22 }).toFormat("yyyy-MM-dd'T'HH:mm:ss") },
			campaign: window([{ days: DAYS, from: '08:00', until: '21:00' }]),
		});
		const expected = tomorrow.plus({ days: 1 }).set({ hour: 8 }).toFormat('dd/MM/yyyy HH:mm');
		assert.equal(sentMessages(sandbox)[0].sendtime, expected);
	});

	test('Do Not Send: nothing sent, each recipient an item with the next opening', async () => {
		const tomorrow = DateTime.now().setZone(ZONE).plus({ days: 1 }).startOf('day');
		const result = await runCampaign(sandbox, ['0541110010', '0541110011'], {
			campaign: window([{ days: [dayOf(tomorrow)], from: '14:00', until: '15:00' }], 'skip'),
		});
		assert.equal(sentMessages(sandbox).length, 0);
		assert.deepEqual(jsons(result, NODE)[1], {
			status: 'Not sent: outside the sending window',
			dest: '0541110011',
			inputItem: 1,
			estimatedCredits: 0,
			nextOpening: tomorrow.set({ hour: 14 }).toISO({ suppressMilliseconds: true }),
			campaignId: 'test-execution',
		});
	});

	for (const [what, hours, message] of [
		[
			'From after Until',
			[{ days: DAYS, from: '21:00', until: '08:00' }],
			/^Sending Window: opens at 21:00 and closes at 08:00: From must come before Until/,
		],
		['no days', [{ days: [], from: '08:00', until: '21:00' }], /^Sending Window: has no open hour/],
		['no opening hours', [], /^Sending Window: has no open hour/],
		[
			'a time that is no time',
			[{ days: DAYS, from: '8am', until: '21:00' }],
			/^Sending Window → From: must be a time of day such as 08:00/,
		],
	] as const) {
		test(`a window never open (${what}) is refused before any request`, async () => {
			const result = await runCampaign(sandbox, ['0541110010'], {
				campaign: window(hours as never),
			});
			assert.match(failure(result, NODE).message, message);
			assert.equal(sentMessages(sandbox).length, 0);
		});
	}
});

/** A date of the corpus (`2026-10-25`) as the service's Send At writes it (`25/10/2026`). */
const serviceDate = (date: string) => date.split('-').reverse().join('/');
const EVERY_DAY = DAYS;

/**
 * One message due at `sendAt` (a wall-clock time in `zone`) with the window `hours` every day:
 * the Send At the service received (Schedule for the Next Opening) and the `nextOpening` of the
 * item Do Not Send outputs.
 */
async function windowOn(zone: string, sendAt: string, hours: Array<[string, string]>) {
	const send = (outside: string) =>
		runCampaign(
			sandbox,
			['0541110010'],
			{
				options: { sendAt, allowPastTime: true },
				campaign: window(
					hours.map(([from, until]) => ({ days: EVERY_DAY, from, until })),
					outside,
				),
			},
			{ credentials: { serviceTimeZone: zone } },
		);
	sandbox.control.reset();
	const scheduled = await send('schedule');
	assert.equal(scheduled.error, undefined, scheduled.error?.message);
	const sendtime = sentMessages(sandbox)[0]?.sendtime;
	const skipped = jsons(await send('skip'), NODE)[0];
	return { sendtime, nextOpening: skipped.nextOpening, status: skipped.status };
}

const transitions = clockDays.transitions;
const dayAfter = (day: ClockDay) =>
	DateTime.fromISO(day.date, { zone: day.zone }).plus({ days: 1 }).toFormat('dd/MM/yyyy');

describe('Bulk SMS → Send → Campaign → Sending Window on the days the clocks change', () => {
	for (const day of transitions) {
		const when = `${day.zone} ${day.date} (${day.change}, ${day.from} → ${day.to})`;
		test(`${when}: an opening at 08:00 is 08:00 by the clock there (${day.offsetAfter})`, async () => {
			const result = await windowOn(day.zone, `${day.date}T06:00:00`, [['08:00', '21:00']]);
			assert.equal(result.sendtime, `${serviceDate(day.date)} 08:00`);
			assert.equal(result.nextOpening, `${day.date}T08:00:00${day.offsetAfter}`);
		});

		test(`${when}: a closing at 08:00 closes at 08:00: a message due then waits for the next day's opening`, async () => {
			const open = await windowOn(day.zone, `${day.date}T07:59:00`, [['06:00', '08:00']]);
			assert.equal(open.sendtime, `${serviceDate(day.date)} 07:59`, 'still open at 07:59');
			assert.equal(open.status, 'Message in Action');
			const closed = await windowOn(day.zone, `${day.date}T08:00:00`, [['06:00', '08:00']]);
			assert.equal(closed.sendtime, `${dayAfter(day)} 06:00`);
		});
	}

	for (const day of transitions.filter((d) => d.skipped && d.date.startsWith('2026'))) {
		const [hour] = day.skipped!.split(':');
		const inGap = `${hour}:30`;
		test(`${day.zone} ${day.date}: an opening at ${inGap}, inside the hour the clock skips, opens when the clock jumps to ${day.to}`, async () => {
			const result = await windowOn(day.zone, `${day.date}T00:30:00`, [[inGap, '21:00']]);
			assert.equal(result.sendtime, `${serviceDate(day.date)} ${day.to}`);
			assert.equal(result.nextOpening, `${day.date}T${day.to}:00${day.offsetAfter}`);
		});

		test(`${day.zone} ${day.date}: opening hours the skipped hour covers whole (${hour}:00-${hour}:45) do not open that day`, async () => {
			const result = await windowOn(day.zone, `${day.date}T00:30:00`, [
				[`${hour}:00`, `${hour}:45`],
			]);
			assert.equal(result.sendtime, `${dayAfter(day)} ${hour}:00`);
		});
	}

	for (const day of transitions.filter((d) => d.repeated && d.date.startsWith('2026'))) {
		const [hour] = day.repeated!.split(':');
		test(`${day.zone} ${day.date}: an opening at ${hour}:30, in the hour the clock repeats, opens the first time the clock reads it (${day.offsetBefore})`, async () => {
			const result = await windowOn(day.zone, `${day.date}T00:30:00`, [[`${hour}:30`, '21:00']]);
			assert.equal(result.sendtime, `${serviceDate(day.date)} ${hour}:30`);
			assert.equal(result.nextOpening, `${day.date}T${hour}:30:00${day.offsetBefore}`);
		});
	}

	for (const { zone, offset } of clockDays.fixedHalfHour) {
		test(`${zone} (${offset} all year): an opening at 08:00 is 08:00 there`, async () => {
			const date = DateTime.now().setZone(zone).plus({ days: 2 }).toISODate()!;
			const result = await windowOn(zone, `${date}T06:00:00`, [['08:00', '21:00']]);
			assert.equal(result.sendtime, `${serviceDate(date)} 08:00`);
			assert.equal(result.nextOpening, `${date}T08:00:00${offset}`);
		});
	}

	test('run on 25 October 2026 at 06:00 in Israel, summer time just ended: scheduled for 08:00 that day, not 07:00', async (t) => {
		// The run's own clock at 06:00 +02:00, as if n8n ran the workflow then.
		t.mock.timers.enable({ apis: ['Date'], now: Date.parse('2026-10-25T06:00:00+02:00') });
		const result = await runCampaign(sandbox, ['0541110010', '0541110011'], {
			campaign: {
				...window([{ days: EVERY_DAY, from: '08:00', until: '21:00' }]),
				output: 'summary',
			},
		});
		assert.deepEqual(
			sentMessages(sandbox).map((m) => m.sendtime),
			['25/10/2026 08:00', '25/10/2026 08:00'],
		);
		const summary = jsons(result, NODE)[0] as IDataObject;
		assert.deepEqual(
			[summary.sent, summary.scheduled, summary.firstScheduledFor, summary.lastScheduledFor],
			[0, 2, '2026-10-25T08:00:00+02:00', '2026-10-25T08:00:00+02:00'],
		);
	});
});
