/**
 * Queue mode when processes go away: a worker killed (SIGKILL, by its pid) in the middle of a burst
 * of calls whose workflow sends an SMS, and the main process restarted with active triggers.
 * Everything stated in docs/queue-mode.md about these cases comes from what this measures.
 */
import type { Redis } from './redis.mts';
import { WORKER_CONCURRENCY } from './cluster.mts';
import {
	byStatus,
	executionErrors,
	executionsOf,
	nodeOutputs,
	waitForExecutions,
} from './executions.mts';
import {
	CALLS_AT_ONCE,
	activateTrigger,
	callIdsOf,
	type ActiveTrigger,
	type QueueRun,
} from './scale.mts';
import {
	chain,
	createAndActivate,
	deactivate,
	inParallel,
	node,
	sleep,
	waitUntil,
	webhookTrigger,
} from '../../harness/n8n/workflows.mts';

export interface CrashResult {
	trigger: ActiveTrigger;
	/** Every call placed during the burst: call ID and start time. */
	calls: Array<{ id: string; start: string }>;
	/** The executions the killed worker had logged as started and not finished (a lower bound). */
	runningAtKill: string[];
}

const SMS_DELAY_MS = 3000;

function smsAfterCall(run: QueueRun) {
	return node(
		'Thank the caller',
		'n8n-nodes-virtualnum.bulkSms',
		1,
		{
			resource: 'message',
			operation: 'send',
			sender: { __rl: true, mode: 'id', value: 'Shop24' },
			// The service's own field of the callback: the trigger's name for it is being renamed.
			to: '={{ $json.body.cdr_ani }}',
			message: '=Thanks for calling (call {{ $json.callId }}).',
			options: {},
		},
		{ credentials: { virtualnumSmsApi: { id: run.credentials.sms, name: 'SMS sandbox' } } },
	);
}

/** SMS messages the service received per call ID (read from the message text), since `since`. */
export function smsPerCall(run: QueueRun, since = 0): Map<string, number> {
	const counts = new Map<string, number>();
	for (const request of run.sandbox.control.requests({ operation: 'send_sms' })) {
		if (Date.parse(request.receivedAt) < since) continue;
		for (const message of request.body as Array<{ message: string }>) {
			const id = /call ([\d.]+)\)/.exec(message.message)?.[1];
			if (id) counts.set(id, (counts.get(id) ?? 0) + 1);
		}
	}
	return counts;
}

/** Polls Bull until none of the jobs is "active" any more; answers when, and Bull's reason for each. */
async function watchRelease(
	redis: Redis,
	jobs: string[],
	from: number,
): Promise<{ afterS: number; reasons: string[] } | undefined> {
	const released = await waitUntil(
		async () => {
			for (const job of jobs)
				if ((await redis.command('LPOS', 'bull:jobs:active', job)) !== '') return false;
			return true;
		},
		240_000,
		1000,
	);
	if (!released) return undefined;
	const reasons = await Promise.all(
		jobs.map(
			async (job) =>
				(await redis.command('HGET', `bull:jobs:${job}`, 'failedReason')) || '(job removed)',
		),
	);
	return { afterS: Math.round((Date.now() - from) / 1000), reasons };
}

export async function workerCrash(
	run: QueueRun,
	redis: Redis,
	calls: number,
): Promise<CrashResult> {
	const { cluster, sandbox, check, log } = run;
	const trigger = await activateTrigger(run, 'Queue: call ended, SMS', '0722000101', [
		smsAfterCall(run),
	]);
	const worker = cluster.workers[0];
	const running = () => [...worker.started].filter(([id]) => !worker.finished.has(id));
	// Every SMS slow: the worker is killed while it runs several executions.
	sandbox.control.injectFaults({ ...SLOW_SMS, count: 1_000_000 });
	const placing = placeManyCalls(sandbox, trigger.number, calls);
	await waitUntil(() => running().length >= 3, 60_000, 100);
	const atKill = running();
	const pid = await cluster.killWorker(0);
	const release = watchRelease(
		redis,
		atKill.map(([, job]) => job),
		Date.now(),
	);
	await sleep(5000);
	await cluster.startWorker(0);
	const placed = await placing;
	const answered = placed.filter((p) => p.callbacks.every((c) => c.responseStatus === 200)).length;
	check(
		answered === calls,
		`worker crash: ${answered} of ${calls} callbacks were answered 200 while ${worker.name} was down and back`,
	);
	const released = await release;
	sandbox.control.clearFaults();
	log(
		`worker crash: killed pid ${pid} while it ran ${atKill.length} executions; Bull released their jobs after ${String(released?.afterS)} s: ${JSON.stringify(released?.reasons)}`,
	);
	check(
		released,
		`worker crash: Bull took the killed worker's jobs out of "active" ${String(released?.afterS)} s after the kill (${[...new Set(released?.reasons)].join('; ')})`,
	);
	const settled = await waitForExecutions(run.postgres, trigger.workflowId, calls, 180_000);
	run.figures.workerCrash = {
		calls,
		killedPid: pid,
		loggedRunningAtKill: atKill.length,
		bullReleasedAfterS: released?.afterS,
		statusesAfterRelease: byStatus(settled),
	};
	return {
		trigger,
		calls: placed.map((p) => ({
			id: String(p.call.cdr_uniqueid),
			start: String(p.call.start_call),
		})),
		runningAtKill: atKill.map(([id]) => id),
	};
}

