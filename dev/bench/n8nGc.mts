/**
 * n8n's garbage collector as the recordings bench sees it: why V8 started its full collections
 * (from `--trace-incremental-marking`), and a full collection on demand with the process's memory
 * before and after it (n8nGcProbe.mjs, loaded into n8n's main process with `--expose-gc`).
 */
import { fileURLToPath } from 'node:url';

import { waitUntil } from '../harness/n8n/workflows.mts';

const PROBE = fileURLToPath(new URL('./n8nGcProbe.mjs', import.meta.url));

/** Node.js flags for n8n's main process: the GC trace, and the probe that collects on SIGUSR2. */
export const GC_FLAGS = [
	'--trace-gc',
	'--trace-incremental-marking',
	'--expose-gc',
	'--import',
	PROBE,
];

/** `[pid:0x…:0]  1234 ms: [IncrementalMarking] Start (external memory pressure): …`. */
const MARKING_START =
	/^\[(\d+):0x[0-9a-f]+(?::\d+)?\]\s+\d+ ms: \[IncrementalMarking\] Start \(([^)]+)\)/;

/**
 * Why V8 started the full collections (Mark-Compact) of n8n's main process (`pid`) in one run's log
 * lines, by reason: "external memory pressure" means the bytes of Buffers outside the JavaScript
 * heap reached V8's limit, so the dead ones were awaiting that collection.
 */
export function markingReasons(lines: string[], pid: number): Record<string, number> {
	const reasons: Record<string, number> = {};
	for (const line of lines) {
		const match = MARKING_START.exec(line);
		if (match && Number(match[1]) === pid) reasons[match[2]] = (reasons[match[2]] ?? 0) + 1;
	}
	return reasons;
}

/** process.memoryUsage() of n8n's main process in MB. */
export interface MemoryUsage {
	rss: number;
	heapTotal: number;
	heapUsed: number;
	external: number;
	arrayBuffers: number;
}

/** n8n's main process memory just before and just after a full collection. */
export interface Collected {
	before: MemoryUsage;
	after: MemoryUsage;
}

const PROBE_LINE = '[bench-gc] ';

/** The probe's answers in n8n's log lines: its pid and time (ms since the epoch, this machine's clock). */
function probeAnswers(
	lines: string[],
	pid: number,
): Array<Collected & { at: number; index: number }> {
	const answers = [];
	for (const [index, line] of lines.entries()) {
		if (!line.startsWith(PROBE_LINE)) continue;
		const answer = JSON.parse(line.slice(PROBE_LINE.length)) as Collected & {
			pid: number;
			at: number;
		};
		if (answer.pid === pid) answers.push({ ...answer, index });
	}
	return answers;
}

/**
 * Has n8n's main process (`pid`, started with GC_FLAGS) collect all garbage; answers its memory.
 * The answer is found by its time: n8n's kept log lines are capped, so their count is no marker.
 */
export async function collectGarbage(
	n8n: { readonly logs: string[] },
	pid: number,
): Promise<Collected & { at: number }> {
	const sent = Date.now();
	process.kill(pid, 'SIGUSR2');
	const answer = await waitUntil(
		() => probeAnswers(n8n.logs, pid).find((a) => a.at >= sent),
		30_000,
		50,
	);
	if (!answer) throw new Error(`n8n (pid ${pid}) did not answer SIGUSR2 within 30 s`);
	const { before, after, at } = answer;
	return { before, after, at };
}

/** n8n's log lines since the probe answered at `since` (all kept lines when that one is gone). */
export function linesSince(lines: string[], pid: number, since: number): string[] {
	const start = probeAnswers(lines, pid).find((a) => a.at === since);
	return start ? lines.slice(start.index + 1) : lines;
}
