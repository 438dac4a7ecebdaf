/**
 * Runs this package's compiled nodes on a real n8n engine: n8n-core loads the package the way
 * n8n does (through package.json's "n8n" block), `WorkflowExecute` runs workflow JSON, and a
 * credentials helper applies each credential's `authenticate` block. A rebuild, from
 * devDependencies, of what n8n's NodeTestHarness does, over real HTTP instead of nock.
 */
import { fileURLToPath } from 'node:url';

import { ExecutionLifecycleHooks, PackageDirectoryLoader, WorkflowExecute } from 'n8n-core';
import type {
	IAuthenticateGeneric,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IHttpRequestOptions,
	INode,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IRun,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
	NodeConnectionType,
	Workflow as WorkflowType,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { ICredentialsHelper, NodeHelpers, Workflow, createRunExecutionData } from 'n8n-workflow';

import { capturedLogs, installLogger } from './logger.mts';
import { credentialTestContext, patientRegexEngine, releaseEngineTimers } from './n8nCompat.mts';

export const PACKAGE = 'n8n-nodes-virtualnum';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Test-only start node: passes the items the test hands it to the next node. */
class StartNode implements INodeType {
	description = {
		displayName: 'Test Start',
		name: 'testStart',
		group: ['input'],
		version: 1,
		description: 'Feeds test items into the workflow',
		defaults: { name: 'Start' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [],
	} as unknown as INodeType['description'];

	async execute(this: import('n8n-workflow').IExecuteFunctions) {
		return [this.getInputData()];
	}
}
export const START_TYPE = 'n8n-nodes-virtualnum-test.start';

let loaderPromise: Promise<PackageDirectoryLoader> | undefined;

/** Loads the built package once per process, as n8n loads a community package. */
export async function loadPackage(): Promise<PackageDirectoryLoader> {
	installLogger();
	loaderPromise ??= (async () => {
		await releaseEngineTimers();
		patientRegexEngine();
		const loader = new PackageDirectoryLoader(ROOT);
		await loader.loadAll();
		return loader;
	})();
	return await loaderPromise;
}

export class NodeTypes implements INodeTypes {
	private readonly start = new StartNode();

	constructor(private readonly loader: PackageDirectoryLoader) {}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		if (nodeType === START_TYPE) return this.start;
		const [pkg, name] = splitType(nodeType);
		if (pkg !== PACKAGE) throw new Error(`Unknown node type ${nodeType}`);
		return this.loader.getNode(name).type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	getKnownTypes(): IDataObject {
		return {};
	}
}

function splitType(nodeType: string): [string, string] {
	const dot = nodeType.lastIndexOf('.');
	return [nodeType.slice(0, dot), nodeType.slice(dot + 1)];
}

export function credentialType(loader: PackageDirectoryLoader, name: string): ICredentialType {
	return loader.getCredential(name).type;
}

/** Applies a credential's `authenticate` block the way n8n's own CredentialsHelper does. */
export class CredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly loader: PackageDirectoryLoader,
		private readonly credentials: Record<string, ICredentialDataDecryptedObject>,
	) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
		workflow?: WorkflowType,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const type = credentialType(this.loader, typeName);
		const authenticate = type.authenticate;
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		if (!authenticate) return requestOptions;
		const generic = authenticate as IAuthenticateGeneric;
		const resolve = (value: string) =>
			workflow && node
				? String(
						workflow.expression.getSimpleParameterValue(node, value, 'internal', {
							$credentials: credentials,
						}),
					)
				: value;
		for (const section of ['headers', 'qs', 'body'] as const) {
			const entries = generic.properties[section] as Record<string, string> | undefined;
			if (!entries) continue;
			const target = ((requestOptions as unknown as Record<string, IDataObject>)[section] ??= {});
			for (const [key, value] of Object.entries(entries)) target[key] = resolve(value);
		}
		return requestOptions;
	}

	async preAuthentication() {
		return undefined;
	}

	async runPreAuthentication() {
		return undefined;
	}

	async getCredentials(): Promise<never> {
		throw new Error('getCredentials is not used by these nodes');
	}

	async getDecrypted(
		_data: unknown,
		_nodeCredentials: unknown,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const found = this.credentials[type];
		if (!found) throw new Error(`No credentials of type ${type} given to the test`);
		return found;
	}

	async updateCredentials() {}

	async updateCredentialsOauthTokenData() {}

	getCredentialsProperties() {
		return [];
	}
}

