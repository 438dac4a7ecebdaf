/**
 * The Virtual Number Call Record Trigger (a polling trigger, `polling: true`) in the real n8n:
 * every call record added to the service is emitted once, in row order, at most Max Records per
 * Poll per execution; in queue mode also across a stop and start of the main process with records
 * added while it was down (the catch-up comes in pages); in the single process also Fetch Test
 * Event as the editor sends it, which answers the latest record and leaves the cursor alone.
 *
 * n8n 2.40 refuses a Poll Time under a minute ("The polling interval is too short"), but checks each
 * Poll Time on its own (n8n-workflow `isSubMinuteCron`): four custom times, one per quarter minute,
 * poll every 15 s and keep these runs short.
 */
import { parse } from 'flatted';

import type { CdrView, Sandbox } from '../../sandbox/index.mts';
import { N8N_DATABASE } from './cluster.mts';
import { executionsOf as storedExecutions, nodeOutputs } from './executions.mts';
import type { N8nServer } from '../../harness/n8n/server.mts';
import { finished } from '../../harness/n8n/executions.mts';
import type { QueueRun } from './scale.mts';
import {
	chain,
	node,
	sleep,
	waitUntil,
	type Check,
	type Log,
} from '../../harness/n8n/workflows.mts';

const TRIGGER = 'Call Records';
const TRIGGER_TYPE = 'n8n-nodes-virtualnum.virtualNumberCallRecordTrigger';
/** Max Records per Poll: small, so a backlog of a dozen records takes several polls. */
const PAGE = 5;
const POLL_EVERY_S = 15;
export const POLL_TIMES = {
	item: [0, 15, 30, 45].map((second) => ({
		mode: 'custom',
		cronExpression: `${second} * * * * *`,
	})),
};
/** The sandbox writes call times on this process's clock: the trigger reads them in that zone. */
export const SANDBOX_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

interface Rest {
	rest<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
}

interface Emitted {
	/** The records of each poll execution, oldest execution first. */
	pages: Array<Array<{ rowId: number; callId: string }>>;
	/** Whether every execution has ended. */
	settled: boolean;
}

interface Cursor {
	rowId?: number;
	startTime?: string;
}

function pollWorkflow(name: string, number: string, credentialId: string) {
	return chain(name, [
		node(
			TRIGGER,
			TRIGGER_TYPE,
			1,
			{
				pollTimes: POLL_TIMES,
				virtualNumbers: number,
				options: { maxRecords: PAGE, serviceTimeZone: SANDBOX_ZONE },
			},
			{ credentials: { virtualnumApi: { id: credentialId, name: 'Virtual Number sandbox' } } },
		),
		node('Received', 'n8n-nodes-base.noOp', 1, {}),
	]);
}

async function createAndPublish(n8n: Rest, workflow: Record<string, unknown>): Promise<string> {
	const created = await n8n.rest<{ id: string; versionId: string }>('POST', '/workflows', workflow);
	await n8n.rest('POST', `/workflows/${created.id}/activate`, { versionId: created.versionId });
	return created.id;
}

/** New call rows on the number (no callback), starting now: after the cursor's `since`. */
function addRows(sandbox: Sandbox, virtualnum: string, count: number): CdrView[] {
	const now = new Date();
	const pad = (n: number) => String(n).padStart(2, '0');
	const startCall =
		`${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())} ` +
		`${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}`;
	return sandbox.control.addCalls({ count, virtualnum, startCall, durationSec: 30 });
}

const records = (emitted: Emitted) => emitted.pages.flat();
const sizes = (emitted: Emitted) => emitted.pages.map((page) => page.length);

/** Exactly these rows, each once, in row order (and nothing else). */
function sameRows(emitted: Emitted, rows: CdrView[]): boolean {
	const got = records(emitted);
	return (
		got.length === rows.length &&
		got.every((r, i) => r.callId === rows[i].cdr_uniqueid && r.rowId === rows[i].id)
	);
}

/** Waits until `count` records were emitted and every execution ended (answers the last look). */
async function waitForRecords(
	read: () => Promise<Emitted>,
	count: number,
	timeoutMs: number,
): Promise<Emitted> {
	let last: Emitted = { pages: [], settled: false };
	await waitUntil(
		async () => {
			last = await read();
			return last.settled && records(last).length >= count;
		},
		timeoutMs,
		1000,
	);
	return last;
}

