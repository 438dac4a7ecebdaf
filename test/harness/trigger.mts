/**
 * Runs this package's webhook trigger the way n8n does, on n8n-core's own contexts:
 * - the lifecycle (`webhookMethods.default.checkExists/create/delete`) through `HookContext`, in
 *   the order n8n's ActiveWorkflowManager uses (once per webhook entry: checkExists, then create
 *   when it answered false; delete once per entry on deactivation; delete after a failed create);
 * - the static data in a real `Workflow`, which can be serialised and restored into a new
 *   `Workflow` in between, as in queue mode, where the main process registers and another process
 *   receives and deactivates with nothing but the saved static data in common;
 * - incoming requests through `WebhookContext` on a real loopback HTTP server that parses bodies
 *   like n8n's webhook server (typeVersion 1: JSON, form, XML, text; raw body kept; 422 on
 *   unparseable JSON), answers like n8n's `onReceived` mode, and runs every started execution on
 *   n8n-core's `WorkflowExecute`, so tests see the items n8n really outputs;
 * - or one request straight into the webhook function with a fake request/response pair.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseQueryString } from 'node:querystring';

import { XMLParser } from 'fast-xml-parser';
import { ExecutionLifecycleHooks, HookContext, WebhookContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeType,
	IRun,
	IWebhookData,
	IWebhookDescription,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow, createRunExecutionData } from 'n8n-workflow';
import { WorkflowExecute } from 'n8n-core';

import { NodeTypes, PACKAGE, additionalDataFor, loadPackage } from './engine.mts';
import { capturedLogs } from './logger.mts';

export const TRIGGER_TYPE = `${PACKAGE}.virtualNumberTrigger`;
/** What n8n allows in a webhook request by default (N8N_PAYLOAD_SIZE_MAX, 16 MB). */
const N8N_PAYLOAD_MAX = 16 * 1024 * 1024;

export interface TriggerOptions {
	parameters: IDataObject;
	credentials: Record<string, ICredentialDataDecryptedObject>;
	name?: string;
	webhookId?: string;
	/** Static data to start from (a saved copy, e.g. from `savedStaticData()`). */
	staticData?: IDataObject;
	/** 'production' registers the …/webhook/… URL, 'test' the …/webhook-test/… URL (manual mode). */
	mode?: 'production' | 'test';
}

/** One request as the webhook function saw it, and what came of it. */
export interface WebhookOutcome {
	method: string;
	path: string;
	/** HTTP status the caller got. */
	status: number;
	/** Body the caller got. */
	responseBody: string;
	result?: IWebhookResponseData;
	/** The webhook function threw (it must never), or the execution failed. */
	error?: unknown;
	/** The webhook function returned (did not throw). */
	returned?: boolean;
	/** Whether an execution was started. */
	started: boolean;
	/** The items the trigger node output in that execution (through WorkflowExecute). */
	items: INodeExecutionData[];
}

/** A fake request for `receive()`: what n8n's webhook server hands the node after parsing. */
export interface FakeRequest {
	method?: string;
	query?: unknown;
	body?: unknown;
	rawBody?: Buffer | string;
	headers?: Record<string, string | string[] | undefined>;
	ip?: string;
}

class FakeResponse {
	statusCode = 200;
	headers: Record<string, string> = {};
	body = '';
	ended = false;
	headersSent = false;

	status(code: number) {
		this.statusCode = code;
		return this;
	}

	setHeader(name: string, value: string) {
		this.headers[name.toLowerCase()] = String(value);
		return this;
	}

	writeHead(code: number, headers?: Record<string, string>) {
		this.statusCode = code;
		for (const [name, value] of Object.entries(headers ?? {})) this.setHeader(name, value);
		this.headersSent = true;
		return this;
	}

	send(body?: unknown) {
		return this.end(typeof body === 'string' || body === undefined ? body : JSON.stringify(body));
	}

	json(body: unknown) {
		return this.end(JSON.stringify(body));
	}

