/**
 * `npm run bench`: the package's benchmarks against the sandbox on loopback, each node run going
 * through the test harness (n8n-core's real WorkflowExecute), each side by side with a baseline
 * in the same run, alternating node and baseline, several repetitions, medians reported.
 *
 * The sandbox runs in this process; every measurement runs in a fresh child process
 * (bench/child.mts), so one measurement's heap never pollutes another's memory figures.
 *
 * Writes bench/results.json and bench/README.md and prints the table.
 *   npm run bench                      all benchmarks
 *   npm run bench -- --only cdr,trigger   some (matched against the entry names)
 *   npm run bench -- --reps 3          repetitions of every measurement
 *   npm run bench -- --no-write        print only
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { startSandbox, type Sandbox } from '../sandbox/index.mts';
import type { Measurement, Task } from './child.mts';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const CHILD = join(HERE, 'child.mts');
const MB = 1024 * 1024;

export interface Entry {
	name: string;
	description: string;
	unit: string;
	measured: number;
	baseline: number;
	/** measured / baseline (for a rate: baseline / measured, so that above 1 is always "the node costs more"). */
	ratio: number;
	target: string;
	met: boolean;
	repetitions: number;
	[extra: string]: unknown;
}

// ---- arguments --------------------------------------------------------------------------------

const args = process.argv.slice(2);
const argValue = (name: string) => {
	const index = args.indexOf(name);
	return index >= 0 ? args[index + 1] : undefined;
};
const only = (argValue('--only') ?? '').split(',').map((part) => part.trim()).filter(Boolean);
const repsOverride = argValue('--reps') === undefined ? undefined : Number(argValue('--reps'));
const write = !args.includes('--no-write');
const wanted = (group: string) => only.length === 0 || only.some((part) => group.includes(part));
const reps = (cheap: boolean) => repsOverride ?? (cheap ? 5 : 3);

// ---- helpers ----------------------------------------------------------------------------------

const userFolder = mkdtempSync(join(os.tmpdir(), 'n8n-virtualnum-bench-'));

/** Runs one task in a fresh process and returns its measurement. */
function child(task: Task): Promise<Measurement> {
	return new Promise((resolve, reject) => {
		const proc = fork(CHILD, ['--task', JSON.stringify(task)], {
			execArgv: ['--import', 'tsx', '--expose-gc'],
			// n8n-core keeps instance settings in N8N_USER_FOLDER: a throwaway one.
			env: { ...process.env, N8N_USER_FOLDER: userFolder },
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		});
		let answered = false;
		proc.on('message', (message: { ok: boolean; measurement?: Measurement; error?: string }) => {
			answered = true;
			if (message.ok && message.measurement) resolve(message.measurement);
			else reject(new Error(`${task.kind} failed in the child process:\n${message.error}`));
		});
		proc.on('exit', (code) => {
			if (!answered) reject(new Error(`${task.kind}: the child process exited with ${code} without a result`));
		});
	});
}

const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const round = (value: number, digits = 0) => {
	const factor = 10 ** digits;
	return Math.round(value * factor) / factor;
};
const toMB = (bytes: number) => round(bytes / MB, 1);

function log(line: string) {
	process.stderr.write(`${line}\n`);
}

interface Side {
	runs: Measurement[];
	requests: number[];
}

/**
 * Runs `node` and `baseline` alternately, `count` times each, `prepare` before every run; the
 * requests the service received during each run are counted with `countRequests`.
 */
async function sideBySide(
	label: string,
	count: number,
	node: () => Task,
	baseline: () => Task,
	prepare: () => void,
	countRequests: () => number,
): Promise<{ node: Side; baseline: Side }> {
	const result = { node: { runs: [], requests: [] } as Side, baseline: { runs: [], requests: [] } as Side };
	for (let i = 0; i < count; i++) {
		// Alternate which side goes first, so a slow phase of the machine hits both.
		const order: Array<['node' | 'baseline', () => Task]> = i % 2 === 0 ? [['node', node], ['baseline', baseline]] : [['baseline', baseline], ['node', node]];
		for (const [side, task] of order) {
			prepare();
			const measurement = await child(task());
			result[side].runs.push(measurement);
			result[side].requests.push(countRequests());
			log(`  ${label} ${side} #${i + 1}: ${round(measurement.wallMs)} ms (CPU ${round(measurement.cpuMs)} ms), peak RSS +${toMB(measurement.peakRssGrowth)} MB, ${measurement.produced} produced, ${result[side].requests.at(-1)} requests`);
		}
	}
	return result;
}

