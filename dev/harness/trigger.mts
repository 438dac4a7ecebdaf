/**
 * Runs this package's webhook trigger the way n8n 2.40 does, on n8n-core's own contexts, and no
 * kinder than n8n (read in packages/cli/src: active-workflow-manager.ts, workflows/workflow.service.ts,
 * webhooks/test-webhooks.ts, webhooks/live-webhooks.ts, webhooks/webhook.service.ts):
 *
 * - Each trigger is one workflow with its static data kept as the DATABASE holds it (`saved`).
 *   Every n8n path builds a new Workflow from that saved copy, and saves back only what n8n saves.
 * Two activation paths, as n8n 2.40 has them (`host.activation`):
 *
 * 'activeWorkflowManager' (n8n 1.x, and 2.x with N8N_USE_WORKFLOW_PUBLICATION_SERVICE=false):
 * - Activation (`activate`): for each webhook entry that has lifecycle methods, checkExists, then
 *   create when it answered false (`runWebhookMethod` skips entries without methods, e.g. `setup`);
 *   on success the static data is saved. On failure n8n's clean-up runs: `clearWebhooks` (delete on
 *   a Workflow REBUILT FROM THE SAVED STATIC DATA, not the in-memory one), then the workflow
 *   service's `remove` (the same again), and the workflow is left inactive. Clean-up errors are
 *   logged, not thrown, as in n8n.
 * - Deactivation (`deactivate`): `remove` → `clearWebhooks`; a delete that fails is logged, the
 *   static data is then not saved, and the workflow is inactive anyway.
 * - Restart (`host.restart()`): test registrations are lost (they live in memory), and every
 *   workflow active in the database is activated again with mode 'init' (a failure is logged and
 *   leaves it active in the database, as n8n does before its retry).
 *
 * 'publicationService' (n8n 2.x's default; workflows/publication, workflows/triggers):
 * - Activation: per webhook entry, register (checkExists, then create) up to 5 times
 *   (retryTriggerActivation); after each failed attempt the registrar's clean-up runs delete on the
 *   SAME in-memory Workflow and saves its static data. The static data is saved at the end either
 *   way. A failure leaves the workflow published (active in the database) with a failed trigger.
 * - Deactivation (unpublish): delete, up to 3 attempts, on a Workflow built from the database;
 *   failures are logged ("abandoned"); the static data is saved afterwards.
 * - Restart: nothing is called for webhook triggers (their rows stay in the database).
 *
 * Both:
 * - Listen for test event (`listen`): a Workflow with EMPTY static data registers the test URL;
 *   each entry keeps a copy of the static data after its create; `stopListening` (cancel or the
 *   two-minute timeout) and a received test event that started an execution run delete with it.
 * - Callbacks: a request to the production URL runs the webhook on a Workflow built from the saved
 *   static data and saves it afterwards (LiveWebhooks); a request to the test URL uses the test
 *   registration's copy and saves nothing. Incoming HTTP is parsed like n8n's webhook server
 *   (typeVersion 1: JSON, form, XML, text; raw body kept; 422 on unparseable JSON), answered like
 *   `onReceived` (`responseData: 'noData'` → empty body), and every started execution runs on
 *   n8n-core's WorkflowExecute, downstream nodes and their expressions included.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseQueryString } from 'node:querystring';

import { XMLParser } from 'fast-xml-parser';
import { ExecutionLifecycleHooks, HookContext, WebhookContext, WorkflowExecute } from 'n8n-core';
import type {
	IConnections,
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IExecuteResponsePromiseData,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IRun,
	IVersionedNodeType,
	IWebhookData,
	IWebhookDescription,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow, createRunExecutionData } from 'n8n-workflow';

import { NodeTypes, PACKAGE, additionalDataFor, loadPackage } from './engine.mts';
import { isNodeClassInstance, resolveNatively } from './n8nCompat.mts';
import { capturedLogs } from './logger.mts';

export const TRIGGER_TYPE = `${PACKAGE}.virtualNumberTrigger`;
/** What n8n allows in a webhook request by default (N8N_PAYLOAD_SIZE_MAX, 16 MB). */
const N8N_PAYLOAD_MAX = 16 * 1024 * 1024;
/** n8n 2.40's constants (packages/cli/src/constants.ts); the harness retries without its pauses. */
const TRIGGER_ACTIVATION_MAX_ATTEMPTS = 5;
const TRIGGER_TEARDOWN_MAX_ATTEMPTS = 3;

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