	write(chunk: unknown) {
		this.body += String(chunk);
		return true;
	}

	end(chunk?: unknown) {
		if (chunk !== undefined && chunk !== null) this.body += Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk);
		this.ended = true;
		this.headersSent = true;
		return this;
	}
}

export class TriggerInstance {
	readonly workflow: Workflow;
	readonly node: INode;
	readonly outcomes: WebhookOutcome[] = [];

	constructor(
		private readonly host: TriggerHost,
		readonly nodeType: INodeType,
		nodeTypes: NodeTypes,
		readonly options: Required<Pick<TriggerOptions, 'name' | 'webhookId' | 'mode'>> & TriggerOptions,
	) {
		this.node = {
			id: 'trigger-node',
			name: options.name,
			type: TRIGGER_TYPE,
			typeVersion: 1,
			position: [0, 0],
			webhookId: options.webhookId,
			parameters: options.parameters as INode['parameters'],
			credentials: { virtualnumApi: { id: 'virtualnumApi-id', name: 'virtualnumApi test' } },
		};
		this.workflow = new Workflow({
			id: `wf-${options.webhookId}`,
			name: 'Trigger workflow',
			nodes: [this.node],
			connections: {},
			nodeTypes,
			active: options.mode === 'production',
			staticData: options.staticData ? (JSON.parse(JSON.stringify(options.staticData)) as IDataObject) : {},
			settings: { timezone: 'UTC', executionOrder: 'v1' },
		});
	}

	get isTest(): boolean {
		return this.options.mode === 'test';
	}

	private get executeMode(): WorkflowExecuteMode {
		return this.isTest ? 'manual' : 'webhook';
	}

	additionalData(): IWorkflowExecuteAdditionalData {
		return { ...this.host.additionalData(this.options.credentials) };
	}

	/** The webhook entries n8n would register for this node (one per HTTP method). */
	webhookDescriptions(): IWebhookDescription[] {
		return this.nodeType.description.webhooks ?? [];
	}

	private webhookData(description: IWebhookDescription): IWebhookData {
		return {
			httpMethod: description.httpMethod as IWebhookData['httpMethod'],
			node: this.node.name,
			path: `${this.options.webhookId}/${description.path}`,
			webhookDescription: description,
			workflowId: this.workflow.id,
			workflowExecuteAdditionalData: this.additionalData(),
			webhookId: this.options.webhookId,
			isTest: this.isTest,
		};
	}

	private hookContext(description: IWebhookDescription): HookContext {
		return new HookContext(
			this.workflow,
			this.node,
			this.additionalData(),
			this.isTest ? 'manual' : 'trigger',
			this.isTest ? 'manual' : 'activate',
			this.webhookData(description),
		);
	}

	/** Runs one lifecycle method once, as n8n does for one webhook entry. */
	async lifecycle(method: 'checkExists' | 'create' | 'delete', description = this.webhookDescriptions()[0]): Promise<boolean> {
		const methods = this.nodeType.webhookMethods?.[description.name as 'default'];
		if (!methods) throw new Error(`the trigger has no webhookMethods.${description.name}`);
		return await methods[method].call(this.hookContext(description));
	}

	/** n8n's activation: for each webhook entry, checkExists, then create when it answered false. On failure, delete for each entry, then the error. */
	async activate(): Promise<void> {
		try {
			for (const description of this.webhookDescriptions()) {
				if (!(await this.lifecycle('checkExists', description))) await this.lifecycle('create', description);
			}
		} catch (error) {
			for (const description of this.webhookDescriptions()) {
				try {
					await this.lifecycle('delete', description);
				} catch {
					// n8n logs and goes on: the activation error is what the user sees
				}
			}
			throw error;
		}
	}

	/**
	 * n8n's deactivation: delete once per webhook entry, all at the same time (n8n 2.40's
	 * WorkflowTriggerActivator.deregisterWebhookTriggers runs them in Promise.allSettled); the first
	 * failure is what the user sees.
	 */
	async deactivate(): Promise<void> {
		const results = await Promise.allSettled(this.webhookDescriptions().map(async (description) => await this.lifecycle('delete', description)));
		const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
		if (failed) throw failed.reason;
	}

