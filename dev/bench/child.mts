/**
 * One measurement, in a fresh process (forked by dev/bench/run.mts), so that one measurement's heap
 * does not pollute the next one's memory figures. The sandbox runs in the parent; this process
 * holds only n8n-core with the package (or n8n's own nodes, or the plain client of a baseline).
 * How a run is measured: dev/bench/measure.mts.
 *
 * By hand (the measurement goes to stdout), e.g. with a CPU profile of the measured run:
 *   BENCH_PROFILE=send.cpuprofile node --import tsx --expose-gc dev/bench/child.mts --task '{"kind":"smsNode",…}'
 * (the tasks are built in dev/bench/benchmarks.mts; most need the sandbox's URLs and tokens, so the
 * usual way is BENCH_PROFILE naming a directory with npm run bench -- --only …).
 */
import type { Measurement } from './measure.mts';
import { cdrFetch, cdrNode, type CdrTask } from './tasks/cdr.mts';
import { recordingFetch, recordingNode, type RecordingTask } from './tasks/recording.mts';
import {
	smsCodeBatches,
	smsFetch,
	smsFloor,
	smsHttpPerItem,
	smsNode,
	type SmsTask,
} from './tasks/sms.mts';
import { triggerFunction, webhookPath, type TriggerTask } from './tasks/trigger.mts';

export type { Measurement } from './measure.mts';
export type Task = SmsTask | CdrTask | RecordingTask | TriggerTask;

export async function runTask(task: Task): Promise<Measurement> {
	switch (task.kind) {
		case 'smsNode':
			return await smsNode(task);
		case 'smsFloor':
			return await smsFloor(task);
		case 'smsFetch':
			return await smsFetch(task);
		case 'smsHttpPerItem':
			return await smsHttpPerItem(task);
		case 'smsCodeBatches':
			return await smsCodeBatches(task);
		case 'cdrNode':
			return await cdrNode(task);
		case 'cdrFetch':
			return await cdrFetch(task);
		case 'recordingNode':
		case 'recordingHttpNode':
			return await recordingNode(task);
		case 'recordingFetch':
			return await recordingFetch(task);
		case 'trigger':
			return await triggerFunction(task);
		case 'webhookPath':
			return await webhookPath(task);
	}
}

// Forked by run.mts: one task from argv, its measurement back over IPC.
if (process.argv[2] === '--task') {
	const task = JSON.parse(process.argv[3]) as Task;
	// Run by hand (no IPC channel, e.g. under --cpu-prof): the measurement goes to stdout.
	const reply = (message: object, code: number) =>
		process.send
			? process.send(message, () => process.exit(code))
			: (console.log(JSON.stringify(message, null, 2)), process.exit(code));
	runTask(task).then(
		(measurement) => reply({ ok: true, measurement }, 0),
		(error: unknown) => reply({ ok: false, error: (error as Error).stack ?? String(error) }, 1),
	);
}
