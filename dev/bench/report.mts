/**
 * A result row and its targets (each target a check of one figure against a limit: met, missed and
 * by how much, or not measured and why), and what a run writes: dev/bench/results.json (the run, the
 * targets and every row with its figures) and the results section of dev/docs/benchmarks.md (between
 * its two markers; the rest of the page is written by hand).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';

import type { MemoryFigures } from './inN8n.mts';
import { median, round } from './measure.mts';

export interface Check {
	/** The target in words, e.g. "≤ 1.25× (floor + fetch)". */
	target: string;
	/** The figure the target is about (a ratio, a rate, a count). */
	value: number | null;
	limit: number;
	kind: 'atMost' | 'atLeast' | 'equal';
	/** null: not measured in this run (see `note`). */
	met: boolean | null;
	/** How far from the target, when missed. */
	missedBy?: string;
	note?: string;
}

export interface Compared {
	/** What the node is compared with, e.g. "fetch", "floor + fetch", "n8n's HTTP Request node". */
	label: string;
	value: number;
	/** The node's figure over this one (for a rate: this one over the node's, so above 1 always means "the node costs more"). */
	ratio: number;
}

export interface Row {
	name: string;
	description: string;
	unit: string;
	/** The node's figure (median); null when the row was not measured. */
	measured: number | null;
	compared: Compared[];
	checks: Check[];
	/** Every check met: true; one missed: false; nothing checked or not measured: null. */
	met: boolean | null;
	/** Why the row was not measured. */
	skipped?: string;
	repetitions?: number;
	[figure: string]: unknown;
}

export function check(
	target: string,
	value: number | null,
	limit: number,
	kind: Check['kind'],
	note?: string,
): Check {
	if (value === null || Number.isNaN(value))
		return { target, value: null, limit, kind, met: null, note };
	const met =
		kind === 'atMost' ? value <= limit : kind === 'atLeast' ? value >= limit : value === limit;
	const result: Check = { target, value: round(value, 2), limit, kind, met };
	if (!met) {
		result.missedBy =
			kind === 'atMost'
				? `${round((value / limit - 1) * 100)} % over (${round(value, 2)} against ≤ ${limit})`
				: kind === 'atLeast'
					? `${round((1 - value / limit) * 100)} % short (${round(value, 2)} against ≥ ${limit})`
					: `${round(value, 2)} instead of ${limit}`;
	}
	if (note) result.note = note;
	return result;
}

/** A row from its parts; `met` follows from the checks. */
export function row(parts: Omit<Row, 'met'> & { checks: Check[] }): Row {
	const states = parts.checks.map((c: Check) => c.met);
	const met = states.includes(false)
		? false
		: states.length > 0 && states.every((s) => s === true)
			? true
			: null;
	return { ...parts, met } as Row;
}

export function skippedRow(
	name: string,
	description: string,
	unit: string,
	reason: string,
	checks: Check[] = [],
): Row {
	return {
		name,
		description,
		unit,
		measured: null,
		compared: [],
		checks: checks.map((c) => ({ ...c, met: null, value: null, note: reason })),
		met: null,
		skipped: reason,
	};
}

export const ratio = (measured: number, against: number) => round(measured / against, 2);

export interface Machine {
	cpu: string;
	memory: string;
	node: string;
	os: string;
	loadAverage: number[];
}

export function machine(): Machine {
	const cpus = os.cpus();
	return {
		cpu: `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown'}`,
		memory: `${round(os.totalmem() / 1024 ** 3, 1)} GiB (${round(os.freemem() / 1024 ** 3, 1)} GiB free)`,
		node: process.version,
		os: `${os.type()} ${os.release()} ${os.arch()}`,
		loadAverage: os.loadavg().map((value) => round(value, 2)),
	};
}

export interface Run {
	started: string;
	command: string;
	machineAtStart: Machine;
	loadAverageAtEnd: number[];
	n8nNodesBase: string;
	fieldsParameters: unknown;
	/** Later runs of some rows (`--merge`), which replaced those rows of this run. */
	reruns?: Array<Omit<Run, 'reruns'> & { rows: string[] }>;
}

