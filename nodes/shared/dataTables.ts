/**
 * n8n's Data Tables, for the options that keep numbers in one (Send's opted-out numbers): the
 * table chosen as n8n's own Data table node lets it be chosen, one column read whole, and every
 * way the table can be out of reach said before anything is sent, naming the option that chose it.
 *
 * Reached through `this.helpers.getDataTableProxy` (n8n-workflow's `DataTableProxyFunctions`).
 * Three ways n8n can withhold it, each its own error:
 * - the helper is missing: an n8n without Data Tables, or a context n8n gives none (a webhook's);
 * - n8n refuses it: n8n 2.40 serves Data Tables only to its own Data table, Data table Tool and
 *   Evaluation nodes (`DataTableProxyService.validateRequest`: "This proxy is only available for
 *   Data table nodes"), whatever node asks;
 * - the table or column does not exist.
 */
import type {
	DataTableColumnJsType,
	IDataTableProjectService,
	INode,
	INodeListSearchResult,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asNodeError, messageOf } from './errors';

/** The list-search method that lists the project's tables: a node registers `searchDataTables` as it. */
const DATA_TABLE_SEARCH = 'searchDataTables';

/** n8n's Data table node reads 1,000 rows a page (`executeSelectMany`): so does this reader. */
const PAGE_SIZE = 1000;

/** What a context needs of n8n to reach a Data Table: execute, load-options and supply-data contexts. */
interface DataTableContext {
	getNode(): INode;
	helpers: {
		getDataTableProxy?(dataTableId: string): Promise<IDataTableProjectService>;
		getDataTableAggregateProxy?(): Promise<{
			getProjectId(): string;
			getManyAndCount(options: {
				filter?: Record<string, string>;
				skip?: number;
				take?: number;
			}): Promise<{ data: Array<{ id: string; name: string }> }>;
		}>;
	};
}

/** One column of one table, and the option that chose it (named in every error). */
interface DataTableColumnRef {
	/** The table's ID (a resource locator's value). */
	table: string;
	column: string;
	/** The option's name as the user sees it, e.g. "Skip Opted-Out Numbers". */
	option: string;
	itemIndex?: number;
}

/** A resource locator for a table, as n8n's Data table node has: from the list, or by ID. */
export function dataTableField(
	field: Pick<INodeProperties, 'displayName' | 'name' | 'description' | 'hint'>,
): INodeProperties {
	return {
		...field,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: DATA_TABLE_SEARCH, searchable: true },
			},
			{ displayName: 'ID', name: 'id', type: 'string', placeholder: 'e.g. UjJHVYs5Ksg7Pv6M' },
		],
	};
}

function refusedByN8n(error: unknown): boolean {
	return /only available for Data table nodes/i.test(messageOf(error));
}

function unavailable(node: INode, option: string, refused: boolean, itemIndex?: number) {
	const message = refused
		? `n8n refused the Data Table of "${option}" to this node`
		: `"${option}" needs n8n's Data Tables, which this n8n does not offer to this node`;
	const description = refused
		? 'This n8n lets only its own Data table node read and write Data Tables. Read the table with a ' +
			"Data table node (Get, Return All) and give its numbers to the option's list instead, or " +
			'remove the option.'
		: 'Data Tables come with recent n8n versions (and only in a workflow run, not in a webhook). ' +
			'Update n8n, or remove the option.';
	return new NodeOperationError(node, message, { itemIndex, description });
}

