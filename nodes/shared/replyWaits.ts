/**
 * The table of runs waiting for an SMS reply: one row per run that Send and Wait for Response
 * (Answer By: SMS Reply) left waiting, kept in an n8n Data Table through n8n's public API
 * (transport/n8nApi.ts), so that the trigger's SMS Received, on any n8n process, finds the run a
 * reply answers. The table is n8n's own database: nothing else to run, and it survives a restart.
 *
 * Why rows and deletes, not n8n's upsert: n8n's upsert is an UPDATE then an INSERT with no unique
 * index on user columns, so two at once can both insert; an INSERT per waiting run, and a
 * `DELETE … returnData=true` to claim the rows of one conversation, are safe (on Postgres a
 * `DELETE … RETURNING`; on SQLite a select and delete in one transaction, n8n's writes being
 * serialised). A claimed row is gone for every other claimer: one reply, one relay.
 *
 * A row is keyed by the conversation: the recipient's phone identity and the sender number's
 * (nodes/shared/phones.ts), so a reply written in any form reaches it, and the same person asked
 * from two numbers has two conversations. The row holds the run's signed resume URL, which lets
 * whoever reads it answer that run: keep the table where only the workflows' owners reach it.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { RequestContext } from './transport/http';
import { n8nApiRequest, type N8nApi } from './transport/n8nApi';

/** The table both sides use unless the user names another (Options → Waiting Replies Table). */
export const REPLY_WAITS_TABLE = 'Virtual Number SMS Reply Waits';

/** The columns of the table, as n8n's public API creates them. */
const COLUMNS = [
	{ name: 'phone', type: 'string' },
	{ name: 'sender', type: 'string' },
	{ name: 'resumeUrl', type: 'string' },
	{ name: 'executionId', type: 'string' },
	{ name: 'expiresAt', type: 'date' },
	{ name: 'reasked', type: 'boolean' },
] as const;

/** One waiting run, as written; `id` and `createdAt` are n8n's (the newest row has the highest id). */
export interface ReplyWait {
	id?: number;
	/** The recipient's phone identity (the one the reply comes from). */
	phone: string;
	/** The identity of the number the question was sent from (the one the reply goes to). */
	sender: string;
	resumeUrl: string;
	executionId: string;
	/** When the run stops waiting (Limit Wait Time); null when it waits without a limit. */
	expiresAt: string | null;
	/** The run already asked again once after an unclear reply. */
	reasked: boolean;
	createdAt?: string;
}

/**
 * Table IDs by n8n address and name, found (or created) once per process: the lookup itself is kept,
 * so that 100 runs starting at once ask n8n once, not 100 times.
 */
const tableIds = new Map<string, Promise<string>>();

/** The table's ID: found by its exact name (the oldest of that name), or created. */
async function tableId(this: RequestContext, api: N8nApi, name: string): Promise<string> {
	const key = `${api.baseUrl}\n${name}`;
	let lookup = tableIds.get(key);
	if (!lookup) {
		lookup = (async () =>
			(await findTable.call(this, api, name)) ?? (await createTable.call(this, api, name)))();
		tableIds.set(key, lookup);
		// A failed lookup is not kept: the next run asks again.
		void lookup.catch(() => tableIds.delete(key));
	}
	return await lookup;
}

async function findTable(this: RequestContext, api: N8nApi, name: string) {
	// n8n's name filter matches parts of names: the exact name is picked here.
	const { value } = await n8nApiRequest.call(this, api, {
		method: 'GET',
		path: '/data-tables',
		qs: { filter: JSON.stringify({ name }), limit: 250 },
		what: `find the Data Table "${name}"`,
	});
	const tables = ((value as IDataObject | undefined)?.data ?? []) as IDataObject[];
	// The oldest of that name, so that every node picks the same one.
	const table = tables
		.filter((candidate) => candidate.name === name)
		.sort((a, b) => String(a.createdAt).localeCompare(String(b.createdAt)))[0];
	if (table) checkColumns.call(this, name, table.columns);
	return table ? String(table.id) : undefined;
}

/** A table of that name made by hand must still have the columns the rows need. */
function checkColumns(this: RequestContext, name: string, columns: unknown) {
	const have = new Set(
		(Array.isArray(columns) ? columns : []).map((column) => String((column as IDataObject).name)),
	);
	const missing = COLUMNS.filter((column) => !have.has(column.name)).map((column) => column.name);
	if (missing.length === 0) return;
	throw new NodeOperationError(
		this.getNode(),
		`The Data Table "${name}" has no column ${missing.join(', ')}`,
		{
			description:
				'The table keeps the runs waiting for an SMS reply. Delete it (the node creates it again ' +
				'with every column), or name another table in Options → Waiting Replies Table.',
		},
	);
}

async function createTable(this: RequestContext, api: N8nApi, name: string): Promise<string> {
	const { statusCode, value } = await n8nApiRequest.call(this, api, {
		method: 'POST',
		path: '/data-tables',
		body: { name, columns: COLUMNS.map((column) => ({ ...column })) },
		what: `create the Data Table "${name}"`,
		accept: [409, 500],
		sideEffect: true,
	});
	if (statusCode < 300) return String((value as IDataObject).id);
	// Another process created it at the same moment: n8n answers 409, or 500 when both passed its
	// name check and the database's unique index refused the second.
	const found = await findTable.call(this, api, name);
	if (found) return found;
	throw new NodeOperationError(
		this.getNode(),
		`n8n could not create the Data Table "${name}" (HTTP ${statusCode})`,
		{ description: 'Create it in n8n (Data Tables), or check the n8n log.' },
	);
}

