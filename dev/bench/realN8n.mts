/**
 * Bulk SMS Send in the real n8n 2.40.7 (the e2e's install, as users run it: the Code node in n8n's
 * task runner), side by side in one run, at 10,000 and 100,000 recipients:
 *
 * - Send: Bulk SMS Send (Recipients From: Input Fields, Batch Size 100, Batches in Flight 4);
 * - Send with Output: Summary (one item for the run), and Send skipping the numbers of a 50,000-row
 *   opt-out Data Table read by n8n's Data table node (as a List expression, or as An Earlier Node's
 *   Items), the way docs/bulk-sms-node.md prescribes for n8n 2.40;
 * - Code + HTTP Request: what users build by hand with n8n's own nodes, a Code node grouping the
 *   items into batches of 100 and an HTTP Request node posting each batch;
 * - HTTP Request per item: one request per recipient (10,000 only: 100,000 takes many minutes);
 * - No Operation: the same input items through n8n's No Operation node, sending nothing: what n8n
 *   itself needs in memory for those items (the memory target is against it).
 *
 * Each workflow starts from a Manual Trigger with the recipients pinned (about 6.7 MB of JSON for
 * 100,000: under n8n's N8N_PAYLOAD_SIZE_MAX of 16 MB, so the REST API takes them as the editor
 * would send them; the same pinned items for every side). The time is n8n's own execution record
 * (stoppedAt − startedAt), with the nodes' execution time from its run data beside it. Memory: the
 * RSS of n8n's main process and of its task runner, sampled from /proc during the run (inN8n.mts);
 * growth = peak − the RSS just before the run; at 100,000 every run gets a freshly started n8n
 * (FRESH_FROM). Runs alternate between the sides (a 200-recipient
 * warm-up of each first); medians are printed, written to dev/bench/results-n8n.json and to the
 * "In the real n8n" section of dev/docs/benchmarks.md.
 *
 *   npm run build && npx tsx dev/bench/realN8n.mts [--items 10000,100000] [--reps 3] [--sides send,noOp]
 *   npm run bench -- --real-n8n [--items …] [--reps …]     (the same)
 *
 * HTTP Request has no setting for how many requests it sends at once: it starts all of them together
 * (its Batching option only adds pauses), so the hand-built sides have more requests in flight than
 * Send's 4, which only favours them.
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { startSandbox } from '../sandbox/index.mts';
import { startN8n, type N8nServer } from '../harness/n8n/server.mts';
import { executionsOf, finished } from '../harness/n8n/executions.mts';
import { E2E_DIR, MARKER_NAME, ROOT_DIR } from '../harness/n8n/install.mts';
import { dataTableRows, node, waitUntil, type NodeJson } from '../harness/n8n/workflows.mts';
import {
	credentialIn,
	runRealBench,
	sampleMemory,
	type MemoryFigures,
	type RealRun,
} from './inN8n.mts';
import { summarise, writeResults, type Measured, type SideKey } from './report.mts';
import { FIELDS_PARAMETERS, PHONE_FIELD, SENDER, TEXT } from './send.mts';

const { values } = parseArgs({
	options: {
		items: { type: 'string' },
		reps: { type: 'string' },
		sides: { type: 'string' },
	},
});
/** Only these sides (send, sendSummary, sendOptOut, sendOptOutNodeItems, codeHttp, perItem, noOp); all by default. */
const ONLY = values.sides?.split(',');
const SIZES = (values.items ?? '10000,100000').split(',').map(Number);
const REPS = Number(values.reps ?? 3);
const BATCH = 100;
/** One request per item is measured up to this many recipients. */
const PER_ITEM_MAX = 10_000;
const started = Date.now();
const log = (line: string) =>
	console.log(`[bench n8n ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

/** n8n keeps run data in its "flatted" form; the same package reads it back. */
const flatted = () =>
	createRequire(join(E2E_DIR, 'node_modules', 'n8n', 'package.json'))('flatted') as {
		parse(text: string): unknown;
	};

const MESSAGE = `{ service: "send_sms", dest: String($json.${PHONE_FIELD}).replace(/\\D/g, ""), sender: ${JSON.stringify(SENDER)}, message: ${JSON.stringify(TEXT)} }`;

function httpRequest(smsUrl: string, credentialId: string, jsonBody: string): NodeJson {
	return node(
		'HTTP Request',
		'n8n-nodes-base.httpRequest',
		4.2,
		{
			method: 'POST',
			url: `${smsUrl}/api/ws_json_bulk.php`,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpHeaderAuth',
			sendBody: true,
			contentType: 'json',
			specifyBody: 'json',
			jsonBody,
			options: {},
		},
		{ credentials: { httpHeaderAuth: { id: credentialId, name: 'Bulk SMS token' } } },
	);
}

const CODE = [
	`const size = ${BATCH};`,
	'const all = $input.all();',
	'const batches = [];',
	'for (let i = 0; i < all.length; i += size) {',
	`  const messages = all.slice(i, i + size).map((item) => ({ service: 'send_sms', dest: String(item.json.${PHONE_FIELD}).replace(/\\D/g, ''), sender: ${JSON.stringify(SENDER)}, message: ${JSON.stringify(TEXT)} }));`,
	'  batches.push({ json: { messages } });',
	'}',
	'return batches;',
].join('\n');

interface Side {
	key: SideKey;
	name: string;
	/** The nodes after the trigger, in a row. */
	nodes: NodeJson[];
	/** Whether it sends the messages (No Operation does not). */
	sends: boolean;
	/** The smallest and the largest number of recipients it is measured with. */
	minItems?: number;
	maxItems: number;
	/** Output items it ends with: one per recipient unless given (Output: Summary has one). */
	outputs?: number;
	/** The node whose output is pinned with the recipients (the trigger unless given). */
	pinOn?: string;
	/** It skips the opted-out recipients of the opt-out Data Table (realN8nOptOut.mts). */
	skipsOptOuts?: boolean;
}

/** Send, and Send with Campaign options: Output: Summary, and (with `optOutTable`) skipping an opt-out Data Table. */
function sendSides(send: NodeJson, optOutTable: string | undefined): Side[] {
	const summary = { ...send, parameters: { ...send.parameters, campaign: { output: 'summary' } } };
	const sides: Side[] = [
		{
			key: 'send',
			name: 'Bulk SMS Send (Input Fields, Batch Size 100, 4 in flight)',
			nodes: [send],
			sends: true,
			maxItems: Infinity,
		},
		{
			key: 'sendSummary',
			name: 'Bulk SMS Send, Campaign → Output: Summary (one item per run)',
			nodes: [summary],
			sends: true,
			maxItems: Infinity,
			outputs: 1,
		},
	];
	if (optOutTable === undefined) return sides;
	const optOut = (key: SideKey, from: 'list' | 'nodeItems', how: string): Side => ({
		key,
		name: `Bulk SMS Send skipping a ${OPT_OUT_ROWS.toLocaleString('en')}-row opt-out Data Table (Data table node → ${how})`,
		nodes: optOutNodes(optOutTable, send, from),
		sends: true,
		maxItems: Infinity,
		pinOn: 'Recipients',
		skipsOptOuts: true,
	});
	return [
		...sides,
		optOut('sendOptOut', 'list', 'List'),
		optOut('sendOptOutNodeItems', 'nodeItems', "An Earlier Node's Items"),
	];
}

/** The measured workflows: Send's, what users build instead, and No Operation (n8n's own cost of the items). */
function sides(
	smsUrl: string,
	credentials: { sms: string; header: string },
	optOutTable: string | undefined,
): Side[] {
	const { send, code, batched, perItem, noOp } = sideNodes(smsUrl, credentials);
	return [
		...sendSides(send, optOutTable),
		{
			key: 'codeHttp',
			name: 'Code (batches of 100) + HTTP Request',
			nodes: [code, batched],
			sends: true,
			maxItems: Infinity,
		},
		{
			key: 'perItem',
			name: 'HTTP Request, one request per item',
			nodes: [perItem],
			sends: true,
			maxItems: PER_ITEM_MAX,
		},
		{
			key: 'noOp',
			name: 'No Operation (the same items, nothing sent)',
			nodes: [noOp],
			sends: false,
			maxItems: Infinity,
		},
	];
}

function sideNodes(smsUrl: string, credentials: { sms: string; header: string }) {
	const send = node(
		'Send',
		'n8n-nodes-virtualnum.bulkSms',
		1,
		{
			resource: 'message',
			operation: 'send',
			sender: { __rl: true, mode: 'id', value: SENDER },
			message: TEXT,
			...FIELDS_PARAMETERS,
			options: { batchSize: BATCH, batchesInFlight: 4 },
		},
		{ credentials: { virtualnumSmsApi: { id: credentials.sms, name: 'SMS sandbox' } } },
	);
	const code = node('Code', 'n8n-nodes-base.code', 2, {
		language: 'javaScript',
		mode: 'runOnceForAllItems',
		jsCode: CODE,
	});
	const batched = httpRequest(smsUrl, credentials.header, '={{ JSON.stringify($json.messages) }}');
	const perItem = httpRequest(smsUrl, credentials.header, `={{ JSON.stringify([${MESSAGE}]) }}`);
	const noOp = node('No Operation', 'n8n-nodes-base.noOp', 1, {});
	return { send, code, batched, perItem, noOp };
}

type Recipients = ReturnType<typeof recipients>;

/** The side's workflow, its Manual Trigger pinned with the recipients (as "Execute workflow" runs it). */
function workflowOf(side: Side, items: Recipients): Record<string, unknown> {
	const nodes = [node('Start', 'n8n-nodes-base.manualTrigger', 1, {}), ...side.nodes];
	nodes.forEach((n, index) => (n.position = [index * 240, 0]));
	const connections: Record<string, unknown> = {};
	for (let i = 0; i + 1 < nodes.length; i++)
		connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	return {
		name: `bench: ${side.name} (${items.length} recipients)`,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes,
		connections,
		pinData: { [side.pinOn ?? 'Start']: items },
	};
}

const recipients = (count: number, offset: number) =>
	Array.from({ length: count }, (_, i) => ({
		json: {
			[PHONE_FIELD]: `+972 50-${String(1_000_000 + offset + i).padStart(7, '0')}`,
			name: `Customer ${i}`,
		},
	}));

interface RunData {
	resultData: {
		runData: Record<
			string,
			Array<{ executionTime: number; data?: { main: Array<unknown[] | null> } }>
		>;
		error?: { message: string };
	};
}

interface Detail {
	status: string;
	startedAt: string;
	stoppedAt: string;
	data: string;
}

/**
 * Runs the workflow from its Manual Trigger's pinned recipients with n8n's memory sampled until
 * n8n lists the execution as finished (the light list, not the run data: reading 100,000 items back
 * would add to n8n's memory), then reads n8n's record of the execution.
 */
async function runOnce(
	n8n: N8nServer,
	workflowId: string,
	side: Side,
	memory = false,
): Promise<Omit<Measured, 'received'>> {
	const sampler = memory ? sampleMemory() : undefined;
	let figures: MemoryFigures | undefined;
	let executionId: string;
	try {
		const answer = await n8n.rest<{ executionId?: string }>(
			'POST',
			`/workflows/${workflowId}/run`,
			{
				triggerToStartFrom: { name: 'Start' },
			},
		);
		executionId = String(answer.executionId);
		const done = await waitUntil(
			async () => {
				const list = await executionsOf(n8n, workflowId).catch(() => []);
				const found = list.find((execution) => execution.id === executionId);
				return found && finished(found) ? found : undefined;
			},
			900_000,
			100,
		);
		if (!done) throw new Error(`${side.name}: no finished execution within 15 minutes`);
	} finally {
		figures = sampler?.stop();
	}
	const detail = await n8n.rest<Detail>('GET', `/executions/${executionId}`);
	const data = flatted().parse(detail.data) as RunData;
	if (detail.status !== 'success')
		throw new Error(
			`${side.name}: ${detail.status} (${data.resultData.error?.message ?? 'no error'})`,
		);
	const runData = data.resultData.runData;
	const output = (runData[side.nodes.at(-1)!.name]?.[0]?.data?.main[0] ?? []) as OutputItem[];
	return {
		executionMs: Date.parse(detail.stoppedAt) - Date.parse(detail.startedAt),
		nodesMs: side.nodes.reduce((sum, n) => sum + (runData[n.name]?.[0]?.executionTime ?? 0), 0),
		sendNodeMs: runData.Send?.[0]?.executionTime,
		outputItems: output.length,
		optedOut: optedOutIn(output),
		memory: figures,
	};
}

type OutputItem = { json: { status?: unknown; notSent?: { optedOut?: unknown } } };

/** The recipients Send's output says it skipped as opted out: its items, or its Summary's count. */
function optedOutIn(output: OutputItem[]): number {
	const summary = output.length === 1 ? output[0].json.notSent : undefined;
	if (summary) return Number(summary.optedOut);
	return output.filter((item) => item.json.status === 'Not sent: opted out').length;
}

/**
 * From this many recipients on, each measured run gets a freshly started n8n (the same database),
 * warmed up with 200 recipients through the same side: the growth of a long-running n8n depends
 * on how much garbage earlier runs left in its heap (the RSS "before" rose from 0.6 to 1.4 GB over
 * one run of this bench), so only a fresh process compares the sides' memory fairly.
 */
const FRESH_FROM = 100_000;
const warmUpIds = new Map<Side, string>();

async function freshN8n(n8n: N8nServer, side: Side): Promise<void> {
	await n8n.restart();
	await runOnce(n8n, warmUpIds.get(side)!, side);
}

/** One size: every side `REPS` times, alternating, each run checked (messages received, items out). */
async function measureSize(
	n8n: N8nServer,
	sandbox: Awaited<ReturnType<typeof startSandbox>>,
	table: Side[],
	items: number,
	create: (side: Side, recipients: Recipients) => Promise<string>,
): Promise<Map<Side, Measured[]>> {
	const measured = table.filter((side) => items <= side.maxItems && items >= (side.minItems ?? 0));
	const ids = new Map<Side, string>();
	const input = recipients(items, 0);
	for (const side of measured) ids.set(side, await create(side, input));
	const results = new Map<Side, Measured[]>(measured.map((side) => [side, []]));
	for (let rep = 0; rep < REPS; rep++) {
		// The order rotates every repetition, so a slow phase of the machine hits every side.
		const order = measured.map((_, i) => measured[(i + rep) % measured.length]);
		for (const side of order) {
			if (items >= FRESH_FROM) await freshN8n(n8n, side);
			const before = sandbox.control.messages().length;
			const run = await runOnce(n8n, ids.get(side)!, side, true);
			const dests = sandbox.control
				.messages()
				.slice(before)
				.map((message) => message.dest);
			sandbox.control.reset({ credit: 1_000_000_000 });
			checkRun(side, items, run, dests);
			const received = dests.length;
			results.get(side)!.push({ ...run, received });
			const m = run.memory!;
			log(
				`${items} ${side.name}: ${run.executionMs} ms (its nodes ${run.nodesMs} ms), ${received} messages; ` +
					`n8n main +${m.mainGrowthMB} MB (from ${m.mainBeforeMB}), runner +${m.runnerGrowthMB} MB (from ${m.runnerBeforeMB})`,
			);
		}
	}
	return results;
}

/**
 * The run did what the side is for: the sandbox received every recipient's message once (none of an
 * opted-out recipient; none for the sides that send nothing), and n8n output the side's items,
 * Send saying how many it skipped as opted out.
 */
function checkRun(
	side: Side,
	items: number,
	run: Omit<Measured, 'received'>,
	dests: string[],
): void {
	const skipped = side.skipsOptOuts ? optedOutAmong(items) : 0;
	const expected = side.sends ? items - skipped : 0;
	const wronglySent = side.skipsOptOuts ? dests.filter(isOptedOut).length : 0;
	const outputs = side.outputs ?? items;
	if (
		dests.length !== expected ||
		wronglySent > 0 ||
		run.outputItems !== outputs ||
		(side.skipsOptOuts && run.optedOut !== skipped)
	)
		throw new Error(
			`${side.name}: the sandbox received ${dests.length} messages (${expected} expected, ` +
				`${wronglySent} to opted-out recipients), n8n output ${run.outputItems} items (${outputs} expected), ` +
				`${run.optedOut} marked "Not sent: opted out" (${skipped} expected)`,
		);
}

// ---- the opt-out Data Table ---------------------------------------------------------------------------

/*
 * Every hundredth recipient (index 7, 107, 207…) is in the table, written in another spelling than
 * the recipient list uses (national, international, dashed: matched by phone identity); the other
 * rows are numbers no recipient has.
 */
const OPT_OUT_ROWS = 50_000;
const EVERY = 100;
const AT = 7;
/** The rows the REST API gets at a time. */
const INSERT_CHUNK = 5_000;
/** The largest campaign whose opted-out recipients the table holds. */
const LARGEST = 100_000;

/** The subscriber digits after +972 50- of the recipient `index` (realN8n.mts's recipients). */
const subscriber = (index: number) => String(1_000_000 + index).padStart(7, '0');

/** How many of the first `items` recipients are in the table. */
const optedOutAmong = (items: number) => Math.max(0, Math.floor((items - 1 - AT) / EVERY) + 1);

/** Whether a number the service received belongs to an opted-out recipient (+972 50-1xxxxxx). */
function isOptedOut(dest: string): boolean {
	const digits = dest.replace(/\D/g, '');
	if (!digits.slice(-9).startsWith('50')) return false;
	const index = Number(digits.slice(-7)) - 1_000_000;
	return index >= 0 && index < LARGEST && index % EVERY === AT;
}

/** The table's numbers: the opted-out recipients in three spellings, then numbers of nobody. */
function optOutNumbers(): string[] {
	const numbers: string[] = [];
	for (let index = AT; index < LARGEST; index += EVERY) {
		const digits = subscriber(index);
		const spellings = [
			`050${digits}`,
			`97250${digits}`,
			`+972-50-${digits.slice(0, 3)}-${digits.slice(3)}`,
		];
		numbers.push(spellings[numbers.length % spellings.length]);
	}
	for (let other = 0; numbers.length < OPT_OUT_ROWS; other++)
		numbers.push(`052${String(2_000_000 + other).padStart(7, '0')}`);
	return numbers;
}

/** Creates the opt-out Data Table through n8n's REST API (the same database for every restart). */
async function createOptOutTable(n8n: N8nServer, log: (line: string) => void): Promise<string> {
	const project = await n8n.rest<{ id: string }>('GET', '/projects/personal');
	const base = `/projects/${project.id}/data-tables`;
	const table = await n8n.rest<{ id: string }>('POST', base, {
		name: `bench opt-outs ${Date.now()}`,
		columns: [{ name: 'phone', type: 'string' }],
	});
	const numbers = optOutNumbers();
	for (let start = 0; start < numbers.length; start += INSERT_CHUNK)
		await n8n.rest('POST', `${base}/${table.id}/insert`, {
			data: numbers.slice(start, start + INSERT_CHUNK).map((phone) => ({ phone })),
			returnType: 'count',
		});
	log(
		`opt-out Data Table ${table.id}: ${numbers.length.toLocaleString('en')} rows, ` +
			`${optedOutAmong(LARGEST).toLocaleString('en')} of them recipients`,
	);
	return table.id;
}

/**
 * The side's nodes after the trigger: the Data table node reading the table, the recipients (the
 * workflow pins them on this node), and `send` skipping the table's numbers, read by Numbers From:
 * List with an expression (`list`), or An Earlier Node's Items (`nodeItems`, no expression).
 */
function optOutNodes(
	table: string,
	send: NodeJson,
	from: 'list' | 'nodeItems' = 'list',
): NodeJson[] {
	const optOuts = dataTableRows('Opt-outs', table, { alwaysOutputData: true });
	const recipients = node('Recipients', 'n8n-nodes-base.noOp', 1, {});
	const source =
		from === 'list'
			? { from, numbers: "={{ $('Opt-outs').all().map(item => item.json.phone) }}" }
			: { from, nodeName: 'Opt-outs', field: 'phone' };
	const campaign = { optOuts: { source } };
	return [optOuts, recipients, { ...send, parameters: { ...send.parameters, campaign } }];
}

// The e2e's n8n install is shared and prepared separately (npm run e2e): the bench only uses it.
if (!existsSync(join(E2E_DIR, 'node_modules', MARKER_NAME))) {
	log(
		'the real n8n is not installed (dev/e2e/node_modules has no ready marker): run npm run e2e once',
	);
	process.exit(1);
}
// Credit for every run's messages (the default account runs out within the first 10,000).
const sandbox = await startSandbox({ log: () => {}, seed: { credit: 1_000_000_000 } });
const loadAtStart = loadavg();
const run: RealRun = { sandbox };
await runRealBench(run, log, started, async () => {
	const n8n = (run.n8n = await startN8n(log));
	const sms = await credentialIn(n8n, 'SMS sandbox', 'virtualnumSmsApi', {
		baseUrl: sandbox.smsUrl,
		accessToken: sandbox.tokens.sms,
	});
	const header = await credentialIn(n8n, 'Bulk SMS token', 'httpHeaderAuth', {
		name: 'Authorization',
		value: `Bearer ${sandbox.tokens.sms}`,
	});
	const optOutTable =
		!ONLY || ONLY.some((key) => key.startsWith('sendOptOut'))
			? await createOptOutTable(n8n, log)
			: undefined;
	const table = sides(sandbox.smsUrl, { sms, header }, optOutTable).filter(
		(side) => !ONLY || ONLY.includes(side.key),
	);
	const create = async (side: Side, items: Recipients) =>
		(await n8n!.rest<{ id: string }>('POST', '/workflows', workflowOf(side, items))).id;
	for (const side of table) {
		warmUpIds.set(side, await create(side, recipients(200, 5_000_000)));
		await runOnce(n8n, warmUpIds.get(side)!, side);
	}
	log(`warm-up done (200 recipients through each); ${REPS} runs of each side per size`);
	const sizes = [];
	for (const items of SIZES) {
		const results = await measureSize(n8n, sandbox, table, items, create);
		sizes.push(
			summarise(
				items,
				[...results].map(([side, runs]) => ({ ...side, runs })),
			),
		);
	}
	writeResults(ROOT_DIR, {
		measuredAt: new Date().toISOString(),
		command: `npx tsx dev/bench/realN8n.mts --items ${SIZES.join(',')} --reps ${REPS}${ONLY ? ` --sides ${ONLY.join(',')}` : ''}`,
		n8n: '2.40.7',
		reps: REPS,
		batchSize: BATCH,
		loadAverage: { atStart: loadAtStart, atEnd: loadavg() },
		sizes,
	});
	return false;
});
