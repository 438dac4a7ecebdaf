/**
 * Send's checks (nodes/BulkSms/actions/message/campaign.ts), each through n8n's engine against the
 * sandbox: what the service receives and what each output item says.
 *
 * Skip Opted-Out Numbers: a number that opted out gets no message however either side writes it,
 * and an item "Not sent: opted out" paired to its input item; the list or table is read once per
 * run; a table n8n withholds, a missing table or column sends nothing.
 *
 * Advertisement: what the service receives, what each output item says was sent, the length and
 * the SMS parts counted on the text that goes out, and a missing advertiser or contact refused
 * before any request.
 *
 * Campaign ID: in each output item and in the Delivery Report URL, carried to the delivery reports.
 *
 * Sending Window, on the service's clock: a run outside it is scheduled for the next opening (Send
 * At as the service receives it) or not sent, as the user picks; a window that is never open is
 * refused before any request. The windows are built from today's weekday in the service's zone, so
 * each test means the same whenever it runs.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { MemoryDataTables } from '../../../../../dev/harness/dataTables.mts';
import { runWorkflow } from '../../../../../dev/harness/engine.mts';
import {
	credentialsFor,
	failure,
	jsons,
	rl,
	sandboxPerFile,
} from '../../../../../dev/harness/nodeTest.mts';
import { NODE, runCampaign, sendParameters, sentMessages } from './campaignRun.mts';

const sandbox = sandboxPerFile();

/** One opted-out number in three spellings, and two that did not opt out. */
const RECIPIENTS = ['0541110010', '972541110010', '+972-54-111-0010', '0541110011', '0521234567'];

const fromList = (numbers: unknown) => ({ optOuts: { source: { from: 'list', numbers } } });
const fromTable = (table: string, column = 'phone') => ({
	optOuts: { source: { from: 'dataTable', dataTable: rl(table), column } },
});

const fromNodeItems = (nodeName: string, field: string) => ({
	optOuts: { source: { from: 'nodeItems', nodeName, field } },
});

/** Send after a start node "Opt-outs" whose items carry each recipient (`to`) and an opted-out number (`optedOut`). */
async function runAfterOptOuts(campaign: IDataObject) {
	const optedOut = ['+972 54-111-0010', '', 972541110010, undefined, '050-999-9999'];
	return await runWorkflow({
		startName: 'Opt-outs',
		nodes: [{ name: NODE, type: 'bulkSms', parameters: sendParameters({ campaign }) }],
		input: RECIPIENTS.map((to, index) => ({
			json: optedOut[index] === undefined ? { to } : { to, optedOut: optedOut[index] },
		})),
		credentials: credentialsFor('bulkSms', sandbox),
	});
}

function assertSkipped(items: Array<Record<string, unknown>>) {
	assert.deepEqual(
		items.map((item) => item.status),
		[
			'Not sent: opted out',
			'Not sent: opted out',
			'Not sent: opted out',
			'Message in Action',
			'Message in Action',
		],
	);
	assert.deepEqual(items[1], {
		status: 'Not sent: opted out',
		dest: '972541110010',
		inputItem: 1,
		estimatedCredits: 0,
		campaignId: 'test-execution',
	});
	assert.deepEqual(
		sentMessages(sandbox).map((m) => m.dest),
		['0541110011', '0521234567'],
	);
}

