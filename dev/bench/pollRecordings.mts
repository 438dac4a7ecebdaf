/**
 * The Call Record Trigger with Include → Recording in the real n8n 2.40.7, binary data in
 * filesystem mode (n8n's default in a single process): one poll emits 100 call records, each with
 * a 1 MB recording. Target: n8n's main process grows by at most 50 MB at its peak over that poll and
 * its execution (RSS sampled from /proc, n8nMemory.mts; growth = peak − the RSS just before), so
 * the recordings stream to disk instead of being held in memory (100 MB in all).
 *
 *   npm run build && npx tsx dev/bench/pollRecordings.mts [--reps 3]
 *   npm run bench -- --poll-recordings [--reps 3]     (the same)
 *
 * Each run: a number of its own, its 100 answered calls added at once, the trigger polling every
 * 15 s (Max Records per Poll 100); measured from just before the rows are added until the poll's
 * execution has finished. Figures are printed and written to dev/bench/results-poll.json.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { parse } from 'flatted';

import { startSandbox, type Sandbox } from '../sandbox/index.mts';
import { startN8n, type N8nServer } from '../e2e/lib/n8n.mts';
import { executionsOf, finished } from '../e2e/lib/n8nExecutions.mts';
import { POLL_TIMES, SANDBOX_ZONE } from '../e2e/lib/pollTrigger.mts';
import { installExitHandlers } from '../e2e/lib/processes.mts';
import { ROOT_DIR } from '../e2e/lib/setup.mts';
import { chain, node, waitUntil } from '../e2e/lib/workflows.mts';
import { sampleMemory, type MemoryFigures } from './n8nMemory.mts';

const { values } = parseArgs({ options: { reps: { type: 'string' } } });
const REPS = Number(values.reps ?? 3);
const RECORDS = 100;
const RECORDING_BYTES = 1024 * 1024;
const TARGET_MB = 50;
const started = Date.now();
const log = (line: string) =>
	console.log(`[bench poll ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

function pollWorkflow(number: string, credentialId: string): Record<string, unknown> {
	return chain(`Bench: ${RECORDS} call records with recordings`, [
		node(
			'Call Records',
			'n8n-nodes-virtualnum.virtualNumberCallRecordTrigger',
			1,
			{
				pollTimes: POLL_TIMES,
				virtualNumbers: number,
				include: ['recording'],
				options: { maxRecords: RECORDS, serviceTimeZone: SANDBOX_ZONE },
			},
			{ credentials: { virtualnumApi: { id: credentialId, name: 'Virtual Number sandbox' } } },
		),
		node('Received', 'n8n-nodes-base.noOp', 1, {}),
	]);
}

/** The rows, written now (after the trigger's cursor), answered, each with its recording. */
function addRows(sandbox: Sandbox, number: string): void {
	const now = new Date();
	const pad = (n: number) => String(n).padStart(2, '0');
	const startCall =
		`${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())} ` +
		`${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}`;
	sandbox.control.addCalls({ count: RECORDS, virtualnum: number, startCall, durationSec: 30 });
}

interface Run extends MemoryFigures {
	records: number;
	downloads: number;
	ms: number;
}

/** One measured poll: a published workflow on a new number, its 100 records added, its execution. */
async function runOnce(n8n: N8nServer, sandbox: Sandbox, credentialId: string): Promise<Run> {
	const number = sandbox.control.seed({ numbers: 1 }).numbers![0];
	const created = await n8n.rest<{ id: string; versionId: string }>(
		'POST',
		'/workflows',
		pollWorkflow(number, credentialId),
	);
	await n8n.rest('POST', `/workflows/${created.id}/activate`, { versionId: created.versionId });
	const polls = () =>
		sandbox.control
			.requests({ operation: 'cdr_query' })
			.filter((r) => JSON.stringify(r.body).includes(number)).length;
	await waitUntil(() => polls() > 0, 60_000, 250);
	sandbox.control.clearRequests();
	const memory = sampleMemory();
	const from = Date.now();
	addRows(sandbox, number);
	const done = await waitUntil(
		async () => {
			const list = await executionsOf(n8n, created.id);
			return list.length > 0 && list.every(finished) ? list : undefined;
		},
		90_000,
		250,
	);
	const figures = memory.stop();
	const ms = Date.now() - from;
	await n8n.rest('POST', `/workflows/${created.id}/deactivate`, {});
	const records = done ? await emitted(n8n, done[0].id) : 0;
	const downloads = sandbox.control.requests({ operation: 'get_record_by_call_uuid' }).length;
	return { ...figures, records, downloads, ms };
}

/** How many items the trigger output in the execution with a recording (binary `data`). */
async function emitted(n8n: N8nServer, executionId: string): Promise<number> {
	const detail = await n8n.rest<{ data: string }>('GET', `/executions/${executionId}`);
	// n8n keeps run data in its "flatted" form (repeated strings once): read it back, then count.
	const data = parse(String(detail.data)) as {
		resultData: { runData: Record<string, Array<{ data: { main: TriggerItems[] } }>> };
	};
	const items = data.resultData.runData['Call Records']?.[0]?.data.main[0] ?? [];
	return items.filter((item) => item.binary?.data !== undefined).length;
}
type TriggerItems = Array<{ binary?: { data?: unknown } }>;

const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';
const sandbox = await startSandbox({ log: () => {} });
sandbox.control.configure({ recordingBytes: RECORDING_BYTES });
let n8n: N8nServer | undefined;
installExitHandlers(async () => {
	await n8n?.stop();
	await sandbox.close();
}, log);
let failed = false;
try {
	n8n = await startN8n(log);
	const vn = await n8n.rest<{ id: string }>('POST', '/credentials', {
		name: 'Virtual Number sandbox',
		type: 'virtualnumApi',
		data: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn },
	});
	const runs: Run[] = [];
	for (let rep = 0; rep < REPS; rep++) {
		const run = await runOnce(n8n, sandbox, vn.id);
		runs.push(run);
		log(`run ${rep + 1}: ${JSON.stringify(run)}`);
	}
	const growth = median(runs.map((run) => run.mainGrowthMB));
	const complete = runs.every((run) => run.records === RECORDS && run.downloads >= RECORDS);
	failed = !complete || growth > TARGET_MB;
	const result = {
		measuredAt: new Date().toISOString(),
		command: `npx tsx dev/bench/pollRecordings.mts --reps ${REPS}`,
		n8n: '2.40.7',
		binaryDataMode: 'filesystem',
		records: RECORDS,
		recordingBytes: RECORDING_BYTES,
		targetMainGrowthMB: TARGET_MB,
		medianMainGrowthMB: growth,
		met: !failed,
		runs,
	};
	writeFileSync(
		join(ROOT_DIR, 'dev/bench/results-poll.json'),
		`${JSON.stringify(result, null, '\t')}\n`,
	);
	log(
		`${RECORDS} records with 1 MB recordings in one poll: n8n's main process grew ${growth} MB at its peak (median of ${REPS}; target ≤ ${TARGET_MB} MB): ${failed ? 'MISSED' : 'met'}`,
	);
} catch (error) {
	failed = true;
	log(`FAIL ${(error as Error).stack ?? String(error)}`);
	if (n8n) log(n8n.logs.slice(-20).join('\n'));
} finally {
	await n8n?.stop();
	await sandbox.close();
}
process.exit(failed ? 1 : 0);