/** The targets, each with the rows and checks that decide it. */
const TARGETS: Array<{ target: string; rows: string[]; check: (c: Check) => boolean }> = [
	{
		target:
			"Bulk send, 10,000 items, Batch Size 100 and 1000, recipients from input fields: ≤ 1.25× n8n's floor sending the same batches through n8n's HTTP helper (floor + fetch: information)",
		rows: ['bulk-send-batch-100-fields', 'bulk-send-batch-1000-fields'],
		check: (c) => c.target.startsWith('≤'),
	},
	{
		target:
			'Bulk send against (b), Code + HTTP Request batching: the node at least 2× faster, with the same number of requests',
		rows: ['vs-code-and-http-request-batch-100', 'vs-code-and-http-request-batch-1000'],
		check: () => true,
	},
	{
		target: 'Bulk send against (a), HTTP Request one request per item: ≥ 10×',
		rows: ['vs-http-request-per-item'],
		check: (c) => c.target.includes('faster'),
	},
	{
		target:
			"Recording 50 MB: peak memory ≤ 1.0× n8n's HTTP Request node in the same binary data mode, in every mode; filesystem mode ≤ 1.0× a plain fetch piped to a file",
		rows: ['recording-50MB-default-mode', 'recording-50MB-filesystem-mode'],
		check: (c) => c.target.startsWith('peak'),
	},
	{
		target: "Trigger through the full webhook path: ≥ 0.8× the throughput of n8n's Webhook node",
		rows: ['trigger-full-webhook-path'],
		check: () => true,
	},
];

const state = (c: Pick<Check, 'met' | 'missedBy' | 'note'>) =>
	c.met === true
		? `met${c.note ? ` (${c.note})` : ''}`
		: c.met === false
			? `**missed**: ${c.missedBy ?? ''}${c.note ? ` (${c.note})` : ''}`
			: `not measured: ${c.note ?? ''}`;

export interface TargetResult {
	target: string;
	results: Array<{
		row: string;
		check: string;
		value: number | null;
		met: boolean | null;
		missedBy?: string;
		note?: string;
	}>;
}

export function targets(rows: Row[]): TargetResult[] {
	return TARGETS.map(({ target, rows: names, check }) => ({
		target,
		results: names.flatMap((name) => {
			const found = rows.find((r) => r.name === name);
			if (!found)
				return [{ row: name, check: '(all)', value: null, met: null, note: 'not run (--only)' }];
			return found.checks.filter(check).map((c) => ({
				row: name,
				check: c.target,
				value: c.value,
				met: c.met,
				...(c.missedBy ? { missedBy: c.missedBy } : {}),
				...(c.note ? { note: c.note } : {}),
			}));
		}),
	}));
}

function targetsTable(results: TargetResult[]): string {
	const lines = ['| Target | Row | Check | Figure | Result |', '|---|---|---|---|---|'];
	for (const { target, results: checks } of results) {
		checks.forEach((c, index) => {
			const result = state(c);
			lines.push(
				`| ${index === 0 ? target : ''} | ${c.row} | ${c.check} | ${c.value ?? '—'} | ${result} |`,
			);
		});
	}
	return lines.join('\n');
}

function rowsTable(rows: Row[]): string {
	const lines = [
		'| Row | Node (time: fastest run; memory: median) | Compared with: figure (node / it) | Targets | Met |',
		'|---|---|---|---|---|',
	];
	for (const r of rows) {
		const measured = r.measured === null ? '—' : `${r.measured} ${r.unit}`;
		const compared =
			r.compared.map((c) => `${c.label}: ${c.value} (${c.ratio}×)`).join('<br>') || '—';
		const checks = r.checks.map((c) => `${c.target}: ${state(c)}`).join('<br>') || '—';
		const met = r.met === true ? 'yes' : r.met === false ? '**no**' : '—';
		lines.push(`| ${r.name} | ${measured} | ${compared} | ${checks} | ${met} |`);
	}
	return lines.join('\n');
}

/** The bulk rows' CPU time split into n8n's floor, n8n's HTTP helper and the node's own (medians of the measured process). */
function bulkSplit(rows: Row[]): string {
	const bulk = rows.filter((r) => r.name.startsWith('bulk-send-') && r.measured !== null);
	if (bulk.length === 0) return '';
	const cpuOf = (r: Row, side: string) =>
		String((r.sides as Record<string, { cpuMs: number }>)[side].cpuMs);
	const lines = [
		"| Row | node | floor | floor sending through n8n's HTTP helper | fetch | n8n's HTTP helper beyond fetch | the node's own |",
		'|---|---|---|---|---|---|---|',
		...bulk.map(
			(r) =>
				`| ${r.name} | ${cpuOf(r, 'node')} | ${cpuOf(r, 'floor')} | ${cpuOf(r, 'floorHttp')} | ${cpuOf(r, 'fetch')} | ${String(r.n8nHttpHelperBeyondFetchCpuMs)} | ${String(r.nodeOwnCpuMs)} |`,
		),
	];
	return `### Where the bulk rows' time goes (CPU ms of the measured process)

n8n's HTTP helper beyond fetch = (floor sending through n8n's HTTP helper) − floor − fetch; the node's own = node − (floor sending through n8n's HTTP helper). CPU time moves much less than wall time with the machine's load.

${lines.join('\n')}
`;
}

