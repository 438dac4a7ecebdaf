/**
 * What a run writes: dev/bench/results.json (the run, the targets and every row with its
 * figures) and the results section of dev/docs/benchmarks.md (between its two markers; the rest of the
 * page is written by hand).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';

import type { Check, Row } from './rows.mts';
import { round } from './sides.mts';

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
	const lines = [
		"| Row | node | floor | floor sending through n8n's HTTP helper | fetch | n8n's HTTP helper beyond fetch | the node's own |",
		'|---|---|---|---|---|---|---|',
		...bulk.map(
			(r) =>
				`| ${r.name} | ${String(r.cpuMs)} | ${String(r.floorCpuMs)} | ${String(r.floorWithN8nHttpCpuMs)} | ${String(r.fetchCpuMs)} | ${String(r.n8nHttpHelperBeyondFetchCpuMs)} | ${String(r.nodeOwnCpuMs)} |`,
		),
	];
	return `### Where the bulk rows' time goes (CPU ms of the measured process)

n8n's HTTP helper beyond fetch = (floor sending through n8n's HTTP helper) − floor − fetch; the node's own = node − (floor sending through n8n's HTTP helper). CPU time moves much less than wall time with the machine's load.

${lines.join('\n')}
`;
}

function figures(rows: Row[]): string {
	const skip = new Set(['name', 'description', 'unit', 'measured', 'compared', 'checks', 'met']);
	return rows
		.map((r) => {
			const extras = Object.entries(r)
				.filter(([key]) => !skip.has(key))
				.map(
					([key, value]) =>
						`${key} ${Array.isArray(value) ? `[${value.join(', ')}]` : String(value)}`,
				)
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