describe('Bulk SMS → Send → Campaign → Skip Opted-Out Numbers', () => {
	test('from a list: every spelling of an opted-out number is skipped, each paired to its item', async () => {
		const result = await runCampaign(sandbox, RECIPIENTS, {
			campaign: fromList('+972 54-111-0010, 050-999-9999'),
		});
		assertSkipped(jsons(result, NODE));
		assert.deepEqual(
			result.items(NODE).map((item) => item.pairedItem),
			[0, 1, 2, 3, 4].map((item) => ({ item })),
		);
	});

	test("from a list an expression gives (an earlier node's items), with numbers as numbers and empty values", async () => {
		const result = await runCampaign(sandbox, RECIPIENTS, {
			campaign: fromList('={{ [972541110010, null, "", "note: none"] }}'),
		});
		assertSkipped(jsons(result, NODE));
	});

	test("from an earlier node's items, without an expression: a field of each item, numbers as numbers and empty values", async () => {
		assertSkipped(jsons(await runAfterOptOuts(fromNodeItems('Opt-outs', 'optedOut')), NODE));
	});

	test('an earlier node that is not in the workflow, or a field none of its items has: an error naming it, nothing sent', async () => {
		const noNode = failure(await runAfterOptOuts(fromNodeItems('Opt-out list', 'optedOut')), NODE);
		assert.match(
			noNode.message,
			/^Skip Opted-Out Numbers: cannot read the items of the node "Opt-out list": /,
		);
		assert.match(
			String(noNode.description),
			/^Nothing was sent\. Set Node Name to an earlier node/,
		);
		const noField = failure(await runAfterOptOuts(fromNodeItems('Opt-outs', 'phone')), NODE);
		assert.equal(
			noField.message,
			'Skip Opted-Out Numbers: none of the 5 items of "Opt-outs" has a field "phone"',
		);
		assert.match(String(noField.description), /Set Field to the name of the field/);
		assert.equal(sentMessages(sandbox).length, 0);
	});

	test('from a Data Table (where n8n serves it): read once for the whole run, 1,000 rows a page', async () => {
		const tables = new MemoryDataTables({ servesEveryNode: true });
		const table = tables.create(
			'SMS opt-outs',
			['phone', 'text'],
			[
				{ phone: '0541110010', text: 'הסר' },
				{ phone: null, text: 'empty' },
			],
		);
		const result = await runCampaign(
			sandbox,
			RECIPIENTS,
			{ campaign: fromTable(table) },
			{ tables },
		);
		assertSkipped(jsons(result, NODE));
		assert.deepEqual(tables.calls, [`getColumns ${table}`, `getManyRowsAndCount ${table}`]);
	});

	test('an empty table skips no one', async () => {
		const tables = new MemoryDataTables({ servesEveryNode: true });
		const table = tables.create('SMS opt-outs', ['phone']);
		await runCampaign(sandbox, RECIPIENTS.slice(3), { campaign: fromTable(table) }, { tables });
		assert.equal(sentMessages(sandbox).length, 2);
	});

	test('a table of 100,000 opted-out numbers: read once, the one recipient not in it is sent to', async () => {
		const tables = new MemoryDataTables({ servesEveryNode: true });
		const rows = Array.from({ length: 100_000 }, (_, i) => ({
			phone: `+972-53-${String(i).padStart(7, '0')}`,
		}));
		const table = tables.create('SMS opt-outs', ['phone'], rows);
		const recipients = ['0530000000', '0530099999', '0531000000'];
		const started = Date.now();
		const result = await runCampaign(
			sandbox,
			recipients,
			{ campaign: fromTable(table) },
			{ tables },
		);
		const took = Date.now() - started;
		assert.deepEqual(
			jsons(result, NODE).map((item) => item.status),
			['Not sent: opted out', 'Not sent: opted out', 'Message in Action'],
		);
		assert.equal(tables.calls.filter((call) => call.startsWith('getMany')).length, 100);
		assert.ok(took < 20_000, `took ${took} ms`);
	});

	test('n8n 2.40 refuses its Data Tables to this node: a clear error, nothing sent', async () => {
		const tables = new MemoryDataTables();
		const table = tables.create('SMS opt-outs', ['phone'], [{ phone: '0541110010' }]);
		const result = await runCampaign(
			sandbox,
			RECIPIENTS,
			{ campaign: fromTable(table) },
			{ tables },
		);
		const error = failure(result, NODE);
		assert.equal(
			error.message,
			'n8n refused the Data Table of "Skip Opted-Out Numbers" to this node',
		);
		assert.match(String(error.description), /Read the table with a Data table node/);
		assert.equal(sentMessages(sandbox).length, 0);
	});

	test('a table or a column that does not exist: an error naming it, nothing sent', async () => {
		const tables = new MemoryDataTables({ servesEveryNode: true });
		const table = tables.create('SMS opt-outs', ['number']);
		const noTable = await runCampaign(
			sandbox,
			RECIPIENTS,
			{ campaign: fromTable('gone') },
			{ tables },
		);
		assert.match(
			failure(noTable, NODE).message,
			/^The Data Table chosen in "Skip Opted-Out Numbers" \(ID gone\) could not be opened/,
		);
		const noColumn = await runCampaign(
			sandbox,
			RECIPIENTS,
			{ campaign: fromTable(table) },
			{ tables },
		);
		assert.equal(
			failure(noColumn, NODE).message,
			'The Data Table chosen in "Skip Opted-Out Numbers" has no column "phone"',
		);
		assert.equal(sentMessages(sandbox).length, 0);
	});

	test('an n8n without Data Tables: the option is named', async () => {
		const result = await runCampaign(sandbox, RECIPIENTS, { campaign: fromTable('table1') });
		assert.equal(
			failure(result, NODE).message,
			`"Skip Opted-Out Numbers" needs n8n's Data Tables, which this n8n does not offer to this node`,
		);
		assert.equal(sentMessages(sandbox).length, 0);
	});
});

const details = (extra: Record<string, string> = {}) => ({
	details: { advertiser: 'Cafe Dizengoff', contact: '03-5551234', ...extra },
});

