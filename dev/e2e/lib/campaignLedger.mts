/**
 * The campaign ledger examples (examples/sms-ledger-*.json) in a real n8n 2.40 with its Data Tables,
 * set up as docs/bulk-sms-node.md tells a user: the Data Table created with the columns the examples
 * write, the delivery-report workflow published, then
 * - the campaign to three numbers, one of which the sandbox reports failed (it ends in 0000): one
 *   row per message, with the campaign ID the Send node gave it; a report that reaches n8n before
 *   the campaign wrote its row keeps its status;
 * - the daily summary while no report has come (all pending), the reports arriving through the
 *   trigger (rows delivered / failed), the summary again (2 delivered, 1 failed, 0 pending);
 * - the re-send form: only the failed recipient gets the message again, as the campaign
 *   "re-send of …", and a second submit sends nothing.
 * Delivery reports wait in the sandbox until flushed, so each step sees the ledger as it expects.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';

import type { Sandbox } from '../../sandbox/index.mts';
import {
	createTable,
	exampleSecret,
	importExample,
	publishAndWait,
	runFromTrigger,
	tableRows,
	type Credentials,
	type Imported,
} from './fieldTrigger.mts';
import type { N8nServer } from '../../harness/n8n/server.mts';
import { executionsOf, finished, type StoredDetail } from '../../harness/n8n/executions.mts';
import { ROOT_DIR } from '../../harness/n8n/install.mts';
import { waitUntil, type Check, type Log } from '../../harness/n8n/workflows.mts';

type Row = Record<string, unknown>;
interface StoredRun {
	resultData: { runData: Record<string, Array<{ data?: { main?: Array<Row[] | null> } }>> };
}

const flatted = createRequire(join(ROOT_DIR, 'dev', 'e2e', 'package.json'))('flatted') as {
	parse(text: string): unknown;
};

const TABLE = 'SMS campaign ledger';
/** The number of the campaign example the sandbox reports FAILED (a dest ending in 0000). */
const FAILING = /5550000$/;

interface Ledger {
	n8n: N8nServer;
	sandbox: Sandbox;
	check: Check;
	project: string;
	table: string;
	workflows: Record<'campaign' | 'reports' | 'summary' | 'resend', Imported>;
}

export async function campaignLedgerRuns(
	n8n: N8nServer,
	sandbox: Sandbox,
	credentials: Credentials,
	check: Check,
	log: Log,
): Promise<void> {
	const project = (await n8n.rest<{ id: string }>('GET', '/projects/personal')).id;
	const workflows = {
		campaign: await importExample(n8n, 'sms-ledger-campaign.json', credentials),
		reports: await importExample(n8n, 'sms-ledger-delivery-reports.json', credentials),
		summary: await importExample(n8n, 'sms-ledger-daily-summary.json', credentials),
		resend: await importExample(n8n, 'sms-ledger-resend-failed.json', credentials),
	};
	const table = await createTable(n8n, project, TABLE, ledgerColumns(workflows.campaign));
	const ledger: Ledger = { n8n, sandbox, check, project, table, workflows };
	await publishAndWait(n8n, workflows.reports);
	const { callbackDelayMs } = sandbox.control.configure({});
	sandbox.control.configure({ callbackDelayMs: 3_600_000 });
	try {
		const campaignId = await campaignRun(ledger);
		await reportsArrive(ledger, campaignId, 4);
		await summaryCounts(ledger, campaignId, { delivered: 2, failed: 1, pending: 0 });
		await resendFailed(ledger, campaignId);
		await reportsArrive(ledger, `re-send of ${campaignId}`, 5);
	} finally {
		sandbox.control.configure({ callbackDelayMs });
		await n8n.rest('POST', `/workflows/${workflows.reports.id}/deactivate`, {});
	}
	log('campaign ledger examples done');
}

/** The columns the user creates: those the campaign's ledger node lists (n8n's resource mapper schema). */
function ledgerColumns(campaign: Imported): string[] {
	const write = campaign.nodes.find((node) => node.type === 'n8n-nodes-base.dataTable')!;
	const { columns } = write.parameters as { columns: { schema: Array<{ id: string }> } };
	return columns.schema.map((column) => column.id);
}

/**
 * The campaign: three messages, three rows with its campaign ID. The report of the first message is
 * sent to the trigger before the campaign runs (as when a report overtakes the ledger's write): its
 * row keeps the status, and the summary counts one delivered and two pending.
 */