export interface TriggerOptions {
	parameters: IDataObject;
	credentials: Record<string, ICredentialDataDecryptedObject>;
	name?: string;
	webhookId?: string;
	/** The trigger's node version (1 unless given: the version saved workflows of 0.2 carry). */
	typeVersion?: number;
	/** Static data the database starts with (a saved copy, e.g. from `savedStaticData()`). */
	staticData?: IDataObject;
	/** Nodes after the trigger (connected in a chain from it), e.g. a Test Map node. */
	downstream?: Array<
		Pick<INode, 'name' | 'type' | 'parameters'> & Partial<Pick<INode, 'typeVersion'>>
	>;
	/**
	 * Another webhook node in place of this package's trigger (the bench compares with n8n's Webhook
	 * node): its type and version, known to the host's node types, and its webhook entries with the
	 * HTTP method resolved (n8n resolves the node's `httpMethod` expression when it registers them).
	 */
	node?: { type: string; typeVersion: number; webhooks: IWebhookDescription[] };
	/**
	 * How long each credential read takes: n8n's reads the database and decrypts, 12 to 160 ms
	 * for a call alone in n8n 2.40.7 and several hundred under 10 calls at once (dev/bench/routeCall.mts).
	 */
	credentialReadMs?: number;
}

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

type LifecycleMethod = 'checkExists' | 'create' | 'delete';

/** One test-webhook registration (one webhook entry) and the static data copied after its create. */
interface TestRegistration {
	description: IWebhookDescription;
	staticData?: IDataObject;
}

/**
 * The node's credential references: one per credential the test gives (a Bulk SMS node, the
 * trigger with its n8n API credential), the trigger's own when it gives none.
 */
function credentialRefs(options: TriggerOptions): INode['credentials'] {
	const names = Object.keys(options.credentials);
	if (options.node && names.length === 0) return undefined;
	return Object.fromEntries(
		(names.length > 0 ? names : ['virtualnumApi']).map((name) => [
			name,
			{ id: `${name}-id`, name: `${name} test` },
		]),
	);
}

function copy<T>(value: T): T {
	return JSON.parse(JSON.stringify(value)) as T;
}

export class TriggerInstance {
	readonly node: INode;
	readonly outcomes: WebhookOutcome[] = [];
	/** Errors n8n would only log (clean-up after a failed activation, deactivation, restart). */
	readonly loggedErrors: Array<{ during: string; error: unknown }> = [];
	/** The static data as the database holds it. */
	private saved: IDataObject;
	/** The workflow is active in the database. */
	active = false;
	/** The last activation (or restart) registered it: production callbacks reach it. */
	registered = false;
	private testRegistrations: TestRegistration[] | undefined;

	constructor(
		private readonly host: TriggerHost,
		public nodeType: INodeType,
		private readonly nodeTypes: NodeTypes,
		readonly options: Required<Pick<TriggerOptions, 'name' | 'webhookId'>> & TriggerOptions,
	) {
		this.node = {
			id: 'trigger-node',
			name: options.name,
			type: options.node?.type ?? TRIGGER_TYPE,
			typeVersion: options.node?.typeVersion ?? options.typeVersion ?? 1,
			position: [0, 0],
			webhookId: options.webhookId,
			parameters: options.parameters as INode['parameters'],
			credentials: credentialRefs(options),
		};
		this.saved = options.staticData ? copy(options.staticData) : {};
	}

	get id(): string {
		return `wf-${this.options.webhookId}`;
	}

	/** A Workflow as n8n builds one, with the given static data. */
	private build(staticData: IDataObject): Workflow {
		const downstream = (this.options.downstream ?? []).map(
			(node, index): INode => ({
				id: `node-${index}`,
				typeVersion: 1,
				position: [200 * (index + 1), 0],
				...node,
				parameters: node.parameters ?? {},
			}),
		);
		const connections: IConnections = {};
		[this.node, ...downstream].slice(0, -1).forEach((from, index) => {
			connections[from.name] = {
				main: [[{ node: downstream[index].name, type: 'main', index: 0 }]],
			};
		});
		return new Workflow({
			id: this.id,
			name: 'Trigger workflow',
			nodes: [this.node, ...downstream],
			connections,
			nodeTypes: this.nodeTypes,
			active: this.active,
			staticData: copy(staticData),
			settings: { timezone: 'UTC', executionOrder: 'v1' },
		});
	}

