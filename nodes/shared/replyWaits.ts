/**
 * The table of runs waiting for an SMS reply: one row per run that Send and Wait for Response
 * (Answer By: SMS Reply) left waiting, kept in an n8n Data Table through n8n's public API
 * (transport/n8nApi.ts), so that the trigger's SMS Received, on any n8n process, finds the run a
 * reply answers. The table is n8n's own database: nothing else to run, and it survives a restart.
 *
 * An INSERT per waiting run, and a `DELETE … returnData=true` to claim the rows of one
 * conversation (n8nTables.ts): a claimed row is gone for every other claimer, so one reply is
 * relayed once.
 *
 * A row is keyed by the conversation: the recipient's phone identity and the sender number's
 * (nodes/shared/phones.ts), so a reply written in any form reaches it, and the same person asked
 * from two numbers has two conversations. The row holds the run's signed resume URL, which lets
 * whoever reads it answer that run: keep the table where only the workflows' owners reach it.
 */
import type { IDataObject } from 'n8n-workflow';

import { insertRow, openTable, takeRows, type RowFilter, type TableSpec } from './n8nTables';
import type { RequestContext } from './transport/http';
import type { N8nApi } from './transport/n8nApi';

/** The table both sides use unless the user names another (Options → Waiting Replies Table). */
export const REPLY_WAITS_TABLE = 'Virtual Number SMS Reply Waits';

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
}

function spec(name: string): TableSpec {
	return {
		name,
		columns: [
			{ name: 'phone', type: 'string' },
			{ name: 'sender', type: 'string' },
			{ name: 'resumeUrl', type: 'string' },
			{ name: 'executionId', type: 'string' },
			{ name: 'expiresAt', type: 'date' },
			{ name: 'reasked', type: 'boolean' },
		],
		create: true,
		purpose:
			'keeps the runs waiting for an SMS reply. Delete it (it is created again with every column), ' +
			'or name another table in the Waiting Replies Table option of both nodes',
	};
}

/** Opens the table (finding or creating it) before anything is sent: its errors come first. */
export async function openReplyWaits(this: RequestContext, api: N8nApi, name: string) {
	await openTable(this, api, spec(name));
}

/** Writes a waiting run; answers the row's ID. */
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
	return await insertRow(this, api, spec(name), row, 'write the waiting run to the Data Table');
}

/**
 * Claims the runs waiting on the conversation (recipient, sender), only those written before the
 * row `before` when given: they are now the caller's alone, newest first.
 */
export async function claimReplyWaits(
	this: RequestContext,
	api: N8nApi,
	name: string,
	conversation: { phone: string; sender: string },
	before?: number,
): Promise<ReplyWait[]> {
	const filters: RowFilter = [
		['phone', 'eq', conversation.phone],
		['sender', 'eq', conversation.sender],
	];
	if (before !== undefined) filters.push(['id', 'lt', before]);
	const rows = await takeRows(
		this,
		api,
		spec(name),
		filters,
		'claim the runs waiting for this reply',
	);
	return rows as unknown as ReplyWait[];
}

/** Removes one row by its ID (a question that was never sent). */
export async function removeReplyWait(this: RequestContext, api: N8nApi, name: string, id: number) {
	await takeRows(this, api, spec(name), [['id', 'eq', id]], 'remove the waiting run');
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
	const expired: RowFilter = [['expiresAt', 'lt', new Date().toISOString()]];
	await takeRows(this, api, spec(name), expired, 'remove the runs that stopped waiting');
}
