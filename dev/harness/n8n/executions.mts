/** Executions in the real n8n, read through its REST API; a workflow run by hand from its trigger's pinned items. */
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { ROOT_DIR } from './install.mts';
import type { N8nServer, RestClient } from './server.mts';
import { waitUntil } from './workflows.mts';

export interface ExecutionSummary {
	id: string;
	status: string;
	startedAt?: string;
}

/** Whether an execution has ended (successfully or not). */
export const finished = (execution: { status: string }): boolean =>
	!['running', 'new', 'waiting'].includes(execution.status);

/** The executions n8n lists for a workflow (newest first), its first page or up to `limit`. */
export async function executionsOf(
	n8n: Pick<RestClient, 'rest'>,
	workflowId: string,
	limit?: number,
): Promise<ExecutionSummary[]> {
	const list = await n8n.rest<{ results: ExecutionSummary[] }>(
		'GET',
		`/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}` +
			(limit === undefined ? '' : `&limit=${limit}`),
	);
	return list.results ?? [];
}

/** n8n stores run data in the "flatted" form; its own copy of flatted reads it. */
const flatted = createRequire(join(ROOT_DIR, 'dev', 'e2e', 'package.json'))('flatted') as {
	parse(text: string): unknown;
};

interface StoredRunData {
	resultData: {
		runData: Record<
			string,
			Array<{ data?: { main?: Array<Array<{ json: Record<string, unknown> }> | null> } }>
		>;
		error?: { message?: string; description?: string };
	};
}

/** A stored execution: its status, error, and the first output item of a node's first run. */
export async function storedRun(n8n: Pick<RestClient, 'rest'>, executionId: string) {
	const detail = await n8n
		.rest<StoredDetail>('GET', `/executions/${executionId}`)
		.catch(() => undefined);
	if (!detail) return undefined;
	const run = flatted.parse(detail.data) as StoredRunData;
	return {
		status: detail.status,
		error: run.resultData.error,
		first: (name: string) => run.resultData.runData[name]?.[0]?.data?.main?.[0]?.[0]?.json,
		ran: (name: string) => run.resultData.runData[name] !== undefined,
	};
}

export interface StoredDetail {
	status: string;
	/** The run data, in n8n's "flatted" form. */
	data: string;
}

/**
 * Creates `workflow` (its manual trigger `trigger` with pinned items), runs it from that trigger and
 * answers the stored execution once it has finished (undefined after a minute).
 */
export async function runFromPinned(
	n8n: N8nServer,
	workflow: { pinData: Record<string, unknown[]> } & Record<string, unknown>,
	trigger = 'Start',
): Promise<StoredDetail | undefined> {
	const created = await n8n.rest<{ id: string }>('POST', '/workflows', workflow);
	const items = workflow.pinData[trigger];
	const started = await n8n.rest<{ executionId?: string }>('POST', `/workflows/${created.id}/run`, {
		// n8n 1.x runs the workflow sent with the request; 2.x reads the stored one and ignores this.
		workflowData: { ...workflow, id: created.id },
		triggerToStartFrom: {
			name: trigger,
			data: {
				startTime: Date.now(),
				executionTime: 0,
				executionIndex: 0,
				source: [],
				data: { main: [items] },
			},
		},
	});
	return await waitUntil(async () => {
		const detail = await n8n
			.rest<StoredDetail>('GET', `/executions/${String(started.executionId)}`)
			.catch(() => undefined);
		return detail && finished(detail) ? detail : undefined;
	}, 60_000);
}
