/**
 * A request reaching a trigger as n8n 2.40's webhook server hands it over (read in packages/cli/src:
 * webhooks/webhook-helpers.ts, webhook-request-handler.ts, live-webhooks.ts, test-webhooks.ts):
 * the body parsed like n8n's (typeVersion 1: JSON, form, XML, text; raw body kept; 422 on unparseable
 * JSON; 413 over n8n's payload limit), the webhook function run on n8n-core's `WebhookContext`, its
 * answer given like n8n's (`onReceived`, `lastNode`, `responseNode`), the static data saved after a
 * production call, and every started execution run on n8n-core's `WorkflowExecute`, downstream nodes
 * and their expressions included. The workflows and their lifecycle: triggerWorkflow.mts.
 */
import type http from 'node:http';
import { parse as parseQueryString } from 'node:querystring';

import { XMLParser } from 'fast-xml-parser';
import { ExecutionLifecycleHooks, WebhookContext, WorkflowExecute } from 'n8n-core';
import type {
	IDataObject,
	IExecuteResponsePromiseData,
	INodeExecutionData,
	IRun,
	IWebhookDescription,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	Workflow,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { createRunExecutionData } from 'n8n-workflow';

import { isNodeClassInstance } from './n8nCompat.mts';
import { sendLikeExpress } from './n8nHttp.mts';
import type { TriggerInstance } from './triggerWorkflow.mts';

/** What n8n allows in a webhook request by default (N8N_PAYLOAD_SIZE_MAX, 16 MB). */
const N8N_PAYLOAD_MAX = 16 * 1024 * 1024;

/** One request as the webhook function saw it, and what came of it. */
export interface WebhookOutcome {
	method: string;
	path: string;
	mode: 'production' | 'test';
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
	/** Each node's output items in that execution. */
	runData: Record<string, INodeExecutionData[]>;
	/** When a node's sendResponse answered (responseNode mode), in ms since the epoch. */
	responseNodeAt?: number;
	/** What failed when n8n sent that answer (n8n logs "Error with Webhook-Response"). */
	responseError?: unknown;
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

	getHeader(name: string) {
		return this.headers[name.toLowerCase()];
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
		return this.end(body === undefined ? undefined : JSON.stringify(body));
	}

	write(chunk: unknown) {
		this.body += String(chunk);
		return true;
	}

	end(chunk?: unknown) {
		if (chunk !== undefined && chunk !== null)
			this.body += Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk);
		this.ended = true;
		this.headersSent = true;
		return this;
	}
}

/**
 * Calls the webhook function directly with a fake request/response pair, on the production URL
 * (or the test URL while listening, with `mode: 'test'`). With `execute: false` a started
 * execution is only recorded (its items are the webhook's output), not run.
 */
