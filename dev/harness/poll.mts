/**
 * Runs this package's polling trigger the way n8n 2.40 does, on n8n-core's own PollContext and
 * WorkflowExecute, and no kinder than n8n (read in packages/cli/src/active-workflow-manager.ts and
 * packages/core/src/execution-engine: active-workflow-triggers.ts, poll-trigger-executor.ts):
 *
 * - The workflow's static data is kept as the DATABASE holds it (`saved`). Activation (`activate`,
 *   and `restart`, which n8n runs with mode 'init') builds a new Workflow from that saved copy and
 *   runs one poll at once, as a test run: an error fails the activation. Then n8n saves the static
 *   data (ActiveWorkflowManager.add), whatever the poll emitted.
 * - Each scheduled poll (`tick`) runs on that same in-memory Workflow. Items are handed to `__emit`,
 *   which saves the static data (only when it changed) and starts an execution from the trigger
 *   node with the items (WorkflowExecute passes a poll node's input through outside manual mode).
 *   A poll that returns null saves nothing; an error goes to `__emitError` (n8n records a failed
 *   execution and keeps polling).
 * - A restart loses whatever the in-memory static data holds beyond the saved copy (`live`).
 * - `getPollBudgetMs()`: n8n-core's PollContext default (5 minutes, the default poller), or
 *   `pollBudgetMs` when a test sets it (n8n's durable scheduler gives a poll 36 s by default).
 * - Fetch Test Event (`fetchTestEvent`) runs the workflow in manual mode from the trigger node:
 *   WorkflowExecute calls `poll()` with a PollContext in mode 'manual', on a copy of the saved
 *   static data, and saves nothing (n8n saves no static data of manual runs).
 */
import { PollContext, WorkflowExecute, ExecutionLifecycleHooks } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	IPollFunctions,
	IRun,
	WorkflowActivateMode,
} from 'n8n-workflow';
import { Workflow, createRunExecutionData } from 'n8n-workflow';

import { NodeTypes, PACKAGE, additionalDataFor, loadPackage } from './engine.mts';

export const POLL_TYPE = `${PACKAGE}.virtualNumberCallRecordTrigger`;
const NODE_NAME = 'Virtual Number Call Record Trigger';

export interface PollOptions {
	parameters: IDataObject;
	credentials: Record<string, ICredentialDataDecryptedObject>;
	/** Static data the database starts with (e.g. another host's `saved`). */
	staticData?: IDataObject;
	/** The workflow's time zone (n8n's default is America/New_York). */
	timezone?: string;
}

/** What one poll came to. */
export interface PollOutcome {
	/** Items the trigger node output in the execution the poll started (none when nothing was emitted). */
	items: INodeExecutionData[];
	emitted: boolean;
	/** The error the poll threw (sent to `__emitError` on a scheduled poll). */
	error?: Error & { description?: string | null };
}

function copy<T>(value: T): T {
	return JSON.parse(JSON.stringify(value ?? {})) as T;
}

export class PollHost {
	/** The static data as the database holds it. */
	saved: IDataObject;
	/** The budget n8n gives each poll (`getPollBudgetMs`); n8n-core's default when unset. */
	pollBudgetMs?: number;
	private workflow?: Workflow;
	private readonly node: INode;

	private constructor(
		private readonly nodeTypes: NodeTypes,
		private readonly options: PollOptions,
	) {
		this.node = {
			id: 'poll-node',
			name: NODE_NAME,
			type: POLL_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: {
				pollTimes: { item: [{ mode: 'everyMinute' }] },
				...options.parameters,
			} as INode['parameters'],
			credentials: { virtualnumApi: { id: 'virtualnumApi-id', name: 'virtualnumApi test' } },
		};
		this.saved = copy(options.staticData ?? {});
	}

	static async create(options: PollOptions): Promise<PollHost> {
		return new PollHost(new NodeTypes(await loadPackage()), options);
	}

	/** The cursor the database holds (the node's part of the saved static data). */
	get savedCursor(): IDataObject | undefined {
		return this.saved[`node:${NODE_NAME}`] as IDataObject | undefined;
	}

	/** The node's static data as n8n holds it in memory between polls (more than `saved` until a poll emits). */
	get live(): IDataObject | undefined {
		return this.workflow?.staticData[`node:${NODE_NAME}`] as IDataObject | undefined;
	}

