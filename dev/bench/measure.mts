/**
 * One measurement in the child process: warm up, collect garbage, then one run: wall time, CPU time
 * of this process, and the peak RSS growth over the RSS just before the run (sampled every 2 ms for
 * the memory rows, 10 ms for the others, and the kernel's own high-water mark when the run raised it).
 *
 * Profiles of the measured run only (not of the start-up or the warm-up):
 *   BENCH_PROFILE=<file.cpuprofile>        CPU profile (Chrome DevTools, speedscope…)
 *   BENCH_HEAP_PROFILE=<file.heapprofile>  sampled allocations still alive at the end of the run
 *                                          (a name ending .all.heapprofile, or BENCH_HEAP_ALL=1:
 *                                          every sampled allocation, collected or not; a name ending
 *                                          .promoted.heapprofile, or BENCH_HEAP_PROMOTED=1: those
 *                                          that outlived the young generation, collected later or
 *                                          not: what grows the old space)
 *   BENCH_BREAKDOWN=1                      peak growth of the V8 heap and of the buffers outside it
 */
import { writeFileSync } from 'node:fs';

export interface Measurement {
	wallMs: number;
	cpuMs: number;
	/** Peak RSS during the run minus RSS just before it, in bytes. */
	peakRssGrowth: number;
	rssBefore: number;
	/** What the run produced, to check it did the work (items, rows, bytes…). */
	produced: number;
	extra?: Record<string, number | string>;
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

async function settleHeap(): Promise<void> {
	for (let i = 0; i < 3; i++) {
		gc();
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

type Post = (method: string, params?: object) => Promise<unknown>;

async function inspector(): Promise<{ post: Post; close(): void }> {
	const { Session } = await import('node:inspector');
	const session = new Session();
	session.connect();
	const post: Post = (method, params) =>
		new Promise<unknown>((resolve, reject) =>
			session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
		);
	return { post, close: () => session.disconnect() };
}

interface Profiler {
	stop(): Promise<void>;
}

async function cpuProfiler(file: string): Promise<Profiler> {
	const { post, close } = await inspector();
	await post('Profiler.enable');
	await post('Profiler.setSamplingInterval', { interval: 200 });
	await post('Profiler.start');
	return {
		async stop() {
			const { profile } = (await post('Profiler.stop')) as { profile: object };
			writeFileSync(file, JSON.stringify(profile));
			close();
		},
	};
}

/** Two sampling heap profilers would share one sampler: the live and the all-allocations views come from two runs of the env var. */
async function heapProfiler(file: string): Promise<Profiler> {
	const { post, close } = await inspector();
	const all = file.endsWith('.all.heapprofile') || process.env.BENCH_HEAP_ALL === '1';
	// Allocations that outlived the young generation, collected later or not: what grows the old space.
	const promoted =
		file.endsWith('.promoted.heapprofile') || process.env.BENCH_HEAP_PROMOTED === '1';
	await post('HeapProfiler.enable');
	await post('HeapProfiler.startSampling', {
		samplingInterval: 16 * 1024,
		includeObjectsCollectedByMajorGC: all || promoted,
		includeObjectsCollectedByMinorGC: all,
	});
	return {
		async stop() {
			const { profile } = (await post('HeapProfiler.stopSampling')) as { profile: object };
			writeFileSync(file, JSON.stringify(profile));
			close();
		},
	};
}

/** Measures `run` (after `warm`): wall, CPU, peak RSS growth; with `breakdown`, where the memory was. */
export async function measure(
	warm: () => Promise<unknown>,
	run: () => Promise<{ produced: number; extra?: Measurement['extra'] }>,
	options: { breakdown?: boolean } = {},
): Promise<Measurement> {
	// BENCH_BREAKDOWN=1: where the memory was, for any task (the recording rows always report it).
	if (process.env.BENCH_BREAKDOWN) options = { ...options, breakdown: true };
	await warm();
	await settleHeap();
	const rssBefore = process.memoryUsage.rss();
	const memory = sampleMemory(rssBefore, Boolean(options.breakdown));
	const profilers: Profiler[] = [];
	if (process.env.BENCH_PROFILE) profilers.push(await cpuProfiler(process.env.BENCH_PROFILE));
	if (process.env.BENCH_HEAP_PROFILE)
		profilers.push(await heapProfiler(process.env.BENCH_HEAP_PROFILE));
	const cpu = process.cpuUsage();
	const started = performance.now();
	const result = await run();
	const wallMs = performance.now() - started;
	const used = process.cpuUsage(cpu);
	for (const profiler of profilers) await profiler.stop();
	const { peak, parts } = memory.stop();
	const mb = (bytes: number) => Math.round((bytes / (1024 * 1024)) * 10) / 10;
	return {
		wallMs,
		cpuMs: (used.user + used.system) / 1000,
		peakRssGrowth: Math.max(0, peak - rssBefore),
		rssBefore,
		produced: result.produced,
		extra: {
			...result.extra,
			...(options.breakdown
				? {
						peakHeapUsedGrowthMB: mb(parts.heapUsed),
						peakExternalGrowthMB: mb(parts.external),
						peakArrayBuffersGrowthMB: mb(parts.arrayBuffers),
					}
				: {}),
		},
	};
}

/** Samples the RSS (and with `breakdown` where the memory is) until `stop()`, which gives the peaks. */
function sampleMemory(rssBefore: number, breakdown: boolean) {
	const highWaterBefore = process.resourceUsage().maxRSS * 1024;
	let peak = rssBefore;
	// Reading the RSS costs about 0.1 ms: every 2 ms where memory is the figure, every 10 ms otherwise.
	const sampler = setInterval(
		() => {
			const rss = process.memoryUsage.rss();
			if (rss > peak) peak = rss;
		},
		breakdown ? 2 : 10,
	);
	// Where the memory is: V8 heap, and buffers outside it (every 5 ms; costlier to read).
	const base = process.memoryUsage();
	const parts = { heapUsed: 0, external: 0, arrayBuffers: 0 };
	const detail = breakdown
		? setInterval(() => {
				const now = process.memoryUsage();
				for (const key of Object.keys(parts) as Array<keyof typeof parts>)
					parts[key] = Math.max(parts[key], now[key] - base[key]);
			}, 5)
		: undefined;
	return {
		stop() {
			clearInterval(sampler);
			if (detail) clearInterval(detail);
			peak = Math.max(peak, process.memoryUsage.rss());
			const highWaterAfter = process.resourceUsage().maxRSS * 1024;
			// The kernel's high-water mark catches a peak between two samples, when the run raised it.
			if (highWaterAfter > highWaterBefore) peak = Math.max(peak, highWaterAfter);
			return { peak, parts };
		},
	};
}

export const round3 = (value: number) => Math.round(value * 1000) / 1000;