	/** The static data as n8n would save it to the database. */
	savedStaticData(): IDataObject {
		return JSON.parse(JSON.stringify(this.workflow.staticData)) as IDataObject;
	}

	/** The same trigger in "another process": a new Workflow built from the saved static data only. */
	inAnotherProcess(): TriggerInstance {
		return this.host.add({ ...this.options, staticData: this.savedStaticData() });
	}

	/** The URL n8n gives this trigger (what it registers, before the secret). */
	get webhookUrl(): string {
		const base = this.isTest ? this.host.webhookTestBaseUrl : this.host.webhookBaseUrl;
		return `${base}/${this.options.webhookId}/webhook`;
	}

	/**
	 * Calls the webhook function directly with a fake request/response pair. With `execute: false`
	 * a started execution is only recorded (its items are the webhook's output), not run.
	 */
	async receive(request: FakeRequest, options: { execute?: boolean } = {}): Promise<WebhookOutcome> {
		const res = new FakeResponse();
		const headers: Record<string, string | string[] | undefined> = {};
		for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
		const req = {
			method: request.method ?? 'POST',
			url: '/webhook',
			headers,
			query: request.query === undefined ? {} : request.query,
			body: request.body,
			rawBody: typeof request.rawBody === 'string' ? Buffer.from(request.rawBody) : request.rawBody,
			// an explicit `ip: undefined` stands for a request whose address is unknown
			ip: 'ip' in request ? request.ip : '127.0.0.1',
			socket: { remoteAddress: 'ip' in request ? request.ip : '127.0.0.1' },
			params: {},
		};
		const method = typeof req.method === 'string' ? req.method : 'POST';
		return await this.dispatch(req, res as unknown as http.ServerResponse, method, '/webhook', options.execute ?? true);
	}

	/** Runs the webhook function for one request and does what n8n does with its answer. */
	async dispatch(
		req: Record<string, unknown>,
		res: http.ServerResponse,
		method: string,
		path: string,
		execute = true,
	): Promise<WebhookOutcome> {
		const description = this.webhookDescriptions().find((d) => d.httpMethod === method.toUpperCase()) ?? this.webhookDescriptions()[0];
		const additionalData = { ...this.additionalData(), httpRequest: req, httpResponse: res } as unknown as IWorkflowExecuteAdditionalData;
		const context = new WebhookContext(this.workflow, this.node, additionalData, this.executeMode, this.webhookData(description), [], null);
		const outcome: WebhookOutcome = { method, path, status: 0, responseBody: '', started: false, items: [] };
		const fake = res as unknown as FakeResponse;
		let sent = '';
		if (!(fake instanceof FakeResponse)) {
			// Keep what the real response carried, for the outcome.
			const end = res.end.bind(res) as (...args: unknown[]) => http.ServerResponse;
			res.end = ((...args: unknown[]) => {
				if (args[0] !== undefined && typeof args[0] !== 'function') sent += String(args[0]);
				return end(...args);
			}) as typeof res.end;
		}
		const answer = (status: number, body: unknown) => {
			const text = typeof body === 'string' ? body : JSON.stringify(body);
			res.writeHead(status, { 'Content-Type': typeof body === 'string' ? 'text/plain' : 'application/json' });
			res.end(text);
		};
		try {
			const result = await this.nodeType.webhook!.call(context);
			outcome.result = result;
			outcome.returned = true;
			if (result.workflowData === undefined) {
				if (!result.noWebhookResponse) {
					answer(200, result.webhookResponse !== undefined ? result.webhookResponse : { message: 'Webhook call received' });
				}
			} else {
				// responseMode onReceived: answer first, then run.
				if (!result.noWebhookResponse) answer(200, result.webhookResponse !== undefined ? result.webhookResponse : { message: 'Workflow was started' });
				outcome.started = true;
				outcome.items = execute ? await this.execute(result.workflowData) : (result.workflowData[0] ?? []);
			}
		} catch (error) {
			outcome.error = error;
			if (!res.headersSent) answer(500, { message: 'Workflow Webhook Error: Workflow could not be started!' });
		}
		outcome.status = fake instanceof FakeResponse ? fake.statusCode : res.statusCode;
		outcome.responseBody = fake instanceof FakeResponse ? fake.body : sent;
		this.outcomes.push(outcome);
		return outcome;
	}

