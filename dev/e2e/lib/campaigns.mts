/**
 * Bulk SMS → Send's Campaign options in a real n8n 2.40 with its Data Tables:
 * - a campaign that skips every spelling of the numbers in an opt-out Data Table, read by n8n's
 *   own Data table node and mapped into Skip Opted-Out Numbers → List (the way that works);
 * - the same option reading the Data Table itself: n8n refuses its Data Tables to a community
 *   node, and the run must fail with the package's clear error and send nothing;
 * - an advertisement as the sandbox receives it;
 * - Output: Summary with three bad numbers, which n8n puts on the error output.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';

import type { Sandbox } from '../../sandbox/index.mts';
import type { N8nServer } from '../../harness/n8n/server.mts';
import { runFromPinned } from '../../harness/n8n/executions.mts';
import { ROOT_DIR } from '../../harness/n8n/install.mts';
import { dataTableRows, node, type Check, type Log } from '../../harness/n8n/workflows.mts';

interface RunItem {
	json: Record<string, unknown>;
	pairedItem?: unknown;
}
interface StoredRun {
	resultData: {
		runData: Record<string, Array<{ data?: { main?: Array<RunItem[] | null> } }>>;
		error?: { message?: string; description?: string };
	};
}

const flatted = createRequire(join(ROOT_DIR, 'dev', 'e2e', 'package.json'))('flatted') as {
	parse(text: string): unknown;
};

/** Three opted-out numbers, each stored in another spelling than the campaign writes it. */
const OPTED_OUT = ['0541110010', '+972-54-111-0020', '972541110030'];
const RECIPIENTS = ['972541110010', '054-111-0020', '+972 54 111 0030', '0541110040'];

const ALL_RECIPIENTS = "={{ $('Start').all().map(item => item.json.to).join(', ') }}";

function send(credentialId: string, campaign: Record<string, unknown>, to = ALL_RECIPIENTS) {
	return node(
		'Send',
		'n8n-nodes-virtualnum.bulkSms',
		1.1,
		{
			resource: 'message',
			operation: 'send',
			sender: { __rl: true, mode: 'list', value: 'VirtualNum' },
			to,
			message: 'Spring sale: 20% off until Sunday',
			options: {},
			campaign,
		},
		{
			credentials: { virtualnumSmsApi: { id: credentialId, name: 'SMS sandbox' } },
			onError: 'continueErrorOutput',
			// One run for all the recipients, not one per row the Data table node output.
			...(to === ALL_RECIPIENTS ? { executeOnce: true } : {}),
		} as never,
	);
}

/** Start (pinned recipients) → Opt-outs (n8n's Data table node, once) → Send (`campaign`). */
function workflow(name: string, table: string, sendNode: ReturnType<typeof send>) {
	const optOuts = dataTableRows('Opt-outs', table, { executeOnce: true, alwaysOutputData: true });
	return {
		name,
		nodes: [node('Start', 'n8n-nodes-base.manualTrigger', 1, {}), optOuts, sendNode],
		connections: {
			Start: { main: [[{ node: 'Opt-outs', type: 'main', index: 0 }]] },
			'Opt-outs': { main: [[{ node: 'Send', type: 'main', index: 0 }]] },
		},
		pinData: { Start: RECIPIENTS.map((to) => ({ json: { to } })) },
		settings: { executionOrder: 'v1' },
	};
}

async function run(
	n8n: N8nServer,
	definition: { pinData: Record<string, unknown[]> } & Record<string, unknown>,
) {
	const execution = await runFromPinned(n8n, definition);
	const data = execution ? (flatted.parse(execution.data) as StoredRun) : undefined;
	const outputs = (data?.resultData.runData.Send?.[0]?.data?.main ?? []).map(
		(items) => items ?? [],
	);
	return { status: execution?.status, error: data?.resultData.error, outputs };
}

function sentBodies(sandbox: Sandbox): Array<Record<string, unknown>> {
	return sandbox.control
		.requests({ operation: 'send_sms' })
		.flatMap((request) => (request.body ?? []) as Array<Record<string, unknown>>);
}

interface CampaignRun {
	n8n: N8nServer;
	sandbox: Sandbox;
	smsCredentialId: string;
	check: Check;
	table: string;
}

export async function campaignRuns(
	n8n: N8nServer,
	sandbox: Sandbox,
	smsCredentialId: string,
	check: Check,
	log: Log,
): Promise<void> {
	const table = await optOutTable(n8n, log);
	const campaign = { n8n, sandbox, smsCredentialId, check, table };
	await skipsOptOuts(campaign);
	await refusedTable(campaign);
	await advertisementSent(campaign);
	await summaryOutput(campaign);
}

