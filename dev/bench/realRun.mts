/**
 * The frame every bench in the real n8n runs in: the sandbox and n8n (started by the bench, maybe
 * more than once: `run.n8n` is the one running) stopped on exit or a signal; a failure logged with
 * n8n's last lines; how long it took; the exit code.
 */
import type { Sandbox } from '../sandbox/index.mts';
import type { N8nServer } from '../harness/n8n/server.mts';
import { installExitHandlers } from '../harness/n8n/processes.mts';

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
