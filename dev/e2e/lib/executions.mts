/**
 * The executions n8n stored in Postgres, read straight from its tables (execution_entity and
 * execution_data, whose run data n8n keeps in its "flatted" form): fast enough for thousands.
 */
import { parse } from 'flatted';

import { N8N_DATABASE } from './cluster.mts';
import type { Postgres } from './postgres.mts';

export interface StoredExecution {
	id: string;
	status: string;
	mode: string;
	startedAt: string | null;
	stoppedAt: string | null;
}

interface Item {
	json: Record<string, unknown>;
	binary?: Record<string, { id?: string; fileName?: string; fileSize?: string; mimeType?: string }>;
}

interface RunData {
	/** What is still to run: in queue mode the trigger's item waits here until a worker saves its run. */
	executionData?: {
		nodeExecutionStack?: Array<{
			node?: { name?: string };
			data?: { main?: Array<Item[] | null> };
		}>;
	};
	resultData?: {
		runData?: Record<string, Array<{ data?: { main?: Array<Item[] | null> } }>>;
		error?: { message?: string };
	};
}

/** Every execution of a workflow (not deleted), oldest first. */
export async function executionsOf(
	postgres: Postgres,
	workflowId: string,
): Promise<StoredExecution[]> {
	const rows = await postgres.json<StoredExecution[] | null>(
		N8N_DATABASE,
		`SELECT json_agg(json_build_object('id', id::text, 'status', status, 'mode', mode, 'startedAt', "startedAt", 'stoppedAt', "stoppedAt") ORDER BY id)
		 FROM execution_entity WHERE "workflowId" = '${workflowId.replace(/'/g, "''")}' AND "deletedAt" IS NULL`,
	);
	return rows ?? [];
}

/** Counts by status, e.g. `{ success: 1000 }`. */
export function byStatus(executions: StoredExecution[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const execution of executions)
		counts[execution.status] = (counts[execution.status] ?? 0) + 1;
	return counts;
}

/**
 * Waits until the workflow has `count` executions and none is still new or running; gives up at the
 * time limit, or when nothing changed for a minute (answering what there is).
 */
export async function waitForExecutions(
	postgres: Postgres,
	workflowId: string,
	count: number,
	timeoutMs: number,
): Promise<StoredExecution[]> {
	const deadline = Date.now() + timeoutMs;
	let last = '';
	let changedAt = Date.now();
	for (;;) {
		const executions = await executionsOf(postgres, workflowId);
		if (
			executions.length >= count &&
			executions.every((e) => e.status !== 'new' && e.status !== 'running')
		)
			return executions;
		const state = JSON.stringify([executions.length, byStatus(executions)]);
		if (state !== last) [last, changedAt] = [state, Date.now()];
		if (Date.now() > deadline || Date.now() - changedAt > 60_000) return executions;
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
}

/** Reads each execution's run data and keeps what `pick` takes from it (execution id → value). */
async function readRunData<T>(
	postgres: Postgres,
	executionIds: string[],
	pick: (data: RunData) => T,
): Promise<Map<string, T>> {
	const picked = new Map<string, T>();
	// In slices: one execution of 10,000 items is a few MB of text.
	for (let start = 0; start < executionIds.length; start += 200) {
		const ids = executionIds
			.slice(start, start + 200)
			.map((id) => Number(id))
			.filter(Number.isInteger);
		if (ids.length === 0) continue;
		const rows = await postgres.json<Array<{ id: string; data: string }> | null>(
			N8N_DATABASE,
			`SELECT json_agg(json_build_object('id', "executionId"::text, 'data', data)) FROM execution_data WHERE "executionId" IN (${ids.join(',')})`,
		);
		for (const row of rows ?? []) picked.set(row.id, pick(parse(row.data) as RunData));
	}
	return picked;
}

/**
 * The output items of one node in each of the given executions (execution id → items of its first
 * run). For a trigger whose execution never ran (a worker died first), the items it handed on.
 */
export async function nodeOutputs(
	postgres: Postgres,
	executionIds: string[],
	node: string,
): Promise<Map<string, Item[]>> {
	return await readRunData(postgres, executionIds, (data) => {
		const ran = data.resultData?.runData?.[node]?.[0]?.data?.main?.[0];
		if (ran) return ran;
		const waiting = data.executionData?.nodeExecutionStack?.find(
			(entry) => entry.node?.name === node,
		);
		return waiting?.data?.main?.[0] ?? [];
	});
}

/** The error n8n stored on each execution (execution id → message, empty when none). */
export async function executionErrors(
	postgres: Postgres,
	executionIds: string[],
): Promise<Map<string, string>> {
	return await readRunData(postgres, executionIds, (data) =>
		String(data.resultData?.error?.message ?? ''),
	);
}
