/**
 * examples/crm-sync-call-records.json in the queue-mode cluster, against the real Postgres: its
 * tables from examples/crm-sync-call-records.sql in their own database, the example imported as a
 * user would (credentials remapped), activated, calls placed, the rows checked; then one callback
 * delivered twice (as a service retrying would): the call's row is updated, not duplicated.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { CallbackRecord } from '../../sandbox/index.mts';
import { byStatus, executionsOf } from './executions.mts';
import type { QueueRun } from './scale.mts';
import { ROOT_DIR, readExample } from '../../harness/n8n/install.mts';
import { deactivate, waitUntil } from '../../harness/n8n/workflows.mts';

export const CRM_DATABASE = 'crm';
const EXAMPLE = 'crm-sync-call-records';

interface CallRow {
	call_id: string;
	caller_number: string;
	virtual_number: string;
	call_status: string;
	duration_sec: number;
	started_at: string;
	synced_at: string;
}
interface ContactRow {
	phone: string;
	first_call_at: string;
	last_call_at: string;
	last_call_id: string;
}

function loadExample(credentials: Record<string, string>): Record<string, unknown> {
	const workflow = JSON.parse(readExample(`${EXAMPLE}.json`)) as {
		id?: string;
		nodes: Array<{ credentials?: Record<string, { id: string; name: string }> }>;
	};
	for (const n of workflow.nodes)
		for (const [type, ref] of Object.entries(n.credentials ?? {}))
			n.credentials![type] = { id: credentials[type], name: ref.name };
	delete workflow.id;
	return workflow as unknown as Record<string, unknown>;
}

const rows = async <T,>(run: QueueRun, table: string) =>
	(await run.postgres.json<T[] | null>(
		CRM_DATABASE,
		`SELECT json_agg(t ORDER BY 1) FROM ${table} t`,
	)) ?? [];

async function waitForSuccesses(
	run: QueueRun,
	workflowId: string,
	count: number,
): Promise<Record<string, number>> {
	const list = await waitUntil(
		async () => {
			const found = await executionsOf(run.postgres, workflowId);
			return found.length >= count &&
				found.every((e) => e.status !== 'new' && e.status !== 'running')
				? found
				: undefined;
		},
		120_000,
		500,
	);
	return byStatus(list ?? (await executionsOf(run.postgres, workflowId)));
}

export async function crmSync(run: QueueRun): Promise<void> {
	const { cluster, sandbox, check, postgres } = run;
	await postgres.sql('postgres', `CREATE DATABASE ${CRM_DATABASE}`);
	await postgres.sql(
		CRM_DATABASE,
		readFileSync(join(ROOT_DIR, 'examples', `${EXAMPLE}.sql`), 'utf8'),
	);
	const numbers = sandbox.control.virtualnums().map((record) => record.virtualnum);
	const before = new Map(
		numbers.map((n) => [n, String(sandbox.control.virtualnum(n)?.callback_url ?? '')]),
	);
	const created = await cluster.rest<{ id: string; versionId: string }>(
		'POST',
		'/workflows',
		loadExample({ virtualnumApi: run.credentials.vn, postgres: run.credentials.postgres }),
	);
	await cluster.rest('POST', `/workflows/${created.id}/activate`, { versionId: created.versionId });
	const registered = await waitUntil(
		() =>
			numbers.every((n) =>
				String(sandbox.control.virtualnum(n)?.callback_url ?? '').startsWith(
					`${cluster.webhookUrl}/webhook/`,
				),
			),
		60_000,
	);
	check(
		registered,
		`crm sync: the example, activated, pointed all ${numbers.length} numbers of the account at the webhook processor`,
	);

	const calls = await placeCalls(sandbox);
	const { callRows, ids } = await checkRows(run, created.id, calls);
	await replayFirstCallback(
		run,
		calls[0].callbacks[0],
		created.id,
		callRows.find((r) => r.call_id === ids[0])!,
		ids[2],
	);
	await checkRestored(run, created.id, numbers, before);
}

type PlacedCall = Awaited<ReturnType<QueueRun['sandbox']['control']['placeCall']>>;

/**
 * Two calls from one caller (the second unanswered), one from another; a second apart, as the
 * service's times are in whole seconds.
 */