/** `calls` answered calls on the number, CALLS_AT_ONCE at a time, each from its own caller. */
function placeManyCalls(sandbox: QueueRun['sandbox'], number: string, calls: number) {
	return inParallel(
		Array.from({ length: calls }, (_, i) => i),
		CALLS_AT_ONCE,
		async (i) =>
			await sandbox.control.placeCall({
				virtualnum: number,
				caller: `05${String(40_000_000 + i)}`,
				answered: true,
				durationSec: 20,
			}),
	);
}

/**
 * After the crash (and the main restart): every callback has one execution; the killed ones are
 * marked failed by n8n (their data replaced by the error, so they no longer say which call they
 * were: the succeeded ones do, and the rest is what was killed); no SMS went out twice; and every
 * call can be read back from the service with Call Record → Query.
 */
export async function crashAftermath(run: QueueRun, crash: CrashResult): Promise<void> {
	const { check, postgres } = run;
	const executions = await waitForExecutions(
		postgres,
		crash.trigger.workflowId,
		crash.calls.length,
		120_000,
	);
	const succeeded = executions.filter((e) => e.status === 'success');
	const failed = executions.filter((e) => e.status !== 'success');
	const errors = await executionErrors(
		postgres,
		failed.map((e) => e.id),
	);
	const seen = await callIdsOf(run, succeeded);
	const unaccounted = crash.calls.filter((call) => !seen.has(call.id));
	const twice = [...seen].filter(([, times]) => times > 1);
	check(
		executions.length === crash.calls.length &&
			twice.length === 0 &&
			unaccounted.length === failed.length,
		`worker crash: ${executions.length} executions for ${crash.calls.length} callbacks: ${succeeded.length} succeeded (each call once), ${failed.length} failed, one for each of the ${unaccounted.length} other calls`,
	);
	check(
		failed.length >= crash.runningAtKill.length &&
			failed.length <= WORKER_CONCURRENCY &&
			crash.runningAtKill.every((id) => failed.some((e) => e.id === id)),
		`worker crash: the failed ones are the killed worker's (${failed.map((e) => `${e.id} ${e.status}: "${(errors.get(e.id) ?? '').slice(0, 60)}…"`).join('; ')})`,
	);
	const sms = smsPerCall(run);
	const sentTwice = [...sms].filter(([, times]) => times > 1).length;
	check(
		sentTwice === 0 && [...seen.keys()].every((id) => sms.get(id) === 1),
		`worker crash: no SMS sent twice; each of the ${succeeded.length} succeeded executions sent its one SMS`,
	);
	const reached = unaccounted.filter((call) => sms.get(call.id) === 1).length;
	run.figures.killedExecutions = {
		failed: byStatus(failed),
		errors: [...new Set(errors.values())],
		smsReachedServiceBeforeKill: reached,
		smsNotSent: unaccounted.length - reached,
	};
	run.log(
		`worker crash: of the ${unaccounted.length} killed executions, ${reached} had already handed their SMS to the service, ${unaccounted.length - reached} had not`,
	);
	await callsReadBack(run, crash);
}

