/**
 * Runs the example workflows of `examples/` headlessly on n8n-core, through the test harness.
 *
 * An example file is n8n workflow JSON with exactly one trigger node; every other node is one of
 * this package's nodes, or one of n8n's own that the caller supplies (`installed`, see ./aiSummary.mts). The trigger (an n8n core trigger, or the Virtual Number Trigger) cannot
 * run without an n8n server, so the harness's start node takes its place and is fed the items the
 * trigger would output: the file's pinned data, or what the real Virtual Number Trigger produced.
 * Everything after the trigger runs as it is in the file: same nodes, parameters, connections,
 * error settings; only the credentials are the sandbox's (mapped by credential type).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeTypes,
	NodeConnectionType,
} from 'n8n-workflow';

import { readExample } from '../harness/n8n/install.mts';
import { runWorkflow, type RunResult, type WorkflowNode } from '../harness/engine.mts';

export const EXAMPLES_DIR = fileURLToPath(new URL('../../examples/', import.meta.url));
export const PACKAGE_PREFIX = 'n8n-nodes-virtualnum.';
export const OUR_TRIGGER = `${PACKAGE_PREFIX}virtualNumberTrigger`;
export const OUR_POLL_TRIGGER = `${PACKAGE_PREFIX}virtualNumberCallRecordTrigger`;

/** The core trigger nodes the examples may start with (type → typeVersions used). */
export const CORE_TRIGGERS = [
	'n8n-nodes-base.scheduleTrigger',
	'n8n-nodes-base.formTrigger',
	'n8n-nodes-base.webhook',
];

export interface ExampleConnection {
	node: string;
	type: string;
	index: number;
}

export interface ExampleNode {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: IDataObject;
	credentials?: Record<string, { id: string; name: string }>;
	webhookId?: string;
	onError?: 'continueRegularOutput' | 'continueErrorOutput' | 'stopWorkflow';
	notes?: string;
	notesInFlow?: boolean;
	[setting: string]: unknown;
}

export interface ExampleWorkflow {
	id?: string;
	name: string;
	nodes: ExampleNode[];
	connections: Record<string, Record<string, ExampleConnection[][]>>;
	pinData?: Record<string, Array<{ json: IDataObject }>>;
	settings?: IDataObject & { timezone?: string };
	active?: boolean;
}

/** The typeVersions of this package's nodes (the Virtual Number node has 1 to 1.3; Bulk SMS 1 and 1.1). */
const NODE_VERSIONS = [1, 1.1, 1.2, 1.3];

/** Node fields the runner reproduces (or that do not change a run). Any other setting is refused, so a run never silently differs from the file. */
const NODE_FIELDS = new Set([
	'id',
	'name',
	'type',
	'typeVersion',
	'position',
	'parameters',
	'credentials',
	'webhookId',
	'onError',
	'notes',
	'notesInFlow',
]);

export function exampleFiles(dir = EXAMPLES_DIR): string[] {
	return readdirSync(dir)
		.filter((name) => name.endsWith('.json'))
		.sort();
}

/** An example as a user sets it up (their own Secret in place of the placeholder: trigger 1.1 refuses it). */
export function loadExample(file: string, dir = EXAMPLES_DIR): ExampleWorkflow {
	const text = dir === EXAMPLES_DIR ? readExample(file) : readFileSync(join(dir, file), 'utf8');
	return JSON.parse(text) as ExampleWorkflow;
}

export function isOurs(type: string): boolean {
	return type.startsWith(PACKAGE_PREFIX);
}

export function isTrigger(node: Pick<ExampleNode, 'type'>): boolean {
	return (
		node.type === OUR_TRIGGER || node.type === OUR_POLL_TRIGGER || CORE_TRIGGERS.includes(node.type)
	);
}

/** The workflow's one trigger node. */
export function triggerOf(workflow: ExampleWorkflow): ExampleNode {
	const triggers = workflow.nodes.filter(isTrigger);
	if (triggers.length !== 1) {
		throw new Error(
			`"${workflow.name}" must have exactly one trigger node, it has ${triggers.length}`,
		);
	}
	return triggers[0];
}

/** The node of the workflow that matches, e.g. by resource and operation; exactly one must. */
export function findNode(
	workflow: ExampleWorkflow,
	match: (node: ExampleNode) => boolean,
	what: string,
): ExampleNode {
	const found = workflow.nodes.filter(match);
	if (found.length !== 1)
		throw new Error(`"${workflow.name}" should have one ${what} node, it has ${found.length}`);
	return found[0];
}

