/**
 * What a run of realN8n.mts writes: dev/bench/results-n8n.json (every run's figures, the medians,
 * the targets) and the "In the real n8n" results section of dev/docs/benchmarks.md (between its
 * markers; the rest of the page is written by hand).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { MemoryFigures } from './n8nMemory.mts';

export type SideKey =
	| 'send'
	| 'sendSummary'
	| 'sendSummary1000'
	| 'sendOptOut'
	| 'sendOptOutNodeItems'
	| 'codeHttp'
	| 'perItem'
	| 'editFields'
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

interface Target {
	target: string;
	check: 'atLeast' | 'atMost';
	limit: number;
	figure: number;
	met: boolean;
	/** How far from the limit, when missed. */
	missedBy?: string;
}

export interface SizeSummary {
	items: number;
	sides: SideSummary[];
	targets: Target[];
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

export const median = (list: number[]) => {
	const sorted = [...list].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const round2 = (value: number) => Math.round(value * 100) / 100;

function target(text: string, check: Target['check'], limit: number, figure: number): Target {
	const value = round2(figure);
	const met = check === 'atLeast' ? value >= limit : value <= limit;
	const missedBy = met
		? undefined
		: check === 'atLeast'
			? `${Math.round((1 - value / limit) * 100)} % short (${value} against ≥ ${limit})`
			: `${Math.round((value / limit - 1) * 100)} % over (${value} against ≤ ${limit})`;
	return { target: text, check, limit, figure: value, met, ...(missedBy ? { missedBy } : {}) };
}

/** A target on two sides' medians, checked when both were measured (and from `from` recipients on). */
interface TargetSpec {
	text: string;
	check: Target['check'];
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

const TARGETS: TargetSpec[] = [
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
	const targets: Target[] = [];
	for (const spec of TARGETS) {
		const [side, other] = [of(spec.side), of(spec.other)];
		if (side && other && items >= (spec.from ?? 0))
			targets.push(target(spec.text, spec.check, spec.limit, spec.figure(side, other)));
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
			side.key === 'noOp' || side.key === 'editFields' || !send
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
				`- ${number(size.items)} recipients, ${t.target}: ${t.figure} → ${t.met ? 'met' : `**missed**: ${t.missedBy}`}`,
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
export function section(results: Results): string {
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