/**
 * Runs `request` on the table; a table deleted since its ID was kept (n8n answers 404) is found or
 * created again, once.
 */
async function onTable<T>(
	context: RequestContext,
	api: N8nApi,
	name: string,
	request: (id: string) => Promise<T | 'gone'>,
): Promise<T> {
	const known = await tableId.call(context, api, name);
	const first = await request(known);
	if (first !== 'gone') return first;
	// Deleted since it was found: found or created again (unless another caller already did).
	const key = `${api.baseUrl}\n${name}`;
	if ((await tableIds.get(key)?.catch(() => undefined)) === known) tableIds.delete(key);
	const again = await request(await tableId.call(context, api, name));
	if (again !== 'gone') return again;
	throw new NodeOperationError(context.getNode(), `The Data Table "${name}" could not be found`);
}

/** Opens the table (finding or creating it) before anything is sent: its errors come first. */
export async function openReplyWaits(this: RequestContext, api: N8nApi, name: string) {
	await tableId.call(this, api, name);
}

/** Writes a waiting run; returns the row's ID. */
export async function addReplyWait(
	this: RequestContext,
	api: N8nApi,
	name: string,
	wait: ReplyWait,
): Promise<number | undefined> {
	// n8n's system columns are its own to write.
	const row: IDataObject = {
		phone: wait.phone,
		sender: wait.sender,
		resumeUrl: wait.resumeUrl,
		executionId: wait.executionId,
		expiresAt: wait.expiresAt,
		reasked: wait.reasked,
	};
	return await onTable(this, api, name, async (table) => {
		const { statusCode, value } = await n8nApiRequest.call(this, api, {
			method: 'POST',
			path: `/data-tables/${table}/rows`,
			body: { data: [row], returnType: 'id' },
			what: 'write the waiting run to the Data Table',
			accept: [404],
			sideEffect: true,
		});
		if (statusCode === 404) return 'gone';
		const first = Array.isArray(value) ? (value[0] as IDataObject | undefined) : undefined;
		return typeof first?.id === 'number' ? first.id : undefined;
	});
}

type Condition = 'eq' | 'lt';

/** Deletes the rows matching every condition and returns them, newest first. */
async function takeRows(
	this: RequestContext,
	api: N8nApi,
	name: string,
	filters: Array<[string, Condition, string | number]>,
	what: string,
): Promise<ReplyWait[]> {
	const filter = JSON.stringify({
		type: 'and',
		filters: filters.map(([columnName, condition, value]) => ({ columnName, condition, value })),
	});
	return await onTable(this, api, name, async (table) => {
		const { statusCode, value } = await n8nApiRequest.call(this, api, {
			method: 'DELETE',
			path: `/data-tables/${table}/rows/delete`,
			qs: { filter, returnData: 'true' },
			what,
			accept: [404],
			sideEffect: true,
		});
		if (statusCode === 404) return 'gone';
		const rows = (Array.isArray(value) ? value : []) as ReplyWait[];
		return rows.sort((a, b) => Number(b.id ?? 0) - Number(a.id ?? 0));
	});
}

/**
 * Claims the runs waiting on the conversation (recipient, sender), only those written before the
 * row `before` when given: they are now the caller's alone.
 */
export async function claimReplyWaits(
	this: RequestContext,
	api: N8nApi,
	name: string,
	conversation: { phone: string; sender: string },
	before?: number,
): Promise<ReplyWait[]> {
	const filters: Array<[string, Condition, string | number]> = [
		['phone', 'eq', conversation.phone],
		['sender', 'eq', conversation.sender],
	];
	if (before !== undefined) filters.push(['id', 'lt', before]);
	return await takeRows.call(this, api, name, filters, 'claim the runs waiting for this reply');
}

/** Removes one row by its ID (a question that was never sent). */
export async function removeReplyWait(this: RequestContext, api: N8nApi, name: string, id: number) {
	await takeRows.call(this, api, name, [['id', 'eq', id]], 'remove the waiting run');
}

/** When each table's expired rows were last removed, in this process. */
const lastSweep = new Map<string, number>();
const SWEEP_EVERY_MS = 60_000;

/**
 * Removes the rows of runs whose Limit Wait Time has passed (n8n went on with them already), at
 * most once a minute per process: 100 questions at once are not 100 sweeps.
 */
export async function removeExpiredReplyWaits(this: RequestContext, api: N8nApi, name: string) {
	const key = `${api.baseUrl}\n${name}`;
	if (Date.now() - (lastSweep.get(key) ?? 0) < SWEEP_EVERY_MS) return;
	lastSweep.set(key, Date.now());
	await takeRows.call(
		this,
		api,
		name,
		[['expiresAt', 'lt', new Date().toISOString()]],
		'remove the runs that stopped waiting',
	);
}
