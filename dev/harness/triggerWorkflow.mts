/**
 * A workflow holding this package's webhook trigger, kept and activated the way n8n 2.40 does it,
 * on n8n-core's own contexts, and no kinder than n8n (read in packages/cli/src:
 * active-workflow-manager.ts, workflows/workflow.service.ts, webhooks/test-webhooks.ts,
 * webhooks/live-webhooks.ts, webhooks/webhook.service.ts):
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
 * - Callbacks (triggerWebhook.mts): a request to the production URL runs the webhook on a Workflow
 *   built from the saved static data and saves it afterwards (LiveWebhooks); a request to the test
 *   URL uses the test registration's copy and saves nothing.
 */
import type http from 'node:http';

import { HookContext } from 'n8n-core';
import type {
	IConnections,
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeType,
	IWebhookData,
	IWebhookDescription,
	IWorkflowExecuteAdditionalData,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { PACKAGE, type NodeTypes } from './engine.mts';
import { resolveNatively } from './n8nCompat.mts';
import type { TriggerHost } from './trigger.mts';
import {
	dispatchWebhook,
	receiveFake,
	type FakeRequest,
	type WebhookOutcome,
} from './triggerWebhook.mts';

export const TRIGGER_TYPE = `${PACKAGE}.virtualNumberTrigger`;
/** n8n 2.40's constants (packages/cli/src/constants.ts); the harness retries without its pauses. */
const TRIGGER_ACTIVATION_MAX_ATTEMPTS = 5;
const TRIGGER_TEARDOWN_MAX_ATTEMPTS = 3;

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

	/** A Workflow built from the static data as the database holds it. */
	fromDatabase(): Workflow {
		return this.build(this.saved);
	}

	/** WorkflowStaticDataService.saveStaticData: only when something changed. */
	save(workflow: Workflow): void {
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

	webhookData(workflow: Workflow, description: IWebhookDescription, isTest: boolean): IWebhookData {
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
	descriptionValue(
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
	descriptionFor(method: string, path: string): IWebhookDescription | undefined {
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

	/** The static data a test registration of this entry copied after its create. */
	testStaticData(description: IWebhookDescription): IDataObject {
		return copy(
			this.testRegistrations?.find((r) => r.description === description)?.staticData ?? {},
		);
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
		return await receiveFake(this, request, options);
	}

	/** Runs the webhook function for one request and does what n8n does with its answer. */
	async dispatch(
		req: Record<string, unknown>,
		res: http.ServerResponse,
		method: string,
		path: string,
		options: { execute: boolean; mode: 'production' | 'test' },
	): Promise<WebhookOutcome> {
		return await dispatchWebhook(this, req, res, method, path, options);
	}

	/** The executions started so far, as the items each one output. */
	get executions(): INodeExecutionData[][] {
		return this.outcomes.filter((outcome) => outcome.started).map((outcome) => outcome.items);
	}
}