	private fromDatabase(): Workflow {
		return this.build(this.saved);
	}

	/** WorkflowStaticDataService.saveStaticData: only when something changed. */
	private save(workflow: Workflow): void {
		if (workflow.staticData.__dataChanged === true) this.saved = copy(workflow.staticData);
	}

	additionalData(): IWorkflowExecuteAdditionalData {
		const data = { ...this.host.additionalData(this.options.credentials) };
		const readMs = this.options.credentialReadMs ?? 0;
		const helper = data.credentialsHelper;
		if (readMs > 0) {
			const read = helper.getDecrypted.bind(helper);
			helper.getDecrypted = async (...args: Parameters<typeof read>) => {
				await new Promise((resolve) => setTimeout(resolve, readMs));
				return await read(...args);
			};
		}
		return data;
	}

	/** The webhook entries n8n would register for this node (one per HTTP method). */
	webhookDescriptions(): IWebhookDescription[] {
		return this.options.node?.webhooks ?? this.nodeType.description.webhooks ?? [];
	}

	private webhookData(
		workflow: Workflow,
		description: IWebhookDescription,
		isTest: boolean,
	): IWebhookData {
		return {
			httpMethod: description.httpMethod as IWebhookData['httpMethod'],
			node: this.node.name,
			path: `${this.options.webhookId}/${this.pathOf(workflow, description)}`,
			webhookDescription: description,
			workflowId: workflow.id,
			workflowExecuteAdditionalData: this.additionalData(),
			webhookId: this.options.webhookId,
			isTest,
		};
	}

	/** The entry's path as n8n registers it (NodeHelpers.getNodeWebhooks: an expression is evaluated). */
	pathOf(workflow: Workflow, description: IWebhookDescription): string {
		const path = this.descriptionValue(workflow, description, 'path', 'internal');
		return String(path).replace(/^\/+|\/+$/g, '');
	}

	/**
	 * A field of a webhook entry as n8n reads it (WebhookService.evaluateDescriptionProperty,
	 * WebhookExecutionContext): the field's resolver when n8n has them and the parameters are
	 * static, else the expression.
	 */
	private descriptionValue(
		workflow: Workflow,
		description: IWebhookDescription,
		field: string,
		mode: WorkflowExecuteMode,
		fallback?: string,
	): unknown {
		const node = workflow.getNode(this.node.name) ?? this.node;
		const native = resolveNatively(node, description, field);
		if (native.resolved) return native.value;
		return workflow.expression.getSimpleParameterValue(
			this.node,
			description[field] as string | undefined,
			mode,
			{},
			undefined,
			fallback,
		);
	}

	/** The entry n8n routes a request to: its method and its path (after the webhook id). */
	private descriptionFor(method: string, path: string): IWebhookDescription | undefined {
		const workflow = this.fromDatabase();
		return this.webhookDescriptions().find(
			(d) => d.httpMethod === method.toUpperCase() && this.pathOf(workflow, d) === path,
		);
	}

	/**
	 * The entries as n8n registers them and as its editor lists their URLs: method, path (after the
	 * webhook id) and whether the panel hides the URL (`ndvHideUrl`, an expression evaluated as the
	 * editor does).
	 */
	webhookPaths(): Array<{ method: string; path: string; shown: boolean }> {
		const workflow = this.fromDatabase();
		return this.webhookDescriptions().map((d) => {
			const hide =
				typeof d.ndvHideUrl === 'string'
					? workflow.expression.getSimpleParameterValue(this.node, d.ndvHideUrl, 'internal', {})
					: d.ndvHideUrl;
			return {
				method: d.httpMethod as string,
				path: this.pathOf(workflow, d),
				shown: hide !== true,
			};
		});
	}

	/** Whether n8n would route a request with this method and path (after the webhook id) here. */
	routes(method: string, path: string): boolean {
		return this.descriptionFor(method, path) !== undefined;
	}

	/** WebhookService.runWebhookMethod: entries without the method are skipped. */
	private async run(
		workflow: Workflow,
		description: IWebhookDescription,
		method: LifecycleMethod,
		how: { mode: WorkflowExecuteMode; activation: WorkflowActivateMode; isTest: boolean },
	): Promise<boolean | undefined> {
		const methods = this.nodeType.webhookMethods?.[description.name];
		const fn = methods?.[method];
		if (fn === undefined) return undefined;
		const context = new HookContext(
			workflow,
			this.node,
			this.additionalData(),
			how.mode,
			how.activation,
			this.webhookData(workflow, description, how.isTest),
		);
		return await fn.call(context);
	}