export async function receiveFake(
	instance: TriggerInstance,
	request: FakeRequest,
	options: { execute?: boolean; mode?: 'production' | 'test'; path?: string } = {},
): Promise<WebhookOutcome> {
	const res = new FakeResponse();
	const headers: Record<string, string | string[] | undefined> = {};
	for (const [name, value] of Object.entries(request.headers ?? {}))
		headers[name.toLowerCase()] = value;
	const path = options.path ?? 'webhook';
	const prefix = options.mode === 'test' ? 'webhook-test' : 'webhook';
	const req = {
		method: request.method ?? 'POST',
		url: `/${prefix}/${instance.options.webhookId}/${path}`,
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
	return await dispatchWebhook(instance, req, res as unknown as http.ServerResponse, method, path, {
		execute: options.execute ?? true,
		mode: options.mode ?? 'production',
	});
}

/** Runs the webhook function for one request and does what n8n does with its answer. */
export async function dispatchWebhook(
	instance: TriggerInstance,
	req: Record<string, unknown>,
	res: http.ServerResponse,
	method: string,
	path: string,
	options: { execute: boolean; mode: 'production' | 'test' },
): Promise<WebhookOutcome> {
	const isTest = options.mode === 'test';
	const description =
		instance.descriptionFor(method, path) ??
		instance.webhookDescriptions().find((d) => d.httpMethod === method.toUpperCase()) ??
		instance.webhookDescriptions()[0];
	const { workflow, context, executeMode } = webhookContext(
		instance,
		req,
		res,
		description,
		isTest,
	);
	const outcome: WebhookOutcome = {
		method,
		path,
		mode: options.mode,
		status: 0,
		responseBody: '',
		started: false,
		items: [],
		runData: {},
	};
	const recorder = recordBody(res);
	try {
		// As n8n's WebhookService.runWebhook: a node class (n8n's own Webhook node) gets the context as argument.
		const result = isNodeClassInstance(instance.nodeType)
			? await (
					instance.nodeType as unknown as {
						webhook(context: WebhookContext): Promise<IWebhookResponseData>;
					}
				).webhook(context)
			: await instance.nodeType.webhook!.call(context);
		outcome.result = result;
		outcome.returned = true;
		const run = { workflow, description, executeMode, isTest, execute: options.execute };
		await answerAndRun(instance, run, result, res, outcome);
	} catch (error) {
		outcome.error = error;
		if (!res.headersSent) {
			res.writeHead(500, { 'Content-Type': 'application/json' });
			res.end(
				JSON.stringify({ message: 'Workflow Webhook Error: Workflow could not be started!' }),
			);
		}
	}
	outcome.status = res.statusCode;
	outcome.responseBody = recorder();
	instance.outcomes.push(outcome);
	return outcome;
}

/** The workflow as stored (test listeners: their own static data) and the webhook's context on it. */
function webhookContext(
	instance: TriggerInstance,
	req: Record<string, unknown>,
	res: http.ServerResponse,
	description: IWebhookDescription,
	isTest: boolean,
) {
	const workflow = instance.fromDatabase();
	if (isTest) workflow.setTestStaticData(instance.testStaticData(description));
	const additionalData = {
		...instance.additionalData(),
		httpRequest: req,
		httpResponse: res,
	} as unknown as IWorkflowExecuteAdditionalData;
	const executeMode: WorkflowExecuteMode = isTest ? 'manual' : 'webhook';
	const context = new WebhookContext(
		workflow,
		instance.node,
		additionalData,
		executeMode,
		instance.webhookData(workflow, description, isTest),
		[],
		null,
	);
	return { workflow, context, executeMode };
}

/** What n8n does with the webhook function's answer: respond (now or after the last node), save, run. */
async function answerAndRun(
	instance: TriggerInstance,
	run: {
		workflow: Workflow;
		description: IWebhookDescription;
		executeMode: WorkflowExecuteMode;
		isTest: boolean;
		execute: boolean;
	},
	result: IWebhookResponseData,
	res: http.ServerResponse,
	outcome: WebhookOutcome,
): Promise<void> {
	const { workflow, description, executeMode, isTest } = run;
	// n8n reads responseMode/responseData per request (they may be expressions).
	const resolve = (field: string, fallback: string) =>
		String(
			instance.descriptionValue(workflow, description, field, executeMode, fallback) ?? fallback,
		);
	const responseMode = resolve('responseMode', 'onReceived');
	const lastNode = responseMode === 'lastNode';
	// responseNode: a node's sendResponse answers from inside the run (n8n's Respond to Webhook way).
	const waits = lastNode || responseMode === 'responseNode';
	const resolved = { ...description, responseData: resolve('responseData', '') };
	if (!waits) answerLikeN8n(res, result, resolved);
	if (!isTest) instance.save(workflow); // LiveWebhooks saves the static data after the answer
	const responder = waits && !lastNode ? responseNodeAnswer(res, outcome) : undefined;
	if (result.workflowData !== undefined) {
		outcome.started = true;
		// TestWebhooks deregisters as soon as the execution is started (one test event).
		if (isTest) await instance.stopListening();
		if (run.execute) {
			try {
				outcome.runData = await executeFrom(
					instance,
					workflow,
					result.workflowData,
					executeMode,
					responder?.onResponse,
				);
			} catch (error) {
				if (!waits || result.noWebhookResponse) throw error;
				outcome.error = error;
			}
			outcome.items = outcome.runData[instance.node.name] ?? [];
		} else {
			outcome.items = result.workflowData[0] ?? [];
		}
	} else if (waits) answerLikeN8n(res, result, resolved);
	if (!waits || result.workflowData === undefined || result.noWebhookResponse) return;
	if (responder?.responded()) return;
	if (lastNode || outcome.error !== undefined) answerLastNodeLikeN8n(res, outcome);
	// The run ended without a response: n8n answers with no body (EXECUTION_ENDED_WITHOUT_RESPONSE).
	else answerResponseNodeLikeN8n(res, { body: undefined });
}

/** Runs the workflow from the trigger with its output, as n8n does after a webhook call: each node's output. */
async function executeFrom(
	instance: TriggerInstance,
	workflow: Workflow,
	workflowData: INodeExecutionData[][],
	mode: WorkflowExecuteMode,
	onResponse?: (response: IExecuteResponsePromiseData) => void,
): Promise<Record<string, INodeExecutionData[]>> {
	const hooks = new ExecutionLifecycleHooks(mode, 'trigger-execution', {
		id: workflow.id,
		name: workflow.name,
		nodes: Object.values(workflow.nodes),
		connections: workflow.connectionsBySourceNode,
		active: true,
		activeVersionId: null,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
	} as never);
	let finished!: (run: IRun) => void;
	const done = new Promise<IRun>((resolve) => (finished = resolve));
	hooks.addHandler('workflowExecuteAfter', (run) => finished(run));
	if (onResponse) hooks.addHandler('sendResponse', (response) => onResponse(response));
	const additionalData = { ...instance.additionalData(), hooks } as IWorkflowExecuteAdditionalData;
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node: instance.node, data: { main: workflowData }, source: null }],
		},
	});
	await new WorkflowExecute(additionalData, mode, runExecutionData).processRunExecutionData(
		workflow,
	);
	const run = await done;
	const error = run.data.resultData.error;
	if (error) throw error;
	const out: Record<string, INodeExecutionData[]> = {};
	for (const [name, tasks] of Object.entries(run.data.resultData.runData))
		out[name] = tasks[0]?.data?.main?.[0] ?? [];
	return out;
}