async function campaignRun(ledger: Ledger): Promise<string> {
	const { n8n, sandbox, check } = ledger;
	sandbox.control.clearRequests();
	const early = await earlyReport(ledger);
	const run = await runFromTrigger(n8n, ledger.workflows.campaign);
	const messages = sentMessages(sandbox);
	const rows = await ledgerRows(ledger);
	const campaignId = String(rows[0]?.campaignId);
	const statuses = rows.map((row) => (row.messageId === early ? row.status : !row.status));
	check(
		run?.status === 'success' &&
			messages.length === 3 &&
			/^spring-sale-\d{4}-\d{2}-\d{2}$/.test(campaignId) &&
			messages.every((message) =>
				String(message.callback_url).endsWith(`&campaignId=${campaignId}`),
			) &&
			rows.length === 3 &&
			rows.every((row) => row.campaignId === campaignId && row.sentAt && row.message) &&
			new Set(rows.map((row) => row.messageId)).size === 3 &&
			statuses.join() === 'delivered,true,true',
		`sms-ledger-campaign: 3 messages sent, 3 ledger rows of campaign ${campaignId}, the one reported before the campaign wrote it still delivered, the others pending (${run?.status ?? 'no execution'}; rows ${JSON.stringify(rows.map((row) => [row.messageId, row.recipient, row.status]))})`,
	);
	await summaryCounts(ledger, campaignId, { delivered: 1, failed: 0, pending: 2 });
	return campaignId;
}

/** A DELIVERED report, as the sandbox sends it, for the message the campaign will send first. */
async function earlyReport(ledger: Ledger): Promise<string> {
	const { n8n, sandbox, workflows } = ledger;
	// The sandbox numbers messages one after the other (dev/sandbox/state.mts).
	const last = Math.max(100000000, ...sandbox.control.messages().map((m) => m.message_id));
	const messageId = last + 1;
	const trigger = workflows.reports.nodes[0];
	const url = `${n8n.url}/webhook/${String(trigger.webhookId)}/webhook?secret=${exampleSecret(workflows.reports)}`;
	const now = '2026-03-02 10:00:04';
	const body = { message_id: messageId, dest: '972501234567', sender: 'VirtualNum' };
	const answer = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ ...body, status: 'DELIVERED', status_time: now, sendtime: now }),
	});
	await waitUntil(async () => (await ledgerRows(ledger)).length === 1 || undefined, 60_000);
	if (answer.status !== 200) throw new Error(`the early report was answered ${answer.status}`);
	return String(messageId);
}

/** Flushes the held delivery reports; each reaches the trigger and fills its row. */
async function reportsArrive(ledger: Ledger, campaignId: string, total: number): Promise<void> {
	const { n8n, sandbox, check } = ledger;
	const callbacks = await sandbox.control.flushScheduled();
	const runs = await waitUntil(async () => {
		const list = await executionsOf(n8n, ledger.workflows.reports.id);
		return list.filter((run) => run.status === 'success').length >= total ? list : undefined;
	}, 60_000);
	const rows = (await ledgerRows(ledger)).filter((row) => row.campaignId === campaignId);
	const reported = rows.every(
		(row) =>
			row.status === (FAILING.test(String(row.recipient)) ? 'failed' : 'delivered') &&
			row.statusText === String(row.status).toUpperCase() &&
			row.reportedAt,
	);
	check(
		callbacks.every((callback) => callback.responseStatus === 200) &&
			runs !== undefined &&
			rows.length > 0 &&
			reported,
		`sms-ledger-delivery-reports: ${callbacks.length} report(s) through the published trigger updated the rows of ${campaignId} (${JSON.stringify(rows.map((row) => [row.recipient, row.status, row.statusText]))})`,
	);
}

/** The daily summary's item of the campaign has the expected counts. */
async function summaryCounts(
	ledger: Ledger,
	campaignId: string,
	expected: { delivered: number; failed: number; pending: number },
): Promise<void> {
	const run = await runFromTrigger(ledger.n8n, ledger.workflows.summary);
	const items = nodeItems(run, 'Summary per campaign');
	const item = items.find((candidate) => candidate.campaignId === campaignId);
	const messages = expected.delivered + expected.failed + expected.pending;
	const text = `${campaignId}: ${messages} messages, ${expected.delivered} delivered, ${expected.failed} failed, ${expected.pending} pending`;
	ledger.check(
		run?.status === 'success' &&
			item?.messages === messages &&
			item.delivered === expected.delivered &&
			item.failed === expected.failed &&
			item.pending === expected.pending &&
			item.other === 0 &&
			item.text === text,
		`sms-ledger-daily-summary: "${String(item?.text)}" (${run?.status ?? 'no execution'}; ${items.length} campaign item(s))`,
	);
}

