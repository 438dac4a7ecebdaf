/**
 * Runs this package's webhook trigger the way n8n 2.40 does, on n8n-core's own contexts, and no
 * kinder than n8n: `TriggerHost` stands for n8n's webhook server on loopback, hosting trigger
 * workflows (`host.add(…)`). Each workflow's static data, activation, deactivation, restart and test
 * listening follow n8n's two activation paths (triggerWorkflow.mts); each request is parsed, run and
 * answered as n8n's webhook server does it, behind its compression middleware (triggerWebhook.mts,
 * n8nHttp.mts).
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	INodeType,
	INodeTypeDescription,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { NodeTypes, additionalDataFor, loadPackage } from './engine.mts';
import { capturedLogs } from './logger.mts';
import { compressLikeN8n } from './n8nHttp.mts';
import { parseLikeN8n, parseQuery, readBody } from './triggerWebhook.mts';
import { TRIGGER_TYPE, TriggerInstance, type TriggerOptions } from './triggerWorkflow.mts';

export { TRIGGER_TYPE, TriggerInstance, type TriggerOptions } from './triggerWorkflow.mts';
export type { FakeRequest, WebhookOutcome } from './triggerWebhook.mts';
export { startProxy, type ProxiedRequest } from './proxy.mts';

/** Test-only node after the trigger: outputs its `values` parameter, each expression resolved by n8n's engine. */
class MapNode implements INodeType {
	description = {
		displayName: 'Test Map',
		name: 'testMap',
		group: ['transform'],
		version: 1,
		description: 'Resolves expressions against the trigger output',
		defaults: { name: 'Map' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [
			{ displayName: 'Values', name: 'values', type: 'json', default: {} },
			{ displayName: 'Delay (ms)', name: 'delayMs', type: 'number', default: 0 },
		],
	} as unknown as INodeTypeDescription;

	async execute(this: IExecuteFunctions) {
		const delayMs = Number(this.getNodeParameter('delayMs', 0, 0));
		if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
		return [
			this.getInputData().map((_, index) => ({
				json: this.getNodeParameter('values', index) as IDataObject,
				pairedItem: { item: index },
			})),
		];
	}
}
export const MAP_TYPE = 'n8n-nodes-virtualnum-test.map';

class TriggerNodeTypes extends NodeTypes {
	private readonly map = new MapNode();

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		return nodeType === MAP_TYPE ? this.map : super.getByName(nodeType);
	}
}

/** A loopback HTTP server standing in for n8n's webhook server, hosting trigger workflows. */
export type ActivationPath = 'activeWorkflowManager' | 'publicationService';

export class TriggerHost {
	private readonly instances = new Map<string, TriggerInstance>();
	/** Which of n8n's activation paths the workflows take (see the top of this file). */
	activation: ActivationPath = 'activeWorkflowManager';
	private nodeTypes!: NodeTypes;
	private nodeType!: INodeType;
	private loader!: Awaited<ReturnType<typeof loadPackage>>;

	private constructor(
		private readonly server: http.Server,
		readonly baseUrl: string,
	) {}

	/** `nodeTypes`: node types beyond this package's (the bench adds n8n's own Webhook node). */
	static async start(
		nodeTypes?: (loader: Awaited<ReturnType<typeof loadPackage>>) => NodeTypes,
	): Promise<TriggerHost> {
		const server = http.createServer();
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const host = new TriggerHost(
			server,
			`http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		);
		host.loader = await loadPackage();
		host.nodeTypes = nodeTypes ? nodeTypes(host.loader) : new TriggerNodeTypes(host.loader);
		host.nodeType = host.nodeTypes.getByNameAndVersion(TRIGGER_TYPE, 1);
		server.on('request', (req, res) => {
			host.handle(req, res).catch((error: unknown) => {
				if (!res.headersSent) res.writeHead(500).end(String(error));
			});
		});
		return host;
	}

	get webhookBaseUrl(): string {
		return `${this.baseUrl}/webhook`;
	}

	get webhookTestBaseUrl(): string {
		return `${this.baseUrl}/webhook-test`;
	}

	additionalData(
		credentials: Record<string, ICredentialDataDecryptedObject>,
	): IWorkflowExecuteAdditionalData {
		return {
			...additionalDataFor(this.loader, credentials),
			webhookBaseUrl: this.webhookBaseUrl,
			webhookTestBaseUrl: this.webhookTestBaseUrl,
		} as IWorkflowExecuteAdditionalData;
	}

	/** Adds a workflow holding a trigger; requests to its URLs reach its webhook function. */
	add(options: TriggerOptions): TriggerInstance {
		const nodeType = options.node
			? this.nodeTypes.getByNameAndVersion(options.node.type, options.node.typeVersion)
			: this.nodeType;
		const instance = new TriggerInstance(this, nodeType, this.nodeTypes, {
			...options,
			name: options.name ?? 'Virtual Number Trigger',
			webhookId: options.webhookId ?? randomUUID(),
		});
		// The latest instance of a webhook id receives (as after a restart, or in another process).
		this.instances.set(instance.options.webhookId, instance);
		return instance;
	}

	/** An n8n restart: in-memory state is gone, the database stays; active workflows are activated again. */
	async restart(): Promise<void> {
		for (const instance of new Set(this.instances.values())) await instance.restarted();
	}

	/** Log lines written since `from` (an index into the captured logs). */
	logsSince(from: number): string[] {
		return capturedLogs.slice(from);
	}

	get logCount(): number {
		return capturedLogs.length;
	}

	private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		await compressLikeN8n(req, res); // n8n's first middleware, on every route
		const url = new URL(req.url ?? '/', this.baseUrl);
		const match = /^\/(webhook|webhook-test)\/([^/]+)\/(.+?)\/?$/.exec(url.pathname);
		const instance = match ? this.instances.get(match[2]) : undefined;
		const mode = match?.[1] === 'webhook-test' ? 'test' : 'production';
		const method = (req.method ?? 'GET').toUpperCase();
		const path = match?.[3] ?? '';
		// The harness lets a production URL receive without activation (tests send requests directly); a test URL only while listening.
		const reachable =
			instance && (mode === 'production' || instance.listening) && instance.routes(method, path);
		if (!reachable) {
			res
				.writeHead(404, { 'Content-Type': 'application/json' })
				.end(JSON.stringify({ message: 'The requested webhook is not registered.' }));
			return;
		}
		const raw = await readBody(req);
		if (raw === 'too large') {
			res.writeHead(413).end('Payload Too Large');
			return;
		}
		const contentType = req.headers['content-type']?.split(';')[0].trim().toLowerCase();
		const parsed = parseLikeN8n(contentType, raw);
		if (!parsed.ok) {
			res
				.writeHead(422, { 'Content-Type': 'application/json' })
				.end(JSON.stringify({ message: 'Failed to parse request body' }));
			return;
		}
		const request = Object.assign(req, {
			query: parseQuery(url),
			body: parsed.body,
			rawBody: raw,
			ip: req.socket.remoteAddress,
			params: {},
			contentType,
		});
		await instance.dispatch(request as unknown as Record<string, unknown>, res, method, path, {
			execute: true,
			mode,
		});
	}

	async close(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}
}

// ---- helpers for trigger tests -----------------------------------------------------------------

/** The "Virtual Numbers" parameter for the given numbers (resource locators in "By Number" mode). */
export function selectedNumbers(numbers: string[], mode: 'id' | 'list' = 'id'): IDataObject {
	return { number: numbers.map((value) => ({ virtualnum: { __rl: true, mode, value } })) };
}