/** Keeps what a response carried, for the outcome. */
function recordBody(res: http.ServerResponse): () => string {
	const fake = res as unknown;
	if (fake instanceof FakeResponse) return () => fake.body;
	let sent = '';
	const end = res.end.bind(res) as (...args: unknown[]) => http.ServerResponse;
	res.end = ((...args: unknown[]) => {
		if (args[0] !== undefined && typeof args[0] !== 'function') sent += String(args[0]);
		return end(...args);
	}) as typeof res.end;
	return () => sent;
}

/**
 * n8n's answer in responseMode lastNode (webhook-helpers, webhook-last-node-response-extractor,
 * responseData firstEntryJson): a failed run gives 500 `Error in workflow`, else the first item
 * of the last node that ran, through `res.status()` and `res.json()` as express does it.
 */
function answerLastNodeLikeN8n(res: http.ServerResponse, outcome: WebhookOutcome): void {
	const express = res as unknown as {
		status(code: number): unknown;
		json(body: unknown): unknown;
	};
	const fallback = (code: number, body: unknown) => sendLikeExpress(res, code, body);
	const status = typeof express.status === 'function' ? express.status.bind(res) : undefined;
	const json =
		typeof express.json === 'function'
			? express.json.bind(res)
			: (body: unknown) => fallback(res.statusCode, body);
	if (outcome.error !== undefined) {
		if (status) status(500);
		else res.statusCode = 500;
		json({ message: 'Error in workflow' });
		return;
	}
	const last = Object.values(outcome.runData).at(-1)?.[0];
	if (status) status(200);
	json(
		last?.json ?? {
			message: 'Workflow executed successfully but the last node did not return any data',
		},
	);
}

