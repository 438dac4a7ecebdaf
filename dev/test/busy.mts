/**
 * The time a timed check is judged on: the wall time, or, when the machine is overloaded (load
 * average above its cores), the CPU time this process spent, since wall time then mostly measures
 * the other processes. The code under test runs in this process (the sandbox too), so its CPU
 * time is its work.
 */
import os from 'node:os';

export interface Judged {
	ms: number;
	busy: boolean;
	load: number;
}

export function judgedMs(wallMs: number, cpuMs: number): Judged {
	const load = os.loadavg()[0];
	const busy = load > os.availableParallelism();
	return { ms: busy ? Math.min(wallMs, cpuMs) : wallMs, busy, load };
}

/** Runs `work`, answering its wall and CPU time (ms) and the time it is judged on. */
export async function timed<T>(
	work: () => Promise<T>,
): Promise<{ value: T; wall: number; cpu: number } & Judged> {
	const cpuBefore = process.cpuUsage();
	const started = performance.now();
	const value = await work();
	const wall = performance.now() - started;
	const used = process.cpuUsage(cpuBefore);
	const cpu = (used.user + used.system) / 1000;
	return { value, wall, cpu, ...judgedMs(wall, cpu) };
}
