/**
 * What the conversation scenarios (the SMS assistant, missed calls) share in a real n8n: an
 * example imported with the e2e's credentials and published, and n8n Data Tables by name.
 */
import { randomUUID } from 'node:crypto';

import type { N8nServer } from '../../harness/n8n/server.mts';
import { readExample } from '../../harness/n8n/install.mts';
import { waitUntil } from '../../harness/n8n/workflows.mts';

/** Credential IDs by type, for every credential an example names. */
export type ExampleCredentials = Record<string, string>;

interface ExampleNode {
	name: string;
	type: string;
	webhookId?: string;
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
}

/**
 * Imports an example with the e2e's credentials (and `adapt` applied to each node), publishes it
 * and answers its ID and its trigger's production URL with the e2e's Secret, once n8n routes it.
 */
export async function activateExample(
	n8n: N8nServer,
	file: string,
	credentials: ExampleCredentials,
	adapt: (node: ExampleNode) => void = () => {},
): Promise<{ id: string; url: string }> {
	const workflow = JSON.parse(readExample(file)) as { id?: string; nodes: ExampleNode[] };
	delete workflow.id;
	for (const node of workflow.nodes) {
		for (const [type, ref] of Object.entries(node.credentials ?? {})) ref.id = credentials[type];
		// A webhook ID of its own: the example's may be in use by an earlier import.
		if (node.webhookId) node.webhookId = randomUUID();
		// The examples ship a placeholder Secret that the trigger refuses, as a user must replace it.
		const options = node.parameters.options as { secret?: string } | undefined;
		if (options?.secret) options.secret = `e2e-${randomUUID()}`;
		adapt(node);
	}
	const created = await n8n.rest<{ id: string; versionId: string }>('POST', '/workflows', workflow);
	await n8n.rest('POST', `/workflows/${created.id}/activate`, { versionId: created.versionId });
	const trigger = workflow.nodes.find((node) => node.webhookId)!;
	const secret = String(
		(trigger.parameters.options as { secret?: string } | undefined)?.secret ?? '',
	);
	const url = `${n8n.url}/webhook/${trigger.webhookId}/webhook${secret ? `?secret=${secret}` : ''}`;
	await waitUntil(async () => (await fetch(url, { method: 'POST' })).status !== 404, 60_000);
	return { id: created.id, url };
}

async function personalProject(n8n: N8nServer): Promise<string> {
	return (await n8n.rest<{ id: string }>('GET', '/projects/personal')).id;
}

async function tableByName(n8n: N8nServer, project: string, name: string) {
	const list = await n8n.rest<
		{ data?: Array<{ id: string; name: string }> } | Array<{ id: string; name: string }>
	>('GET', `/projects/${project}/data-tables?take=100&skip=0`);
	return (Array.isArray(list) ? list : (list.data ?? [])).find((table) => table.name === name);
}

/** The Data Table of that name (text columns), created when missing. */
export async function ensureTable(
	n8n: N8nServer,
	name: string,
	columns: string[],
): Promise<{ id: string; project: string }> {
	const project = await personalProject(n8n);
	const found = await tableByName(n8n, project, name);
	if (found) return { id: found.id, project };
	const created = await n8n.rest<{ id: string }>('POST', `/projects/${project}/data-tables`, {
		name,
		columns: columns.map((column) => ({ name: column, type: 'string' })),
	});
	return { id: created.id, project };
}

/** Every row of the Data Table of that name (up to 100). */
export async function tableRowsByName(
	n8n: N8nServer,
	name: string,
): Promise<Array<Record<string, unknown>>> {
	const project = await personalProject(n8n);
	const table = await tableByName(n8n, project, name);
	if (!table) return [];
	const answer = await n8n.rest<
		{ data?: Array<Record<string, unknown>> } | Array<Record<string, unknown>>
	>('GET', `/projects/${project}/data-tables/${table.id}/rows?take=100&skip=0`);
	return Array.isArray(answer) ? answer : (answer.data ?? []);
}
