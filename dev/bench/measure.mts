/**
 * How a harness benchmark is measured. Every measurement runs in a fresh child process (this file,
 * forked with `--task`), so that one measurement's heap never pollutes another's memory figures: the
 * sandbox runs in the parent, the child holds only n8n-core with the package (and n8n's own nodes, or
 * the plain client of a baseline). The child warms up, collects garbage, then measures one run: wall
 * time, CPU time of the process, and the peak RSS growth over the RSS just before the run. The parent
 * runs the sides of a benchmark alternately (the order rotates every repetition, so a slow phase of
 * the machine hits every side) and keeps each side's runs.
 *
 * n8n's own nodes (HTTP Request, Code, Webhook) come from the e2e install (dev/e2e/node_modules,
 * n8n 2.40.7) when it is there (dev/harness/n8nInstall.mts); otherwise the rows needing them are
 * skipped with the reason.
 *
 * A CPU profile of one measurement: `node --cpu-prof --import tsx --expose-gc dev/bench/measure.mts
 * --task '<a task as run.mts logs it>'` (dev/docs/benchmarks.md, "Profiling").
 */
import { fork } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { INodeType, IVersionedNodeType } from 'n8n-workflow';

import { NodeTypes, loadPackage } from '../harness/engine.mts';
import {
	E2E_MODULES,
	installStatus,
	loadInstalledNodes,
	type InstalledNode,
} from '../harness/n8nInstall.mts';
import type { CallTask } from './calls.mts';
import type { SendTask } from './send.mts';

export type Task = SendTask | CallTask;

export interface Measurement {
	wallMs: number;
	cpuMs: number;
	/** Peak RSS during the run minus RSS just before it, in bytes. */
	peakRssGrowth: number;
	/** What the run produced, to check it did the work (items, rows, bytes…). */
	produced: number;
	extra?: Record<string, number | string>;
}

export const MB = 1024 * 1024;

// ---- in the child ----------------------------------------------------------------------------------

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

