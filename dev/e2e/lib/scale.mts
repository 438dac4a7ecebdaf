/**
 * Queue mode at work: the trigger registered from the main process with the webhook processor's
 * URL and a burst of call-ended callbacks run on the workers; a 10,000-recipient Bulk SMS send on a
 * worker; Download Recording with binary data in the database, read by the next node.
 */
import { createHash } from 'node:crypto';

import type { Sandbox } from '../../sandbox/index.mts';
import type { Cluster } from './cluster.mts';
import { byStatus, nodeOutputs, waitForExecutions, type StoredExecution } from './executions.mts';
import type { Postgres } from './postgres.mts';
import {
	bulkSmsSend,
	callEndedTrigger,
	chain,
	createAndActivate,
	inParallel,
	node,
	productionUrl,
	waitUntil,
	webhookTrigger,
	type Check,
	type Log,
} from '../../harness/n8n/workflows.mts';

/**
 * Whether `registered` is the trigger's production URL with its secret. The trigger adds its own
 * query parameters after the secret (`vnt`, and `vnt_prev` holding the callback URL it replaced).
 */
function isTriggerUrl(registered: string, url: string, secret: string): boolean {
	const parsed = new URL(registered);
	return (
		`${parsed.origin}${parsed.pathname}` === url &&
		parsed.searchParams.get('secret') === secret &&
		parsed.searchParams.get('vnt') === 'live'
	);
}

export interface QueueRun {
	cluster: Cluster;
	postgres: Postgres;
	sandbox: Sandbox;
	credentials: { vn: string; sms: string; postgres: string };
	check: Check;
	log: Log;
	/** Measured figures, printed at the end. */
	figures: Record<string, unknown>;
}

export interface ActiveTrigger {
	workflowId: string;
	number: string;
	url: string;
	/** The number's callback before activation. */
	previousUrl: string;
}

const FOREIGN_CALLBACK = 'https://crm.example.invalid/calls';
/**
 * Calls in progress at once (each sends its call-ended callback when it ends). n8n's webhook processor
 * answers a callback only once the execution is stored and queued: on 2 busy cores about 0.1-0.3 s
 * each, so 32 callbacks at once wait 4 s and more, near the sandbox's 5 s limit (docs/queue-mode.md).
 */
export const CALLS_AT_ONCE = 4;

/** Which worker ran each execution, as counts by worker name. */
export function spreadOver(
	cluster: Cluster,
	executions: StoredExecution[],
): Record<string, number> {
	const spread: Record<string, number> = {};
	for (const execution of executions) {
		const worker = cluster.workerOf(execution.id) ?? 'no worker';
		spread[worker] = (spread[worker] ?? 0) + 1;
	}
	return spread;
}

/** Activates a call-ended trigger from the main process and checks what it registered on the number. */
export async function activateTrigger(
	run: QueueRun,
	name: string,
	number: string,
	next: Array<ReturnType<typeof node>> = [],
): Promise<ActiveTrigger> {
	const { cluster, sandbox, check } = run;
	const previousUrl = String(sandbox.control.virtualnum(number)?.callback_url ?? '');
	const trigger = callEndedTrigger('Call ended', [number], run.credentials.vn, `queue-${number}`);
	sandbox.control.clearRequests();
	const created = await createAndActivate(cluster, chain(name, [trigger, ...next]));
	const url = productionUrl(cluster, trigger);
	const registered = await waitUntil(
		() => String(sandbox.control.virtualnum(number)?.callback_url ?? '').startsWith(url),
		30_000,
	);
	const updates = sandbox.control
		.requests({ operation: 'update_virtualnum' })
		.map((r) => r.body as Record<string, string>)
		.filter((body) => body.virtualnum === number)
		.map((body) => String(body.callback_url));
	check(
		registered && updates.length === 1 && isTriggerUrl(updates[0], url, `queue-${number}`),
		`${name}: activated on the main process, the trigger registered the webhook processor's production URL on ${number} (${updates.map((u) => u.replace(/secret=[^&]+/, 'secret=…')).join(', ') || 'nothing'})`,
	);
	return { workflowId: created.id, number, url, previousUrl };
}

/** The call IDs of the trigger's items in the executions, with how many times each appears. */
export async function callIdsOf(
	run: QueueRun,
	executions: StoredExecution[],
): Promise<Map<string, number>> {
	const outputs = await nodeOutputs(
		run.postgres,
		executions.map((e) => e.id),
		'Call ended',
	);
	const seen = new Map<string, number>();
	for (const items of outputs.values())
		for (const item of items)
			seen.set(String(item.json.callId), (seen.get(String(item.json.callId)) ?? 0) + 1);
	return seen;
}

