/**
 * The Call Record Trigger with Include → Recording in the real n8n 2.40.7, binary data in
 * filesystem mode (n8n's default in a single process): one poll emits 100 call records, each with
 * a 1 MB recording. Target: n8n's main process grows by at most 50 MB at its peak over that poll and
 * its execution (RSS sampled from /proc, n8nMemory.mts; growth = peak − the RSS just before), so
 * the recordings stream to disk instead of being held in memory (100 MB in all).
 *
 * Beside it, in the same run and alternating (pollRecordingsSides.mts): the same 100 records with
 * no Include (n8n's own cost of a 100-item poll execution) and the trigger → n8n's HTTP Request
 * node downloading each recording as a file (n8n's floor for 100 downloaded files). Every measured
 * run gets a freshly started n8n, warmed up by a poll of a few records through the same workflow:
 * the RSS of a long-running n8n (470–740 MB) changes how much it grows. n8n runs with V8's GC trace
 * (`--trace-gc --trace-incremental-marking`), summed up per run: why its full collections started.
 *
 *   npm run build && npx tsx dev/bench/pollRecordings.mts [--reps 3] [--sides include,noInclude,httpRequest]
 *   npm run bench -- --poll-recordings [--reps 3]     (the same)
 *
 * Each run: a number of its own, its 100 answered calls added at once, the trigger polling every
 * 5 s (Max Records per Poll 100); measured from just before the rows are added until the poll's
 * execution has finished. Figures are printed and written to dev/bench/results-poll.json.
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { parse } from 'flatted';

import { startSandbox, type Sandbox } from '../sandbox/index.mts';
import { startN8n, type N8nServer } from '../harness/n8n/server.mts';
import { executionsOf, finished } from '../harness/n8n/executions.mts';
import { ROOT_DIR } from '../harness/n8n/install.mts';
import { sleep, waitUntil } from '../harness/n8n/workflows.mts';
import { collectGarbage, GC_FLAGS, linesSince, markingReasons, type Collected } from './n8nGc.mts';
import { gcSummary, n8nProcesses, sampleMemory, type MemoryFigures } from './n8nMemory.mts';
import { runRealBench, type RealRun } from './realRun.mts';
import {
	POLL_SIDES,
	sideWorkflow,
	type PollSide,
	type SideCredentials,
} from './pollRecordingsSides.mts';

const { values } = parseArgs({ options: { reps: { type: 'string' }, sides: { type: 'string' } } });
const REPS = Number(values.reps ?? 3);
const SIDES = POLL_SIDES.filter((side) => !values.sides || values.sides.includes(side.key));
const RECORDS = 100;
/** The records of the warm-up poll on each fresh n8n (loads every module the measured poll uses). */
const WARM_UP_RECORDS = 5;
const RECORDING_BYTES = 1024 * 1024;
const TARGET_MB = 50;
const started = Date.now();
const log = (line: string) =>
	console.log(`[bench poll ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

/** The rows, written now (after the trigger's cursor), answered, each with its recording. */
function addRows(sandbox: Sandbox, number: string, count: number): void {
	const now = new Date();
	const pad = (n: number) => String(n).padStart(2, '0');
	const startCall =
		`${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())} ` +
		`${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}`;
	sandbox.control.addCalls({ count, virtualnum: number, startCall, durationSec: 30 });
}

interface Run extends MemoryFigures {
	side: PollSide['key'];
	records: number;
	downloads: number;
	ms: number;
	gc: string;
	markingStartedBy: Record<string, number>;
	/** Heap in use + external (Buffers) of n8n's main process after a full collection: before the run. */
	settledMB: number;
	/** At the end of the run: what a full collection then freed (garbage), and what it left (held). */
	garbageAtEndMB: number;
	heldAfterMB: number;
	collected: { settled: Collected; end: Collected };
}

interface Bench {
	n8n: N8nServer;
	sandbox: Sandbox;
	credentials: SideCredentials;
}

/** Waits until the workflow has `count` executions, all finished; answers them (newest first). */
async function executionsDone(n8n: N8nServer, workflowId: string, count: number) {
	const done = await waitUntil(
		async () => {
			const list = await executionsOf(n8n, workflowId);
			return list.length >= count && list.every(finished) ? list : undefined;
		},
		120_000,
		250,
	);
	if (!done)
		throw new Error(`no ${count} finished executions of workflow ${workflowId} in 2 minutes`);
	return done;
}

/**
 * One measured poll (on a freshly started n8n): the side's workflow on a new number, published, a
 * warm-up poll of a few records, then the 100 records and their execution, memory sampled.
 */
async function runOnce({ n8n, sandbox, credentials }: Bench, side: PollSide): Promise<Run> {
	const number = sandbox.control.seed({ numbers: 1 }).numbers![0];
	const workflow = sideWorkflow(side, number, RECORDS, sandbox.vnUrl, credentials);
	const created = await n8n.rest<{ id: string; versionId: string }>('POST', '/workflows', workflow);
	await n8n.rest('POST', `/workflows/${created.id}/activate`, { versionId: created.versionId });
	const polls = () =>
		sandbox.control
			.requests({ operation: 'cdr_query' })
			.filter((r) => JSON.stringify(r.body).includes(number)).length;
	await waitUntil(() => polls() > 0, 60_000, 250);
	addRows(sandbox, number, WARM_UP_RECORDS);
	await executionsDone(n8n, created.id, 1);
	sandbox.control.clearRequests();
	const { main } = n8nProcesses();
	// Settled: the warm-up's execution saved, then collected twice (a second collection frees what
	// the first one's finalizers released).
	await sleep(2000);
	await collectGarbage(n8n, main);
	await sleep(1000);
	const settled = await collectGarbage(n8n, main);
	const memory = sampleMemory();
	const from = Date.now();
	addRows(sandbox, number, RECORDS);
	const done = await executionsDone(n8n, created.id, 2);
	const figures = memory.stop();
	const ms = Date.now() - from;
	const lines = linesSince(n8n.logs, main, settled.at);
	const end = await collectGarbage(n8n, main);
	await n8n.rest('POST', `/workflows/${created.id}/deactivate`, {});
	const downloads = sandbox.control.requests({ operation: 'get_record_by_call_uuid' }).length;
	return {
		side: side.key,
		...figures,
		records: await emitted(n8n, done[0].id, side),
		downloads,
		ms,
		gc: gcSummary(lines, main),
		markingStartedBy: markingReasons(lines, main),
		...collectedFigures(settled, end),
	};
}

const inUse = (usage: Collected['after']) => usage.heapUsed + usage.external;
const round = (mb: number) => Math.round(mb * 10) / 10;

function collectedFigures(settled: Collected, end: Collected) {
	return {
		settledMB: round(inUse(settled.after)),
		garbageAtEndMB: round(inUse(end.before) - inUse(end.after)),
		heldAfterMB: round(inUse(end.after) - inUse(settled.after)),
		collected: { settled, end },
	};
}

/** How many items the side's counted node output (with binary `data` when the side downloads). */
async function emitted(n8n: N8nServer, executionId: string, side: PollSide): Promise<number> {
	const detail = await n8n.rest<{ data: string }>('GET', `/executions/${executionId}`);
	// n8n keeps run data in its "flatted" form (repeated strings once): read it back, then count.
	const data = parse(String(detail.data)) as {
		resultData: { runData: Record<string, Array<{ data: { main: OutputItems[] } }>> };
	};
	const items = data.resultData.runData[side.counted]?.[0]?.data.main[0] ?? [];
	return items.filter((item) => !side.binary || item.binary?.data !== undefined).length;
}
type OutputItems = Array<{ binary?: { data?: unknown } }>;

const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Each side's median growth and whether every run of it emitted (and downloaded) all records. */
function summary(runs: Run[]) {
	return Object.fromEntries(
		SIDES.map((side) => {
			const own = runs.filter((run) => run.side === side.key);
			const complete = own.every(
				(run) => run.records === RECORDS && (!side.downloads || run.downloads >= RECORDS),
			);
			const growth = median(own.map((run) => run.mainGrowthMB));
			return [side.key, { name: side.name, medianMainGrowthMB: growth, complete }];
		}),
	);
}

/** The verdict line: the node's growth against the target, beside n8n's own costs. */
function verdict(sides: ReturnType<typeof summary>): { met: boolean; line: string } {
	const include = sides.include;
	const met = include !== undefined && include.complete && include.medianMainGrowthMB <= TARGET_MB;
	const beside = (['noInclude', 'httpRequest'] as const)
		.filter((key) => sides[key] !== undefined)
		.map((key) => `${sides[key].name}: +${sides[key].medianMainGrowthMB} MB`)
		.join('; ');
	const node = include
		? `Include → Recording +${include.medianMainGrowthMB} MB (target ≤ ${TARGET_MB} MB): ${met ? 'met' : 'MISSED'}`
		: 'Include → Recording not measured';
	return {
		met,
		line: `${RECORDS} records with 1 MB recordings in one poll, n8n's main process peak growth (median of ${REPS}): ${node}${beside ? `; beside it ${beside}` : ''}`,
	};
}