/** The re-send form sends only to the failed recipient, once, and marks its row. */
async function resendFailed(ledger: Ledger, campaignId: string): Promise<void> {
	const { sandbox, check } = ledger;
	const form = await publishForm(ledger);
	sandbox.control.clearRequests();
	const first = await submitForm(ledger, form, campaignId);
	const resent = sentMessages(sandbox);
	const rows = await ledgerRows(ledger);
	const old = rows.find((row) => row.campaignId === campaignId && row.status === 'failed');
	const fresh = rows.filter((row) => row.campaignId === `re-send of ${campaignId}`);
	check(
		first.answer === 200 &&
			first.run?.status === 'success' &&
			resent.length === 1 &&
			FAILING.test(String(resent[0].dest)) &&
			String(resent[0].callback_url).endsWith(
				`campaignId=${encodeURIComponent(`re-send of ${campaignId}`)}`,
			) &&
			old?.resentAs === `re-send of ${campaignId}` &&
			fresh.length === 1 &&
			fresh[0].recipient === old.recipient,
		`sms-ledger-resend-failed: the published form sent again only to the failed ${String(resent[0]?.dest)}, as "re-send of ${campaignId}", its row marked (answer ${first.answer}; sent ${resent.length}; ${JSON.stringify(fresh.map((row) => [row.messageId, row.recipient]))}; ${itemCounts(first.run)})`,
	);
	sandbox.control.clearRequests();
	const second = await submitForm(ledger, form, campaignId);
	check(
		second.run?.status === 'success' && sentMessages(sandbox).length === 0,
		`sms-ledger-resend-failed: a second submit of the form sends nothing (${sentMessages(sandbox).length} sent; ${second.run?.status ?? 'no execution'})`,
	);
	await ledger.n8n.rest('POST', `/workflows/${ledger.workflows.resend.id}/deactivate`, {});
}

/** Publishes the re-send workflow and answers its form's production URL once n8n serves it. */
async function publishForm(ledger: Ledger): Promise<string> {
	const { n8n, workflows } = ledger;
	await n8n.rest('POST', `/workflows/${workflows.resend.id}/activate`, {
		versionId: workflows.resend.versionId,
	});
	const { options } = workflows.resend.nodes[0].parameters as { options: { path: string } };
	const url = `${n8n.url}/form/${options.path}`;
	await waitUntil(async () => ((await fetch(url)).status === 200 ? true : undefined), 60_000);
	return url;
}

/** Submits the form as a browser does (its one field, the campaign ID) and waits for the run. */
async function submitForm(ledger: Ledger, url: string, campaignId: string) {
	const { n8n, workflows } = ledger;
	const before = (await executionsOf(n8n, workflows.resend.id)).length;
	const body = new FormData();
	body.append('field-0', campaignId);
	const answer = (await fetch(url, { method: 'POST', body })).status;
	const runs = await waitUntil(async () => {
		const list = await executionsOf(n8n, workflows.resend.id);
		return list.length > before && list.every(finished) ? list : undefined;
	}, 60_000);
	const run = runs ? await n8n.rest<StoredDetail>('GET', `/executions/${runs[0].id}`) : undefined;
	return { answer, run };
}

async function ledgerRows(ledger: Ledger): Promise<Row[]> {
	return await tableRows(ledger.n8n, ledger.project, ledger.table);
}

function sentMessages(sandbox: Sandbox): Array<{ dest: string; callback_url?: string }> {
	return sandbox.control
		.requests({ operation: 'send_sms' })
		.flatMap((request) => (request.body ?? []) as Array<{ dest: string; callback_url?: string }>);
}

/** How many items each node output, for a failure's message. */
function itemCounts(detail: StoredDetail | undefined): string {
	if (!detail) return 'no execution';
	const data = flatted.parse(detail.data) as StoredRun & { resultData: { error?: unknown } };
	const counts = Object.keys(data.resultData.runData).map(
		(node) => `${node}: ${nodeItems(detail, node).length}`,
	);
	return [...counts, JSON.stringify(data.resultData.error ?? null)].join(', ');
}

/** The items a node output in a stored execution (its first run, main output). */
function nodeItems(detail: StoredDetail | undefined, node: string): Row[] {
	if (!detail) return [];
	const data = flatted.parse(detail.data) as StoredRun;
	const items = data.resultData.runData[node]?.[0]?.data?.main?.[0] ?? [];
	return items.map((item) => (item as { json: Row }).json);
}
