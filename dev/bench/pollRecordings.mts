/**
 * The Call Record Trigger with Include → Recording in the real n8n 2.40.7, binary data in
 * filesystem mode (n8n's default in a single process): one poll emits 100 call records, each with
 * a 1 MB recording. Target: n8n's main process grows by at most 50 MB at its peak over that poll and
 * its execution (RSS sampled from /proc, inN8n.mts; growth = peak − the RSS just before), so
 * the recordings stream to disk instead of being held in memory (100 MB in all).
 *
 * Beside it, in the same run and alternating: the same 100 records with no Include (n8n's own cost
 * of a 100-item poll execution) and the trigger → n8n's HTTP Request node downloading each recording
 * as a file (n8n's floor for 100 downloaded files). Every measured run gets a freshly started n8n,
 * warmed up by a poll of a few records through the same workflow: the RSS of a long-running n8n
 * (470–740 MB) changes how much it grows.
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
import { chain, node, sleep, waitUntil, type NodeJson } from '../harness/n8n/workflows.mts';
import {
	credentialIn,
	runRealBench,
	sampleMemory,
	type MemoryFigures,
	type RealRun,
} from './inN8n.mts';
import { median } from './measure.mts';

const { values } = parseArgs({ options: { reps: { type: 'string' }, sides: { type: 'string' } } });
const REPS = Number(values.reps ?? 3);
const RECORDS = 100;
/** The records of the warm-up poll on each fresh n8n (loads every module the measured poll uses). */
const WARM_UP_RECORDS = 5;
const RECORDING_BYTES = 1024 * 1024;
const TARGET_MB = 50;
/** The sandbox writes call times on this machine's clock: the trigger reads them in its zone. */
const SANDBOX_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
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
}

type PollSideKey = 'include' | 'noInclude' | 'httpRequest';

interface PollSide {
	key: PollSideKey;
	name: string;
	/** The node whose output items are counted, and whether each must carry binary `data`. */
	counted: string;
	binary: boolean;
	/** Whether the side downloads the recordings (one get_record_by_call_uuid per record). */
	downloads: boolean;
}

const POLL_SIDES: PollSide[] = [
	{
		key: 'include',
		name: 'Call Record Trigger, Include → Recording',
		counted: 'Call Records',
		binary: true,
		downloads: true,
	},
	{
		key: 'noInclude',
		name: 'Call Record Trigger without Include (nothing downloaded)',
		counted: 'Call Records',
		binary: false,
		downloads: false,
	},
	{
		key: 'httpRequest',
		name: 'Call Record Trigger → HTTP Request (Response Format: File)',
		counted: 'HTTP Request',
		binary: true,
		downloads: true,
	},
];

/**
 * Every 5 s: n8n 2.40 refuses a Poll Time under a minute but checks each Poll Time on its own, so
 * twelve custom times (one per 5 s) keep the bench's waits for the next poll short.
 */
const EVERY_5_S = {
	item: Array.from({ length: 12 }, (_, i) => ({
		mode: 'custom',
		cronExpression: `${i * 5} * * * * *`,
	})),
};

interface SideCredentials {
	/** The Virtual Number credential (the trigger's) and the Header Auth one (HTTP Request's). */
	virtualnum: string;
	header: string;
}

function trigger(number: string, records: number, include: string[], id: string): NodeJson {
	return node(
		'Call Records',
		'n8n-nodes-virtualnum.virtualNumberCallRecordTrigger',
		1,
		{
			pollTimes: EVERY_5_S,
			virtualNumbers: number,
			include,
			options: { maxRecords: records, serviceTimeZone: SANDBOX_ZONE },
		},
		{ credentials: { virtualnumApi: { id, name: 'Virtual Number sandbox' } } },
	);
}

/** n8n's HTTP Request as a user sets it up for the service's download (contract: docs/api). */
function httpDownload(vnUrl: string, headerCredential: string): NodeJson {
	const query = {
		service: 'get_record_by_call_uuid',
		call_uuid: '={{ $json.callId }}',
		type: 'wav',
	};
	return node(
		'HTTP Request',
		'n8n-nodes-base.httpRequest',
		4.2,
		{
			method: 'GET',
			url: `${vnUrl}/api/`,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpHeaderAuth',
			sendQuery: true,
			queryParameters: {
				parameters: Object.entries(query).map(([name, value]) => ({ name, value })),
			},
			options: { response: { response: { responseFormat: 'file' } } },
		},
		{ credentials: { httpHeaderAuth: { id: headerCredential, name: 'Virtual Number token' } } },
	);
}

/** The side's workflow on `number`, up to `records` records per poll. */
function sideWorkflow(
	side: PollSide,
	number: string,
	records: number,
	vnUrl: string,
	credentials: SideCredentials,
): Record<string, unknown> {
	const include = side.key === 'include' ? ['recording'] : [];
	const nodes = [trigger(number, records, include, credentials.virtualnum)];
	nodes.push(
		side.key === 'httpRequest'
			? httpDownload(vnUrl, credentials.header)
			: node('Received', 'n8n-nodes-base.noOp', 1, {}),
	);
	return chain(`Bench: ${side.name} (${number})`, nodes);
}

const SIDES = POLL_SIDES.filter((side) => !values.sides || values.sides.includes(side.key));

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
	// Settled: the warm-up's execution saved.
	await sleep(3000);
	const memory = sampleMemory();
	const from = Date.now();
	addRows(sandbox, number, RECORDS);
	const done = await executionsDone(n8n, created.id, 2);
	const figures = memory.stop();
	const ms = Date.now() - from;
	await n8n.rest('POST', `/workflows/${created.id}/deactivate`, {});
	const downloads = sandbox.control.requests({ operation: 'get_record_by_call_uuid' }).length;
	return {
		side: side.key,
		...figures,
		records: await emitted(n8n, done[0].id, side),
		downloads,
		ms,
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
					`${run.records} items, ${run.downloads} downloads, ${run.ms} ms`,
			);
		}
	}
	return runs;
}

async function credentialsIn(n8n: N8nServer, sandbox: Sandbox): Promise<SideCredentials> {
	const virtualnum = await credentialIn(n8n, 'Virtual Number sandbox', 'virtualnumApi', {
		baseUrl: sandbox.vnUrl,
		accessToken: sandbox.tokens.vn,
	});
	const header = await credentialIn(n8n, 'Virtual Number token', 'httpHeaderAuth', {
		name: 'Authorization',
		value: `Bearer ${sandbox.tokens.vn}`,
	});
	return { virtualnum, header };
}

process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';
const sandbox = await startSandbox({ log: () => {} });
sandbox.control.configure({ recordingBytes: RECORDING_BYTES });
const loadAtStart = loadavg();
const run: RealRun = { sandbox };
await runRealBench(run, log, started, async () => {
	const n8n = (run.n8n = await startN8n(log));
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