async function measure(bench: Bench): Promise<Run[]> {
	const runs: Run[] = [];
	for (let rep = 0; rep < REPS; rep++) {
		// The order rotates every repetition, so a slow phase of the machine hits every side.
		const order = SIDES.map((_, i) => SIDES[(i + rep) % SIDES.length]);
		for (const side of order) {
			// Restarted for every run, the first too: n8n's first start does one-off work (its database).
			await bench.n8n.restart();
			const run = await runOnce(bench, side);
			runs.push(run);
			log(
				`${side.key} run ${rep + 1}: +${run.mainGrowthMB} MB from ${run.mainBeforeMB} MB, ` +
					`${run.records} items, ${run.downloads} downloads, ${run.ms} ms; held after a full ` +
					`collection +${run.heldAfterMB} MB, garbage at the end ${run.garbageAtEndMB} MB; GC: ${run.gc}; ` +
					`markings started by ${JSON.stringify(run.markingStartedBy)}`,
			);
		}
	}
	return runs;
}

async function credentialsIn(n8n: N8nServer, sandbox: Sandbox): Promise<SideCredentials> {
	const vn = await n8n.rest<{ id: string }>('POST', '/credentials', {
		name: 'Virtual Number sandbox',
		type: 'virtualnumApi',
		data: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn },
	});
	const header = await n8n.rest<{ id: string }>('POST', '/credentials', {
		name: 'Virtual Number token',
		type: 'httpHeaderAuth',
		data: { name: 'Authorization', value: `Bearer ${sandbox.tokens.vn}` },
	});
	return { virtualnum: vn.id, header: header.id };
}

process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';
const sandbox = await startSandbox({ log: () => {} });
sandbox.control.configure({ recordingBytes: RECORDING_BYTES });
const loadAtStart = loadavg();
const run: RealRun = { sandbox };
await runRealBench(run, log, started, async () => {
	const n8n = (run.n8n = await startN8n(log, { nodeFlags: GC_FLAGS }));
	const runs = await measure({ n8n, sandbox, credentials: await credentialsIn(n8n, sandbox) });
	const sides = summary(runs);
	const { met, line } = verdict(sides);
	const result = {
		measuredAt: new Date().toISOString(),
		command: `npx tsx dev/bench/pollRecordings.mts --reps ${REPS}`,
		n8n: '2.40.7',
		binaryDataMode: 'filesystem',
		records: RECORDS,
		recordingBytes: RECORDING_BYTES,
		targetMainGrowthMB: TARGET_MB,
		loadAverage: { atStart: loadAtStart, atEnd: loadavg() },
		verdict: line,
		met,
		sides,
		runs,
	};
	writeFileSync(
		join(ROOT_DIR, 'dev/bench/results-poll.json'),
		`${JSON.stringify(result, null, '\t')}\n`,
	);
	log(line);
	return !met;
});