export const byOperation = (resource: string, operation: string) => (node: ExampleNode) =>
	isOurs(node.type) &&
	node.parameters.resource === resource &&
	node.parameters.operation === operation;

/** The items pinned on a node (n8n's pinData), as n8n feeds them to the next node. */
export function pinnedItems(workflow: ExampleWorkflow, nodeName: string): INodeExecutionData[] {
	const pinned = workflow.pinData?.[nodeName];
	if (!pinned || pinned.length === 0)
		throw new Error(`"${workflow.name}" has no pinned data on "${nodeName}"`);
	return pinned.map((item) => ({ json: structuredClone(item.json) }));
}

/** Sub-node connections (a chat model into a chain) as [from, to, type]: n8n's `ai_*` types only. */
function subNodeConnections(
	workflow: ExampleWorkflow,
): Array<[string, string, NodeConnectionType]> {
	const found: Array<[string, string, NodeConnectionType]> = [];
	for (const [from, byType] of Object.entries(workflow.connections)) {
		for (const [type, outputs] of Object.entries(byType)) {
			if (!type.startsWith('ai_')) continue;
			for (const target of outputs.flat()) {
				if (target?.type !== type || target.index !== 0)
					throw new Error(`"${workflow.name}": ${from} → ${target?.node} is not ${type} 0`);
				found.push([from, target.node, type as NodeConnectionType]);
			}
		}
	}
	return found;
}

/** Every main connection as [from, output, to] (with `subNodes`, the ai_* ones are left to subNodeConnections). */
function mainConnections(
	workflow: ExampleWorkflow,
	subNodes = false,
): Array<[string, number, string]> {
	const pairs: Array<[string, number, string]> = [];
	for (const [from, byType] of Object.entries(workflow.connections)) {
		for (const [type, outputs] of Object.entries(byType)) {
			if (subNodes && type.startsWith('ai_')) continue;
			if (type !== 'main')
				throw new Error(
					`"${workflow.name}": only main connections can run headlessly (${from} has ${type})`,
				);
			outputs.forEach((targets, output) => {
				for (const target of targets ?? []) {
					if (target.type !== 'main' || target.index !== 0) {
						throw new Error(
							`"${workflow.name}": ${from} → ${target.node} goes to input ${target.type}/${target.index}, not main 0`,
						);
					}
					pairs.push([from, output, target.node]);
				}
			});
		}
	}
	return pairs;
}

export interface RunExampleOptions {
	/** Items the trigger outputs (its pinned data, or what the real trigger produced). */
	input: INodeExecutionData[];
	/** Credential data by credential type, e.g. `{ virtualnumApi: { baseUrl, accessToken } }`. */
	credentials: Record<string, ICredentialDataDecryptedObject>;
	/** Parameters to replace in a node, by node name (shallow merge; nested objects merged one level). */
	overrides?: Record<string, IDataObject>;
	/** Used when the workflow's settings name no time zone. */
	timezone?: string;
	/**
	 * Node types beyond this package's (n8n's own or LangChain nodes, from the e2e install): nodes of
	 * `types` may be in the workflow, sub-nodes among them connected by their ai_* connections.
	 */
	installed?: { nodeTypes: INodeTypes; types: string[] };
}

function merge(parameters: IDataObject, patch: IDataObject | undefined): IDataObject {
	const merged = structuredClone(parameters);
	for (const [key, value] of Object.entries(patch ?? {})) {
		const current = merged[key];
		merged[key] =
			value &&
			typeof value === 'object' &&
			!Array.isArray(value) &&
			current &&
			typeof current === 'object' &&
			!Array.isArray(current)
				? { ...(current as IDataObject), ...(value as IDataObject) }
				: value;
	}
	return merged;
}

