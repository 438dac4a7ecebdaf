/** Small helpers of the queue-mode run: workflow JSON for its scenarios, and waiting. */
import { randomUUID } from 'node:crypto';

import type { RestClient } from './server.mts';

export type Check = (condition: unknown, what: string) => void;
export type Log = (line: string) => void;

export interface NodeJson {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	webhookId?: string;
	/** Node settings → On Error (`continueErrorOutput`: failed items on the error output). */
	onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
	/** Node settings → Retry On Fail, Max. Tries, Wait Between Tries (ms). */
	retryOnFail?: boolean;
	maxTries?: number;
	waitBetweenTries?: number;
}

/** An n8n to create workflows on: one server, or a queue-mode cluster (its webhook processor's URL). */
type Cluster = RestClient & { webhookUrl: string };

export interface CreatedWorkflow {
	id: string;
	versionId: string;
}

export function node(
	name: string,
	type: string,
	typeVersion: number,
	parameters: Record<string, unknown>,
	extra: Partial<NodeJson> = {},
): NodeJson {
	return { id: randomUUID(), name, type, typeVersion, position: [0, 0], parameters, ...extra };
}

/** Bulk SMS → Message → Send: "Your order is ready." from Shop24 to each item's `phone`. */
export function bulkSmsSend(credentialId: string): NodeJson {
	return node(
		'Bulk SMS',
		'n8n-nodes-virtualnum.bulkSms',
		1,
		{
			resource: 'message',
			operation: 'send',
			sender: { __rl: true, mode: 'id', value: 'Shop24' },
			to: '={{ $json.phone }}',
			message: 'Your order is ready.',
			options: {},
		},
		{ credentials: { virtualnumSmsApi: { id: credentialId, name: 'SMS sandbox' } } },
	);
}

/** n8n's own Data table node reading every row of a Data Table (Get, Return All). */
export function dataTableRows(
	name: string,
	table: string,
	extra: Partial<NodeJson> & { executeOnce?: boolean; alwaysOutputData?: boolean } = {},
): NodeJson {
	const parameters = {
		resource: 'row',
		operation: 'get',
		dataTableId: { __rl: true, mode: 'id', value: table },
		returnAll: true,
	};
	return node(name, 'n8n-nodes-base.dataTable', 1.1, parameters, extra);
}

/** The Virtual Number Trigger on Call Ended for the given numbers, with a secret in its URL. */
export function callEndedTrigger(
	name: string,
	numbers: string[],
	credentialId: string,
	secret: string,
): NodeJson {
	return node(
		name,
		'n8n-nodes-virtualnum.virtualNumberTrigger',
		1,
		{
			events: ['callEnded'],
			numbers: 'selected',
			virtualnums: {
				number: numbers.map((value) => ({ virtualnum: { __rl: true, mode: 'list', value } })),
			},
			existingCallback: 'replace',
			options: { secret },
		},
		{
			webhookId: randomUUID(),
			credentials: { virtualnumApi: { id: credentialId, name: 'Virtual Number sandbox' } },
		},
	);
}

/** n8n's Webhook node (production URL `<webhook processor>/webhook/<path>`), answering at once. */
export function webhookTrigger(name: string, path: string): NodeJson {
	return node(
		name,
		'n8n-nodes-base.webhook',
		2.1,
		{ httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
		{ webhookId: randomUUID() },
	);
}

/** Nodes in a row, each connected to the next. */
export function chain(name: string, nodes: NodeJson[]): Record<string, unknown> {
	nodes.forEach((n, index) => (n.position = [index * 240, 0]));
	const connections: Record<string, unknown> = {};
	for (let i = 0; i + 1 < nodes.length; i++)
		connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	return { name, active: false, settings: { executionOrder: 'v1' }, nodes, connections };
}

export async function createAndActivate(
	cluster: Cluster,
	workflow: Record<string, unknown>,
): Promise<CreatedWorkflow> {
	const created = await cluster.rest<CreatedWorkflow>('POST', '/workflows', workflow);
	await cluster.rest('POST', `/workflows/${created.id}/activate`, { versionId: created.versionId });
	return created;
}

export async function deactivate(cluster: Cluster, workflowId: string): Promise<void> {
	await cluster.rest('POST', `/workflows/${workflowId}/deactivate`, {});
}

/** The production URL of a trigger node's webhook, as n8n builds it: `<N8N_WEBHOOK_URL>webhook/<webhookId>/<path>`. */
export function productionUrl(cluster: Cluster, trigger: NodeJson, path = 'webhook'): string {
	return `${cluster.webhookUrl}/webhook/${trigger.webhookId}/${path}`;
}

/** Polls `probe` until it answers something truthy, or the time is up (then answers the last value). */
export async function waitUntil<T>(
	probe: () => Promise<T> | T,
	timeoutMs: number,
	everyMs = 500,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value || Date.now() > deadline) return value;
		await new Promise((resolve) => setTimeout(resolve, everyMs));
	}
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `work` over the items, at most `limit` at once, keeping their order in the results. */
export async function inParallel<T, R>(
	items: T[],
	limit: number,
	work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
	const results = new Array<R>(items.length);
	let next = 0;
	const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
		while (next < items.length) {
			const index = next++;
			results[index] = await work(items[index], index);
		}
	});
	await Promise.all(lanes);
	return results;
}
