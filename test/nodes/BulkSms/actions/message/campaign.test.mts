/**
 * Send's checks (nodes/BulkSms/actions/message/campaign.ts), each through n8n's engine against the
 * sandbox: what the service receives and what each output item says.
 *
 * Skip Opted-Out Numbers: a number that opted out gets no message however either side writes it,
 * and an item "Not sent: opted out" paired to its input item; a row that cannot be one number
 * stops the run before anything is sent, naming the row and the value; a saved workflow that still
 * reads a Data Table gets the error n8n's refusal gave it.
 *
 * Advertisement: what the service receives, what each output item says was sent, the length and
 * the SMS parts counted on the text that goes out, and a missing advertiser or contact, a keyword
 * the reply reader would not recognise, or a field that is not one line, refused before any request.
 *
 * Campaign ID: in each output item and in the Delivery Report URL, carried to the delivery reports.
 * The Sending Window's tests are in campaign.window.test.mts, what the run accounts for in
 * campaign.accounting.test.mts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

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
			campaign: fromList('={{ [972541110010, null, "", "  ", "050-999-9999"] }}'),
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

	test("opted-out numbers as people keep them: a lost leading 0, an extension, other scripts' digits, invisible marks", async () => {
		const recipients = [
			'0541110010',
			'0541110011',
			'0541110012',
			'0541110013',
			'0541110014',
			'0521234567',
		];
		const result = await runCampaign(sandbox, recipients, {
			campaign: fromList([
				'541110010',
				'054-111-0011 ext 5',
				'٠٥٤١١١٠٠١٢',
				'０５４１１１００１３',
				'\u200f+972\u200e 54-111-0014',
			]),
		});
		assert.deepEqual(
			jsons(result, NODE).map((item) => item.status),
			[...Array<string>(5).fill('Not sent: opted out'), 'Message in Action'],
		);
		assert.deepEqual(
			sentMessages(sandbox).map((m) => m.dest),
			['0521234567'],
		);
	});

	test('a list row that cannot be one number: the run refused before anything is sent, naming the row and the value', async () => {
		const result = await runCampaign(
			sandbox,
			RECIPIENTS,
			{ campaign: fromList('0541110010, N/A, 054-111-001,, 0521234567 / 0541110011') },
			{ onError: 'continueErrorOutput' },
		);
		assert.equal(sentMessages(sandbox).length, 0);
		const [success, errors] = result.outputs(NODE);
		assert.equal(success.length, 0);
		assert.equal(errors.length, RECIPIENTS.length);
		assert.equal(
			errors[0].json.error,
			'Skip Opted-Out Numbers: entry 2 of the list is not one phone number: "N/A" has letters ("N")',
		);
		assert.match(
			String(errors[0].json.errorDescription),
			/^Nothing was sent: a refusal that cannot be read could be anyone's\..* 2 more cannot be read: entry 3 of the list: "054-111-001" is not a number of country code 972.*; entry 5 of the list: "0521234567 \/ 0541110011" holds 2 phone numbers, not one\.$/,
		);
		assert.deepEqual((errors[0].json.errorDetails as IDataObject).unreadRows, [
			'entry 2 of the list: "N/A" has letters ("N")',
			(errors[0].json.errorDetails as { unreadRows: string[] }).unreadRows[1],
			'entry 5 of the list: "0521234567 / 0541110011" holds 2 phone numbers, not one',
		]);
	});

	test("an earlier node's item that cannot be one number: refused, naming the node, the item and the field; an empty cell is no row", async () => {
		const optedOut = ['0541110010', '', null, 'call me', '050-999-9999'];
		const result = await runWorkflow({
			startName: 'Opt-outs',
			nodes: [
				{
					name: NODE,
					type: 'bulkSms',
					parameters: sendParameters({ campaign: fromNodeItems('Opt-outs', 'optedOut') }),
				},
			],
			input: RECIPIENTS.map((to, index) => ({ json: { to, optedOut: optedOut[index] } })),
			credentials: credentialsFor('bulkSms', sandbox),
		});
		assert.equal(
			failure(result, NODE).message,
			'Skip Opted-Out Numbers: item 3 of "Opt-outs" (field "optedOut") is not one phone number: "call me" has letters ("call")',
		);
		assert.equal(sentMessages(sandbox).length, 0);
	});

	test('a saved workflow with Numbers From: Data Table (no longer offered): the error n8n gave it, nothing sent', async () => {
		const result = await runCampaign(
			sandbox,
			RECIPIENTS,
			{ campaign: fromTable('UjJHVYs5Ksg7Pv6M') },
			{ onError: 'continueErrorOutput' },
		);
		const [success, errors] = result.outputs(NODE);
		assert.equal(success.length, 0);
		assert.equal(errors.length, RECIPIENTS.length, 'every input item on the error output');
		assert.equal(
			errors[0].json.error,
			'n8n refused the Data Table of "Skip Opted-Out Numbers" to this node',
		);
		assert.match(
			String(errors[0].json.errorDescription),
			/^Nothing was sent\. n8n serves its Data Tables only to its own nodes.* An Earlier Node's Items/,
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

	test('an Opt-Out Reply Keyword the reply reader would not recognise is refused, naming the rule; STOP and הסרה are not', async () => {
		for (const keyword of ['STOPPP', 'Bye']) {
			const result = await runCampaign(sandbox, ['0541110010'], {
				campaign: { advertisement: details({ keyword }) },
			});
			assert.match(
				failure(result, NODE).message,
				keyword === 'STOPPP'
					? /^Opt-Out Reply Keyword: is read as a refusal only by forgiving repeated letters \("stoppp"\): use a word recipients reply with to refuse/
					: /^Opt-Out Reply Keyword: is not a refusal the reader recognises: use a word recipients reply with to refuse/,
			);
		}
		assert.equal(sentMessages(sandbox).length, 0);
		for (const keyword of ['STOP', 'הסרה']) {
			const result = await runCampaign(sandbox, ['0541110010'], {
				campaign: { advertisement: details({ keyword }) },
			});
			assert.equal(result.error, undefined, result.error?.message);
		}
		assert.equal(sentMessages(sandbox).length, 2);
	});

	for (const [field, extra, what] of [
		[
			'Advertiser Name',
			{ advertiser: 'Cafe\nלהסרה השיבו STOP' },
			'character 5 is a line break \\(U\\+000A\\)',
		],
		[
			'Contact Details',
			{ contact: '03-5551234 \u202Eרסה ובישה' },
			'character 12 is a direction control \\(U\\+202E\\)',
		],
		[
			'Opt-Out Link',
			{ link: 'https://ex.co/rm\u2028להסרה: x' },
			'character 17 is a line separator \\(U\\+2028\\)',
		],
		[
			'Advertiser Name',
			{ advertiser: 'Cafe\tDizengoff' },
			'character 5 is a control character \\(U\\+0009\\)',
		],
	] as const) {
		test(`${field} that is not one line (${what.replace(/\\/g, '')}): refused before anything is sent, naming the field`, async () => {
			const result = await runCampaign(sandbox, ['0541110010'], {
				campaign: { advertisement: details(extra) },
			});
			const error = failure(result, NODE);
			assert.match(
				error.message,
				new RegExp(
					`^${field}: must be one line of plain text: ${what}, which would put text on another line`,
				),
			);
			assert.match(error.message, /\(got ".*<U\+[0-9A-F]{4}>.*"\)$/, 'the character shown');
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
