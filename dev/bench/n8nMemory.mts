/**
 * n8n's memory during a run of the real n8n, read from Linux's /proc: the resident set (VmRSS) of
 * n8n's main process and, separately, of its JavaScript task runner (the Code node runs there),
 * sampled every few milliseconds. Growth = the peak during the run − the RSS just before it. The
 * kernel's high-water mark (VmHWM, reset before the run through clear_refs) catches a peak between
 * two samples, as the bench's own event loop (which also serves the sandbox) may sample late.
 */
import { readFileSync, writeFileSync } from 'node:fs';

import { descendants } from '../harness/n8n/processes.mts';

const SAMPLE_MS = 20;

/** A figure of /proc/<pid>/status in bytes (undefined once the process has ended). */
function statusOf(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
	try {
		const text = readFileSync(`/proc/${pid}/status`, 'utf8');
		const match = new RegExp(`${field}:\\s+(\\d+)\\s+kB`).exec(text);
		return match ? Number(match[1]) * 1024 : undefined;
	} catch {
		return undefined;
	}
}

const rssOf = (pid: number) => statusOf(pid, 'VmRSS');

/** Resets the process's high-water mark to its current RSS (Linux: "5" to clear_refs). */
function resetPeak(pid: number): void {
	try {
		writeFileSync(`/proc/${pid}/clear_refs`, '5');
	} catch {
		// not allowed here: the samples alone are the peak
	}
}

const commandOf = (pid: number): string => {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
	} catch {
		return '';
	}
};

/** n8n's processes below this one: the main process (`n8n start`) and its task runners. */
export function n8nProcesses(): { main: number; runners: number[] } {
	const all = descendants(process.pid);
	const main = all.find((pid) => / start\s*$/.test(commandOf(pid)) && /n8n/.test(commandOf(pid)));
	if (main === undefined) throw new Error('no n8n main process (`n8n start`) below this process');
	// n8n starts the runner on demand and may stop it when idle, so it is looked up at every sample.
	const runners = descendants(main).filter((pid) => /task-runner|runner/.test(commandOf(pid)));
	return { main, runners };
}

export interface MemoryFigures {
	/** n8n's main process: RSS just before the run, and its peak growth over it (MB). */
	mainBeforeMB: number;
	mainGrowthMB: number;
	/** The task runner(s): RSS before (0 when no runner was running) and peak growth (MB). */
	runnerBeforeMB: number;
	runnerGrowthMB: number;
}

const MB = 1024 * 1024;
const round = (bytes: number) => Math.round((bytes / MB) * 10) / 10;

const runnersRss = (runners: number[]) => runners.reduce((sum, pid) => sum + (rssOf(pid) ?? 0), 0);

/** Starts sampling; `stop()` answers the figures of the run. */
export function sampleMemory(): { stop(): MemoryFigures } {
	const { main, runners } = n8nProcesses();
	for (const pid of [main, ...runners]) resetPeak(pid);
	const mainBefore = rssOf(main) ?? 0;
	const runnerBefore = runnersRss(runners);
	let mainPeak = mainBefore;
	let runnerPeak = runnerBefore;
	const sample = () => {
		mainPeak = Math.max(mainPeak, rssOf(main) ?? 0, statusOf(main, 'VmHWM') ?? 0);
		const now = n8nProcesses().runners;
		const hwm = now.reduce((sum, pid) => sum + (statusOf(pid, 'VmHWM') ?? 0), 0);
		runnerPeak = Math.max(runnerPeak, runnersRss(now), hwm);
	};
	const timer = setInterval(sample, SAMPLE_MS);
	return {
		stop() {
			clearInterval(timer);
			sample();
			return {
				mainBeforeMB: round(mainBefore),
				mainGrowthMB: round(mainPeak - mainBefore),
				runnerBeforeMB: round(runnerBefore),
				runnerGrowthMB: round(runnerPeak - runnerBefore),
			};
		},
	};
}

/** A line of V8's `--trace-gc`: `[pid:0x…]  1234 ms: Scavenge 421.9 (499.0) -> 398.6 (506.0) MB, …`. */
const GC_LINE =
	/^\[(\d+):(0x[0-9a-f]+)\]\s+\d+ ms: ([A-Za-z -]+?)(?: \([a-z ]+\))? ([\d.]+) \(([\d.]+)\) -> ([\d.]+) \(([\d.]+)\) MB/;

/** The main thread's pause of a collection: `…MB, pooled: 0 MB, 12.34 / 0.00 ms`. */
const GC_PAUSE = /MB, (?:pooled: [\d.]+ MB, )?([\d.]+) \/ [\d.]+ ms/;

interface HeapTrace {
	kinds: Map<string, number>;
	/** Milliseconds the collections of each kind paused the main thread. */
	pauses: Map<string, number>;
	first: number;
	last: number;
	reserved: number;
}

/**
 * The garbage collections of n8n's main process (`pid`) in its log lines of one run (`npm run bench --
 * --real-n8n --trace-gc`): how many of each kind, and the heap in use before the first and after the
 * last, with the largest heap V8 had reserved, and how long each kind paused n8n. Shows whether a growth is live data or garbage no full
 * collection (Mark-Compact) has reclaimed yet. The process's worker threads have heaps of their own
 * (another isolate in the same lines): the largest heap is the main one.
 */
export function gcSummary(lines: string[], pid: number): string {
	const heaps = new Map<string, HeapTrace>();
	for (const line of lines) {
		const match = GC_LINE.exec(line);
		if (!match || Number(match[1]) !== pid) continue;
		const [, , isolate, kind, before, reservedBefore, after, reservedAfter] = match;
		const heap = heaps.get(isolate) ?? {
			kinds: new Map<string, number>(),
			pauses: new Map<string, number>(),
			first: Number(before),
			last: 0,
			reserved: 0,
		};
		heaps.set(isolate, heap);
		heap.kinds.set(kind, (heap.kinds.get(kind) ?? 0) + 1);
		const pause = Number(GC_PAUSE.exec(line)?.[1] ?? 0);
		heap.pauses.set(kind, (heap.pauses.get(kind) ?? 0) + pause);
		heap.last = Number(after);
		heap.reserved = Math.max(heap.reserved, Number(reservedBefore), Number(reservedAfter));
	}
	const main = [...heaps.values()].sort((a, b) => b.reserved - a.reserved)[0];
	if (main === undefined) return 'no garbage collection of the main process during the run';
	const counts = [...main.kinds]
		.map(([kind, count]) => `${count} ${kind} (${Math.round(main.pauses.get(kind) ?? 0)} ms)`)
		.join(', ');
	return `${counts}; heap in use ${main.first} → ${main.last} MB, at most ${main.reserved} MB reserved`;
}