/** The poll statements of this scenario the service received (they name its number). */
function pollsOn(sandbox: Sandbox, number: string): number {
	return sandbox.control
		.requests({ operation: 'cdr_query' })
		.filter((r) => String((r.body as Record<string, unknown>)?.sql ?? '').includes(`'${number}'`))
		.length;
}

/** Waits for one more poll of the number after the last one, then answers the executions then. */
async function afterOneMorePoll(
	sandbox: Sandbox,
	number: string,
	read: () => Promise<Emitted>,
): Promise<{ polled: boolean; emitted: Emitted }> {
	const polls = pollsOn(sandbox, number);
	const polled = await waitUntil(
		() => pollsOn(sandbox, number) > polls,
		(POLL_EVERY_S + 10) * 1000,
		250,
	);
	// The poll's execution, if it emitted anything, is created right after its answer.
	await sleep(2000);
	return { polled: Boolean(polled), emitted: await read() };
}

// ---- queue mode ------------------------------------------------------------------------------

/**
 * Queue mode: the polls run on the main process, the executions on the workers. Records before a
 * main restart, more while it is down (more than one page), each emitted once, in order; the
 * cursor in Postgres (workflow_entity.staticData) ends on the last row.
 */
export async function pollTriggerAcrossMainRestart(
	run: QueueRun,
	counts = { before: 4, whileDown: 12 },
): Promise<void> {
	const { cluster, sandbox, check, log } = run;
	const started = Date.now();
	const number = sandbox.control.seed({ numbers: 1 }).numbers![0];
	const workflowId = await createAndPublish(
		cluster,
		pollWorkflow('Queue: call records by polling', number, run.credentials.vn),
	);
	const readers = queueReaders(run, workflowId);
	const { cursorOf, read } = readers;

	const activated = await waitUntil(async () => (await cursorOf())?.rowId !== undefined, 30_000);
	const start = await cursorOf();
	check(
		activated && records(await read()).length === 0,
		`poll trigger (queue): the activation saved a cursor in Postgres (after row ${String(start?.rowId)}) and emitted nothing`,
	);

	const before = addRows(sandbox, number, counts.before);
	const addedAt = Date.now();
	const first = await waitForRecords(read, before.length, 60_000);
	const firstS = Math.round((Date.now() - addedAt) / 1000);
	check(
		sameRows(first, before) && before[0].id > (start?.rowId ?? Infinity),
		`poll trigger (queue): ${before.length} new records emitted once each, in row order, ${firstS} s after they were added (executions of ${JSON.stringify(sizes(first))} records)`,
	);
	const savedBefore = await waitUntil(
		async () => (await cursorOf())?.rowId === before.at(-1)!.id,
		10_000,
	);
	check(savedBefore, `poll trigger (queue): the cursor in Postgres is on row ${before.at(-1)!.id}`);

	const restart = await catchUpAfterRestart(run, read, {
		number,
		before,
		first,
		whileDown: counts.whileDown,
	});
	const { stoppedMs, startedS, catchUpS, all } = restart;
	const whileDown = restart.added;
	await checkQueueEnd(run, readers, { number, all, last: whileDown.at(-1)! });
	await cluster.rest('POST', `/workflows/${workflowId}/deactivate`, {});
	run.figures.pollTrigger = {
		maxRecordsPerPoll: PAGE,
		pollEveryS: POLL_EVERY_S,
		before: counts.before,
		whileDown: counts.whileDown,
		firstEmittedAfterS: firstS,
		mainStoppedMs: stoppedMs,
		mainStartedS: startedS,
		catchUpAfterReadyS: catchUpS,
		pages: sizes(all),
		polls: pollsOn(sandbox, number),
		tookS: Math.round((Date.now() - started) / 1000),
	};
	log(`poll trigger (queue): took ${Math.round((Date.now() - started) / 1000)} s`);
}

/** Records added while the main process is down come once each after its restart, in pages. */
async function catchUpAfterRestart(
	{ cluster, sandbox, check }: QueueRun,
	read: () => Promise<Emitted>,
	{
		number,
		before,
		first,
		whileDown: count,
	}: { number: string; before: ReturnType<typeof addRows>; first: Emitted; whileDown: number },
) {
	const stoppedMs = await cluster.stopMain();
	const whileDown = addRows(sandbox, number, count);
	const startedS = await cluster.startMain();
	const readyAt = Date.now();
	const all = await waitForRecords(read, before.length + whileDown.length, 90_000);
	const catchUpS = Math.round((Date.now() - readyAt) / 1000);
	const afterRestart = all.pages.slice(first.pages.length);
	check(
		sameRows(all, [...before, ...whileDown]),
		`poll trigger (queue): after the main restart the ${whileDown.length} records added while it was down came once each, in row order (${records(all).length} records in all, none twice, none lost)`,
	);
	check(
		afterRestart.length === Math.ceil(whileDown.length / PAGE) &&
			afterRestart.every((page) => page.length <= PAGE),
		`poll trigger (queue): the catch-up came in pages of at most Max Records per Poll (${PAGE}): ${JSON.stringify(afterRestart.map((page) => page.length))}, the last ${catchUpS} s after the main process was ready`,
	);
	return { stoppedMs, startedS, catchUpS, all, added: whileDown };
}