describe('Bulk SMS → Send → Campaign → Advertisement', () => {
	test('the service receives פרסומת, the message, the advertiser, the contact and how to refuse', async () => {
		const result = await runCampaign(sandbox, ['0541110010'], {
			campaign: { advertisement: details() },
		});
		const expected =
			'פרסומת: Spring sale: 20% off until Sunday\nCafe Dizengoff, 03-5551234\nלהסרה השיבו הסר';
		assert.deepEqual(
			sentMessages(sandbox).map((m) => m.message),
			[expected],
		);
		const [item] = jsons(result, NODE);
		assert.equal(item.message, expected);
		assert.equal(item.encoding, 'UCS-2');
		// 84 characters of UCS-2 (over 70): two parts, and two credits.
		assert.equal(item.segments, 2);
		assert.equal(item.estimatedCredits, 2);
	});

	test('a link, a link with the keyword, and a message already starting with פרסומת', async () => {
		await runCampaign(sandbox, ['0541110010'], {
			campaign: { advertisement: details({ keyword: '', link: 'https://ex.co/rm' }) },
		});
		await runCampaign(sandbox, ['0541110010'], {
			campaign: { advertisement: details({ keyword: 'STOP', link: 'https://ex.co/rm' }) },
		});
		await runCampaign(sandbox, ['0541110010'], {
			message: 'פרסומת: מבצע',
			campaign: { advertisement: details() },
		});
		assert.deepEqual(
			sentMessages(sandbox).map((m) => m.message),
			[
				'פרסומת: Spring sale: 20% off until Sunday\nCafe Dizengoff, 03-5551234\nלהסרה: https://ex.co/rm',
				'פרסומת: Spring sale: 20% off until Sunday\nCafe Dizengoff, 03-5551234\nלהסרה השיבו STOP או https://ex.co/rm',
				'פרסומת: מבצע\nCafe Dizengoff, 03-5551234\nלהסרה השיבו הסר',
			],
		);
	});

	for (const [field, extra, message] of [
		[
			'Advertiser Name',
			{ advertiser: ' ' },
			/^Advertiser Name: is required in an advertisement: the law requires the advertiser to be named/,
		],
		[
			'Contact Details',
			{ contact: '' },
			/^Contact Details: are required in an advertisement: the law requires the advertiser's contact details/,
		],
		[
			'both opt-out fields',
			{ keyword: '', link: '' },
			/^Opt-Out Reply Keyword: is empty, and so is Opt-Out Link: an advertisement must say how to refuse/,
		],
	] as const) {
		test(`no ${field}: refused before any request, an error item per input item under Continue On Fail`, async () => {
			const result = await runCampaign(
				sandbox,
				['0541110010', '0541110011'],
				{ campaign: { advertisement: details(extra) } },
				{ onError: 'continueRegularOutput' },
			);
			assert.equal(sentMessages(sandbox).length, 0);
			const items = result.items(NODE);
			assert.deepEqual(
				items.map((item) => item.pairedItem),
				[{ item: 0 }, { item: 1 }],
			);
			for (const item of items) assert.match(String(item.json.error), message);
			const failed = await runCampaign(sandbox, ['0541110010'], {
				campaign: { advertisement: details(extra) },
			});
			assert.match(String(failure(failed, NODE).message), message);
			assert.equal(sentMessages(sandbox).length, 0);
		});
	}

	test('the 600-character limit counts the added text: the message alone fits, the advertisement does not', async () => {
		const message = 'x'.repeat(560);
		const result = await runCampaign(
			sandbox,
			['0541110010'],
			{ message, campaign: { advertisement: details() } },
			{ onError: 'continueRegularOutput' },
		);
		assert.equal(sentMessages(sandbox).length, 0);
		const [item] = jsons(result, NODE);
		assert.match(
			String(item.error),
			/^Message: is 611 characters long with the advertisement.s added text, more than the 600/,
		);
	});
});

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

describe('Bulk SMS → Send → Campaign → Campaign ID', () => {
	test('default: the execution ID, in each item and in the Delivery Report URL', async () => {
		const result = await runCampaign(sandbox, ['0541110010'], {
			options: { callbackUrl: 'https://n8n.example.com/webhook/abc?secret=s3&campaignId=old' },
			campaign: { output: 'perRecipient' },
		});
		assert.equal(jsons(result, NODE)[0].campaignId, 'test-execution');
		assert.equal(
			sentMessages(sandbox)[0].callback_url,
			'https://n8n.example.com/webhook/abc?secret=s3&campaignId=test-execution',
		);
	});

	test('set by an expression: encoded in the URL', async () => {
		await runCampaign(sandbox, ['0541110010'], {
			options: { callbackUrl: 'https://n8n.example.com/webhook/abc' },
			campaign: { campaignId: "={{ 'Sale ' + 'א/1' }}" },
		});
		assert.equal(
			sentMessages(sandbox)[0].callback_url,
			'https://n8n.example.com/webhook/abc?campaignId=Sale%20%D7%90%2F1',
		);
	});

	test('without Campaign options nothing changes: no campaignId, the URL as typed', async () => {
		const result = await runCampaign(sandbox, ['0541110010'], {
			options: { callbackUrl: 'https://n8n.example.com/webhook/abc' },
		});
		assert.equal(jsons(result, NODE)[0].campaignId, undefined);
		assert.equal(sentMessages(sandbox)[0].callback_url, 'https://n8n.example.com/webhook/abc');
	});
});