	/** Runs the workflow from the trigger with its output, as n8n does after a webhook call. */
	private async execute(workflowData: INodeExecutionData[][]): Promise<INodeExecutionData[]> {
		const hooks = new ExecutionLifecycleHooks(this.executeMode, 'trigger-execution', {
			id: this.workflow.id,
			name: this.workflow.name,
			nodes: [this.node],
			connections: {},
			active: true,
			activeVersionId: null,
			isArchived: false,
			createdAt: new Date(),
			updatedAt: new Date(),
		} as never);
		let finished!: (run: IRun) => void;
		const done = new Promise<IRun>((resolve) => (finished = resolve));
		hooks.addHandler('workflowExecuteAfter', (run) => finished(run));
		const additionalData = { ...this.additionalData(), hooks } as IWorkflowExecuteAdditionalData;
		const runExecutionData = createRunExecutionData({
			executionData: { nodeExecutionStack: [{ node: this.node, data: { main: workflowData }, source: null }] },
		});
		const execute = new WorkflowExecute(additionalData, this.executeMode, runExecutionData);
		await execute.processRunExecutionData(this.workflow);
		const run = await done;
		const error = run.data.resultData.error;
		if (error) throw error;
		return run.data.resultData.runData[this.node.name]?.[0]?.data?.main?.[0] ?? [];
	}

	/** The executions started so far, as the items each one output. */
	get executions(): INodeExecutionData[][] {
		return this.outcomes.filter((outcome) => outcome.started).map((outcome) => outcome.items);
	}
}

const xmlParser = new XMLParser({ ignoreAttributes: true, parseTagValue: false });

function parseQuery(url: URL): IDataObject {
	return parseQueryString(url.search.replace(/^\?/, '')) as IDataObject;
}