export async function triggerBurst(run: QueueRun, count: number): Promise<ActiveTrigger> {
	const { cluster, sandbox, check, log } = run;
	const number = '0722000100';
	sandbox.control.seed({
		virtualnum: { virtualnum: number, callback_url: FOREIGN_CALLBACK, callback_url_option: 2 },
	});
	const active = await activateTrigger(run, 'Queue: call ended', number);
	sandbox.control.clearCallbacks();
	log(`placing ${count} calls on ${number} (${CALLS_AT_ONCE} at once)…`);
	const placed = await placeTimedCalls(sandbox, number, count);
	const answerMs = placed.map((p) => p.ms).sort((a, b) => a - b);
	const percentile = (q: number) =>
		answerMs[Math.min(answerMs.length - 1, Math.floor(q * answerMs.length))];
	const callbacks = placed.flatMap((p) => p.callbacks);
	const firstSent = Math.min(...callbacks.map((c) => Date.parse(c.sentAt)));
	check(
		callbacks.length === count && callbacks.every((c) => c.responseStatus === 200),
		`burst: ${callbacks.length} call-ended callbacks reached the webhook processor, ${callbacks.filter((c) => c.responseStatus === 200).length} answered 200`,
	);
	const executions = await waitForExecutions(run.postgres, active.workflowId, count, 600_000);
	const statuses = byStatus(executions);
	check(
		executions.length === count && statuses.success === count,
		`burst: ${count} executions, ${JSON.stringify(statuses)}`,
	);
	await checkEachCallOnce(run, executions, placed);
	const lastStopped = Math.max(...executions.map((e) => Date.parse(String(e.stoppedAt))));
	const spread = spreadOver(cluster, executions);
	check(
		Object.keys(spread).filter((w) => w.startsWith('worker')).length === 2 && !spread['no worker'],
		`burst: the executions ran on the workers ${JSON.stringify(spread)}`,
	);
	run.figures.burst = {
		callbacks: count,
		callsAtOnce: CALLS_AT_ONCE,
		callbackAnsweredMs: { median: percentile(0.5), p95: percentile(0.95), max: answerMs.at(-1) },
		executions: statuses,
		spread,
		firstCallbackToLastFinishedMs: lastStopped - firstSent,
	};
	log(
		`burst: first callback to last finished execution ${((lastStopped - firstSent) / 1000).toFixed(1)} s, spread ${JSON.stringify(spread)}`,
	);
	return active;
}

/** `count` answered calls on the number, CALLS_AT_ONCE at a time, each with how long its callbacks took. */
async function placeTimedCalls(sandbox: QueueRun['sandbox'], number: string, count: number) {
	return await inParallel(
		Array.from({ length: count }, (_, i) => i),
		CALLS_AT_ONCE,
		async (i) => {
			const begun = Date.now();
			const answer = await sandbox.control.placeCall({
				virtualnum: number,
				caller: `05${String(30_000_000 + i)}`,
				answered: true,
				durationSec: 30 + (i % 60),
			});
			return { ...answer, ms: Date.now() - begun };
		},
	);
}

/** Every call's ID in exactly one execution. */
async function checkEachCallOnce(
	run: QueueRun,
	executions: Parameters<typeof callIdsOf>[1],
	placed: Array<{ call: { cdr_uniqueid: unknown } }>,
): Promise<void> {
	const { check } = run;
	const seen = await callIdsOf(run, executions);
	const expected = new Set(placed.map((p) => String(p.call.cdr_uniqueid)));
	const missing = [...expected].filter((id) => !seen.has(id));
	const twice = [...seen].filter(([, times]) => times > 1);
	check(
		missing.length === 0 && twice.length === 0 && seen.size === placed.length,
		`burst: every call ID exactly once (${seen.size} distinct, ${missing.length} missing, ${twice.length} duplicated)`,
	);
}