const medianOf = (side: Side, pick: (m: Measurement) => number) => median(side.runs.map(pick));

// ---- 1. bulk send, 2. per-item pattern --------------------------------------------------------

const CAMPAIGN = 10_000;
/** Digits that start the numbers of the children's warm-up sends (campaign(…, 5,000,000): +972 50-6xxxxxx). */
const WARM_UP_DEST = '972506';

async function bulkSend(sandbox: Sandbox): Promise<Entry[]> {
	const entries: Entry[] = [];
	const prepare = () => {
		sandbox.control.reset();
		sandbox.control.setCredit(1_000_000_000);
	};
	// The batches of the measured run; the child's warm-up sends to other numbers (WARM_UP_DEST).
	const sends = () =>
		sandbox.control
			.requests({ service: 'sms', operation: 'send_sms' })
			.filter((request) => !String((request.body as Array<{ dest?: string }>)[0]?.dest ?? '').startsWith(WARM_UP_DEST)).length;
	const smsTask = (batchSize: number, toFrom: 'expression' | 'fixed'): Task => ({
		kind: 'smsNode',
		smsUrl: sandbox.smsUrl,
		token: sandbox.tokens.sms,
		items: CAMPAIGN,
		batchSize,
		toFrom,
	});
	const fetchTask = (batchSize: number): Task => ({ kind: 'smsFetch', smsUrl: sandbox.smsUrl, token: sandbox.tokens.sms, items: CAMPAIGN, batchSize });

	for (const batchSize of [100, 1000]) {
		for (const toFrom of ['expression', 'fixed'] as const) {
			const name = `bulk-send-batch-${batchSize}${toFrom === 'fixed' ? '-fixed-to' : ''}`;
			if (!wanted(name)) continue;
			log(`${name}`);
			const { node, baseline } = await sideBySide(name, reps(true), () => smsTask(batchSize, toFrom), () => fetchTask(batchSize), prepare, sends);
			const expected = Math.ceil(CAMPAIGN / batchSize);
			const measured = medianOf(node, (m) => m.wallMs);
			const base = medianOf(baseline, (m) => m.wallMs);
			const ratio = measured / base;
			const requestsOk = node.requests.every((count) => count === expected) && node.runs.every((m) => m.produced === CAMPAIGN);
			entries.push({
				name,
				description:
					toFrom === 'expression'
						? `${CAMPAIGN.toLocaleString('en')} items → Bulk SMS Send, Batch Size ${batchSize}, To = {{ $json.phone }} (each item's own number)`
						: `The same with To a fixed text (one value for all items: no n8n expression per item)`,
				unit: 'ms (wall)',
				measured: round(measured),
				baseline: round(base),
				ratio: round(ratio, 2),
				target: `≤ 1.25× baseline; requests = ${expected}`,
				met: ratio <= 1.25 && requestsOk,
				repetitions: node.runs.length,
				requests: node.requests[0],
				expectedRequests: expected,
				baselineRequests: baseline.requests[0],
				messagesSent: node.runs[0].produced,
				cpuMs: round(medianOf(node, (m) => m.cpuMs)),
				baselineCpuMs: round(medianOf(baseline, (m) => m.cpuMs)),
				peakRssGrowthMB: toMB(medianOf(node, (m) => m.peakRssGrowth)),
				baselinePeakRssGrowthMB: toMB(medianOf(baseline, (m) => m.peakRssGrowth)),
				runsMs: node.runs.map((m) => round(m.wallMs)),
				baselineRunsMs: baseline.runs.map((m) => round(m.wallMs)),
			});
		}
	}

	const perItemName = 'per-item-vs-batched';
	if (wanted(perItemName)) {
		log(perItemName);
		// The same 10,000 messages, one request per item (what most n8n SMS nodes do) against batches of 100.
		const { node: perItem, baseline: batched } = await sideBySide(
			perItemName,
			reps(false),
			() => smsTask(1, 'expression'),
			() => smsTask(100, 'expression'),
			prepare,
			sends,
		);
		const { node: fetchPerItem, baseline: fetchBatched } = await sideBySide(
			`${perItemName} (plain fetch)`,
			reps(false),
			() => fetchTask(1),
			() => fetchTask(100),
			prepare,
			sends,
		);
		const measured = medianOf(perItem, (m) => m.wallMs);
		const base = medianOf(batched, (m) => m.wallMs);
		entries.push({
			name: perItemName,
			description: `The same ${CAMPAIGN.toLocaleString('en')} messages through the node, one request per item (Batch Size 1), against Batch Size 100`,
			unit: 'ms (wall)',
			measured: round(measured),
			baseline: round(base),
			ratio: round(measured / base, 2),
			target: 'batched faster than one request per item (ratio > 1: the gain of batching)',
			met: measured > base && perItem.requests.every((count) => count === CAMPAIGN),
			repetitions: perItem.runs.length,
			requests: perItem.requests[0],
			baselineRequests: batched.requests[0],
			cpuMs: round(medianOf(perItem, (m) => m.cpuMs)),
			baselineCpuMs: round(medianOf(batched, (m) => m.cpuMs)),
			peakRssGrowthMB: toMB(medianOf(perItem, (m) => m.peakRssGrowth)),
			baselinePeakRssGrowthMB: toMB(medianOf(batched, (m) => m.peakRssGrowth)),
			plainFetchPerItemMs: round(medianOf(fetchPerItem, (m) => m.wallMs)),
			plainFetchBatchedMs: round(medianOf(fetchBatched, (m) => m.wallMs)),
			runsMs: perItem.runs.map((m) => round(m.wallMs)),
			baselineRunsMs: batched.runs.map((m) => round(m.wallMs)),
		});
	}
	return entries;
}