	/** Runs one lifecycle method once on the saved static data (saving it afterwards), for tests of a single method. */
	async lifecycle(
		method: LifecycleMethod,
		description = this.webhookDescriptions()[0],
	): Promise<boolean> {
		const workflow = this.fromDatabase();
		const how =
			method === 'delete'
				? { mode: 'internal' as const, activation: 'update' as const, isTest: false }
				: { mode: 'trigger' as const, activation: 'activate' as const, isTest: false };
		const result = await this.run(workflow, description, method, how);
		this.save(workflow);
		return result ?? false;
	}

	/**
	 * n8n's activation (ActiveWorkflowManager.add → addWebhooks). On failure: clearWebhooks (delete on
	 * a Workflow rebuilt from the saved static data), then the workflow service's remove (the same
	 * again, not for 'init'), and the error. Resolves when the trigger is registered.
	 */
	async activate(activation: WorkflowActivateMode = 'activate'): Promise<void> {
		if (this.host.activation === 'publicationService') return await this.publish(activation);
		const workflow = this.fromDatabase();
		this.active = true;
		try {
			for (const description of this.webhookDescriptions()) {
				const how = { mode: 'trigger' as const, activation, isTest: false };
				if (!(await this.run(workflow, description, 'checkExists', how)))
					await this.run(workflow, description, 'create', how);
			}
		} catch (error) {
			this.registered = false;
			await this.clearWebhooks('clean-up after a failed activation');
			if (activation !== 'init') {
				await this.clearWebhooks('rollback of a partial activation (workflow service)');
				this.active = false;
			}
			throw error;
		}
		this.save(workflow);
		this.registered = true;
	}

	/** ActiveWorkflowManager.clearWebhooks: delete per entry on a Workflow rebuilt from the database; errors are logged. */
	private async clearWebhooks(during: string): Promise<void> {
		const workflow = this.fromDatabase();
		try {
			for (const description of this.webhookDescriptions()) {
				await this.run(workflow, description, 'delete', {
					mode: 'internal',
					activation: 'update',
					isTest: false,
				});
			}
			this.save(workflow);
		} catch (error) {
			this.loggedErrors.push({ during, error });
		}
	}

	/** n8n's deactivation (remove → clearWebhooks). Resolves with the error n8n would only log, if any. */
	async deactivate(): Promise<unknown> {
		const before = this.loggedErrors.length;
		if (this.host.activation === 'publicationService') await this.unpublish();
		else await this.clearWebhooks('deactivation');
		this.active = false;
		this.registered = false;
		return this.loggedErrors[before]?.error;
	}

	/** After an n8n restart: what n8n's init does for this workflow. */
	async restarted(): Promise<void> {
		this.testRegistrations = undefined;
		// The publication service calls nothing for webhook triggers at start: their rows stay in the database.
		if (this.host.activation === 'publicationService') return;
		this.registered = false;
		if (!this.active) return;
		try {
			await this.activate('init');
		} catch (error) {
			this.loggedErrors.push({ during: 'activation at start-up', error });
		}
	}

	/** The publication service's activation (WorkflowTriggerActivator.activate → WebhookTriggerRegistrar.register, retried). */
	private async publish(activation: WorkflowActivateMode): Promise<void> {
		const workflow = this.fromDatabase();
		this.active = true;
		let failure: unknown;
		for (const description of this.webhookDescriptions()) {
			for (let attempt = 1; attempt <= TRIGGER_ACTIVATION_MAX_ATTEMPTS; attempt++) {
				try {
					const how = { mode: 'trigger' as const, activation, isTest: false };
					if (!(await this.run(workflow, description, 'checkExists', how)))
						await this.run(workflow, description, 'create', how);
					failure = undefined;
					break;
				} catch (error) {
					failure = error;
					try {
						await this.run(workflow, description, 'delete', {
							mode: 'internal',
							activation: 'update',
							isTest: false,
						});
						this.save(workflow);
					} catch (cleanupError) {
						this.loggedErrors.push({
							during: 'registrar clean-up after a failed attempt',
							error: cleanupError,
						});
					}
				}
			}
			if (failure !== undefined) break;
		}
		this.save(workflow);
		this.registered = failure === undefined;
		if (failure !== undefined) throw failure;
	}

