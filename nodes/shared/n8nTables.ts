/**
 * n8n Data Tables through n8n's public REST API (transport/n8nApi.ts), the one way n8n 2.x lets a
 * community node's execute or webhook code read and write them: a table found by its exact name,
 * rows inserted, found, and deleted with their content returned (`returnData=true`: on Postgres a
 * `DELETE … RETURNING`, on SQLite a select and a delete in one transaction; either way a row is
 * returned to one caller only). n8n's upsert is not used: it is an UPDATE then an INSERT with no
 * unique index on user columns, so two at once can both insert.
 *
 * Used by the table of runs waiting for an SMS reply (replyWaits.ts) and the trigger's look-up of
 * senders who opted out.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { RequestContext } from './transport/http';
import { n8nApiRequest, type N8nApi } from './transport/n8nApi';

/** A table as a feature uses it. */
export interface TableSpec {
	name: string;
	/** The columns the feature reads or writes (a table of that name must have them). */
	columns: ReadonlyArray<{ name: string; type: string }>;
	/** Created with `columns` when missing; else a missing table is an error. */
	create: boolean;
	/** What the table is for and where its name is set, for errors ("keeps … Set it in …"). */
	purpose: string;
}

type Condition = 'eq' | 'neq' | 'lt' | 'gt';
export type RowFilter = Array<[column: string, condition: Condition, value: string | number]>;

/**
 * Table IDs by n8n address and name, found (or created) once per process: the lookup itself is
 * kept while it runs, so that 100 runs starting at once ask n8n once, not 100 times.
 */
const tableIds = new Map<string, Promise<string>>();

const keyOf = (api: N8nApi, spec: TableSpec) => `${api.baseUrl}\n${spec.name}`;

async function tableId(context: RequestContext, api: N8nApi, spec: TableSpec): Promise<string> {
	const key = keyOf(api, spec);
	let lookup = tableIds.get(key);
	if (!lookup) {
		lookup = (async () =>
			(await findTable(context, api, spec)) ?? (await createTable(context, api, spec)))();
		tableIds.set(key, lookup);
		// A failed lookup is not kept: the next run asks again.
		void lookup.catch(() => tableIds.delete(key));
	}
	return await lookup;
}

async function findTable(context: RequestContext, api: N8nApi, spec: TableSpec) {
	// n8n's name filter matches parts of names: the exact name is picked here.
	const { value } = await n8nApiRequest.call(context, api, {
		method: 'GET',
		path: '/data-tables',
		qs: { filter: JSON.stringify({ name: spec.name }), limit: 250 },
		what: `find the Data Table "${spec.name}"`,
	});
	const tables = ((value as IDataObject | undefined)?.data ?? []) as IDataObject[];
	// The oldest of that name, so that every node picks the same one.
	const table = tables
		.filter((candidate) => candidate.name === spec.name)
		.sort((a, b) => String(a.createdAt).localeCompare(String(b.createdAt)))[0];
	if (table) checkColumns(context, spec, table.columns);
	return table ? String(table.id) : undefined;
}

/** A table of that name made by hand must still have the columns the feature needs. */
function checkColumns(context: RequestContext, spec: TableSpec, columns: unknown) {
	const have = new Set(
		(Array.isArray(columns) ? columns : []).map((column) => String((column as IDataObject).name)),
	);
	const missing = spec.columns.filter((column) => !have.has(column.name)).map(({ name }) => name);
	if (missing.length === 0) return;
	throw new NodeOperationError(
		context.getNode(),
		`The Data Table "${spec.name}" has no column ${missing.join(', ')}`,
		{ description: `The table ${spec.purpose}.` },
	);
}