export interface WorkflowNode {
	name: string;
	type: string;
	parameters?: IDataObject;
	credentials?: Record<string, { id: string; name: string }>;
	continueOnFail?: boolean;
	onError?: INode['onError'];
	/** Node settings → Retry On Fail (n8n waits at least 1 ms between tries: `waitBetweenTries || 1000`). */
	retryOnFail?: boolean;
	maxTries?: number;
	waitBetweenTries?: number;
	/** Node settings → Always Output Data (an empty item when the node outputs none). */
	alwaysOutputData?: boolean;
	/** The node's version (default 1; n8n's own nodes, e.g. HTTP Request 4.2, need theirs). */
	typeVersion?: number;
}

export interface RunOptions {
	nodes: WorkflowNode[];
	/** Pairs [from, to] of node names, main output 0 to main input 0; [from, to, output] from another main output (an If's false branch). */
	connections?: Array<[string, string] | [string, string, number]>;
	/** Items fed to the first node (a Test Start node is added in front when the first node is not one). */
	input?: INodeExecutionData[];
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	mode?: WorkflowExecuteMode;
	timezone?: string;
	/** Node types beyond this package's (the bench adds n8n's own nodes and a pass-through node). */
	nodeTypes?: INodeTypes;
	/** Overrides of what n8n hands the execution (the bench supplies the Code node's task runner). */
	additionalData?: Partial<IWorkflowExecuteAdditionalData>;
	/**
	 * Sub-node connections [from, to, type], e.g. a chat model into a chain (`ai_languageModel`):
	 * n8n-core calls the sub-node's `supplyData` when the node it is connected to asks for it.
	 */
	subNodes?: Array<[string, string, NodeConnectionType]>;
	/** The start node's name (default "Start"): a trigger's, so that `$('<trigger>')` in later nodes finds it. */
	startName?: string;
	/**
	 * Items pinned on nodes by name (n8n's pinData): such a node outputs them without running, as in
	 * n8n's editor. Pinned on Test Start nodes (START_TYPE), they stand in for n8n's own nodes.
	 */
	pinData?: Record<string, INodeExecutionData[]>;
	/**
	 * The start node's type (default the Test Start node), e.g. `virtualNumberTrigger`: n8n passes a
	 * webhook node's items through when it runs it, so later nodes see the trigger they follow.
	 */
	startType?: string;
}

export interface RunResult {
	run: IRun;
	status: IRun['status'];
	/** The workflow's error (the node that failed without Continue On Fail), if any. */
	error?: Error & {
		description?: string | null;
		node?: INode;
		context?: IDataObject;
		httpCode?: string | null;
	};
	/** Output items of a node's first run, main output 0. */
	items(nodeName: string): INodeExecutionData[];
	/** Every main output of a node's first run: [success] or, under "Continue (using error output)", [success, error]. */
	outputs(nodeName: string): INodeExecutionData[][];
	/** Every log line written during the run. */
	logs: string[];
}

export async function runWorkflow(options: RunOptions): Promise<RunResult> {
	const loader = await loadPackage();
	const nodeTypes = options.nodeTypes ?? new NodeTypes(loader);
	const startName = options.startName ?? 'Start';
	const nodes = workflowNodes(loader, options, startName);
	const connections = connectionsOf(nodes, options, startName);
	const workflow = new Workflow({
		id: 'test-workflow',
		name: 'Test workflow',
		nodes,
		connections,
		nodeTypes,
		active: false,
		settings: { timezone: options.timezone ?? 'UTC', executionOrder: 'v1' },
	});

	const hooks = new ExecutionLifecycleHooks(options.mode ?? 'manual', 'test-execution', {
		id: 'test-workflow',
		name: 'Test workflow',
		nodes,
		connections,
		active: false,
		activeVersionId: null,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
	} as never);
	let finished!: (run: IRun) => void;
	const done = new Promise<IRun>((resolve) => (finished = resolve));
	hooks.addHandler('workflowExecuteAfter', (run) => finished(run));

	const additionalData = {
		...additionalDataFor(loader, options.credentials ?? {}, hooks),
		...options.additionalData,
	};
	const logsBefore = capturedLogs.length;
	const runExecutionData = createRunExecutionData({
		...(options.pinData ? { resultData: { runData: {}, pinData: options.pinData } } : {}),
		executionData: {
			nodeExecutionStack: [
				{
					node: workflow.getNode(startName)!,
					data: { main: [options.input ?? [{ json: {} }]] },
					source: null,
				},
			],
		},
	});
	const execute = new WorkflowExecute(additionalData, options.mode ?? 'manual', runExecutionData);
	await execute.processRunExecutionData(workflow);
	return resultOf(await done, logsBefore);
}