/** The calls of the crash window, read back from the service by a workflow (Call Record → Query). */
async function callsReadBack(run: QueueRun, crash: CrashResult): Promise<void> {
	const { cluster, check, postgres } = run;
	const from = crash.calls.map((call) => call.start).sort()[0];
	const path = 'queue-calls-since';
	const created = await createAndActivate(
		cluster,
		chain('Queue: calls of a time window', [
			webhookTrigger('Window', path),
			node(
				'Calls',
				'n8n-nodes-virtualnum.virtualNumber',
				1.1,
				{
					resource: 'cdr',
					operation: 'query',
					queryMode: 'sql',
					sql: `=SELECT cdr_uniqueid FROM webserviceview WHERE cdr_ddi = '${crash.trigger.number}' AND start_call >= '{{ $json.body.from }}' LIMIT 5000`,
					options: {},
				},
				{
					credentials: {
						virtualnumApi: { id: run.credentials.vn, name: 'Virtual Number sandbox' },
					},
				},
			),
		]),
	);
	await waitUntil(
		async () =>
			(
				await fetch(`${cluster.webhookUrl}/webhook/${path}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ from }),
				})
			).status === 200,
		30_000,
	);
	const [execution] = await waitForExecutions(postgres, created.id, 1, 60_000);
	const rows = (await nodeOutputs(postgres, [execution.id], 'Calls')).get(execution.id) ?? [];
	const ids = new Set(rows.map((row) => String(row.json.callId)));
	check(
		crash.calls.every((call) => ids.has(call.id)),
		`worker crash: Call Record → Query since ${from} reads back all ${crash.calls.length} calls of the burst from the service, the killed ones included (${ids.size} rows)`,
	);
	await deactivate(cluster, created.id);
}

/** Stops and starts the main process with both triggers active; calls while it is down still run. */
export async function mainRestart(
	run: QueueRun,
	triggers: ActiveTrigger[],
	crash: CrashResult,
): Promise<void> {
	const { cluster, sandbox, check, log } = run;
	const urlOf = (number: string) => String(sandbox.control.virtualnum(number)?.callback_url ?? '');
	const before = triggers.map((t) => urlOf(t.number));
	const since = Date.now();
	const stoppedMs = await cluster.stopMain();
	check(
		triggers.every((t, i) => urlOf(t.number) === before[i]),
		'main restart: stopping the main process left the numbers pointing at the triggers',
	);
	const down = await sandbox.control.placeCall({
		virtualnum: triggers[0].number,
		caller: '0509999001',
		answered: true,
		durationSec: 12,
	});
	check(
		down.callbacks.length === 1 && down.callbacks[0].responseStatus === 200,
		`main restart: a call while the main process was down reached the webhook processor (HTTP ${String(down.callbacks[0]?.responseStatus)})`,
	);
	const startedS = await cluster.startMain();
	await sleep(3000);
	const lifecycle = sandbox.control
		.requests({ service: 'vn' })
		.filter((r) => Date.parse(r.receivedAt) >= since)
		.map((r) => r.operation);
	check(
		!lifecycle.includes('update_virtualnum') &&
			triggers.every((t, i) => urlOf(t.number) === before[i]),
		`main restart: no re-registration (service calls at start-up: ${JSON.stringify(countOf(lifecycle))}); the numbers still point at the triggers`,
	);
	await crashAftermath(run, crash);
	await callsAroundRestart(run, triggers, down);
	for (const t of triggers) await deactivate(cluster, t.workflowId);
	const restored = await waitUntil(
		() => triggers.every((t) => urlOf(t.number) === t.previousUrl),
		30_000,
	);
	check(
		restored,
		`main restart: after deactivation the numbers point where they did before (${triggers.map((t) => `${t.number} → ${urlOf(t.number) || '(none)'}`).join(', ')})`,
	);
	run.figures.mainRestart = { stoppedMs, startedS, serviceCallsAtStart: countOf(lifecycle) };
	log(`main restart: stopped in ${stoppedMs} ms, ready again after ${startedS} s`);
}

/** The call made while the main process was down and one made after its restart both ran. */
async function callsAroundRestart(
	run: QueueRun,
	triggers: ActiveTrigger[],
	down: Awaited<ReturnType<QueueRun['sandbox']['control']['placeCall']>>,
): Promise<void> {
	const { sandbox, check } = run;
	const after = await sandbox.control.placeCall({
		virtualnum: triggers[0].number,
		caller: '0509999002',
		answered: true,
		durationSec: 12,
	});
	const ran = await waitUntil(
		async () => {
			const seen = await callIdsOf(
				run,
				(await executionsOf(run.postgres, triggers[0].workflowId)).filter(
					(e) => e.status === 'success',
				),
			);
			return seen.has(String(down.call.cdr_uniqueid)) && seen.has(String(after.call.cdr_uniqueid));
		},
		60_000,
		1000,
	);
	check(
		ran,
		'main restart: the call made while the main process was down and one made after its restart both ran successfully',
	);
}

function countOf(list: string[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const entry of list) counts[entry] = (counts[entry] ?? 0) + 1;
	return counts;
}

const SLOW_SMS = {
	kind: 'slow',
	delayMs: SMS_DELAY_MS,
	server: 'sms',
	operation: 'send_sms',
} as const;