/** Measures `run` (after `warm`): wall, CPU, peak RSS growth; with `breakdown`, where the memory was. */
export async function measure(
	warm: () => Promise<unknown>,
	run: () => Promise<{ produced: number; extra?: Measurement['extra'] }>,
	options: { breakdown?: boolean } = {},
): Promise<Measurement> {
	await warm();
	for (let i = 0; i < 3; i++) {
		gc();
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
	const rssBefore = process.memoryUsage.rss();
	const memory = sampleMemory(rssBefore, Boolean(options.breakdown));
	const cpu = process.cpuUsage();
	const started = performance.now();
	const result = await run();
	const wallMs = performance.now() - started;
	const used = process.cpuUsage(cpu);
	const { peak, parts } = memory.stop();
	const breakdown: Record<string, number> = options.breakdown
		? {
				peakHeapUsedGrowthMB: toMB(parts.heapUsed),
				peakArrayBuffersGrowthMB: toMB(parts.arrayBuffers),
			}
		: {};
	return {
		wallMs,
		cpuMs: (used.user + used.system) / 1000,
		peakRssGrowth: Math.max(0, peak - rssBefore),
		produced: result.produced,
		extra: { ...result.extra, ...breakdown },
	};
}

/**
 * Samples the RSS (every 2 ms where memory is the figure, 10 ms otherwise: a read costs about
 * 0.1 ms) until `stop()`; the kernel's high-water mark catches a peak between two samples when the
 * run raised it. With `breakdown`, the V8 heap and the buffers outside it too.
 */
function sampleMemory(rssBefore: number, breakdown: boolean) {
	const highWaterBefore = process.resourceUsage().maxRSS * 1024;
	let peak = rssBefore;
	const sampler = setInterval(
		() => (peak = Math.max(peak, process.memoryUsage.rss())),
		breakdown ? 2 : 10,
	);
	// Where the memory is: V8 heap, and buffers outside it (every 5 ms; costlier to read).
	const base = process.memoryUsage();
	const parts = { heapUsed: 0, arrayBuffers: 0 };
	const detail = breakdown
		? setInterval(() => {
				const now = process.memoryUsage();
				parts.heapUsed = Math.max(parts.heapUsed, now.heapUsed - base.heapUsed);
				parts.arrayBuffers = Math.max(parts.arrayBuffers, now.arrayBuffers - base.arrayBuffers);
			}, 5)
		: undefined;
	return {
		stop() {
			clearInterval(sampler);
			clearInterval(detail);
			peak = Math.max(peak, process.memoryUsage.rss());
			const highWaterAfter = process.resourceUsage().maxRSS * 1024;
			if (highWaterAfter > highWaterBefore) peak = Math.max(peak, highWaterAfter);
			return { peak, parts };
		},
	};
}

/** Runs one task (the kinds of send.mts and calls.mts). */
async function runTask(task: Task): Promise<Measurement> {
	if (task.kind.startsWith('sms'))
		return await (await import('./send.mts')).runSendTask(task as SendTask);
	return await (await import('./calls.mts')).runCallTask(task as CallTask);
}

// Forked by the parent: one task from argv, its measurement back over IPC (or to stdout by hand).
if (process.argv[2] === '--task') {
	const reply = (message: object, code: number) =>
		process.send
			? process.send(message, () => process.exit(code))
			: (console.log(JSON.stringify(message, null, 2)), process.exit(code));
	runTask(JSON.parse(process.argv[3]) as Task).then(
		(measurement) => reply({ ok: true, measurement }, 0),
		(error: unknown) => reply({ ok: false, error: (error as Error).stack ?? String(error) }, 1),
	);
}

// ---- n8n's own nodes, in the child -------------------------------------------------------------

const BASE_PACKAGE = 'n8n-nodes-base';
export const HTTP_REQUEST = 'n8n-nodes-base.httpRequest';
export const CODE = 'n8n-nodes-base.code';
export const WEBHOOK = 'n8n-nodes-base.webhook';

/** Whether n8n's own nodes can be loaded here, and why not (checked without loading anything). */
export function baseNodesStatus():
	| { available: true; version: string }
	| { available: false; reason: string } {
	const status = installStatus([BASE_PACKAGE]);
	if (status.available) return { available: true, version: status.versions[BASE_PACKAGE] };
	return existsSync(join(E2E_MODULES, BASE_PACKAGE))
		? status
		: {
				available: false,
				reason:
					'n8n-nodes-base is not installed: dev/e2e/node_modules is absent or incomplete (see dev/docs/benchmarks.md, "n8n\'s own nodes")',
			};
}

let loaded: Record<string, INodeType | IVersionedNodeType> | undefined;

/** n8n's HTTP Request, Code and Webhook nodes (throws why they cannot be loaded). */
export function baseNodes(): Record<string, INodeType | IVersionedNodeType> {
	const status = baseNodesStatus();
	if (!status.available) throw new Error(status.reason);
	const node = (path: string, exported: string): InstalledNode => ({
		pkg: BASE_PACKAGE,
		file: join('dist', 'nodes', path),
		exported,
	});
	return (loaded ??= loadInstalledNodes({
		[HTTP_REQUEST]: node('HttpRequest/HttpRequest.node.js', 'HttpRequest'),
		[CODE]: node('Code/Code.node.js', 'Code'),
		[WEBHOOK]: node('Webhook/Webhook.node.js', 'Webhook'),
	}));
}

/** This package's node types and `extra` ones (bench-only nodes, n8n's own). */
export class BenchNodeTypes extends NodeTypes {
	constructor(
		loader: Awaited<ReturnType<typeof loadPackage>>,
		private readonly extra: Record<string, INodeType | IVersionedNodeType>,
	) {
		super(loader);
	}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		return this.extra[nodeType] ?? super.getByName(nodeType);
	}
}

export async function benchNodeTypes(
	extra: Record<string, INodeType | IVersionedNodeType>,
): Promise<BenchNodeTypes> {
	return new BenchNodeTypes(await loadPackage(), extra);
}

/** The latest version of one of n8n's nodes (what a user who adds it today gets). */
export function defaultVersion(type: string): number {
	const description = ((baseNodes()[type] as IVersionedNodeType).description ?? {}) as {
		defaultVersion?: number;
		version?: number | number[];
	};
	if (description.defaultVersion !== undefined) return description.defaultVersion;
	const version = description.version ?? 1;
	return Array.isArray(version) ? Math.max(...version) : version;
}

// ---- in the parent -------------------------------------------------------------------------------

const userFolder = mkdtempSync(join(os.tmpdir(), 'n8n-virtualnum-bench-'));
export const removeUserFolder = () => rmSync(userFolder, { recursive: true, force: true });

export function log(line: string): void {
	process.stderr.write(`${line}\n`);
}

/** Runs one task in a fresh process and returns its measurement. */
export function child(task: Task, label: string = task.kind): Promise<Measurement> {
	return new Promise((resolve, reject) => {
		const proc = fork(fileURLToPath(import.meta.url), ['--task', JSON.stringify(task)], {
			execArgv: ['--import', 'tsx', '--expose-gc'],
			// n8n-core keeps instance settings in N8N_USER_FOLDER: a throwaway one.
			env: { ...process.env, N8N_USER_FOLDER: userFolder },
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		});
		let answered = false;
		proc.on('message', (message: { ok: boolean; measurement?: Measurement; error?: string }) => {
			answered = true;
			if (message.ok && message.measurement) resolve(message.measurement);
			else reject(new Error(`${label} failed in the child process:\n${message.error}`));
		});
		proc.on('exit', (code) => {
			if (!answered) reject(new Error(`${label}: the child exited with ${code} without a result`));
		});
	});
}