	/** The publication service's deactivation: delete (3 attempts) on a Workflow built from the database; failures are logged. */
	private async unpublish(): Promise<void> {
		const workflow = this.fromDatabase();
		for (const description of this.webhookDescriptions()) {
			for (let attempt = 1; attempt <= TRIGGER_TEARDOWN_MAX_ATTEMPTS; attempt++) {
				try {
					await this.run(workflow, description, 'delete', {
						mode: 'internal',
						activation: 'update',
						isTest: false,
					});
					break;
				} catch (error) {
					if (attempt === TRIGGER_TEARDOWN_MAX_ATTEMPTS)
						this.loggedErrors.push({ during: 'deactivation (abandoned)', error });
				}
			}
		}
		this.save(workflow);
	}

	/** TestWebhooks.needsWebhook: the test URL is registered on a Workflow with empty static data. */
	async listen(): Promise<void> {
		const workflow = this.build({});
		this.testRegistrations = [];
		for (const description of this.webhookDescriptions()) {
			const registration: TestRegistration = { description };
			this.testRegistrations.push(registration);
			try {
				const how = { mode: 'manual' as const, activation: 'manual' as const, isTest: true };
				if (!(await this.run(workflow, description, 'checkExists', how)))
					await this.run(workflow, description, 'create', how);
				registration.staticData = copy(workflow.staticData);
			} catch (error) {
				await this.deactivateTest(workflow);
				throw error;
			}
		}
	}

	get listening(): boolean {
		return this.testRegistrations !== undefined;
	}

	/** TestWebhooks.cancelWebhook (the Stop button, or the two-minute timeout): errors are logged. */
	async stopListening(): Promise<void> {
		try {
			await this.deactivateTest(this.build({}));
		} catch (error) {
			this.loggedErrors.push({ during: 'end of test listening', error });
		}
	}

	/** TestWebhooks.deactivateWebhooks: delete per entry with the static data its registration copied. */
	private async deactivateTest(workflow: Workflow): Promise<void> {
		for (const registration of [...(this.testRegistrations ?? [])]) {
			if (registration.staticData) workflow.staticData = copy(registration.staticData);
			await this.run(workflow, registration.description, 'delete', {
				mode: 'internal',
				activation: 'update',
				isTest: true,
			});
			this.testRegistrations = this.testRegistrations?.filter((entry) => entry !== registration);
		}
		this.testRegistrations = undefined;
	}

	/** The static data as the database holds it. */
	savedStaticData(): IDataObject {
		return copy(this.saved);
	}

	/** The same workflow seen by "another process" (queue mode): the same database. */
	inAnotherProcess(): TriggerInstance {
		const other = this.host.add({ ...this.options, staticData: this.savedStaticData() });
		other.active = this.active;
		other.registered = this.registered;
		return other;
	}

	/** The URL n8n gives this trigger (what it registers, before its parameters). */
	get webhookUrl(): string {
		return `${this.host.webhookBaseUrl}/${this.options.webhookId}/webhook`;
	}

	get testWebhookUrl(): string {
		return `${this.host.webhookTestBaseUrl}/${this.options.webhookId}/webhook`;
	}

	/** Whether a number's callback URL points at this trigger (production, or test with `test`). */
	holds(callbackUrl: string, mode: 'production' | 'test' = 'production'): boolean {
		return callbackUrl.split('?')[0] === (mode === 'test' ? this.testWebhookUrl : this.webhookUrl);
	}

	/**
	 * Calls the webhook function directly with a fake request/response pair, on the production URL
	 * (or the test URL while listening, with `mode: 'test'`). With `execute: false` a started
	 * execution is only recorded (its items are the webhook's output), not run.
	 */
	async receive(
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
			url: `/${prefix}/${this.options.webhookId}/${path}`,
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
		return await this.dispatch(req, res as unknown as http.ServerResponse, method, path, {
			execute: options.execute ?? true,
			mode: options.mode ?? 'production',
		});
	}

	/** Runs the webhook function for one request and does what n8n does with its answer. */
	async dispatch(
		req: Record<string, unknown>,
		res: http.ServerResponse,
		method: string,
		path: string,
		options: { execute: boolean; mode: 'production' | 'test' },
	): Promise<WebhookOutcome> {
		const isTest = options.mode === 'test';
		const description =
			this.descriptionFor(method, path) ??
			this.webhookDescriptions().find((d) => d.httpMethod === method.toUpperCase()) ??
			this.webhookDescriptions()[0];
		const { workflow, context, executeMode } = this.webhookContext(req, res, description, isTest);
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
			const result = isNodeClassInstance(this.nodeType)
				? await (
						this.nodeType as unknown as {
							webhook(context: WebhookContext): Promise<IWebhookResponseData>;
						}
					).webhook(context)
				: await this.nodeType.webhook!.call(context);
			outcome.result = result;
			outcome.returned = true;
			const run = { workflow, description, executeMode, isTest, execute: options.execute };
			await this.answerAndRun(run, result, res, outcome);
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
		this.outcomes.push(outcome);
		return outcome;
	}

