/**
 * What a campaign says became of each recipient (nodes/BulkSms/actions/message/campaign.ts decides
 * why a recipient is not sent; output.ts and summary.ts say it), through n8n's engine against the
 * sandbox: every recipient not sent says the first true reason (opted out before same number), no
 * item claims `sentWithItem` for a message that never went, and the Summary counts each recipient
 * once (`recipients` is `sent` + `scheduled` + `failed` + the `notSent` reasons), the messages the
 * service holds until later apart from those gone out now.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { DateTime } from 'luxon';
import type { IDataObject, INode } from 'n8n-workflow';

import { runWorkflow } from '../../../../../dev/harness/engine.mts';
import { credentialsFor, jsons, sandboxPerFile } from '../../../../../dev/harness/nodeTest.mts';
import { NODE, sendParameters, sentMessages } from './campaignRun.mts';

const sandbox = sandboxPerFile();

const OPTED_OUT = '054-111-0010';

/** Send over `input` items (`to`, and an item's own `sender` or `at`), with `campaign` and `options`. */
async function run(
	input: IDataObject[],
	campaign: IDataObject,
	options: IDataObject = {},
	onError: INode['onError'] = 'continueErrorOutput',
) {
	return await runWorkflow({
		nodes: [
			{
				name: NODE,
				type: 'bulkSms',
				parameters: {
					...sendParameters({ campaign, options }),
					sender: { __rl: true, mode: 'id', value: `={{ $json.sender ?? 'VirtualNum' }}` },
				},
				onError,
				typeVersion: 1.1,
			},
		],
		input: input.map((json) => ({ json })),
		credentials: credentialsFor('bulkSms', sandbox),
	});
}

const optOuts = { optOuts: { source: { from: 'list', numbers: OPTED_OUT } } };
const ONCE = { sendOncePerNumber: true };

/** The count of every reason and outcome: each recipient once. */
function assertAddsUp(summary: IDataObject) {
	const notSent = summary.notSent as Record<string, number>;
	const counted =
		Number(summary.sent) +
		Number(summary.scheduled) +
		Number(summary.failed) +
		notSent.optedOut +
		notSent.sameNumber +
		notSent.outsideWindow;
	assert.equal(counted, summary.recipients, `${JSON.stringify(summary)} adds up`);
}

/** Eleven items: an opted-out number listed twice (two spellings), others listed twice and three times. */
const LISTED = [
	'0541110010',
	'0541110020',
	'+972-54-111-0010',
	'0541110030',
	'972541110020',
	'0541110040',
	'054 111 0030',
	'0541110020',
	'0541110050',
	'541110010',
	'0541110060',
].map((to) => ({ to }));

describe('Bulk SMS → Send: every recipient not sent says the first true reason', () => {
	test('Send Once per Number and an opted-out number listed three times: each listing says opted out, none claims a message', async () => {
		const result = await run(LISTED, optOuts, ONCE);
		const items = jsons(result, NODE);
		assert.deepEqual(
			items.map((item) => [item.inputItem, item.status, item.sameNumberAs, item.sentWithItem]),
			[
				[0, 'Not sent: opted out', undefined, undefined],
				[1, 'Message in Action', undefined, undefined],
				[2, 'Not sent: opted out', undefined, undefined],
				[3, 'Message in Action', undefined, undefined],
				[4, 'Not sent: same number as an earlier item', 1, 1],
				[5, 'Message in Action', undefined, undefined],
				[6, 'Not sent: same number as an earlier item', 3, 3],
				[7, 'Not sent: same number as an earlier item', 1, 1],
				[8, 'Message in Action', undefined, undefined],
				[9, 'Not sent: opted out', undefined, undefined],
				[10, 'Message in Action', undefined, undefined],
			],
		);
		assert.equal(items[9].read, 'read 541110010 as 0541110010: the leading 0 was missing');
		assert.deepEqual(
			sentMessages(sandbox).map((m) => m.dest),
			['0541110020', '0541110030', '0541110040', '0541110050', '0541110060'],
		);
	});

	test('the same run with Output: Summary: optedOut 3, sameNumber 3, and the counts add up to the recipients', async () => {
		const [summary] = jsons(await run(LISTED, { ...optOuts, output: 'summary' }, ONCE), NODE);
		assert.deepEqual(
			[summary.recipients, summary.sent, summary.scheduled, summary.failed, summary.notSent],
			[11, 5, 0, 0, { optedOut: 3, sameNumber: 3, outsideWindow: 0 }],
		);
		assertAddsUp(summary);
	});

	test("an earlier item's message the service refused: the later listing says same number, and no sentWithItem", async () => {
		const input = [{ to: '0541110070', sender: 'NotOurs' }, { to: '+972 54 111 0070' }];
		const [success, errors] = (await run(input, {}, ONCE)).outputs(NODE);
		assert.deepEqual(
			errors.map((item) => [item.pairedItem, item.json.error]),
			[[{ item: 0 }, 'The message to 0541110070 was not sent: Error - 403 Forbidden']],
		);
		assert.deepEqual(success[0].json, {
			status: 'Not sent: same number as an earlier item',
			dest: '972541110070',
			inputItem: 1,
			sameNumberAs: 0,
			estimatedCredits: 0,
		});
	});

	test('a message the sending window leaves out (Do Not Send) is no earlier message: the same number, due inside the window, is sent', async () => {
		const tomorrow = DateTime.now().setZone('Asia/Jerusalem').plus({ days: 1 }).startOf('day');
		const at = (hour: number) => tomorrow.set({ hour }).toFormat("yyyy-MM-dd'T'HH:mm:ss");
		const input = [
			{ to: '0541110080', at: at(23) },
			{ to: '0541110080', at: at(10) },
		];
		const window = {
			sendingWindow: {
				hours: [
					{
						days: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'],
						from: '08:00',
						until: '21:00',
					},
				],
			},
			outsideWindow: 'skip',
		};
		const items = jsons(await run(input, window, { ...ONCE, sendAt: '={{ $json.at }}' }), NODE);
		assert.deepEqual(
			items.map((item) => item.status),
			['Not sent: outside the sending window', 'Message in Action'],
		);
		assert.deepEqual(
			sentMessages(sandbox).map((m) => m.sendtime),
			[tomorrow.set({ hour: 10 }).toFormat('dd/MM/yyyy HH:mm')],
		);
	});
});