// ---- 3. call-record export --------------------------------------------------------------------

const SEEDED_CDRS = 100_000;
const EXPORT_ROWS = 10_000;

async function cdrExport(sandbox: Sandbox): Promise<Entry[]> {
	const name = 'cdr-export-10000';
	if (!wanted(name)) return [];
	log(name);
	const started = performance.now();
	sandbox.control.reset({ cdrs: SEEDED_CDRS });
	log(`  seeded ${SEEDED_CDRS.toLocaleString('en')} call records in ${round(performance.now() - started)} ms`);
	// November 2024: about a third of the seeded quarter, so LIMIT 10000 is what bounds the rows.
	const range = { from: '2024-11-01 00:00:00', until: '2024-11-30 23:59:59' };
	// The statement the node writes, sent as it is by the baseline.
	sandbox.control.clearRequests();
	await child({ kind: 'cdrNode', vnUrl: sandbox.vnUrl, token: sandbox.tokens.vn, limit: EXPORT_ROWS, ...range });
	const sql = String((sandbox.control.requests({ operation: 'cdr_query' }).at(-1)?.body as Record<string, string>).sql);
	log(`  statement: ${sql}`);
	const { node, baseline } = await sideBySide(
		name,
		reps(true),
		() => ({ kind: 'cdrNode', vnUrl: sandbox.vnUrl, token: sandbox.tokens.vn, limit: EXPORT_ROWS, ...range }),
		() => ({ kind: 'cdrFetch', vnUrl: sandbox.vnUrl, token: sandbox.tokens.vn, sql }),
		() => sandbox.control.clearRequests(),
		// The measured run's statements (the warm-ups ask for 200 rows).
		() => sandbox.control.requests({ operation: 'cdr_query' }).filter((request) => String((request.body as Record<string, string>).sql).endsWith(`LIMIT ${EXPORT_ROWS}`)).length,
	);
	const measured = medianOf(node, (m) => m.wallMs);
	const base = medianOf(baseline, (m) => m.wallMs);
	return [
		{
			name,
			description: `Call Record → Query (builder, all columns, Limit ${EXPORT_ROWS.toLocaleString('en')}) over ${SEEDED_CDRS.toLocaleString('en')} seeded records, against fetch + JSON.parse of the same statement`,
			unit: 'ms (wall)',
			measured: round(measured),
			baseline: round(base),
			ratio: round(measured / base, 2),
			target: '≤ 1.5× baseline',
			met: measured / base <= 1.5 && node.runs.every((m) => m.produced === EXPORT_ROWS),
			repetitions: node.runs.length,
			rows: node.runs[0].produced,
			baselineRows: baseline.runs[0].produced,
			requests: node.requests[0],
			cpuMs: round(medianOf(node, (m) => m.cpuMs)),
			baselineCpuMs: round(medianOf(baseline, (m) => m.cpuMs)),
			peakRssGrowthMB: toMB(medianOf(node, (m) => m.peakRssGrowth)),
			baselinePeakRssGrowthMB: toMB(medianOf(baseline, (m) => m.peakRssGrowth)),
			runsMs: node.runs.map((m) => round(m.wallMs)),
			baselineRunsMs: baseline.runs.map((m) => round(m.wallMs)),
			sql,
		},
	];
}