/** Runs everything after the trigger, as it is in the file, fed with `input` in place of the trigger. */
export async function runExample(
	workflow: ExampleWorkflow,
	options: RunExampleOptions,
): Promise<RunResult> {
	const trigger = triggerOf(workflow);
	const installed = options.installed;
	const connections = mainConnections(workflow, Boolean(installed));
	const subNodes = installed ? subNodeConnections(workflow) : [];
	const rest = workflow.nodes.filter((node) => node !== trigger);
	checkNodes(workflow, rest, options);
	const ordered = orderedNodes(workflow, trigger, rest, connections, subNodes);
	const nodes: WorkflowNode[] = ordered.map((node) => ({
		name: node.name,
		type: node.type,
		typeVersion: node.typeVersion,
		parameters: merge(node.parameters, options.overrides?.[node.name]),
		credentials: node.credentials,
		...(node.onError ? { onError: node.onError } : {}),
	}));
	return await runWorkflow({
		nodes,
		connections: connections
			.filter(([from]) => from !== trigger.name)
			.map(([from, , to]) => [from, to] as [string, string]),
		input: options.input,
		credentials: options.credentials,
		timezone: workflow.settings?.timezone ?? options.timezone,
		// The start node takes the trigger's name: later nodes may read the trigger's items with $('<trigger>').
		startName: trigger.name,
		...(installed ? { nodeTypes: installed.nodeTypes, subNodes } : {}),
	});
}

/** The nodes after the trigger are this package's (or installed ones), in versions and settings the run reproduces. */
function checkNodes(
	workflow: ExampleWorkflow,
	rest: ExampleNode[],
	options: RunExampleOptions,
): void {
	const installed = options.installed;
	for (const node of rest) {
		// n8n's own nodes check their version themselves (n8n-workflow picks the node's class by it).
		const foreign = installed?.types.includes(node.type) ?? false;
		if (!foreign && !isOurs(node.type))
			throw new Error(
				`"${workflow.name}": ${node.name} (${node.type}) is not a node of this package`,
			);
		if (!foreign && !NODE_VERSIONS.includes(node.typeVersion))
			throw new Error(
				`"${workflow.name}": ${node.name} has typeVersion ${node.typeVersion}; the nodes have versions ${NODE_VERSIONS.join(', ')}`,
			);
		const unknown = Object.keys(node).filter((key) => !NODE_FIELDS.has(key));
		if (unknown.length > 0)
			throw new Error(
				`"${workflow.name}": ${node.name} has settings the headless run does not reproduce: ${unknown.join(', ')}`,
			);
	}
	for (const name of Object.keys(options.overrides ?? {})) {
		if (!rest.some((node) => node.name === name))
			throw new Error(`"${workflow.name}" has no node "${name}" to override`);
	}
}

/** The nodes in the order the harness connects them; every node reached, only output 0 used after the trigger. */
function orderedNodes(
	workflow: ExampleWorkflow,
	trigger: ExampleNode,
	rest: ExampleNode[],
	connections: ReturnType<typeof mainConnections>,
	subNodes: ReturnType<typeof subNodeConnections>,
): ExampleNode[] {
	const first = connections.filter(([from]) => from === trigger.name);
	if (first.length !== 1 || first[0][1] !== 0) {
		throw new Error(
			`"${workflow.name}": the trigger must lead to exactly one node (it leads to ${first.length})`,
		);
	}
	// Order: the node after the trigger first (the harness connects its start node to nodes[0]), then the others as reached.
	const ordered: ExampleNode[] = [];
	const queue = [first[0][2], ...subNodes.map(([from]) => from)];
	while (queue.length > 0) {
		const name = queue.shift()!;
		if (ordered.some((node) => node.name === name)) continue;
		const node = rest.find((candidate) => candidate.name === name);
		if (!node)
			throw new Error(
				`"${workflow.name}": a connection leads to "${name}", which is not in the workflow`,
			);
		ordered.push(node);
		queue.push(...connections.filter(([from]) => from === name).map(([, , to]) => to));
	}
	const unreached = rest.filter((node) => !ordered.includes(node));
	if (unreached.length > 0)
		throw new Error(
			`"${workflow.name}": not reached from the trigger: ${unreached.map((n) => n.name).join(', ')}`,
		);
	for (const [from, output] of connections) {
		if (from !== trigger.name && output !== 0)
			throw new Error(
				`"${workflow.name}": ${from} uses output ${output}; the headless run connects output 0 only`,
			);
	}
	return ordered;
}

/** An example's node as n8n's engine types it. */
export function asINode(node: ExampleNode): INode {
	return {
		id: node.id,
		name: node.name,
		type: node.type,
		typeVersion: node.typeVersion,
		position: node.position,
		parameters: node.parameters as INode['parameters'],
		...(node.webhookId ? { webhookId: node.webhookId } : {}),
	};
}
