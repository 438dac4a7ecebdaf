/**
 * The Data Table reader every option that keeps numbers in a table goes through, run
 * inside n8n's engine (a real ExecuteContext, whose `helpers.getDataTableProxy` comes from
 * n8n-core) over the harness's stand-in of n8n's Data Tables. A small node of this file calls the
 * helper as Send does; what a user sees of each is tested with them.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import type {
	IDataObject,
	IExecuteFunctions,
	INodeType,
	INodeTypes,
	IVersionedNodeType,
} from 'n8n-workflow';

import { MemoryDataTables } from '../../../dev/harness/dataTables.mts';
import { loadPackage, NodeTypes, runWorkflow } from '../../../dev/harness/engine.mts';
import { callNodeMethod } from '../../../dev/harness/methods.mts';
import { readColumn } from '../../../nodes/shared/dataTables.ts';

const USER = 'n8n-nodes-virtualnum-test.tableUser';
const OPTION = 'Skip Opted-Out Numbers';

/** Reads a column, as the package's options do. */
class TableUser implements INodeType {
	description = {
		displayName: 'Table User',
		name: 'tableUser',
		group: ['transform'],
		version: 1,
		description: 'Reads a Data Table column',
		defaults: { name: 'Table User' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [],
	} as unknown as INodeType['description'];

	async execute(this: IExecuteFunctions) {
		const json = this.getInputData()[0].json;
		const ref = { table: String(json.table), column: String(json.column), option: OPTION };
		const values = await readColumn(this, ref);
		return [[{ json: { count: values.length, first: values[0], last: values.at(-1) } }]];
	}
}

class UserNodeTypes implements INodeTypes {
	private readonly user = new TableUser();
	constructor(private readonly base: NodeTypes) {}
	getByName(type: string): INodeType | IVersionedNodeType {
		return type === USER ? this.user : this.base.getByName(type);
	}
	getByNameAndVersion(type: string, version?: number): INodeType {
		return type === USER ? this.user : this.base.getByNameAndVersion(type, version);
	}
	getKnownTypes(): IDataObject {
		return {};
	}
}

let nodeTypes: UserNodeTypes;
before(async () => {
	nodeTypes = new UserNodeTypes(new NodeTypes(await loadPackage()));
});

async function use(tables: MemoryDataTables | undefined, input: IDataObject) {
	const result = await runWorkflow({
		nodes: [{ name: 'User', type: USER }],
		input: [{ json: input }],
		nodeTypes,
		additionalData: tables?.additionalData(),
	});
	return { result, json: result.error ? undefined : result.items('User')[0].json };
}

const phones = (count: number) =>
	Array.from({ length: count }, (_, i) => ({ phone: `05${String(i).padStart(8, '0')}` }));

describe('Data Tables: how n8n can withhold them', () => {
	test('n8n 2.40 serves Data Tables only to its own nodes: the error names the option and the way round', async () => {
		const tables = new MemoryDataTables();
		const table = tables.create('Opt-outs', ['phone'], phones(2));
		const { result } = await use(tables, { table, column: 'phone' });
		assert.equal(result.error?.message, `n8n refused the Data Table of "${OPTION}" to this node`);
		assert.match(
			String(result.error?.description),
			/only its own Data table node.*Data table node \(Get/,
		);
	});

	test('an n8n without Data Tables: the option is named, nothing else is tried', async () => {
		const { result } = await use(undefined, { table: 'table1', column: 'phone' });
		assert.equal(
			result.error?.message,
			`"${OPTION}" needs n8n's Data Tables, which this n8n does not offer to this node`,
		);
		assert.match(String(result.error?.description), /Update n8n, or remove the option/);
	});

	test('a table that does not exist: the option, the ID and the fix', async () => {
		const tables = new MemoryDataTables({ servesEveryNode: true });
		const { result } = await use(tables, { table: 'gone', column: 'phone' });
		assert.match(
			String(result.error?.message),
			/^The Data Table chosen in "Skip Opted-Out Numbers" \(ID gone\) could not be opened: Data table with ID 'gone' could not be found/,
		);
		assert.match(String(result.error?.description), /Choose an existing table/);
	});

	test('no table chosen', async () => {
		const tables = new MemoryDataTables({ servesEveryNode: true });
		const { result } = await use(tables, { table: ' ', column: 'phone' });
		assert.equal(result.error?.message, `"${OPTION}" has no Data Table chosen`);
	});

	test('a column that does not exist is an error listing the columns, not an empty list', async () => {
		const tables = new MemoryDataTables({ servesEveryNode: true });
		const table = tables.create('Opt-outs', ['number', 'when'], [{ number: '0541110010' }]);
		const { result } = await use(tables, { table, column: 'phone' });
		assert.equal(
			result.error?.message,
			`The Data Table chosen in "${OPTION}" has no column "phone"`,
		);
		assert.match(String(result.error?.description), /Its columns: number, when\./);
	});
});

describe('Data Tables: reading a column', () => {
	test('an empty table reads as no values', async () => {
		const tables = new MemoryDataTables({ servesEveryNode: true });
		const table = tables.create('Opt-outs', ['phone']);
		const { json } = await use(tables, { table, column: 'phone' });
		assert.deepEqual(json, { count: 0, first: undefined, last: undefined });
	});

	test('100,000 rows are read whole, 1,000 a page, in row order; empty cells skipped', async () => {
		const tables = new MemoryDataTables({ servesEveryNode: true });
		const table = tables.create('Opt-outs', ['phone', 'note'], [...phones(100_000), { note: 'x' }]);
		const started = Date.now();
		const { json } = await use(tables, { table, column: 'phone' });
		assert.deepEqual(json, { count: 100_000, first: '0500000000', last: '0500099999' });
		const pages = tables.calls.filter((call) => call.startsWith('getManyRowsAndCount'));
		assert.equal(pages.length, 101);
		assert.ok(Date.now() - started < 20_000);
	});

	test('a number column reads as its digits', async () => {
		const tables = new MemoryDataTables({ servesEveryNode: true });
		const table = tables.create('Opt-outs', { phone: 'number' }, [{ phone: 972541110010 }]);
		const { json } = await use(tables, { table, column: 'phone' });
		assert.deepEqual(json, { count: 1, first: '972541110010', last: '972541110010' });
	});
});

describe('Data Tables: the list to choose a table from', () => {
	const search = (tables: MemoryDataTables, filter?: string) =>
		callNodeMethod<{ results: IDataObject[]; paginationToken?: string }>({
			nodeType: 'bulkSms',
			kind: 'listSearch',
			method: 'searchDataTables',
			credentials: {},
			args: [filter],
			additionalData: tables.additionalData(),
		});

	test("lists the project's tables by name, each with its link", async () => {
		const tables = new MemoryDataTables({ servesEveryNode: true });
		tables.create('Opt-outs', ['phone']);
		tables.create('Campaign ledger', ['messageId']);
		const { results, paginationToken } = await search(tables);
		assert.deepEqual(results, [
			{ name: 'Campaign ledger', value: 'table2', url: '/projects/test-project/datatables/table2' },
			{ name: 'Opt-outs', value: 'table1', url: '/projects/test-project/datatables/table1' },
		]);
		assert.equal(paginationToken, undefined);
		assert.deepEqual((await search(tables, 'OPT')).results.length, 1);
	});

	test("n8n's refusal reaches the editor as the same clear error", async () => {
		await assert.rejects(search(new MemoryDataTables()), {
			message: 'n8n refused the Data Table of "Data Table" to this node',
		});
	});
});