export async function bulkSend(run: QueueRun, recipients: number): Promise<void> {
	const { cluster, sandbox, check } = run;
	sandbox.control.setCredit(10_000_000);
	const path = 'queue-bulk-sms';
	const workflow = bulkSmsWorkflow(path, run.credentials.sms);
	const created = await createAndActivate(cluster, workflow);
	sandbox.control.clearRequests();
	const phones = Array.from({ length: recipients }, (_, i) => `05${String(20_000_000 + i)}`);
	const started = Date.now();
	const answer = await waitUntil(async () => {
		const res = await fetch(`${cluster.webhookUrl}/webhook/${path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ recipients: phones }),
		});
		return res.status === 200 ? res.status : undefined;
	}, 30_000);
	check(
		answer === 200,
		`bulk send: the webhook processor took the ${recipients} recipients (HTTP ${String(answer)})`,
	);
	const [execution] = await waitForExecutions(run.postgres, created.id, 1, 300_000);
	const requests = sandbox.control.requests({ operation: 'send_sms' });
	const messages = requests.flatMap((r) => r.body as Array<{ dest: string }>);
	const output =
		(await nodeOutputs(run.postgres, [execution.id], 'Bulk SMS')).get(execution.id) ?? [];
	const worker = cluster.workerOf(execution.id);
	check(
		execution.status === 'success' && worker !== undefined,
		`bulk send: the execution ran on ${worker ?? 'no worker'} (${execution.status})`,
	);
	check(
		requests.length === recipients / 100 &&
			new Set(messages.map((m) => m.dest)).size === recipients,
		`bulk send: ${requests.length} requests carrying ${messages.length} messages to ${new Set(messages.map((m) => m.dest)).size} recipients`,
	);
	check(
		output.length === recipients &&
			output.every((item) => item.json.message_id !== undefined && item.json.error === undefined),
		`bulk send: ${output.length} result items, each with its message_id`,
	);
	run.figures.bulkSend = {
		recipients,
		requests: requests.length,
		results: output.length,
		worker,
		webhookToFinishedMs: Date.parse(String(execution.stoppedAt)) - started,
	};
	await cluster.rest('POST', `/workflows/${created.id}/deactivate`, {});
}

/** A webhook taking a list of recipients, one item per recipient, Bulk SMS Send. */
function bulkSmsWorkflow(path: string, credentialId: string) {
	return chain('Queue: bulk SMS', [
		webhookTrigger('Recipients', path),
		node('One item per recipient', 'n8n-nodes-base.splitOut', 1, {
			fieldToSplitOut: 'body.recipients',
			include: 'noOtherFields',
			options: { destinationFieldName: 'phone' },
		}),
		bulkSmsSend(credentialId),
	]);
}

export async function recordingInDatabase(run: QueueRun, bytes: number): Promise<void> {
	const { cluster, sandbox, check, postgres } = run;
	sandbox.control.configure({ recordingBytes: bytes });
	const { call } = await sandbox.control.placeCall({
		virtualnum: '0722000104',
		caller: '0501234567',
		answered: true,
		durationSec: 90,
	});
	const direct = await fetch(
		`${sandbox.vnUrl}/api/?service=get_record_by_call_uuid&call_uuid=${encodeURIComponent(String(call.cdr_uniqueid))}`,
		{
			headers: { authorization: `Bearer ${sandbox.tokens.vn}` },
		},
	);
	const file = Buffer.from(await direct.arrayBuffer());
	const path = 'queue-recording';
	const workflow = recordingWorkflow(path, run.credentials.vn);
	const created = await createAndActivate(cluster, workflow);
	await waitUntil(
		async () =>
			(
				await fetch(`${cluster.webhookUrl}/webhook/${path}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ callId: call.cdr_uniqueid }),
				})
			).status === 200,
		30_000,
	);
	const [execution] = await waitForExecutions(postgres, created.id, 1, 120_000);
	const { binary, hashed, stored } = await recordingOutputs(postgres, execution.id);
	const expected = createHash('sha256').update(file).digest('hex');
	check(
		execution.status === 'success',
		`recording: the execution ran on ${cluster.workerOf(execution.id) ?? 'no worker'} (${execution.status})`,
	);
	check(
		String(binary?.id).startsWith('database:') &&
			binary?.fileName === `${String(call.cdr_uniqueid)}.wav` &&
			binary?.mimeType === 'audio/wav',
		`recording: the file is kept in the database (${String(binary?.id).replace(/:.*/, ':…')}, ${String(binary?.fileName)}, ${String(binary?.mimeType)}; binary_data holds ${stored})`,
	);
	check(
		hashed === expected && file.length >= bytes,
		`recording: the next node read the ${file.length}-byte file intact (SHA-256 ${String(hashed).slice(0, 12)}… = the service's ${expected.slice(0, 12)}…)`,
	);
	run.figures.recording = {
		mode: 'database',
		bytes: file.length,
		stored,
		worker: cluster.workerOf(execution.id),
	};
	await cluster.rest('POST', `/workflows/${created.id}/deactivate`, {});
}

/** A webhook taking a call ID, Download Recording, then n8n's Crypto node hashing the file. */
function recordingWorkflow(path: string, credentialId: string) {
	return chain('Queue: recording', [
		webhookTrigger('Call', path),
		node(
			'Download Recording',
			'n8n-nodes-virtualnum.virtualNumber',
			1,
			{
				resource: 'cdr',
				operation: 'downloadRecording',
				callUuid: '={{ $json.body.callId }}',
				fileFormat: 'wav',
				binaryPropertyName: 'data',
				options: {},
			},
			{
				credentials: { virtualnumApi: { id: credentialId, name: 'Virtual Number sandbox' } },
			},
		),
		node('Hash the file', 'n8n-nodes-base.crypto', 2, {
			action: 'hash',
			type: 'SHA256',
			binaryData: true,
			binaryPropertyName: 'data',
			dataPropertyName: 'sha256',
			encoding: 'hex',
		}),
	]);
}

/** The downloaded file (as n8n keeps it), its hash by the next node, and what binary_data holds. */
async function recordingOutputs(postgres: QueueRun['postgres'], executionId: string) {
	const binary = (await nodeOutputs(postgres, [executionId], 'Download Recording')).get(
		executionId,
	)?.[0]?.binary?.data;
	const hashed = (await nodeOutputs(postgres, [executionId], 'Hash the file')).get(executionId)?.[0]
		?.json.sha256;
	const stored = await postgres.sql(
		'n8n',
		`SELECT count(*) || ' file(s), ' || coalesce(sum("fileSize"), 0) || ' bytes' FROM binary_data WHERE "sourceId" = '${executionId}'`,
	);
	return { binary, hashed, stored };
}