async function createTable(context: RequestContext, api: N8nApi, spec: TableSpec) {
	if (!spec.create)
		throw new NodeOperationError(context.getNode(), `n8n has no Data Table "${spec.name}"`, {
			description: `The table ${spec.purpose}.`,
		});
	const { statusCode, value } = await n8nApiRequest.call(context, api, {
		method: 'POST',
		path: '/data-tables',
		body: { name: spec.name, columns: spec.columns.map((column) => ({ ...column })) },
		what: `create the Data Table "${spec.name}"`,
		accept: [409, 500],
		sideEffect: true,
	});
	if (statusCode < 300) return String((value as IDataObject).id);
	// Another process created it at the same moment: n8n answers 409, or 500 when both passed its
	// name check and the database's unique index refused the second (seen with 30 runs at once).
	const found = await findTable(context, api, spec);
	if (found) return found;
	throw new NodeOperationError(
		context.getNode(),
		`n8n could not create the Data Table "${spec.name}" (HTTP ${statusCode})`,
		{ description: 'Create it in n8n (Data Tables), or check the n8n log.' },
	);
}

/**
 * Runs `request` on the table; a table deleted since its ID was kept (n8n answers 404) is found
 * (or created) again, once.
 */
async function onTable<T>(
	context: RequestContext,
	api: N8nApi,
	spec: TableSpec,
	request: (id: string) => Promise<T | 'gone'>,
): Promise<T> {
	const known = await tableId(context, api, spec);
	const first = await request(known);
	if (first !== 'gone') return first;
	const key = keyOf(api, spec);
	// Unless another caller already found it again.
	if ((await tableIds.get(key)?.catch(() => undefined)) === known) tableIds.delete(key);
	const again = await request(await tableId(context, api, spec));
	if (again !== 'gone') return again;
	throw new NodeOperationError(context.getNode(), `The Data Table "${spec.name}" was not found`);
}

/** Finds (or creates) the table before anything else is done: its errors come first. */
export async function openTable(context: RequestContext, api: N8nApi, spec: TableSpec) {
	await tableId(context, api, spec);
}

const filterText = (filters: RowFilter, type: 'and' | 'or' = 'and') =>
	JSON.stringify({
		type,
		filters: filters.map(([columnName, condition, value]) => ({ columnName, condition, value })),
	});

/** Inserts one row; answers its ID. */
export async function insertRow(
	context: RequestContext,
	api: N8nApi,
	spec: TableSpec,
	row: IDataObject,
	what: string,
): Promise<number | undefined> {
	return await onTable(context, api, spec, async (table) => {
		const { statusCode, value } = await n8nApiRequest.call(context, api, {
			method: 'POST',
			path: `/data-tables/${table}/rows`,
			body: { data: [row], returnType: 'id' },
			what,
			accept: [404],
			sideEffect: true,
		});
		if (statusCode === 404) return 'gone';
		const first = Array.isArray(value) ? (value[0] as IDataObject | undefined) : undefined;
		return typeof first?.id === 'number' ? first.id : undefined;
	});
}

/** Deletes the rows matching every condition and answers them, newest (highest ID) first. */
export async function takeRows(
	context: RequestContext,
	api: N8nApi,
	spec: TableSpec,
	filters: RowFilter,
	what: string,
): Promise<IDataObject[]> {
	return await onTable(context, api, spec, async (table) => {
		const { statusCode, value } = await n8nApiRequest.call(context, api, {
			method: 'DELETE',
			path: `/data-tables/${table}/rows/delete`,
			qs: { filter: filterText(filters), returnData: 'true' },
			what,
			accept: [404],
			sideEffect: true,
		});
		if (statusCode === 404) return 'gone';
		const rows = (Array.isArray(value) ? value : []) as IDataObject[];
		return rows.sort((a, b) => Number(b.id ?? 0) - Number(a.id ?? 0));
	});
}

/** The first `limit` rows matching any of the conditions. */
export async function findRows(
	context: RequestContext,
	api: N8nApi,
	spec: TableSpec,
	anyOf: RowFilter,
	limit: number,
	what: string,
): Promise<IDataObject[]> {
	return await onTable(context, api, spec, async (table) => {
		const { statusCode, value } = await n8nApiRequest.call(context, api, {
			method: 'GET',
			path: `/data-tables/${table}/rows`,
			qs: { filter: filterText(anyOf, 'or'), limit },
			what,
			accept: [404],
		});
		if (statusCode === 404) return 'gone';
		return ((value as IDataObject | undefined)?.data ?? []) as IDataObject[];
	});
}
