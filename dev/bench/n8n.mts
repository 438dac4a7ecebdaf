/**
 * n8n's own nodes (HTTP Request, Code, Webhook) for the bench's "what users build instead" rows,
 * loaded from the e2e install (dev/e2e/node_modules/n8n-nodes-base, n8n 2.40.7) when it is there, and
 * the bench-only node types (the floor's pass-through node) beside this package's.
 *
 * One n8n-workflow, one n8n-core: n8n-nodes-base is made to use the worktree's copies of the
 * packages whose state is shared (n8n-workflow, n8n-core, @n8n/di), as in an n8n install where
 * they exist once (dev/harness/n8nInstall.mts, which the demo's AI step uses too). The e2e install
 * holds the same versions (checked there); if they differ, the rows that need n8n's nodes are
 * skipped with the reason.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import vm from 'node:vm';

import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { NodeTypes, loadPackage } from '../harness/engine.mts';
import {
	E2E_MODULES,
	installStatus,
	loadInstalledNodes,
	type InstalledNode,
} from '../harness/n8nInstall.mts';

const BASE_PACKAGE = 'n8n-nodes-base';

export const HTTP_REQUEST = 'n8n-nodes-base.httpRequest';
export const CODE = 'n8n-nodes-base.code';
export const WEBHOOK = 'n8n-nodes-base.webhook';
export const FLOOR = 'n8n-nodes-virtualnum-bench.floor';

export type BaseNodes =
	| { available: true; version: string; types: Record<string, INodeType | IVersionedNodeType> }
	| { available: false; reason: string };

/** Whether n8n's own nodes can be loaded here, and why not (checked without loading anything). */
export function baseNodesStatus():
	| { available: true; version: string }
	| { available: false; reason: string } {
	const status = installStatus([BASE_PACKAGE]);
	if (!status.available && !existsSync(join(E2E_MODULES, BASE_PACKAGE)))
		return {
			available: false,
			reason:
				'n8n-nodes-base is not installed: dev/e2e/node_modules is absent or incomplete (see dev/docs/benchmarks.md, "n8n\'s own nodes")',
		};
	return status.available ? { available: true, version: status.versions[BASE_PACKAGE] } : status;
}

const baseNode = (path: string, exported: string): InstalledNode => ({
	pkg: BASE_PACKAGE,
	file: join('dist', 'nodes', path),
	exported,
});

let loaded: BaseNodes | undefined;

/** n8n's HTTP Request, Code and Webhook nodes, or why they cannot be loaded. */
export function baseNodes(): BaseNodes {
	if (loaded) return loaded;
	const status = baseNodesStatus();
	if (!status.available) return (loaded = status);
	loaded = {
		available: true,
		version: status.version,
		types: loadInstalledNodes({
			[HTTP_REQUEST]: baseNode('HttpRequest/HttpRequest.node.js', 'HttpRequest'),
			[CODE]: baseNode('Code/Code.node.js', 'Code'),
			[WEBHOOK]: baseNode('Webhook/Webhook.node.js', 'Webhook'),
		}),
	};
	return loaded;
}

/** This package's node types, plus the floor node and (when installed) n8n's own nodes. */
export class BenchNodeTypes extends NodeTypes {
	constructor(
		loader: Awaited<ReturnType<typeof loadPackage>>,
		private readonly extra: Record<string, INodeType | IVersionedNodeType>,
	) {
		super(loader);
	}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		return this.extra[nodeType] ?? super.getByName(nodeType);
	}
}

/** The node types of a bench run; with `base`, n8n's own nodes too (loading them costs start-up time and memory). */
export async function benchNodeTypes(options: { base: boolean }): Promise<BenchNodeTypes> {
	const loader = await loadPackage();
	const bulkSms = loader.getNode('bulkSms').type as INodeType;
	const extra: Record<string, INodeType | IVersionedNodeType> = {
		[FLOOR]: new FloorNode(bulkSms.description),
	};
	if (options.base) {
		const base = baseNodes();
		if (!base.available) throw new Error(base.reason);
		Object.assign(extra, base.types);
	}
	return new BenchNodeTypes(loader, extra);
}

/** The latest version of one of n8n's nodes (what a user who adds it today gets). */
export function defaultVersion(type: string): number {
	const base = baseNodes();
	if (!base.available) throw new Error(base.reason);
	const nodeType = base.types[type] as IVersionedNodeType;
	const description = (nodeType.description ?? {}) as {
		defaultVersion?: number;
		version?: number | number[];
	};
	if (description.defaultVersion !== undefined) return description.defaultVersion;
	return Array.isArray(description.version)
		? Math.max(...description.version)
		: (description.version ?? 1);
}

// ---- the floor --------------------------------------------------------------------------------

/** The floor's own settings (properties of the floor only, beside Send's). */
const FLOOR_PROPERTIES: INodeProperties[] = [
	{ displayName: 'Phone Field', name: 'benchPhoneField', type: 'string', default: '' },
	{
		displayName: "Send the Batches with n8n's HTTP Helper",
		name: 'benchSendBatches',
		type: 'boolean',
		default: false,
	},
];
const OWN = new Set(FLOOR_PROPERTIES.map((property) => property.name));

