/**
 * The runner's side of a measurement: each task in a fresh child process (dev/bench/child.mts), the
 * sides of one benchmark alternated (the order rotates every repetition, so a slow phase of the
 * machine hits every side), and the statistics of the results.
 */
import { fork } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Measurement, Task } from './child.mts';

const CHILD = fileURLToPath(new URL('./child.mts', import.meta.url));
export const MB = 1024 * 1024;

const userFolder = mkdtempSync(join(os.tmpdir(), 'n8n-virtualnum-bench-'));
export const removeUserFolder = () => rmSync(userFolder, { recursive: true, force: true });

export function log(line: string): void {
	process.stderr.write(`${line}\n`);
}

/**
 * BENCH_PROFILE / BENCH_HEAP_PROFILE naming a directory: each measurement writes its own profile
 * there, named after the benchmark, the side and the repetition.
 */
function profileEnv(label: string): Record<string, string> {
	const env: Record<string, string> = {};
	for (const [name, extension] of [
		['BENCH_PROFILE', 'cpuprofile'],
		['BENCH_HEAP_PROFILE', 'heapprofile'],
	] as const) {
		const dir = process.env[name];
		if (dir && existsSync(dir) && statSync(dir).isDirectory())
			env[name] = join(dir, `${label.replace(/[^\w.-]+/g, '_')}.${extension}`);
	}
	return env;
}

/** Runs one task in a fresh process and returns its measurement. */
export function child(task: Task, label: string = task.kind): Promise<Measurement> {
	return new Promise((resolve, reject) => {
		const proc = fork(CHILD, ['--task', JSON.stringify(task)], {
			execArgv: ['--import', 'tsx', '--expose-gc'],
			// n8n-core keeps instance settings in N8N_USER_FOLDER: a throwaway one.
			env: { ...process.env, N8N_USER_FOLDER: userFolder, ...profileEnv(label) },
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		});
		let answered = false;
		proc.on('message', (message: { ok: boolean; measurement?: Measurement; error?: string }) => {
			answered = true;
			if (message.ok && message.measurement) resolve(message.measurement);
			else reject(new Error(`${label} failed in the child process:\n${message.error}`));
		});
		proc.on('exit', (code) => {
			if (!answered)
				reject(new Error(`${label}: the child process exited with ${code} without a result`));
		});
	});
}

export interface Side {
	runs: Measurement[];
	/** The requests the service received during each run. */
	requests: number[];
}

/**
 * Runs every side `count` times, alternating (the order rotates each repetition), `prepare`
 * before every run; the requests the service received during each run are counted with `countRequests`.
 */
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
			const measurement = await child(sides[name](), `${label}-${name}-${i + 1}`);
			result[name].runs.push(measurement);
			result[name].requests.push(countRequests());
			log(
				`  ${label} ${name} #${i + 1}: ${round(measurement.wallMs)} ms (CPU ${round(measurement.cpuMs)} ms), peak RSS +${toMB(measurement.peakRssGrowth)} MB, ` +
					`${measurement.produced} produced, ${result[name].requests.at(-1)} requests`,
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

export const round = (value: number, digits = 0) => {
	const factor = 10 ** digits;
	return Math.round(value * factor) / factor;
};

export const toMB = (bytes: number) => round(bytes / MB, 1);

export const medianOf = (side: Side, pick: (m: Measurement) => number) =>
	median(side.runs.map(pick));
/**
 * The wall time a side's figures use: the fastest of its runs. Other work on a shared machine only
 * ever adds time, and the sides alternate, so the fastest run of each side is the one closest to a
 * quiet machine (on a quiet machine it is close to the median, which the rows keep beside).
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
