/**
 * Bulk SMS → Send's Campaign options in a real n8n 2.40 with its Data Tables:
 * - examples/sms-campaign-skip-opted-out.json as a user imports it, its three Data Tables this
 *   run's: the opt-out table holds part of the field-data corpus (a number's lost leading 0, its
 *   `.0`, other scripts' digits, invisible marks, extensions), the recipients table a person who
 *   opted out listed twice, a person listed twice and a row that is no number. The service gets
 *   one message per person who did not opt out; the Summary counts each recipient once; the bad row
 *   is recorded from the error output. Run again with One Item per Recipient: every listing of the
 *   opted-out person says opted out, and no item claims a message that was not sent;
 * - the same workflow saved with Numbers From: Data Table (no longer offered: n8n serves Data
 *   Tables only to its own nodes): the clear error on the error output for every row, nothing sent;
 * - an opt-out row that cannot be one number: nothing sent, the row named;
 * - an advertisement as the sandbox receives it;
 * - Output: Summary with three bad numbers, which n8n puts on the error output.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Sandbox } from '../../sandbox/index.mts';
import type { N8nServer } from '../../harness/n8n/server.mts';
import { runFromPinned } from '../../harness/n8n/executions.mts';
import { readExample, ROOT_DIR } from '../../harness/n8n/install.mts';
import { dataTableRows, node, type Check, type Log } from '../../harness/n8n/workflows.mts';
import { createTable, tableRows } from './fieldTrigger.mts';

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
type Workflow = { pinData: Record<string, unknown[]> } & Record<string, unknown>;
interface ExampleNode {
	name: string;
	type: string;
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
}

const flatted = createRequire(join(ROOT_DIR, 'dev', 'e2e', 'package.json'))('flatted') as {
	parse(text: string): unknown;
};

const EXAMPLE = 'sms-campaign-skip-opted-out.json';
const SEND = 'Send campaign SMS';

/**
 * The opt-out table: every spelling of the corpus's Israeli mobile number that is read differently
 * from how it is written (its `read` note), and a landline and a VoIP number without their 0.
 */
function optOutRows(): string[] {
	const corpus = JSON.parse(
		readFileSync(join(ROOT_DIR, 'test', 'fixtures', 'field-data', 'phones.json'), 'utf8'),
	) as {
		numbers: Array<{ identity: string; spellings: Array<{ value: unknown; read?: string }> }>;
	};
	const mobile = corpus.numbers.find((number) => number.identity === '972541110010')!;
	const odd = mobile.spellings.filter((s) => s.read && typeof s.value === 'string');
	return [...odd.map((s) => String(s.value)), '35551234', '722000100'];
}

/** Recipients: three who opted out (one of them twice), Noa twice, Amir, and a row that is no number. */
const RECIPIENTS = [
	'0541110010',
	'03-5551234',
	'0521234567',
	'+972 72-200-0100',
	'N/A',
	'052-123-4567',
	'+972-54-111-0010',
	'0537654321',
];

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
		pinData: { Start: ['0541110040'].map((to) => ({ json: { to } })) },
		settings: { executionOrder: 'v1' },
	};
}