/** The cursor in Postgres and the records the stored executions emitted (and how many ran on a worker). */
function queueReaders({ cluster, postgres }: QueueRun, workflowId: string) {
	const cursorOf = async () => {
		const data = await postgres.json<Record<string, Cursor> | null>(
			N8N_DATABASE,
			`SELECT "staticData" FROM workflow_entity WHERE id = '${workflowId.replace(/'/g, "''")}'`,
		);
		return data?.[`node:${TRIGGER}`];
	};
	let onWorkers = 0;
	const read = async (): Promise<Emitted> => {
		const executions = await storedExecutions(postgres, workflowId);
		const outputs = await nodeOutputs(
			postgres,
			executions.map((e) => e.id),
			TRIGGER,
		);
		onWorkers = executions.filter((e) => cluster.workerOf(e.id) !== undefined).length;
		return {
			pages: executions.map((e) =>
				(outputs.get(e.id) ?? []).map((item) => ({
					rowId: Number(item.json.rowId),
					callId: String(item.json.callId),
				})),
			),
			settled: executions.every((e) => e.status !== 'new' && e.status !== 'running'),
		};
	};

	return { cursorOf, read, onWorkers: () => onWorkers };
}

/** The end: the cursor on the last row, nothing more on the next poll, the executions on the workers. */
async function checkQueueEnd(
	{ sandbox, check }: QueueRun,
	{ cursorOf, read, onWorkers }: ReturnType<typeof queueReaders>,
	{ number, all, last }: { number: string; all: Emitted; last: ReturnType<typeof addRows>[number] },
): Promise<void> {
	const saved = await waitUntil(async () => (await cursorOf())?.rowId === last.id, 10_000);
	const cursor = await cursorOf();
	check(
		saved && cursor?.startTime === last.start_call,
		`poll trigger (queue): the cursor in Postgres ends on the last row (${JSON.stringify(cursor)}; last row ${last.id} started ${last.start_call})`,
	);
	const quiet = await afterOneMorePoll(sandbox, number, read);
	check(
		quiet.polled && records(quiet.emitted).length === records(all).length,
		`poll trigger (queue): the next poll emitted nothing more (${records(quiet.emitted).length} records)`,
	);
	check(
		onWorkers() === quiet.emitted.pages.length,
		`poll trigger (queue): the main process polled, the workers ran the ${quiet.emitted.pages.length} executions (${onWorkers()} logged by a worker)`,
	);
}

// ---- single process --------------------------------------------------------------------------

interface ListedExecution {
	id: string;
	status: string;
	mode?: string;
}

/** The trigger's output items of one stored execution, read through n8n's REST API. */
async function triggerItems(
	n8n: N8nServer,
	executionId: string,
): Promise<Array<{ json: Record<string, unknown> }>> {
	const detail = await n8n.rest<{ data: string }>('GET', `/executions/${executionId}`);
	const data = parse(String(detail.data)) as {
		resultData?: {
			runData?: Record<string, Array<{ data?: { main?: Array<Array<{ json: never }> | null> } }>>;
		};
	};
	return data.resultData?.runData?.[TRIGGER]?.[0]?.data?.main?.[0] ?? [];
}

/** Fetch Test Event as the editor sends it: a manual run with the trigger as start and destination. */
async function fetchTestEvent(n8n: N8nServer, workflowId: string) {
	const started = await n8n.rest<{ executionId?: string }>('POST', `/workflows/${workflowId}/run`, {
		workflowId,
		startNodes: [{ name: TRIGGER, sourceData: null }],
		destinationNode: { nodeName: TRIGGER, mode: 'inclusive' },
	});
	const ended = await waitUntil(async () => {
		const detail = await n8n
			.rest<{ status: string; mode: string }>('GET', `/executions/${String(started.executionId)}`)
			.catch(() => undefined);
		return detail && finished(detail) ? detail : undefined;
	}, 30_000);
	const items = ended ? await triggerItems(n8n, String(started.executionId)) : [];
	return { status: ended?.status, mode: ended?.mode, items };
}