	private build(staticData: IDataObject): Workflow {
		return new Workflow({
			id: 'poll-workflow',
			name: 'Poll workflow',
			nodes: [this.node],
			connections: {},
			nodeTypes: this.nodeTypes,
			active: true,
			staticData: copy(staticData),
			settings: { timezone: this.options.timezone ?? 'America/New_York', executionOrder: 'v1' },
		});
	}

	/** WorkflowStaticDataService.saveStaticData: only when something changed. */
	private save(workflow: Workflow): void {
		if (workflow.staticData.__dataChanged !== true) return;
		const data = copy(workflow.staticData);
		delete data.__dataChanged;
		this.saved = data;
		workflow.staticData.__dataChanged = false;
	}

	private async additionalData() {
		return additionalDataFor(await loadPackage(), this.options.credentials);
	}

	/** Runs the workflow from the trigger node, in `mode`, with `input` (what WorkflowExecute does with an emit). */
	private async execute(
		workflow: Workflow,
		mode: 'trigger' | 'manual',
		input: INodeExecutionData[][],
	): Promise<IRun> {
		const hooks = new ExecutionLifecycleHooks(mode, 'poll-execution', {
			id: workflow.id,
			name: workflow.name,
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
		const additionalData = { ...(await this.additionalData()), hooks };
		const runData = createRunExecutionData({
			executionData: {
				nodeExecutionStack: [
					{ node: workflow.getNode(NODE_NAME)!, data: { main: input }, source: null },
				],
			},
		});
		await new WorkflowExecute(additionalData, mode, runData).processRunExecutionData(workflow);
		return await done;
	}

	private static itemsOf(run: IRun): INodeExecutionData[] {
		const error = run.data.resultData.error;
		if (error) throw error;
		return run.data.resultData.runData[NODE_NAME]?.[0]?.data?.main?.[0] ?? [];
	}

	/** One poll on the in-memory workflow, as PollTriggerExecutor runs it. */
	private async poll(testing: boolean, activation: WorkflowActivateMode): Promise<PollOutcome> {
		const workflow = this.workflow!;
		const additionalData = await this.additionalData();
		let emitted: INodeExecutionData[][] | undefined;
		let failure: Error | undefined;
		const context = new PollContext(
			workflow,
			this.node,
			additionalData,
			'trigger',
			activation,
			(data) => {
				this.save(workflow);
				emitted = data;
			},
			(error) => {
				failure = error;
			},
			undefined,
			undefined,
			undefined,
			this.pollBudgetMs === undefined ? undefined : () => this.pollBudgetMs!,
		) as unknown as IPollFunctions;
		const nodeType = this.nodeTypes.getByNameAndVersion(POLL_TYPE, 1);
		try {
			const response = await nodeType.poll!.call(context);
			if (response !== null) context.__emit(response);
		} catch (error) {
			if (testing) throw error;
			context.__emitError(error as Error);
		}
		if (failure) return { items: [], emitted: false, error: failure };
		if (!emitted) return { items: [], emitted: false };
		const run = await this.execute(workflow, 'trigger', emitted);
		return { items: PollHost.itemsOf(run), emitted: true };
	}

	/** Activation ('activate', or 'init' after a restart): a poll that must not fail, then a save. */
	async activate(activation: WorkflowActivateMode = 'activate'): Promise<PollOutcome> {
		this.workflow = this.build(this.saved);
		try {
			return await this.poll(true, activation);
		} catch (error) {
			this.workflow = undefined;
			throw error;
		} finally {
			if (this.workflow) this.save(this.workflow);
		}
	}

	/** One scheduled poll of the active workflow. */
	async tick(): Promise<PollOutcome> {
		if (!this.workflow) throw new Error('The workflow is not active');
		return await this.poll(false, 'activate');
	}

	/** n8n stops (what memory held beyond the database is lost) and starts again. */
	async restart(): Promise<PollOutcome> {
		this.workflow = undefined;
		return await this.activate('init');
	}

	deactivate(): void {
		this.workflow = undefined;
	}

	/** Fetch Test Event: a manual run from the trigger node; nothing is saved. */
	async fetchTestEvent(): Promise<INodeExecutionData[]> {
		const workflow = this.build(this.saved);
		workflow.active = false;
		const run = await this.execute(workflow, 'manual', [[{ json: {} }]]);
		return PollHost.itemsOf(run);
	}
}