export interface Side {
	runs: Measurement[];
	/** The requests the service received during each run. */
	requests: number[];
}

/** Every side `count` times, alternating, `prepare` before each run, the service's requests counted after it. */
export async function measureSides<K extends string>(
	label: string,
	count: number,
	sides: Record<K, () => Task>,
	prepare: () => void = () => undefined,
	countRequests: () => number = () => 0,
): Promise<Record<K, Side>> {
	const names = Object.keys(sides) as K[];
	const result = Object.fromEntries(
		names.map((name) => [name, { runs: [], requests: [] } as Side]),
	) as Record<K, Side>;
	for (let i = 0; i < count; i++) {
		const order = [...names.slice(i % names.length), ...names.slice(0, i % names.length)];
		for (const name of order) {
			prepare();
			const m = await child(sides[name](), `${label}-${name}-${i + 1}`);
			result[name].runs.push(m);
			result[name].requests.push(countRequests());
			log(
				`  ${label} ${name} #${i + 1}: ${round(m.wallMs)} ms (CPU ${round(m.cpuMs)} ms), peak RSS ` +
					`+${toMB(m.peakRssGrowth)} MB, ${m.produced} produced, ${result[name].requests.at(-1)} requests`,
			);
		}
	}
	return result;
}

export const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
export const round = (value: number, digits = 0) => Math.round(value * 10 ** digits) / 10 ** digits;
export const toMB = (bytes: number) => round(bytes / MB, 1);
export const medianOf = (side: Side, pick: (m: Measurement) => number) =>
	median(side.runs.map(pick));
/**
 * The wall time a side's figures use: the fastest of its runs. Other work on a shared machine only
 * ever adds time, and the sides alternate, so the fastest run of each side is the one closest to a
 * quiet machine (the rows keep the median beside it).
 */
export const wall = (side: Side) => Math.min(...side.runs.map((m) => m.wallMs));
export const medianWall = (side: Side) => round(medianOf(side, (m) => m.wallMs));
/** A rate's figure: the best of the runs, for the same reason. */
export const bestOf = (side: Side, key: string) =>
	Math.max(...side.runs.map((m) => Number(m.extra?.[key])));
export const cpu = (side: Side) => round(medianOf(side, (m) => m.cpuMs));
export const peakMB = (side: Side) => toMB(medianOf(side, (m) => m.peakRssGrowth));
export const extraOf = (side: Side, key: string) =>
	median(side.runs.map((m) => Number(m.extra?.[key])));
export const wallRuns = (side: Side) => side.runs.map((m) => round(m.wallMs));
export const peakRuns = (side: Side) => side.runs.map((m) => toMB(m.peakRssGrowth));
/** The 50th, 95th and 99th percentiles and the maximum of some latencies (ms, to the µs). */
export const percentiles = (latencies: number[]) => {
	const sorted = [...latencies].sort((a, b) => a - b);
	const at = (p: number) =>
		sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
	return {
		p50Ms: round(at(50), 3),
		p95Ms: round(at(95), 3),
		p99Ms: round(at(99), 3),
		maxMs: round(sorted[sorted.length - 1], 3),
	};
};

/**
 * Each side's figures for results.json: the fastest and median wall time, the CPU and peak memory
 * medians, the requests of the first run and every run's time.
 */
export function sideFigures(sides: Record<string, Side>): Record<string, unknown> {
	return Object.fromEntries(
		Object.entries(sides).map(([name, side]) => [
			name,
			{
				ms: round(wall(side)),
				medianMs: medianWall(side),
				cpuMs: cpu(side),
				peakRssGrowthMB: peakMB(side),
				requests: side.requests[0],
				runsMs: wallRuns(side),
				...(side.runs[0].extra?.peakHeapUsedGrowthMB === undefined
					? {}
					: {
							peakHeapUsedGrowthMB: round(extraOf(side, 'peakHeapUsedGrowthMB'), 1),
							peakArrayBuffersGrowthMB: round(extraOf(side, 'peakArrayBuffersGrowthMB'), 1),
						}),
			},
		]),
	);
}

/** `expected` when every run produced it, else what the first run produced. */
export function producedBy(side: Side, expected: number): number {
	return side.runs.every((m) => m.produced === expected) ? expected : side.runs[0].produced;
}