// ---- 4. recording download --------------------------------------------------------------------

const RECORDING_BYTES = 50 * MB;

async function recording(sandbox: Sandbox): Promise<Entry[]> {
	const entries: Entry[] = [];
	const modes = [
		{ name: 'recording-50MB-default-mode', binaryMode: 'default', into: 'memory', limit: 1.5 },
		{ name: 'recording-50MB-filesystem-mode', binaryMode: 'filesystem', into: 'file', limit: 0.3 },
	] as const;
	if (!modes.some((mode) => wanted(mode.name))) return [];
	sandbox.control.reset({ recordingBytes: RECORDING_BYTES });
	const recorded = sandbox.control.cdrs({ hasRecording: true });
	const call = recorded[0].cdr_uniqueid;
	for (const mode of modes) {
		if (!wanted(mode.name)) continue;
		log(mode.name);
		const { node, baseline } = await sideBySide(
			mode.name,
			reps(true),
			() => ({ kind: 'recordingNode', vnUrl: sandbox.vnUrl, token: sandbox.tokens.vn, callUuid: call, binaryMode: mode.binaryMode }),
			() => ({ kind: 'recordingFetch', vnUrl: sandbox.vnUrl, token: sandbox.tokens.vn, callUuid: call, into: mode.into }),
			() => sandbox.control.clearRequests(),
			() => sandbox.control.requests({ operation: 'get_record_by_call_uuid' }).length,
		);
		const size = node.runs[0].produced;
		const growth = medianOf(node, (m) => m.peakRssGrowth);
		const ratio = growth / size;
		entries.push({
			name: mode.name,
			description: `Call Record → Download Recording of a ${toMB(size)} MB WAV, n8n binary data mode "${mode.binaryMode}"; baseline column: the file size (the target is relative to it)`,
			unit: 'MB (peak RSS growth)',
			measured: toMB(growth),
			baseline: toMB(size),
			ratio: round(ratio, 2),
			target: `peak RSS growth ≤ ${mode.limit}× the file size`,
			met: ratio <= mode.limit && node.runs.every((m) => m.produced === size),
			repetitions: node.runs.length,
			fileBytes: size,
			storedIn: String(node.runs[0].extra?.stored ?? ''),
			wallMs: round(medianOf(node, (m) => m.wallMs)),
			plainFetch: mode.into === 'memory' ? 'fetch → arrayBuffer → Buffer' : 'fetch → stream → file',
			plainFetchPeakRssGrowthMB: toMB(medianOf(baseline, (m) => m.peakRssGrowth)),
			plainFetchWallMs: round(medianOf(baseline, (m) => m.wallMs)),
			runsMB: node.runs.map((m) => toMB(m.peakRssGrowth)),
			plainFetchRunsMB: baseline.runs.map((m) => toMB(m.peakRssGrowth)),
			// Where the memory was (medians of the peaks): buffers outside the V8 heap, and the heap.
			peakArrayBuffersGrowthMB: round(medianOf(node, (m) => Number(m.extra?.peakArrayBuffersGrowthMB)), 1),
			peakExternalGrowthMB: round(medianOf(node, (m) => Number(m.extra?.peakExternalGrowthMB)), 1),
			peakHeapUsedGrowthMB: round(medianOf(node, (m) => Number(m.extra?.peakHeapUsedGrowthMB)), 1),
			plainFetchPeakArrayBuffersGrowthMB: round(medianOf(baseline, (m) => Number(m.extra?.peakArrayBuffersGrowthMB)), 1),
		});
	}
	return entries;
}