/** A figure as the page shows it: lists in brackets, objects as `key value` pairs. */
function shown(value: unknown): string {
	if (Array.isArray(value)) return `[${value.join(', ')}]`;
	if (value !== null && typeof value === 'object')
		return `{ ${Object.entries(value)
			.map(([key, inner]) => `${key} ${shown(inner)}`)
			.join(', ')} }`;
	return String(value);
}

function figures(rows: Row[]): string {
	const skip = new Set(['name', 'description', 'unit', 'measured', 'compared', 'checks', 'met']);
	return rows
		.map((r) => {
			const extras = Object.entries(r)
				.filter(([key]) => !skip.has(key))
				.map(([key, value]) => `${key} ${shown(value)}`)
				.join('; ');
			return `- **${r.name}**: ${r.description}. ${extras}.`;
		})
		.join('\n');
}

export const RESULTS_START = '<!-- bench results: written by npm run bench -->';
export const RESULTS_END = '<!-- end of bench results -->';

export function resultsSection(run: Run, rows: Row[]): string {
	const m = run.machineAtStart;
	return `${RESULTS_START}
Run of ${run.started} UTC: \`${run.command}\`. n8n's own nodes: ${run.n8nNodesBase}.
Machine: ${m.cpu}, ${m.memory}, Node.js ${m.node}, ${m.os}; load average (1, 5, 15 min) ${m.loadAverage.join(', ')} at the start, ${run.loadAverageAtEnd.join(', ')} at the end.
${(run.reruns ?? []).map((rerun) => `\nRows run again on ${rerun.started} UTC (\`${rerun.command}\`; load average ${rerun.machineAtStart.loadAverage.join(', ')} at the start, ${rerun.loadAverageAtEnd.join(', ')} at the end), replacing those of the run above: ${rerun.rows.join(', ')}.\n`).join('')}
### Targets

${targetsTable(targets(rows))}

### Every row

${rowsTable(rows)}

Ratios are the node's figure over the other one (for callbacks per second, the other one over the node's), so above 1 always means "the node costs more".

${bulkSplit(rows)}
### All figures