/** Runs from the trigger's pinned items; Send's outputs (success, error) and the run's error. */
async function run(n8n: N8nServer, definition: Workflow, trigger = 'Start', sendName = 'Send') {
	const execution = await runFromPinned(n8n, definition, trigger);
	const data = execution ? (flatted.parse(execution.data) as StoredRun) : undefined;
	const outputs = (data?.resultData.runData[sendName]?.[0]?.data?.main ?? []).map(
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
	project: string;
	tables: { optOuts: string; recipients: string; failures: string };
}

export async function campaignRuns(
	n8n: N8nServer,
	sandbox: Sandbox,
	smsCredentialId: string,
	check: Check,
	log: Log,
): Promise<void> {
	const project = (await n8n.rest<{ id: string }>('GET', '/projects/personal')).id;
	const tables = await campaignTables(n8n, project, log);
	const campaign = { n8n, sandbox, smsCredentialId, check, project, tables };
	await exampleCampaign(campaign);
	await savedDataTableSource(campaign);
	await unreadableOptOut(campaign);
	await advertisementSent(campaign);
	await summaryOutput(campaign);
}

/** The example's three Data Tables, this run's: opt-outs (part of the corpus), recipients, failures. */
async function campaignTables(n8n: N8nServer, project: string, log: Log) {
	const tables = {
		optOuts: await createTable(n8n, project, 'e2e campaign opt-outs', ['phone']),
		recipients: await createTable(n8n, project, 'e2e campaign recipients', ['phone']),
		failures: await createTable(n8n, project, 'e2e campaign failures', [
			'phone',
			'error',
			'failedAt',
		]),
	};
	const insert = (table: string, phones: string[]) =>
		n8n.rest('POST', `/projects/${project}/data-tables/${table}/insert`, {
			data: phones.map((phone) => ({ phone })),
			returnType: 'count',
		});
	const rows = optOutRows();
	await insert(tables.optOuts, rows);
	await insert(tables.recipients, RECIPIENTS);
	log(
		`campaigns: opt-out table with ${rows.length} spellings of the corpus, ${RECIPIENTS.length} recipients`,
	);
	return tables;
}

/** The example as a user imports it, its Data table nodes on this run's tables; `change` edits Send. */
function example(c: CampaignRun, change: (send: ExampleNode) => void = () => {}): Workflow {
	const workflow = JSON.parse(readExample(EXAMPLE)) as Workflow & {
		id?: string;
		nodes: ExampleNode[];
	};
	delete workflow.id;
	const byName: Record<string, string> = {
		'Opted-out numbers': c.tables.optOuts,
		Recipients: c.tables.recipients,
		'Record failed rows': c.tables.failures,
	};
	for (const exampleNode of workflow.nodes) {
		if (exampleNode.credentials?.virtualnumSmsApi)
			exampleNode.credentials.virtualnumSmsApi.id = c.smsCredentialId;
		if (byName[exampleNode.name])
			exampleNode.parameters.dataTableId = {
				__rl: true,
				mode: 'id',
				value: byName[exampleNode.name],
			};
		if (exampleNode.name === SEND) change(exampleNode);
	}
	return workflow;
}

const campaignOf = (send: ExampleNode) => send.parameters.campaign as Record<string, unknown>;

async function failures(c: CampaignRun) {
	return await tableRows(c.n8n, c.project, c.tables.failures);
}

async function exampleCampaign(c: CampaignRun): Promise<void> {
	const { n8n, sandbox, check } = c;
	sandbox.control.clearRequests();
	const before = (await failures(c)).length;
	const summaryRun = await run(n8n, example(c), 'Every Monday at 10:00', SEND);
	const dests = sentBodies(sandbox).map((message) => String(message.dest));
	const summary = summaryRun.outputs[0]?.[0]?.json ?? {};
	const notSent = (summary.notSent ?? {}) as Record<string, number>;
	const added = (await failures(c)).slice(before);
	check(
		summaryRun.status === 'success' &&
			dests.join() === '0521234567,0537654321' &&
			notSent.optedOut === 4 &&
			notSent.sameNumber === 1 &&
			summary.recipients === 7 &&
			Number(summary.sent) + Number(summary.scheduled) === 2 &&
			summary.failedItems === 1,
		`campaigns: ${EXAMPLE} on part of the corpus: only Noa and Amir texted, once each (${dests.join(', ')}); the Summary counts each recipient once (${JSON.stringify(summary)})`,
	);
	check(
		added.length === 1 &&
			added[0].phone === 'N/A' &&
			String(added[0].error).startsWith('To: "N/A"'),
		`campaigns: the row that is no number went to the error output and was recorded (${JSON.stringify(added)})`,
	);

	sandbox.control.clearRequests();
	const perRecipient = await run(
		n8n,
		example(c, (send) => (campaignOf(send).output = 'perRecipient')),
		'Every Monday at 10:00',
		SEND,
	);
	const items = (perRecipient.outputs[0] ?? []).map((item) => item.json);
	const dana = items.filter((item) => item.inputItem === 0 || item.inputItem === 6);
	check(
		dana.length === 2 &&
			dana.every(
				(item) => item.status === 'Not sent: opted out' && item.sentWithItem === undefined,
			) &&
			items.find((item) => item.inputItem === 5)?.sentWithItem === 2,
		`campaigns: One Item per Recipient: both listings of the opted-out person say opted out, the duplicate of a sent number says sentWithItem 2 (${JSON.stringify(items.map((item) => [item.inputItem, item.status, item.sentWithItem]))})`,
	);
}

async function savedDataTableSource(c: CampaignRun): Promise<void> {
	const { n8n, sandbox, check } = c;
	sandbox.control.clearRequests();
	const before = (await failures(c)).length;
	const saved = await run(
		n8n,
		example(c, (send) => {
			campaignOf(send).optOuts = {
				source: {
					from: 'dataTable',
					dataTable: { __rl: true, mode: 'id', value: c.tables.optOuts },
					column: 'phone',
				},
			};
		}),
		'Every Monday at 10:00',
		SEND,
	);
	const errors = (saved.outputs[1] ?? []).map((item) => String(item.json.error));
	const added = (await failures(c)).slice(before);
	// The row that is no number keeps its own error; every other row gets the option's.
	const refusedTable = 'n8n refused the Data Table of "Skip Opted-Out Numbers" to this node';
	check(
		saved.status === 'success' &&
			(saved.outputs[0] ?? []).length === 0 &&
			errors.length === RECIPIENTS.length &&
			errors.filter((error) => error === refusedTable).length === RECIPIENTS.length - 1 &&
			errors[RECIPIENTS.indexOf('N/A')].startsWith('To: "N/A"') &&
			added.length === RECIPIENTS.length &&
			sentBodies(sandbox).length === 0,
		`campaigns: a saved workflow with Numbers From: Data Table: the clear error for every row on the error output, recorded, nothing sent (${JSON.stringify(errors)}, ${added.length} recorded, ${sentBodies(sandbox).length} sent)`,
	);
}

async function unreadableOptOut(c: CampaignRun): Promise<void> {
	const { n8n, sandbox, check } = c;
	sandbox.control.clearRequests();
	const refused = await run(
		n8n,
		example(c, (send) => {
			campaignOf(send).optOuts = {
				source: { from: 'list', numbers: '0541110010\ncall me' },
			};
		}),
		'Every Monday at 10:00',
		SEND,
	);
	const error = String(refused.outputs[1]?.[0]?.json.error);
	check(
		error ===
			'Skip Opted-Out Numbers: entry 2 of the list is not one phone number: "call me" has letters ("call")' &&
			sentBodies(sandbox).length === 0,
		`campaigns: an opt-out row that cannot be one number refuses the run before anything is sent, naming it (${error})`,
	);
}

async function advertisementSent(c: CampaignRun): Promise<void> {
	const { n8n, sandbox, smsCredentialId, check } = c;
	sandbox.control.clearRequests();
	const advertisement = { details: { advertiser: 'Cafe Dizengoff', contact: '03-5551234' } };
	await run(
		n8n,
		workflow('e2e: advertisement', c.tables.optOuts, send(smsCredentialId, { advertisement })),
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
