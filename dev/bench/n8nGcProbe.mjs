/**
 * Loaded into n8n's main process by the recordings bench (`node --expose-gc --import <this file>`,
 * dev/bench/n8nGc.mts): on SIGUSR2 it prints the process's memory (process.memoryUsage()), collects
 * all garbage (a full collection, V8's gc()) and prints it again, on one line of n8n's output. What
 * a full collection frees was garbage; what stays is held. n8n itself does not use SIGUSR2.
 */
const MB = 1024 * 1024;
const figures = () =>
	Object.fromEntries(
		Object.entries(process.memoryUsage()).map(([key, bytes]) => [
			key,
			Math.round((bytes / MB) * 10) / 10,
		]),
	);

process.on('SIGUSR2', () => {
	const before = figures();
	globalThis.gc?.();
	console.log(
		`[bench-gc] ${JSON.stringify({ pid: process.pid, at: Date.now(), before, after: figures() })}`,
	);
});