/** The sendResponse hook's handler of one request (responseNode mode): the first response is answered. */
function responseNodeAnswer(res: http.ServerResponse, outcome: WebhookOutcome) {
	let responded = false;
	const onResponse = (response: IExecuteResponsePromiseData) => {
		if (responded) return; // n8n's response promise settles once
		responded = true;
		outcome.responseNodeAt = Date.now();
		// n8n answers on its own promise chain: a failure there is logged, the run goes on.
		try {
			answerResponseNodeLikeN8n(res, response);
		} catch (error) {
			outcome.responseError = error;
		}
	};
	return { onResponse, responded: () => responded };
}

/**
 * n8n's answer in responseMode responseNode (webhook-helpers `setupResponseNodePromise`, then the
 * request handler's `sendLegacyResponse`): the node's status through `res.status()`, its headers
 * through `res.setHeaders()`, then `res.send()` for a text body, else `res.json()`.
 */
function answerResponseNodeLikeN8n(
	res: http.ServerResponse,
	response: IExecuteResponsePromiseData,
): void {
	const express = res as unknown as {
		status?(code: number): unknown;
		setHeaders?(headers: Map<string, string>): unknown;
		send?(body: unknown): unknown;
		json?(body: unknown): unknown;
	};
	const code = typeof response.statusCode === 'number' ? response.statusCode : undefined;
	if (code !== undefined) {
		if (typeof express.status === 'function') express.status(code);
		else res.statusCode = code;
	}
	const headers = new Map<string, string>();
	for (const [name, value] of Object.entries((response.headers ?? {}) as IDataObject))
		headers.set(name.toLowerCase(), String(value));
	if (headers.size > 0) {
		if (typeof express.setHeaders === 'function') express.setHeaders(headers);
		else for (const [name, value] of headers) res.setHeader(name, value);
	}
	const body = response.body as unknown;
	if (typeof body === 'string') {
		if (typeof express.send === 'function') express.send(body);
		else sendLikeExpress(res, res.statusCode, body);
		return;
	}
	if (typeof express.json === 'function') express.json(body);
	else sendLikeExpress(res, res.statusCode, body);
}

/** n8n's answer to a webhook call in responseMode onReceived (webhook-helpers, webhook-on-received-response-extractor). */
function answerLikeN8n(
	res: http.ServerResponse,
	result: IWebhookResponseData,
	description: IWebhookDescription,
): void {
	if (result.noWebhookResponse || res.headersSent) return;
	const send = (body: unknown) => sendLikeExpress(res, 200, body);
	if (result.workflowData === undefined) {
		send(
			result.webhookResponse !== undefined
				? result.webhookResponse
				: { message: 'Webhook call received' },
		);
		return;
	}
	const responseData = description.responseData;
	if (responseData === 'noData') send(undefined);
	else if (responseData) send(responseData);
	else
		send(
			result.webhookResponse !== undefined
				? result.webhookResponse
				: { message: 'Workflow was started' },
		);
}

const xmlParser = new XMLParser({ ignoreAttributes: true, parseTagValue: false });

export function parseQuery(url: URL): IDataObject {
	return parseQueryString(url.search.replace(/^\?/, '')) as IDataObject;
}

export function readBody(req: http.IncomingMessage): Promise<Buffer | 'too large'> {
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
export function parseLikeN8n(
	contentType: string | undefined,
	raw: Buffer,
): { ok: true; body: unknown } | { ok: false } {
	if (raw.length === 0) return { ok: true, body: undefined };
	const text = raw.toString('utf8');
	try {
		if (contentType === 'application/json') return { ok: true, body: JSON.parse(text) };
		if (contentType?.endsWith('/xml') || contentType?.endsWith('+xml'))
			return { ok: true, body: xmlParser.parse(text, true) };
		if (contentType === 'application/x-www-form-urlencoded')
			return { ok: true, body: parseQueryString(text) };
		if (contentType === 'text/plain') return { ok: true, body: text };
		return { ok: true, body: undefined };
	} catch {
		return { ok: false };
	}
}