${figures(rows)}
${RESULTS_END}`;
}

/** Writes results.json and replaces the results section of the page. */
export function write(jsonFile: string, pageFile: string, run: Run, rows: Row[]): void {
	writeFileSync(jsonFile, `${JSON.stringify({ run, targets: targets(rows), rows }, null, '\t')}\n`);
	writePage(pageFile, run, rows);
}

/** Replaces the results section of the page (also from a saved results.json: `npm run bench -- --rewrite`). */
export function writePage(pageFile: string, run: Run, rows: Row[]): void {
	const page = readFileSync(pageFile, 'utf8');
	const start = page.indexOf(RESULTS_START);
	const end = page.indexOf(RESULTS_END);
	if (start < 0 || end < start)
		throw new Error(`${pageFile} has no results markers (${RESULTS_START} … ${RESULTS_END})`);
	writeFileSync(
		pageFile,
		page.slice(0, start) + resultsSection(run, rows) + page.slice(end + RESULTS_END.length),
	);
}

export function printTable(rows: Row[]): string {
	return `${targetsTable(targets(rows))}\n\n${rowsTable(rows)}`;
}

// ---- in the real n8n (realN8n.mts): the figures, the targets and what is written -----------------------

export type SideKey =
	| 'send'
	| 'sendSummary'
	| 'sendOptOut'
	| 'sendOptOutNodeItems'
	| 'codeHttp'
	| 'perItem'
	| 'noOp';

export interface Measured {
	executionMs: number;
	nodesMs: number;
	/** The execution time of the node named Send, in n8n's run data (sides with one). */
	sendNodeMs?: number;
	outputItems: number;
	/** The recipients Send's output says were not sent as opted out. */
	optedOut: number;
	received: number;
	memory?: MemoryFigures;
}

interface SideSummary {
	key: SideKey;
	row: string;
	runsMs: number[];
	medianExecutionMs: number;
	medianNodesMs: number;
	medianSendNodeMs?: number;
	/** Messages the sandbox received and recipients skipped as opted out, in the first run. */
	received: number;
	optedOut: number;
	/** Medians of n8n's main process and task runner memory growth (MB) over the runs. */
	mainGrowthMB: number;
	runnerGrowthMB: number;
	mainGrowthRunsMB: number[];
	runnerGrowthRunsMB: number[];
	mainBeforeRunsMB: number[];
}

export interface SizeSummary {
	items: number;
	sides: SideSummary[];
	targets: Check[];
}

export interface Results {
	measuredAt: string;
	command: string;
	n8n: string;
	reps: number;
	batchSize: number;
	loadAverage: { atStart: number[]; atEnd: number[] };
	sizes: SizeSummary[];
}

const round2 = (value: number) => round(value, 2);

/** A target on two sides' medians, checked when both were measured (and from `from` recipients on). */
interface TargetSpec {
	text: string;
	check: 'atLeast' | 'atMost';
	limit: number;
	side: SideKey;
	other: SideKey;
	figure: (side: SideSummary, other: SideSummary) => number;
	from?: number;
}

const fasterThan = (side: SideSummary, other: SideSummary) =>
	other.medianExecutionMs / side.medianExecutionMs;
const slowerThan = (side: SideSummary, other: SideSummary) =>
	side.medianExecutionMs / other.medianExecutionMs;
const memoryOver = (side: SideSummary, other: SideSummary) =>
	side.mainGrowthMB / other.mainGrowthMB;

const REAL_TARGETS: TargetSpec[] = [
	{
		text: 'Send ≥ 1.5× faster than Code + HTTP Request (execution time)',
		check: 'atLeast',
		limit: 1.5,
		side: 'send',
		other: 'codeHttp',
		figure: fasterThan,
	},
	{
		text: 'Send ≥ 20× faster than HTTP Request per item (execution time)',
		check: 'atLeast',
		limit: 20,
		side: 'send',
		other: 'perItem',
		figure: fasterThan,
	},
	{
		text: "n8n's memory growth with Send ≤ 2× with No Operation (main process)",
		check: 'atMost',
		limit: 2,
		side: 'send',
		other: 'noOp',
		figure: memoryOver,
		from: 100_000,
	},
	{
		text: 'Output: Summary, Send ≥ 3× faster than Code + HTTP Request (execution time)',
		check: 'atLeast',
		limit: 3,
		side: 'sendSummary',
		other: 'codeHttp',
		figure: fasterThan,
	},
	{
		text: "Output: Summary, n8n's memory growth ≤ 1.2× with No Operation (main process)",
		check: 'atMost',
		limit: 1.2,
		side: 'sendSummary',
		other: 'noOp',
		figure: memoryOver,
		from: 100_000,
	},
	{
		text: 'a 50,000-row opt-out Data Table adds ≤ 25 % to Send (execution time, with / without)',
		check: 'atMost',
		limit: 1.25,
		side: 'sendOptOut',
		other: 'send',
		figure: slowerThan,
	},
	{
		text: "the same table read as An Earlier Node's Items adds ≤ 25 % to Send (execution time, with / without)",
		check: 'atMost',
		limit: 1.25,
		side: 'sendOptOutNodeItems',
		other: 'send',
		figure: slowerThan,
	},
];

/** The medians of one size, and its targets (TARGETS). */
export function summarise(
	items: number,
	sides: Array<{ key: SideKey; name: string; runs: Measured[] }>,
): SizeSummary {
	const summaries: SideSummary[] = sides.map(({ key, name, runs }) => {
		const memory = runs.map((run) => run.memory!);
		return {
			key,
			row: name,
			runsMs: runs.map((run) => run.executionMs),
			medianExecutionMs: median(runs.map((run) => run.executionMs)),
			medianNodesMs: median(runs.map((run) => run.nodesMs)),
			...(runs[0].sendNodeMs === undefined
				? {}
				: { medianSendNodeMs: median(runs.map((run) => run.sendNodeMs ?? 0)) }),
			received: runs[0].received,
			optedOut: runs[0].optedOut,
			mainGrowthMB: median(memory.map((m) => m.mainGrowthMB)),
			runnerGrowthMB: median(memory.map((m) => m.runnerGrowthMB)),
			mainGrowthRunsMB: memory.map((m) => m.mainGrowthMB),
			runnerGrowthRunsMB: memory.map((m) => m.runnerGrowthMB),
			mainBeforeRunsMB: memory.map((m) => m.mainBeforeMB),
		};
	});
	const of = (key: SideKey) => summaries.find((side) => side.key === key);
	const targets: Check[] = [];
	for (const spec of REAL_TARGETS) {
		const [side, other] = [of(spec.side), of(spec.other)];
		if (side && other && items >= (spec.from ?? 0))
			targets.push(check(spec.text, spec.figure(side, other), spec.limit, spec.check));
	}
	return { items, sides: summaries, targets };
}

const START = '<!-- real n8n results: written by dev/bench/realN8n.mts -->';
const END = '<!-- end of real n8n results -->';

const number = (value: number) => value.toLocaleString('en');

function sizeTable(size: SizeSummary): string[] {
	const send = size.sides.find((side) => side.key === 'send');
	const noOp = size.sides.find((side) => side.key === 'noOp');
	const lines = [
		`| ${number(size.items)} recipients | n8n's execution record (median) | Against Send | n8n main process: memory growth (median) | Against No Operation | Task runner: memory growth (median) | Runs (ms) |`,
		'|---|---|---|---|---|---|---|',
	];
	for (const side of size.sides) {
		const time =
			side.key === 'noOp' || !send
				? '—'
				: `${round2(side.medianExecutionMs / send.medianExecutionMs)}×`;
		const memory = noOp ? `${round2(side.mainGrowthMB / noOp.mainGrowthMB)}×` : '—';
		lines.push(
			`| ${side.row} | ${number(side.medianExecutionMs)} ms | ${time} | +${side.mainGrowthMB} MB | ${memory} | +${side.runnerGrowthMB} MB | ${side.runsMs.map(number).join(', ')} |`,
		);
	}
	return lines;
}