/** A Data Table holding the opted-out numbers, each in another spelling. */
async function optOutTable(n8n: N8nServer, log: Log): Promise<string> {
	const project = await n8n.rest<{ id: string }>('GET', '/projects/personal');
	const table = await n8n.rest<{ id: string }>('POST', `/projects/${project.id}/data-tables`, {
		name: 'Campaign opt-outs',
		columns: [{ name: 'phone', type: 'string' }],
	});
	await n8n.rest('POST', `/projects/${project.id}/data-tables/${table.id}/insert`, {
		data: OPTED_OUT.map((phone) => ({ phone })),
		returnType: 'count',
	});
	log(`campaigns: Data Table ${table.id} with ${OPTED_OUT.length} opted-out numbers`);
	return table.id;
}

async function skipsOptOuts(c: CampaignRun): Promise<void> {
	const { n8n, sandbox, smsCredentialId, check } = c;
	const table = { id: c.table };
	sandbox.control.clearRequests();
	const fromList = {
		source: { from: 'list', numbers: "={{ $('Opt-outs').all().map(item => item.json.phone) }}" },
	};
	const skipped = await run(
		n8n,
		workflow(
			'e2e: campaign skips opt-outs',
			table.id,
			send(smsCredentialId, { optOuts: fromList }),
		),
	);
	const statuses = (skipped.outputs[0] ?? []).map((item) => String(item.json.status));
	const dests = sentBodies(sandbox).map((message) => String(message.dest));
	check(
		skipped.status === 'success' &&
			dests.join() === '0541110040' &&
			statuses.filter((status) => status === 'Not sent: opted out').length === 3,
		`campaigns: every spelling of the 3 opted-out numbers skipped, 1 sent (sent: ${dests.join(', ') || 'nothing'}; items: ${statuses.join(' | ')})`,
	);
}

async function refusedTable(c: CampaignRun): Promise<void> {
	const { n8n, sandbox, smsCredentialId, check } = c;
	const table = { id: c.table };
	sandbox.control.clearRequests();
	const fromTable = {
		source: {
			from: 'dataTable',
			dataTable: { __rl: true, mode: 'id', value: table.id },
			column: 'phone',
		},
	};
	const refused = await run(
		n8n,
		workflow(
			'e2e: campaign reads the Data Table itself',
			table.id,
			send(smsCredentialId, { optOuts: fromTable }),
		),
	);
	const refusedItems = refused.outputs[1] ?? [];
	check(
		refused.status === 'success' &&
			(refused.outputs[0] ?? []).length === 0 &&
			refusedItems.length === 1 &&
			refusedItems[0].json.error ===
				'n8n refused the Data Table of "Skip Opted-Out Numbers" to this node' &&
			sentBodies(sandbox).length === 0,
		`campaigns: n8n refuses its Data Tables to the node: the clear error on the error output, nothing sent (${String(refusedItems[0]?.json.error ?? refused.error?.message)})`,
	);
}

async function advertisementSent(c: CampaignRun): Promise<void> {
	const { n8n, sandbox, smsCredentialId, check } = c;
	const table = { id: c.table };
	sandbox.control.clearRequests();
	const advertisement = { details: { advertiser: 'Cafe Dizengoff', contact: '03-5551234' } };
	await run(
		n8n,
		workflow('e2e: advertisement', table.id, send(smsCredentialId, { advertisement })),
	);
	const texts = [...new Set(sentBodies(sandbox).map((message) => String(message.message)))];
	check(
		texts.length === 1 &&
			texts[0] ===
				'פרסומת: Spring sale: 20% off until Sunday\nCafe Dizengoff, 03-5551234\nלהסרה השיבו הסר',
		`campaigns: the service received the advertisement with פרסומת, advertiser, contact and how to refuse (${JSON.stringify(texts)})`,
	);
}

async function summaryOutput(c: CampaignRun): Promise<void> {
	const { n8n, sandbox, smsCredentialId, check } = c;
	sandbox.control.clearRequests();
	const summaryWorkflow = {
		name: 'e2e: campaign summary',
		nodes: [
			node('Start', 'n8n-nodes-base.manualTrigger', 1, {}),
			send(smsCredentialId, { output: 'summary' }, '={{ $json.to }}'),
		],
		connections: { Start: { main: [[{ node: 'Send', type: 'main', index: 0 }]] } },
		pinData: {
			Start: ['0541110050', 'not a phone', '12', '0541110060', '05411100x'].map((to) => ({
				json: { to },
			})),
		},
		settings: { executionOrder: 'v1' },
	};
	const summary = await run(n8n, summaryWorkflow);
	const [success = [], errors = []] = summary.outputs;
	check(
		summary.status === 'success' &&
			success.length === 1 &&
			success[0].json.sent === 2 &&
			success[0].json.failedItems === 3 &&
			JSON.stringify(errors.map((item) => item.pairedItem)) ===
				JSON.stringify([{ item: 1 }, { item: 2 }, { item: 4 }]),
		`campaigns: Output Summary: one summary item (sent ${String(success[0]?.json.sent)}), the 3 bad numbers on the error output paired to their items (${JSON.stringify(errors.map((item) => item.pairedItem))})`,
	);
}
