/**
 * Send → Campaign → Skip Opted-Out Numbers: a number that opted out gets no message however
 * either side writes it, and an item "Not sent: opted out" paired to its input item; the list or
 * table is read once per run; a table n8n withholds, a missing table or column sends nothing.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

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