/**
 * The single process: records emitted once each, in order; Fetch Test Event answers the latest
 * record and does not move the cursor, so the active workflow still gets every later record once.
 */
export async function pollTriggerSingle(
	n8n: N8nServer,
	sandbox: Sandbox,
	credentialId: string,
	check: Check,
	log: Log,
): Promise<void> {
	const started = Date.now();
	const types = await n8n.get<Array<{ name: string; polling?: boolean }>>('/types/nodes.json');
	check(
		types.some((t) => t.name === TRIGGER_TYPE && t.polling === true),
		`node type ${TRIGGER_TYPE} is loaded as a polling trigger`,
	);
	const number = sandbox.control.seed({ numbers: 1 }).numbers![0];
	const workflowId = await createAndPublish(
		n8n,
		pollWorkflow('E2E: call records by polling', number, credentialId),
	);
	const { cursorOf, read } = singleReaders(n8n, workflowId);

	const activated = await waitUntil(async () => (await cursorOf())?.rowId !== undefined, 30_000);
	check(activated, 'poll trigger: the activation saved a cursor in the static data');
	const first = addRows(sandbox, number, 3);
	const addedAt = Date.now();
	const emitted = await waitForRecords(read, first.length, 60_000);
	const firstS = Math.round((Date.now() - addedAt) / 1000);
	check(
		sameRows(emitted, first),
		`poll trigger: ${first.length} new records emitted once each, in row order, ${firstS} s after they were added`,
	);
	const cursorBefore = JSON.stringify(await cursorOf());
	const test = await fetchTestEvent(n8n, workflowId);
	const latest = first.at(-1)!;
	check(
		test.status === 'success' &&
			test.items.length === 1 &&
			test.items[0].json.callId === latest.cdr_uniqueid &&
			test.items[0].json.event === 'call.record',
		`poll trigger: Fetch Test Event (a manual run, ${String(test.mode)}) returned the latest record (${JSON.stringify(test.items.map((i) => i.json.callId))}, expected ${latest.cdr_uniqueid}; ${String(test.status)})`,
	);
	check(
		JSON.stringify(await cursorOf()) === cursorBefore,
		`poll trigger: Fetch Test Event left the cursor where it was (${cursorBefore})`,
	);
	const second = addRows(sandbox, number, 2);
	const all = await waitForRecords(read, first.length + second.length, 60_000);
	const quiet = await afterOneMorePoll(sandbox, number, read);
	check(
		sameRows(all, [...first, ...second]) &&
			quiet.polled &&
			records(quiet.emitted).length === records(all).length,
		`poll trigger: after Fetch Test Event the ${second.length} later records came once each, in order, and the next poll emitted nothing more (${JSON.stringify(sizes(quiet.emitted))})`,
	);
	await n8n.rest('POST', `/workflows/${workflowId}/deactivate`, {});
	log(
		`poll trigger: ${first.length + second.length} records in ${sizes(all).length} executions, took ${Math.round((Date.now() - started) / 1000)} s`,
	);
}

/** The cursor in the workflow's static data and the records the polled executions emitted, through the REST API. */
function singleReaders(n8n: N8nServer, workflowId: string) {
	const cursorOf = async (): Promise<Cursor | undefined> => {
		const workflow = await n8n.rest<{ staticData?: unknown }>('GET', `/workflows/${workflowId}`);
		const data = (
			typeof workflow.staticData === 'string'
				? JSON.parse(workflow.staticData)
				: (workflow.staticData ?? {})
		) as Record<string, Cursor>;
		return data[`node:${TRIGGER}`];
	};
	const read = async (): Promise<Emitted> => {
		const list = await n8n.rest<{ results: ListedExecution[] }>(
			'GET',
			`/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`,
		);
		const polled = (list.results ?? [])
			.filter((e) => e.mode !== 'manual')
			.sort((a, b) => Number(a.id) - Number(b.id));
		const pages = [];
		for (const e of polled)
			pages.push(
				(finished(e) ? await triggerItems(n8n, e.id) : []).map((item) => ({
					rowId: Number(item.json.rowId),
					callId: String(item.json.callId),
				})),
			);
		return { pages, settled: polled.every(finished) };
	};

	return { cursorOf, read };
}