// ---- 5. trigger -------------------------------------------------------------------------------

const CALLBACKS = 20_000;

async function trigger(): Promise<Entry[]> {
	const name = 'trigger-callbacks';
	if (!wanted(name)) return [];
	log(name);
	const { node, baseline } = await sideBySide(
		name,
		reps(true),
		() => ({ kind: 'trigger', callbacks: CALLBACKS, webhook: 'node' }),
		() => ({ kind: 'trigger', callbacks: CALLBACKS, webhook: 'passthrough' }),
		() => undefined,
		() => 0,
	);
	const extra = (side: Side, key: string) => median(side.runs.map((m) => Number(m.extra?.[key])));
	const rate = extra(node, 'perSecond');
	const baseRate = extra(baseline, 'perSecond');
	const p99 = extra(node, 'p99Ms');
	const baseP99 = extra(baseline, 'p99Ms');
	return [
		{
			name: 'trigger-callbacks-per-second',
			description: `${CALLBACKS.toLocaleString('en')} callbacks (call start/end as JSON, form and query string; SMS delivery) into the trigger's webhook function (secret check, parse, normalize) through n8n-core's WebhookContext; baseline: a webhook function that passes the request on unparsed`,
			unit: 'callbacks/s',
			measured: round(rate),
			baseline: round(baseRate),
			ratio: round(baseRate / rate, 2),
			target: '≥ 1,000 callbacks/s (this package\'s target: the spec gives none)',
			met: rate >= 1000 && node.runs.every((m) => m.produced === CALLBACKS),
			repetitions: node.runs.length,
			cpuMs: round(medianOf(node, (m) => m.cpuMs)),
			baselineCpuMs: round(medianOf(baseline, (m) => m.cpuMs)),
			peakRssGrowthMB: toMB(medianOf(node, (m) => m.peakRssGrowth)),
		},
		{
			name: 'trigger-latency',
			description: 'Latency of one callback through the webhook function (p99; p50 and p95 beside)',
			unit: 'ms (p99)',
			measured: round(p99, 3),
			baseline: round(baseP99, 3),
			ratio: round(p99 / baseP99, 2),
			target: 'p99 ≤ 10 ms (this package\'s target)',
			met: p99 <= 10,
			repetitions: node.runs.length,
			p50Ms: round(extra(node, 'p50Ms'), 3),
			p95Ms: round(extra(node, 'p95Ms'), 3),
			p99Ms: round(p99, 3),
			maxMs: round(extra(node, 'maxMs'), 3),
			baselineP50Ms: round(extra(baseline, 'p50Ms'), 3),
			baselineP95Ms: round(extra(baseline, 'p95Ms'), 3),
		},
	];
}

// ---- report -----------------------------------------------------------------------------------

function machine() {
	const cpus = os.cpus();
	return {
		cpu: `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown'}`,
		memory: `${round(os.totalmem() / 1024 ** 3, 1)} GiB (${round(os.freemem() / 1024 ** 3, 1)} GiB free at the start)`,
		node: process.version,
		os: `${os.type()} ${os.release()} ${os.arch()}`,
		loadAverage: os.loadavg().map((value) => round(value, 2)),
	};
}