async function placeCalls(sandbox: QueueRun['sandbox']): Promise<PlacedCall[]> {
	const calls: PlacedCall[] = [];
	for (const [virtualnum, caller, answered] of [
		['0722000102', '0541110001', true],
		['0722000103', '0541110002', true],
		['0722000102', '0541110001', false],
	] as const) {
		if (calls.length > 0) await new Promise((resolve) => setTimeout(resolve, 1100));
		calls.push(await sandbox.control.placeCall({ virtualnum, caller, answered, durationSec: 75 }));
	}
	return calls;
}

/** One row per call in calls, one per caller in contacts (the repeat caller's last call the latest). */
async function checkRows(run: QueueRun, workflowId: string, calls: PlacedCall[]) {
	const { check } = run;
	const first = await waitForSuccesses(run, workflowId, 3);
	const callRows = await rows<CallRow>(run, 'calls');
	const contactRows = await rows<ContactRow>(run, 'contacts');
	const ids = calls.map((c) => String(c.call.cdr_uniqueid));
	check(first.success === 3, `crm sync: three successful executions ${JSON.stringify(first)}`);
	check(
		callRows.length === 3 &&
			ids.every((id, i) =>
				callRows.some(
					(r) =>
						r.call_id === id &&
						r.caller_number === calls[i].call.cdr_ani &&
						r.call_status === calls[i].call.call_status,
				),
			),
		`crm sync: one row per call in calls (${callRows.map((r) => `${r.call_id} ${r.caller_number} ${r.call_status}`).join('; ')})`,
	);
	const repeat = contactRows.find((r) => r.phone === '0541110001');
	check(
		contactRows.length === 2 && repeat?.last_call_id === ids[2],
		`crm sync: one row per caller in contacts, the repeat caller's last call is the latest (${contactRows.map((r) => `${r.phone} last ${r.last_call_id}`).join('; ')})`,
	);
	return { callRows, ids };
}

/** Deactivated, every number has its previous callback back, restored once. */
async function checkRestored(
	{ cluster, sandbox, check }: QueueRun,
	workflowId: string,
	numbers: string[],
	before: Map<string, string>,
): Promise<void> {
	const deactivatedAt = Date.now();
	await deactivate(cluster, workflowId);
	const restored = await waitUntil(
		() =>
			numbers.every(
				(n) => String(sandbox.control.virtualnum(n)?.callback_url ?? '') === before.get(n),
			),
		60_000,
	);
	check(restored, 'crm sync: deactivation gave every number its previous callback back');
	// n8n deletes the trigger's two webhooks (GET, POST) at the same time: the numbers are restored once.
	await new Promise((resolve) => setTimeout(resolve, 3000));
	const restores = sandbox.control
		.requests({ operation: 'update_virtualnum' })
		.filter((r) => Date.parse(r.receivedAt) >= deactivatedAt);
	check(
		restores.length === numbers.length,
		`crm sync: each number restored once (${restores.length} updates for ${numbers.length} numbers)`,
	);
}

/** The first call's callback again, as a service retrying it would: updated, not duplicated. */
async function replayFirstCallback(
	run: QueueRun,
	callback: CallbackRecord,
	workflowId: string,
	rowBefore: CallRow,
	latestId: string,
): Promise<void> {
	const { check } = run;
	const res = await fetch(callback.url, {
		method: callback.method,
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(callback.body),
	});
	check(
		res.status === 200,
		`crm sync: the same call-ended callback delivered a second time was taken (HTTP ${res.status})`,
	);
	const second = await waitForSuccesses(run, workflowId, 4);
	const callRows = await rows<CallRow>(run, 'calls');
	const again = callRows.filter((r) => r.call_id === rowBefore.call_id);
	check(
		second.success === 4 &&
			callRows.length === 3 &&
			again.length === 1 &&
			Date.parse(again[0].synced_at) > Date.parse(rowBefore.synced_at),
		`crm sync: the call ${rowBefore.call_id} arriving twice updated its row (synced_at ${rowBefore.synced_at} → ${again[0]?.synced_at}), still ${callRows.length} rows`,
	);
	const contacts = await rows<ContactRow>(run, 'contacts');
	check(
		contacts.length === 2 &&
			contacts.find((r) => r.phone === '0541110001')?.last_call_id === latestId,
		"crm sync: the older call arriving again did not move the caller's last call back",
	);
	run.figures.crmSync = { calls: callRows.length, contacts: contacts.length, executions: second };
}