/** The table's proxy, or an error naming the option: missing helper, n8n's refusal, no such table. */
async function openTable(ctx: DataTableContext, ref: DataTableColumnRef) {
	const node = ctx.getNode();
	const open = ctx.helpers.getDataTableProxy;
	if (typeof open !== 'function') throw unavailable(node, ref.option, false, ref.itemIndex);
	if (!ref.table.trim())
		throw new NodeOperationError(node, `"${ref.option}" has no Data Table chosen`, {
			itemIndex: ref.itemIndex,
			description: 'Choose the table in the option, or remove the option.',
		});
	try {
		return await open.call(ctx.helpers, ref.table);
	} catch (error) {
		if (refusedByN8n(error)) throw unavailable(node, ref.option, true, ref.itemIndex);
		throw new NodeOperationError(
			node,
			`The Data Table chosen in "${ref.option}" (ID ${ref.table}) could not be opened: ${messageOf(error)}`,
			{
				itemIndex: ref.itemIndex,
				description: 'Choose an existing table in the option (it may have been deleted).',
			},
		);
	}
}

/** Checks the column exists: a misspelt column would otherwise read as an empty table. */
async function checkColumn(
	ctx: DataTableContext,
	proxy: IDataTableProjectService,
	ref: DataTableColumnRef,
) {
	const columns = (await proxy.getColumns()).map((column) => column.name);
	if (columns.includes(ref.column)) return;
	throw new NodeOperationError(
		ctx.getNode(),
		`The Data Table chosen in "${ref.option}" has no column "${ref.column}"`,
		{
			itemIndex: ref.itemIndex,
			description: columns.length
				? `Its columns: ${columns.join(', ')}. Type one of them in the option.`
				: 'The table has no columns: add one in n8n (Data Tables), or choose another table.',
		},
	);
}

/** The column's value as text ('' for an empty cell): numbers stored as numbers read as their digits. */
function cellText(value: DataTableColumnJsType | undefined): string {
	if (value === null || value === undefined) return '';
	if (value instanceof Date) return value.toISOString();
	return String(value);
}

/**
 * Every non-empty value of the column, page by page in row order. A table that changes size while
 * it is read is read again from the start, once: a partial list is never returned as the whole.
 */
export async function readColumn(
	ctx: DataTableContext,
	ref: DataTableColumnRef,
): Promise<string[]> {
	const proxy = await openTable(ctx, ref);
	await checkColumn(ctx, proxy, ref);
	for (let attempt = 0; attempt < 2; attempt++) {
		const values: string[] = [];
		let expected: number | undefined;
		let changed = false;
		for (let skip = 0; expected === undefined || skip < expected; skip += PAGE_SIZE) {
			const { data, count } = await proxy.getManyRowsAndCount({ skip, take: PAGE_SIZE });
			if (expected !== undefined && count !== expected) {
				changed = true;
				break;
			}
			expected = count;
			for (const row of data) {
				const text = cellText(row[ref.column]).trim();
				if (text) values.push(text);
			}
			if (data.length === 0) break;
		}
		if (!changed) return values;
	}
	throw new NodeOperationError(
		ctx.getNode(),
		`The Data Table chosen in "${ref.option}" changed while it was read, twice`,
		{
			itemIndex: ref.itemIndex,
			description: 'Run the workflow again when the table is not being filled.',
		},
	);
}

/** The project's tables for a Data Table field's list (100 a page, by name), as n8n's own node lists them. */
export async function searchDataTables(
	this: DataTableContext,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const aggregate = this.helpers.getDataTableAggregateProxy;
	if (typeof aggregate !== 'function') throw unavailable(this.getNode(), 'Data Table', false);
	let proxy;
	try {
		proxy = await aggregate.call(this.helpers);
	} catch (error) {
		if (refusedByN8n(error)) throw unavailable(this.getNode(), 'Data Table', true);
		throw asNodeError(this.getNode(), error);
	}
	const skip = paginationToken ? Number(paginationToken) : 0;
	const take = 100;
	const name = filter?.trim() ? { filter: { name: filter.trim().toLowerCase() } } : {};
	const { data } = await proxy.getManyAndCount({ skip, take, ...name });
	const projectId = proxy.getProjectId();
	return {
		results: data.map((table) => ({
			name: table.name,
			value: table.id,
			url: `/projects/${projectId}/datatables/${table.id}`,
		})),
		paginationToken: data.length === take ? String(skip + take) : undefined,
	};
}