function table(entries: Entry[]): string {
	const rows = entries.map((entry) =>
		[entry.name, `${entry.measured} ${entry.unit}`, `${entry.baseline}`, `${entry.ratio}×`, entry.target, entry.met ? 'yes' : '**no**'].join(' | '),
	);
	return ['| Benchmark | Measured (median) | Baseline | Ratio | Target | Met |', '|---|---|---|---|---|---|', ...rows.map((row) => `| ${row} |`)].join('\n');
}

function details(entries: Entry[]): string {
	const skip = new Set(['name', 'description', 'unit', 'measured', 'baseline', 'ratio', 'target', 'met']);
	return entries
		.map((entry) => {
			const extras = Object.entries(entry)
				.filter(([key]) => !skip.has(key))
				.map(([key, value]) => `${key} ${Array.isArray(value) ? `[${value.join(', ')}]` : String(value)}`)
				.join('; ');
			return `- **${entry.name}**: ${entry.description}. ${extras}.`;
		})
		.join('\n');
}

async function main() {
	const before = machine();
	log(`machine: ${before.cpu}, ${before.memory}, Node ${before.node}, load ${before.loadAverage.join(' ')}`);
	const sandbox = await startSandbox();
	const entries: Entry[] = [];
	const started = new Date();
	try {
		entries.push(...(await bulkSend(sandbox)));
		entries.push(...(await cdrExport(sandbox)));
		entries.push(...(await recording(sandbox)));
		entries.push(...(await trigger()));
	} finally {
		await sandbox.close();
		rmSync(userFolder, { recursive: true, force: true });
	}
	const after = machine();
	const text = table(entries);
	process.stdout.write(`\n${text}\n\n`);
	if (!write) return;
	writeFileSync(join(HERE, 'results.json'), `${JSON.stringify(entries, null, '\t')}\n`);
	writeFileSync(join(HERE, 'README.md'), readme(entries, before, after, started));
	log('written: bench/results.json, bench/README.md');
}

function readme(entries: Entry[], before: ReturnType<typeof machine>, after: ReturnType<typeof machine>, started: Date): string {
	return `${README_HEAD}
## Results

Run of ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC (\`npm run bench\`; this file and \`results.json\` are written by it).

${table(entries)}

Ratio: measured / baseline (for callbacks per second, baseline / measured), so above 1 always means "the node costs more".

### Machine

- CPU: ${before.cpu}
- Memory: ${before.memory}
- Node.js: ${before.node}
- OS: ${before.os}
- Load average (1, 5, 15 min): ${before.loadAverage.join(', ')} at the start, ${after.loadAverage.join(', ')} at the end

### Targets missed, and why

${missed(entries)}

### All figures

${details(entries)}
${notes(entries)}`;
}

const README_HEAD = `# Benchmarks

\`npm run bench\` builds the package and runs these benchmarks (not part of \`npm test\`). Each one runs the
compiled node through the test harness (\`test/harness/engine.mts\`: n8n-core's real \`WorkflowExecute\`,
n8n's HTTP helpers) against the sandbox on loopback, and each is measured side by side with a baseline in
the same run: node and baseline alternate, 5 repetitions (3 for the slow per-item pattern), medians
reported. The sandbox runs in the runner's process; **every measurement runs in a fresh child process**
(\`bench/child.mts\`), which warms up with a small run of the same code path, collects garbage, and then
measures one run: wall time, its own CPU time, and the peak RSS growth over the RSS just before the run
(sampled every 2 ms, plus the kernel's high-water mark when the run raised it).

| # | Benchmark | Node side | Baseline |
|---|---|---|---|
| 1 | Bulk send | 10,000 items → Bulk SMS → Send, Batch Size 100 and 1000 | a plain \`fetch\` client sending the same messages in the same batches (\`JSON.stringify\`, POST, parse, count the results) |
| 2 | Per-item pattern | the same 10,000 messages with Batch Size 1 (one request per item, what most n8n SMS nodes do) | the node with Batch Size 100 |
| 3 | Call-record export | Call Record → Query returning 10,000 rows, all columns, sandbox seeded with 100,000 records | \`fetch\` of the same statement + \`JSON.parse\` |
| 4 | Recording download | Download Recording of a 50 MB WAV, n8n binary data mode \`default\` (in memory) and \`filesystem\` | peak RSS growth relative to the file size; a plain \`fetch\` (into memory / streamed to a file) beside it |
| 5 | Trigger | 20,000 callbacks into the trigger's webhook function through n8n-core's \`WebhookContext\` | a webhook function that passes the request on without parsing or normalizing |

The bulk-send campaign maps each item's own number with an expression (\`To = {{ $json.phone }}\`), as a
workflow reading a spreadsheet does; the \`-fixed-to\` rows send the same messages with To a fixed text, which
isolates the node from n8n's expression engine (see the notes).
`;

