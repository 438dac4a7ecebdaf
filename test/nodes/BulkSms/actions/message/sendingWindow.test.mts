/**
 * Send → Campaign → Sending Window, on the service's clock: a run outside it is scheduled for the
 * next opening (Send At as the service receives it) or not sent, as the user picks; a window that
 * is never open is refused before any request. The windows are built from today's weekday in the
 * service's zone, so each test means the same whenever it runs.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { DateTime } from 'luxon';

import { failure, jsons, sandboxPerFile } from '../../../../../dev/harness/nodeTest.mts';
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