function targetLines(size: SizeSummary): string[] {
	return [
		...size.targets.map(
			(t) =>
				`- ${number(size.items)} recipients, ${t.target}: ${t.value} → ${t.met ? 'met' : `**missed**: ${t.missedBy}`}`,
		),
		...optOutLines(size),
	];
}

/** What the opt-out sides skipped and sent, and the time of the Send node itself with and without the table. */
function optOutLines(size: SizeSummary): string[] {
	return size.sides
		.filter((side) => side.key === 'sendOptOut' || side.key === 'sendOptOutNodeItems')
		.flatMap((optOut) => optOutLine(size, optOut));
}

function optOutLine(size: SizeSummary, optOut: SideSummary): string[] {
	const send = size.sides.find((side) => side.key === 'send');
	const how = optOut.key === 'sendOptOut' ? 'List' : "An Earlier Node's Items";
	const nodeTimes =
		send?.medianSendNodeMs && optOut.medianSendNodeMs
			? `; the Send node itself ${number(optOut.medianSendNodeMs)} ms against ${number(send.medianSendNodeMs)} ms ` +
				`without the table (${round2(optOut.medianSendNodeMs / send.medianSendNodeMs)}×), ` +
				`n8n's Data table node and the rest of the run the remainder`
			: '';
	return [
		`- ${number(size.items)} recipients with the opt-out Data Table (${how}): ${number(optOut.optedOut)} output ` +
			`"Not sent: opted out", ${number(optOut.received)} messages received by the service, none to an ` +
			`opted-out number (checked every run)${nodeTimes}`,
	];
}

/** The page's section of the run. */
function section(results: Results): string {
	const lines = [
		START,
		`Run finished at ${results.measuredAt.slice(0, 16).replace('T', ' ')} UTC: \`${results.command}\`, n8n ${results.n8n}, ` +
			`medians of ${results.reps} runs per side, sides alternating; load average (1, 5, 15 min) ` +
			`${results.loadAverage.atStart.map((v) => v.toFixed(2)).join(', ')} at the start, ` +
			`${results.loadAverage.atEnd.map((v) => v.toFixed(2)).join(', ')} at the end.`,
		'',
	];
	for (const size of results.sizes) lines.push(...sizeTable(size), '', ...targetLines(size), '');
	lines.push(END);
	return lines.join('\n');
}

/** Writes results-n8n.json and the page's section (between its markers). */
export function writeResults(root: string, results: Results): void {
	writeFileSync(
		join(root, 'dev', 'bench', 'results-n8n.json'),
		`${JSON.stringify(results, null, '\t')}\n`,
	);
	const page = join(root, 'dev', 'docs', 'benchmarks.md');
	const text = readFileSync(page, 'utf8');
	const start = text.indexOf(START);
	const end = text.indexOf(END);
	if (start < 0 || end < 0) throw new Error(`${page} has no real n8n results markers`);
	writeFileSync(page, text.slice(0, start) + section(results) + text.slice(end + END.length));
	for (const size of results.sizes)
		console.log(`\n${sizeTable(size).join('\n')}\n${targetLines(size).join('\n')}`);
}