/**
 * The floor: what any node pays in n8n for the same items. It has Bulk SMS Send's parameters (the
 * same description, so n8n reads them the same way, the same expressions included) and outputs one
 * item per recipient without sending. A parameter holding an expression is read for every item,
 * one without is read once (any node can do that, and Send does); with a Phone Field (the
 * "recipients from input fields" variant) the number is the item's own field, read without n8n.
 *
 * With "Send the Batches", it also posts the same batches through n8n's HTTP helper with the
 * credential (what any node that sends through n8n pays per request), as many at once as Send's
 * Batches in Flight, reading only the count of results: the floor of a node that sends.
 */
class FloorNode implements INodeType {
	description: INodeTypeDescription;

	constructor(bulkSms: INodeTypeDescription) {
		this.description = {
			...bulkSms,
			displayName: 'Bench Floor',
			name: 'floor',
			properties: [...bulkSms.properties, ...FLOOR_PROPERTIES],
		};
	}

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const parameters = this.getNode().parameters;
		const names = Object.keys(parameters).filter((name) => !OWN.has(name));
		const everyItem = names.filter((name) => JSON.stringify(parameters[name]).includes('"='));
		const values: IDataObject = {};
		for (const name of names) {
			if (!everyItem.includes(name))
				values[name] = this.getNodeParameter(name, 0, undefined, {
					extractValue: true,
				}) as IDataObject;
		}
		const phoneField = String(parameters.benchPhoneField ?? '');
		const out: INodeExecutionData[] = [];
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			for (const name of everyItem)
				values[name] = this.getNodeParameter(name, itemIndex, undefined, {
					extractValue: true,
				}) as IDataObject;
			const to = phoneField ? items[itemIndex].json[phoneField] : values.to;
			for (const dest of String(to).split(/[,;\n]/)) {
				out.push({
					json: { service: 'send_sms', dest, sender: values.sender, message: values.message },
					pairedItem: { item: itemIndex },
				});
			}
		}
		const options = values.options as IDataObject;
		if (parameters.benchSendBatches === true)
			await sendBatches.call(
				this,
				out,
				Number(options.batchSize ?? 100),
				Number(options.batchesInFlight ?? 1),
			);
		return [out];
	}
}

/** The batches posted as Send posts them: `inFlight` at a time (Send's Batches in Flight). */
async function sendBatches(
	this: IExecuteFunctions,
	out: INodeExecutionData[],
	batchSize: number,
	inFlight: number,
): Promise<void> {
	const { baseUrl } = await this.getCredentials<{ baseUrl: string }>('virtualnumSmsApi');
	let next = 0;
	const worker = async () => {
		for (let start = next; start < out.length; start = next) {
			next += batchSize;
			await postBatch.call(this, baseUrl, out.slice(start, start + batchSize));
		}
	};
	await Promise.all(Array.from({ length: inFlight }, worker));
}

async function postBatch(
	this: IExecuteFunctions,
	baseUrl: string,
	items: INodeExecutionData[],
): Promise<void> {
	const batch = items.map((item) => ({
		...item.json,
		dest: String(item.json.dest).replace(/\D/g, ''),
	}));
	const answer = (await this.helpers.httpRequestWithAuthentication.call(this, 'virtualnumSmsApi', {
		method: 'POST',
		url: `${baseUrl.replace(/\/+$/, '')}/api/ws_json_bulk.php`,
		body: Buffer.from(JSON.stringify(batch), 'utf8'),
		headers: { 'Content-Type': 'application/json' },
		json: false,
		encoding: 'text',
	})) as string;
	if ((JSON.parse(answer) as unknown[]).length !== batch.length)
		throw new Error('wrong number of results');
}

// ---- the Code node's task runner --------------------------------------------------------------

/**
 * What n8n 2.x does with a Code node's JavaScript (it always runs in a task runner), reduced to
 * this process: the input items go to the runner as JSON and the result comes back as JSON (n8n
 * sends both over a WebSocket to a separate runner process), and the code runs in a `vm` context
 * with `$input` and `items`, as the runner's does. Not reproduced: the second process, the
 * WebSocket and the runner's data proxy; so the Code node is measured faster than n8n runs it,
 * which only makes the node's advantage over it look smaller.
 */
export const startRunnerTask: IWorkflowExecuteAdditionalData['startRunnerTask'] = async (
	_additionalData,
	jobType,
	settings,
	_executeFunctions,
	_inputData,
	_node,
	_workflow,
	_runExecutionData,
	_runIndex,
	_itemIndex,
	_activeNodeName,
	connectionInputData,
) => {
	const task = settings as { code: string; nodeMode: string };
	if (jobType !== 'javascript' || task.nodeMode !== 'runOnceForAllItems') {
		throw new Error(
			`the bench's task runner runs JavaScript once for all items only, not ${jobType} ${task.nodeMode}`,
		);
	}
	const received = JSON.parse(JSON.stringify(connectionInputData)) as INodeExecutionData[];
	const $input = {
		all: () => received,
		first: () => received[0],
		last: () => received.at(-1),
		item: received[0],
	};
	const context = vm.createContext({ $input, items: received });
	const result: unknown = await vm.runInContext(`(async function () {${task.code}\n})()`, context);
	return { ok: true, result: JSON.parse(JSON.stringify(result)) as never, customData: undefined };
};