/** Why each missed target is missed (the profiled cause), with this run's figures. */
function missed(entries: Entry[]): string {
	const byName = new Map(entries.map((entry) => [entry.name, entry]));
	const lines: string[] = [];
	for (const entry of entries.filter((e) => !e.met)) {
		if (entry.name.startsWith('bulk-send-batch-')) {
			const fixed = entry.name.endsWith('-fixed-to') ? entry : byName.get(`${entry.name}-fixed-to`);
			if (!entry.name.endsWith('-fixed-to') && fixed) {
				lines.push(
					`- **${entry.name}** (${entry.ratio}×): the same run with To a fixed text takes ${fixed.measured} ms instead of ${entry.measured} ms, so ` +
						`about ${round(Number(entry.measured) - Number(fixed.measured))} ms (${round(((Number(entry.measured) - Number(fixed.measured)) / Number(entry.measured)) * 100)} %) is n8n evaluating ` +
						'`{{ $json.phone }}` once per item (`getNodeParameter` → `WorkflowDataProxy`, `Expression.initializeGlobalContext`, which also reads `process.ppid` on every evaluation). ' +
						'That is n8n\'s cost of any per-item expression, the same for every node; the node reads the parameter once per item and cannot do less.',
				);
			} else {
				lines.push(
					`- **${entry.name}** (${entry.ratio}×; CPU ${String(entry.cpuMs)} ms against the client's ${String(entry.baselineCpuMs)} ms): what is left is n8n's per-item machinery and the work on 10,000 items. ` +
						'A profile of the measured run (`BENCH_PROFILE`, batch 1000, machine quiet) splits the node process\'s CPU time into: the node\'s own code about 70 ms ' +
						'(reading and checking 10,000 items about 25 ms, building the batches, reading the answers and the 10,000 output items about 45 ms), n8n\'s HTTP helper (axios) ' +
						'about 40 ms for the batches, garbage collection about 20 ms, n8n\'s engine (paired items, run data) about 15 ms. On loopback the sandbox answers a batch of 1000 ' +
						'in about 10 ms, so these fixed per-item costs decide the ratio; the plain client has none of them.',
				);
			}
			continue;
		}
		if (entry.name === 'recording-50MB-default-mode') {
			lines.push(
				`- **${entry.name}** (${entry.ratio}× the file size; a plain \`fetch\` into memory: ${String(entry.plainFetchPeakRssGrowthMB)} MB): in n8n's \`default\` mode the file must end up as base64 ` +
					'text in the item, 1.33× its size, and n8n-core builds that text from one complete Buffer: `BinaryDataService.store` → `binaryToBuffer` collects the stream\'s chunks, ' +
					'`Buffer.concat` copies them (chunks and copy alive together: 2×), then `buffer.toString(\'base64\')` (+1.33×). ' +
					`Peak buffers outside the V8 heap in this run: ${String(entry.peakArrayBuffersGrowthMB)} MB. Any node that hands n8n the file — as a stream or as a Buffer — goes ` +
					'through this path, and a node cannot tell which binary mode is set (handing over a Buffer would end streaming in filesystem mode), so the target cannot be met in ' +
					'`default` mode; in `filesystem` mode the same node holds no copy of the file.',
			);
			continue;
		}
		if (entry.name === 'recording-50MB-filesystem-mode') {
			lines.push(
				`- **${entry.name}** (${entry.ratio}× the file size; a plain \`fetch\` streamed to a file: ${String(entry.plainFetchPeakRssGrowthMB)} MB, runs ${(entry.plainFetchRunsMB as number[]).join(', ')} MB): ` +
					'the file is never held: the node hands the response stream to `prepareBinaryData`, which writes it chunk by chunk (`fs.promises.writeFile` over the stream). ' +
					`The growth is the socket's 64 KB read buffers, each garbage once written but freed only at V8's next garbage collection, which external memory triggers after about 32 MB ` +
					`(peak buffers outside the V8 heap in this run: ${String(entry.peakArrayBuffersGrowthMB)} MB, V8 heap: ${String(entry.peakHeapUsedGrowthMB)} MB). Any Node.js stream consumer ` +
					'behaves so (the plain `fetch` beside it too); nothing in the node\'s code can free those buffers sooner.',
			);
			continue;
		}
		lines.push(`- **${entry.name}**: missed (${entry.measured} against ${entry.target}).`);
	}
	return lines.length === 0 ? 'Every target is met.' : lines.join('\n');
}