function readBody(req: http.IncomingMessage): Promise<Buffer | 'too large'> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size <= N8N_PAYLOAD_MAX) chunks.push(chunk);
		});
		req.on('end', () => resolve(size > N8N_PAYLOAD_MAX ? 'too large' : Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

/** n8n's parseBody for typeVersion 1 webhooks; undefined when it would answer 422. */
function parseLikeN8n(contentType: string | undefined, raw: Buffer): { ok: true; body: unknown } | { ok: false } {
	if (raw.length === 0) return { ok: true, body: undefined };
	const text = raw.toString('utf8');
	try {
		if (contentType === 'application/json') return { ok: true, body: JSON.parse(text) };
		if (contentType?.endsWith('/xml') || contentType?.endsWith('+xml')) return { ok: true, body: xmlParser.parse(text, true) };
		if (contentType === 'application/x-www-form-urlencoded') return { ok: true, body: parseQueryString(text) };
		if (contentType === 'text/plain') return { ok: true, body: text };
		return { ok: true, body: undefined };
	} catch {
		return { ok: false };
	}
}

/** A loopback HTTP server standing in for n8n's webhook server, hosting trigger instances. */
export class TriggerHost {
	private readonly instances = new Map<string, TriggerInstance>();
	private nodeTypes!: NodeTypes;
	private nodeType!: INodeType;
	private loader!: Awaited<ReturnType<typeof loadPackage>>;

	private constructor(
		private readonly server: http.Server,
		readonly baseUrl: string,
	) {}

	static async start(): Promise<TriggerHost> {
		const server = http.createServer();
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const host = new TriggerHost(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
		host.loader = await loadPackage();
		host.nodeTypes = new NodeTypes(host.loader);
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

	additionalData(credentials: Record<string, ICredentialDataDecryptedObject>): IWorkflowExecuteAdditionalData {
		return {
			...additionalDataFor(this.loader, credentials),
			webhookBaseUrl: this.webhookBaseUrl,
			webhookTestBaseUrl: this.webhookTestBaseUrl,
		} as IWorkflowExecuteAdditionalData;
	}

	/** Adds a trigger (a workflow holding it); requests to its URL reach its webhook function. */
	add(options: TriggerOptions): TriggerInstance {
		const instance = new TriggerInstance(this, this.nodeType, this.nodeTypes, {
			...options,
			name: options.name ?? 'Virtual Number Trigger',
			webhookId: options.webhookId ?? randomUUID(),
			mode: options.mode ?? 'production',
		});
		// The latest instance of a webhook id receives (as after a restart, or in another process).
		this.instances.set(`${instance.options.mode}:${instance.options.webhookId}`, instance);
		return instance;
	}

	/** Log lines written since `from` (an index into the captured logs). */
	logsSince(from: number): string[] {
		return capturedLogs.slice(from);
	}

	get logCount(): number {
		return capturedLogs.length;
	}

	private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', this.baseUrl);
		const match = /^\/(webhook|webhook-test)\/([^/]+)\/webhook\/?$/.exec(url.pathname);
		const instance = match ? this.instances.get(`${match[1] === 'webhook' ? 'production' : 'test'}:${match[2]}`) : undefined;
		const method = (req.method ?? 'GET').toUpperCase();
		if (!instance || !instance.webhookDescriptions().some((d) => d.httpMethod === method)) {
			res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ message: 'The requested webhook is not registered.' }));
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
			res.writeHead(422, { 'Content-Type': 'application/json' }).end(JSON.stringify({ message: 'Failed to parse request body' }));
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
		await instance.dispatch(request as unknown as Record<string, unknown>, res, method, url.pathname);
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

export interface ProxiedRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	/** Form or query parameters of the request. */
	params: Record<string, string>;
}

/**
 * A pass-through HTTP proxy in front of a service, which lets a test act at an exact point of a
 * sequence (e.g. inject a fault just before the 3rd update reaches the sandbox). Requests are
 * forwarded one at a time in arrival order, so "the 3rd" is the 3rd the service sees.
 */
export async function startProxy(
	target: string,
	beforeForward: (request: ProxiedRequest) => void | Promise<void>,
): Promise<{ url: string; requests: ProxiedRequest[]; close(): Promise<void> }> {
	const requests: ProxiedRequest[] = [];
	let queue: Promise<unknown> = Promise.resolve();
	const server = http.createServer((req, res) => {
		const bodyPromise = readBody(req);
		const turn = queue.then(async () => {
			const body = await bodyPromise;
			const raw = body === 'too large' ? Buffer.alloc(0) : body;
			const url = new URL(req.url ?? '/', target);
			const query = Object.fromEntries(url.searchParams);
			const form = (req.headers['content-type'] ?? '').includes('x-www-form-urlencoded')
				? Object.fromEntries(new URLSearchParams(raw.toString('utf8')))
				: {};
			const request: ProxiedRequest = { method: req.method ?? 'GET', path: url.pathname, query, params: { ...query, ...form } };
			requests.push(request);
			await beforeForward(request);
			const headers = { ...req.headers };
			delete headers.host;
			const answer = await fetch(url, { method: req.method, headers: headers as Record<string, string>, body: raw.length > 0 ? raw : undefined });
			const bytes = Buffer.from(await answer.arrayBuffer());
			res.writeHead(answer.status, { 'Content-Type': answer.headers.get('content-type') ?? 'text/plain' });
			res.end(bytes);
		});
		queue = turn.catch((error: unknown) => {
			if (!res.headersSent) res.writeHead(502).end(String(error));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		requests,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