describe('Bulk SMS → Send → Output: Summary: scheduled messages apart', () => {
	test('Schedule for the Next Opening while the window is closed: nothing counted as gone out, scheduled with the time it goes out', async () => {
		const tomorrow = DateTime.now().setZone('Asia/Jerusalem').plus({ days: 1 }).startOf('day');
		const day = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'][tomorrow.weekday - 1];
		const window = { sendingWindow: { hours: [{ days: [day], from: '08:00', until: '21:00' }] } };
		const input = ['0541110010', '0541110011', '0541110012'].map((to) => ({ to }));
		const perRecipient = jsons(await run(input, window), NODE);
		const opening = tomorrow.set({ hour: 8 }).toISO({ suppressMilliseconds: true });
		assert.deepEqual(
			perRecipient.map((item) => [item.status, item.scheduledFor]),
			input.map(() => ['Message in Action', opening]),
		);
		const [summary] = jsons(await run(input, { ...window, output: 'summary' }), NODE);
		assert.deepEqual(
			[summary.sent, summary.scheduled, summary.firstScheduledFor, summary.lastScheduledFor],
			[0, 3, opening, opening],
		);
		assertAddsUp(summary);
	});

	test('a run of everything: opted out, the same number, refused, sent now and held until later, each counted once', async () => {
		const later = DateTime.now().setZone('Asia/Jerusalem').plus({ days: 2 }).startOf('day');
		const at = (hour: number) => later.set({ hour }).toFormat("yyyy-MM-dd'T'HH:mm:ss");
		const past = '2020-01-01T09:00:00';
		const input = [
			{ to: '0541110090', at: past },
			{ to: OPTED_OUT, at: past },
			{ to: '0541110091', at: at(9) },
			{ to: '0541110090', at: at(9) },
			{ to: '0541110092', at: at(11), sender: 'NotOurs' },
			{ to: '0541110093', at: at(11) },
			{ to: '12', at: past },
		];
		const result = await run(
			input,
			{ ...optOuts, output: 'summary' },
			{ ...ONCE, sendAt: '={{ $json.at }}', allowPastTime: true },
		);
		const [success, errors] = result.outputs(NODE);
		assert.deepEqual(
			errors.map((item) => item.pairedItem),
			[{ item: 4 }, { item: 6 }],
		);
		const summary = success[0].json;
		const iso = (hour: number) => later.set({ hour }).toISO({ suppressMilliseconds: true });
		assert.deepEqual(
			[
				summary.recipients,
				summary.sent,
				summary.scheduled,
				summary.failed,
				summary.failedItems,
				summary.notSent,
			],
			[6, 1, 2, 1, 1, { optedOut: 1, sameNumber: 1, outsideWindow: 0 }],
		);
		assert.deepEqual([summary.firstScheduledFor, summary.lastScheduledFor], [iso(9), iso(11)]);
		assertAddsUp(summary);
	});
});