function notes(entries: Entry[]): string {
	const perItem = entries.find((entry) => entry.name === 'per-item-vs-batched');
	return `
## Fixes made after profiling

Profiled with \`node --cpu-prof\`, and with \`BENCH_PROFILE=<file>.cpuprofile\`, which makes the child profile the measured run only:

- **Time zone check once per zone** (\`nodes/BulkSms/actions/message/sendAt.ts\`). The first 10,000-item send took 2–3 s,
  9–18× the baseline: 46 % of its CPU time was Luxon's \`IANAZone.isValidZone\`, which builds an \`Intl.DateTimeFormat\` on
  every call, once per item (about 0.1 ms each). The check now remembers the zones it has checked.
- **Parameters without expressions read once** (\`send.operation.ts\`). \`getNodeParameter\` copies and walks the value on
  every call; a parameter that holds no expression has the same value for every item, so Send reads it once per
  execution (a parameter with an expression is still read per item). The node object is read once too.
- **The batch body as bytes** (\`nodes/shared/transport/smsApi.ts\`). Given a JSON text with \`Content-Type:
  application/json\`, axios (under n8n's HTTP helper) parses it again to check it; a Buffer is sent as it is.
- **Result objects extended in place** and the segment estimate computed once per message text.

Together: the 10,000-item send with a fixed To went from about 0.6–0.7 s to about 0.2–0.3 s of the node process's CPU.

## Filesystem binary mode

The child sets \`N8N_DEFAULT_BINARY_DATA_MODE\` (\`default\` or \`filesystem\`) and \`N8N_BINARY_DATA_STORAGE_PATH\`
before n8n-core builds its \`BinaryDataService\` (\`node_modules/n8n-core/dist/binary-data/\`), then calls \`init()\` on it,
as n8n's start-up does. In \`default\` mode n8n keeps a binary as base64 text in the item; in \`filesystem\` mode the
node hands the response stream to \`prepareBinaryData\`, which writes it to disk as it arrives. (n8n 2.x uses
\`filesystem\` by default in regular mode; \`default\` is the in-memory mode of that name.)

## Reading the figures

- Wall times on this 2-core machine move with whatever else runs on it (see the load average); node and baseline
  alternate and the medians of several runs are compared, so both sides see the same conditions. The CPU time of
  the measuring process is given beside (\`cpuMs\`, \`baselineCpuMs\`); the sandbox's own time is in the runner process.
- Peak RSS growth is what the operating system had to give the process beyond its size just before the run;
  freed memory that V8 or malloc keep for reuse is not given back during a run.
${
		perItem
			? `- The ${String(perItem.requests)} requests of the per-item pattern grow the node process by ${String(perItem.peakRssGrowthMB)} MB (one response after the other through
  n8n's HTTP helper in one execution), against ${String(perItem.baselinePeakRssGrowthMB)} MB for the ${String(perItem.baselineRequests)} batches.
`
			: ''
	}`;
}

await main();