	/** The workflow as stored (test listeners: their own static data) and the webhook's context on it. */
	private webhookContext(
		req: Record<string, unknown>,
		res: http.ServerResponse,
		description: IWebhookDescription,
		isTest: boolean,
	) {
		const workflow = this.fromDatabase();
		if (isTest)
			workflow.setTestStaticData(
				copy(this.testRegistrations?.find((r) => r.description === description)?.staticData ?? {}),
			);
		const additionalData = {
			...this.additionalData(),
			httpRequest: req,
			httpResponse: res,
		} as unknown as IWorkflowExecuteAdditionalData;
		const executeMode: WorkflowExecuteMode = isTest ? 'manual' : 'webhook';
		const context = new WebhookContext(
			workflow,
			this.node,
			additionalData,
			executeMode,
			this.webhookData(workflow, description, isTest),
			[],
			null,
		);
		return { workflow, context, executeMode };
	}

	/** What n8n does with the webhook function's answer: respond (now or after the last node), save, run. */
	private async answerAndRun(
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
				this.descriptionValue(workflow, description, field, executeMode, fallback) ?? fallback,
			);
		const responseMode = resolve('responseMode', 'onReceived');
		const lastNode = responseMode === 'lastNode';
		// responseNode: a node's sendResponse answers from inside the run (n8n's Respond to Webhook way).
		const waits = lastNode || responseMode === 'responseNode';
		const resolved = { ...description, responseData: resolve('responseData', '') };
		if (!waits) answerLikeN8n(res, result, resolved);
		if (!isTest) this.save(workflow); // LiveWebhooks saves the static data after the answer
		const responder = waits && !lastNode ? responseNodeAnswer(res, outcome) : undefined;
		if (result.workflowData !== undefined) {
			outcome.started = true;
			// TestWebhooks deregisters as soon as the execution is started (one test event).
			if (isTest) await this.stopListening();
			if (run.execute) {
				try {
					outcome.runData = await this.execute(
						workflow,
						result.workflowData,
						executeMode,
						responder?.onResponse,
					);
				} catch (error) {
					if (!waits || result.noWebhookResponse) throw error;
					outcome.error = error;
				}
				outcome.items = outcome.runData[this.node.name] ?? [];
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
	private async execute(
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
		const additionalData = { ...this.additionalData(), hooks } as IWorkflowExecuteAdditionalData;
		const runExecutionData = createRunExecutionData({
			executionData: {
				nodeExecutionStack: [{ node: this.node, data: { main: workflowData }, source: null }],
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

	/** The executions started so far, as the items each one output. */
	get executions(): INodeExecutionData[][] {
		return this.outcomes.filter((outcome) => outcome.started).map((outcome) => outcome.items);
	}
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
	const fallback = (code: number, body: unknown) => {
		res.statusCode = code;
		res.setHeader('Content-Type', 'application/json');
		res.end(JSON.stringify(body));
	};
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
		else if (!res.headersSent) res.end(body);
		return;
	}
	if (typeof express.json === 'function') express.json(body);
	else if (!res.headersSent) res.end(body === undefined ? undefined : JSON.stringify(body));
}

/** n8n's answer to a webhook call in responseMode onReceived (webhook-helpers, webhook-on-received-response-extractor). */
function answerLikeN8n(
	res: http.ServerResponse,
	result: IWebhookResponseData,
	description: IWebhookDescription,
): void {
	if (result.noWebhookResponse || res.headersSent) return;
	const send = (body: unknown) => {
		if (body === undefined) {
			res.writeHead(200).end();
			return;
		}
		const text = typeof body === 'string' ? body : JSON.stringify(body);
		res
			.writeHead(200, {
				'Content-Type': typeof body === 'string' ? 'text/html; charset=utf-8' : 'application/json',
			})
			.end(text);
	};
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
function parseLikeN8n(
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

export { startProxy, type ProxiedRequest } from './proxy.mts';
