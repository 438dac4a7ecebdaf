/**
 * What the benchmarks in the real n8n (the e2e's install of n8n 2.40.7: realN8n.mts, routeCall.mts,
 * pollRecordings.mts) share: the frame they run in (the sandbox and n8n stopped on exit or a signal,
 * a failure logged with n8n's last lines, the exit code), credentials created through n8n's REST API,
 * and n8n's memory during a run, read from Linux's /proc: the resident set (VmRSS) of n8n's main
 * process and, separately, of its JavaScript task runner (the Code node runs there), sampled every
 * 20 ms. Growth = the peak during the run − the RSS just before it. The kernel's high-water mark
 * (VmHWM, reset before the run through clear_refs) catches a peak between two samples, as the
 * bench's own event loop (which also serves the sandbox) may sample late.
 */
import { readFileSync, writeFileSync } from 'node:fs';

import type { Sandbox } from '../sandbox/index.mts';
import { descendants, installExitHandlers } from '../harness/n8n/processes.mts';
import type { N8nServer } from '../harness/n8n/server.mts';

/** Creates a credential in n8n; answers its id. */
export async function credentialIn(
	n8n: N8nServer,
	name: string,
	type: string,
	data: Record<string, unknown>,
): Promise<string> {
	return (await n8n.rest<{ id: string }>('POST', '/credentials', { name, type, data })).id;
}

export interface RealRun {
	sandbox: Sandbox;
	n8n?: N8nServer;
}

/** Runs `bench` (it answers whether the run failed) and exits with its outcome. */
export async function runRealBench(
	run: RealRun,
	log: (line: string) => void,
	started: number,
	bench: () => Promise<boolean>,
): Promise<never> {
	const stop = async () => {
		await run.n8n?.stop();
		await run.sandbox.close();
	};
	installExitHandlers(stop, log);
	let failed = true;
	try {
		failed = await bench();
	} catch (error) {
		log(`FAIL ${(error as Error).stack ?? String(error)}`);
		if (run.n8n) log(run.n8n.logs.slice(-20).join('\n'));
	} finally {
		await stop();
	}
	log(`took ${((Date.now() - started) / 1000).toFixed(0)} s`);
	process.exit(failed ? 1 : 0);
}

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