/** The start node, then the given nodes as n8n stores them (settings such as Retry On Fail included). */
function workflowNodes(
	loader: PackageDirectoryLoader,
	options: RunOptions,
	startName: string,
): INode[] {
	const startNode: WorkflowNode = { name: startName, type: options.startType ?? START_TYPE };
	return [startNode, ...options.nodes].map(
		(node, index): INode => ({
			id: `node-${index}`,
			name: node.name,
			type: node.type.includes('.') ? node.type : `${PACKAGE}.${node.type}`,
			typeVersion: node.typeVersion ?? 1,
			position: [index * 200, 0],
			parameters: (node.parameters ?? {}) as INode['parameters'],
			credentials: node.credentials ?? defaultCredentials(loader, node.type),
			...(node.continueOnFail ? { onError: 'continueRegularOutput' } : {}),
			...(node.onError ? { onError: node.onError } : {}),
			...(node.alwaysOutputData ? { alwaysOutputData: true } : {}),
			...(node.retryOnFail
				? {
						retryOnFail: true,
						maxTries: node.maxTries,
						waitBetweenTries: node.waitBetweenTries ?? 1,
					}
				: {}),
		}),
	);
}

type Connections = Record<
	string,
	Record<string, Array<Array<{ node: string; type: NodeConnectionType; index: number }>>>
>;

/** The given connections (the start node feeding the first node), or the nodes in a chain. */
function connectionsOf(nodes: INode[], options: RunOptions, startName: string): Connections {
	const pairs: Array<[string, string] | [string, string, number]> = options.connections
		? [[startName, options.nodes[0].name], ...options.connections]
		: chain(nodes.map((n) => n.name));
	const connections: Connections = {};
	for (const [from, to, output = 0] of pairs) {
		connections[from] ??= {};
		const main = (connections[from].main ??= []);
		while (main.length <= output) main.push([]);
		main[output]!.push({ node: to, type: 'main', index: 0 });
	}
	for (const [from, to, type] of options.subNodes ?? []) {
		connections[from] ??= {};
		(connections[from][type] ??= [[]])[0].push({ node: to, type, index: 0 });
	}
	return connections;
}

function resultOf(run: IRun, logsBefore: number): RunResult {
	const error = run.data.resultData.error as RunResult['error'];
	const taskData = (nodeName: string) => {
		const task = run.data.resultData.runData[nodeName]?.[0];
		if (!task)
			throw new Error(`Node "${nodeName}" did not run${error ? `: ${error.message}` : ''}`);
		return task;
	};
	return {
		run,
		status: run.status,
		error,
		items: (nodeName) => taskData(nodeName).data?.main?.[0] ?? [],
		outputs: (nodeName) => (taskData(nodeName).data?.main ?? []).map((items) => items ?? []),
		logs: capturedLogs.slice(logsBefore),
	};
}

function chain(names: string[]): Array<[string, string]> {
	return names.slice(1).map((name, index) => [names[index], name]);
}

function defaultCredentials(loader: PackageDirectoryLoader, type: string) {
	if (type === START_TYPE || type.includes('.')) return undefined;
	const description = loader.getNode(type).type as INodeType;
	const creds = description.description.credentials ?? [];
	return Object.fromEntries(
		creds.map((c) => [c.name, { id: `${c.name}-id`, name: `${c.name} test` }]),
	);
}

export function additionalDataFor(
	loader: PackageDirectoryLoader,
	credentials: Record<string, ICredentialDataDecryptedObject>,
	hooks?: ExecutionLifecycleHooks,
): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper: new CredentialsHelper(loader, credentials),
		executionId: 'test-execution',
		hooks,
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678/',
		formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
		webhookBaseUrl: 'http://localhost:5678/webhook',
		webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
		currentNodeParameters: undefined,
		executionTimeoutTimestamp: undefined,
		userId: 'test-user',
		variables: {},
		setExecutionStatus: () => {},
		sendDataToUI: () => {},
		executeWorkflow: async () => {
			throw new Error('Sub-workflows are not used by these tests');
		},
		getRunExecutionData: async () => undefined,
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new Error('Task runners are not used by these tests');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
}

/** Runs a node's credential test (its `testedBy` function) as n8n's "Test" button does. */
export async function testCredential(
	nodeType: string,
	credentialTypeName: string,
	data: ICredentialDataDecryptedObject,
): Promise<INodeCredentialTestResult> {
	const loader = await loadPackage();
	const { CredentialTestContext } = await import('n8n-core');
	const node = loader.getNode(nodeType).type as INodeType;
	const testedBy = node.description.credentials?.find(
		(c) => c.name === credentialTypeName,
	)?.testedBy;
	if (typeof testedBy !== 'string')
		throw new Error(`${nodeType} does not test ${credentialTypeName}`);
	const test = node.methods?.credentialTest?.[testedBy];
	if (!test) throw new Error(`${nodeType} has no credential test ${testedBy}`);
	const context = credentialTestContext(CredentialTestContext, additionalDataFor(loader, {}));
	return await test.call(context, { id: 'cred', name: 'cred', type: credentialTypeName, data });
}
