/**
 * 10,000 recipients in the real n8n 2.40.7 (the e2e's install, as users run it: the Code node in n8n's
 * task runner), side by side in one run: Bulk SMS Send (Recipients From: Input Fields, Batch Size 100,
 * Batches in Flight 4) against what users build by hand with n8n's own nodes: a Code node grouping the
 * items into batches of 100 and an HTTP Request node posting each batch, and an HTTP Request node
 * posting one message per item. Each workflow starts from a Manual Trigger with the 10,000 items pinned;
 * the time is n8n's own execution record (stoppedAt − startedAt), with the sending nodes' execution
 * time from its run data beside it. Runs alternate between the three (a small warm-up run of each
 * first); the medians are printed and written to dev/bench/results-n8n.json.
 *
 *   npm run build && npx tsx dev/bench/realN8n.mts [--items 10000] [--reps 3]
 *
 * HTTP Request has no setting for how many requests it sends at once: it starts all of them together
 * (its Batching option only adds pauses), so the hand-built rows have more requests in flight than
 * Send's 4.
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { startSandbox } from '../sandbox/index.mts';
import { startN8n, type N8nServer } from '../e2e/lib/n8n.mts';
import { finished } from '../e2e/lib/n8nExecutions.mts';
import { installExitHandlers } from '../e2e/lib/processes.mts';
import { E2E_DIR, ensureN8nInstall, ROOT_DIR } from '../e2e/lib/setup.mts';
import { node, waitUntil, type NodeJson } from '../e2e/lib/workflows.mts';
import { FIELDS_PARAMETERS, PHONE_FIELD, SENDER, TEXT } from './tasks/sms.mts';

const { values } = parseArgs({
	options: { items: { type: 'string' }, reps: { type: 'string' } },
});
const ITEMS = Number(values.items ?? 10_000);
const REPS = Number(values.reps ?? 3);
const BATCH = 100;
const started = Date.now();
const log = (line: string) =>
	console.log(`[bench n8n ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

/** n8n keeps run data in its "flatted" form; the same package reads it back. */
const flatted = createRequire(join(E2E_DIR, 'node_modules', 'n8n', 'package.json'))('flatted') as {
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

interface Row {
	name: string;
	/** The nodes after the trigger, in a row. */
	nodes: NodeJson[];
	/** Items its last node outputs for `items` recipients. */
	outputs: (items: number) => number;
}

function rows(smsUrl: string, credentials: { sms: string; header: string }): Row[] {
	return [
		{
			name: 'Bulk SMS Send (Input Fields, Batch Size 100, 4 in flight)',
			nodes: [
				node(
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
				),
			],
			outputs: (items) => items,
		},
		{
			name: 'Code (batches of 100) + HTTP Request',
			nodes: [
				node('Code', 'n8n-nodes-base.code', 2, {
					language: 'javaScript',
					mode: 'runOnceForAllItems',
					jsCode: CODE,
				}),
				httpRequest(smsUrl, credentials.header, '={{ JSON.stringify($json.messages) }}'),
			],
			// n8n splits each answer (one result per message) into items.
			outputs: (items) => items,
		},
		{
			name: 'HTTP Request, one request per item',
			nodes: [httpRequest(smsUrl, credentials.header, `={{ JSON.stringify([${MESSAGE}]) }}`)],
			outputs: (items) => items,
		},
	];
}

/** The row's workflow, its Manual Trigger pinned with the recipients (as "Execute workflow" runs it). */
function workflowOf(row: Row, items: ReturnType<typeof recipients>): Record<string, unknown> {
	const nodes = [node('Start', 'n8n-nodes-base.manualTrigger', 1, {}), ...row.nodes];
	nodes.forEach((n, index) => (n.position = [index * 240, 0]));
	const connections: Record<string, unknown> = {};
	for (let i = 0; i + 1 < nodes.length; i++)
		connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	return {
		name: `bench: ${row.name} (${items.length} recipients)`,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes,
		connections,
		pinData: { Start: items },
	};
}

const recipients = (count: number, offset: number) =>
	Array.from({ length: count }, (_, i) => ({
		json: {
			[PHONE_FIELD]: `+972 50-${String(1_000_000 + offset + i).padStart(7, '0')}`,
			name: `Customer ${i}`,
		},
	}));

interface Measured {
	executionMs: number;
	nodesMs: number;
	outputItems: number;
}

interface RunData {
	resultData: {
		runData: Record<
			string,
			Array<{ executionTime: number; data?: { main: Array<unknown[] | null> } }>
		>;
		error?: { message: string };
	};
}

/** Runs the workflow from its Manual Trigger's pinned recipients, and reads n8n's record of the execution. */
async function runOnce(n8n: N8nServer, workflowId: string, row: Row): Promise<Measured> {
	const answer = await n8n.rest<{ executionId?: string }>('POST', `/workflows/${workflowId}/run`, {
		triggerToStartFrom: { name: 'Start' },
	});
	const detail = await waitUntil(
		async () => {
			const found = await n8n
				.rest<{
					status: string;
					startedAt: string;
					stoppedAt: string;
					data: string;
				}>('GET', `/executions/${String(answer.executionId)}`)
				.catch(() => undefined);
			return found && finished(found) && found.stoppedAt ? found : undefined;
		},
		600_000,
		250,
	);
	if (!detail) throw new Error(`${row.name}: no finished execution within 10 minutes`);
	const data = flatted.parse(detail.data) as RunData;
	if (detail.status !== 'success')
		throw new Error(
			`${row.name}: ${detail.status} (${data.resultData.error?.message ?? 'no error'})`,
		);
	const runData = data.resultData.runData;
	const last = row.nodes.at(-1)!.name;
	return {
		executionMs: Date.parse(detail.stoppedAt) - Date.parse(detail.startedAt),
		nodesMs: row.nodes.reduce((sum, n) => sum + (runData[n.name]?.[0]?.executionTime ?? 0), 0),
		outputItems: runData[last]?.[0]?.data?.main[0]?.length ?? 0,
	};
}

const median = (list: number[]) => {
	const sorted = [...list].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

await ensureN8nInstall(log);
// Credit for every run's messages (the default account runs out within the first 10,000).
const sandbox = await startSandbox({ log: () => {}, seed: { credit: 1_000_000_000 } });
let n8n: N8nServer | undefined;
installExitHandlers(async () => {
	await n8n?.stop();
	await sandbox.close();
}, log);
let failed = false;
try {
	n8n = await startN8n(log);
	const sms = await n8n.rest<{ id: string }>('POST', '/credentials', {
		name: 'SMS sandbox',
		type: 'virtualnumSmsApi',
		data: { baseUrl: sandbox.smsUrl, accessToken: sandbox.tokens.sms },
	});
	const header = await n8n.rest<{ id: string }>('POST', '/credentials', {
		name: 'Bulk SMS token',
		type: 'httpHeaderAuth',
		data: { name: 'Authorization', value: `Bearer ${sandbox.tokens.sms}` },
	});
	const table = rows(sandbox.smsUrl, { sms: sms.id, header: header.id });
	const create = async (row: Row, items: ReturnType<typeof recipients>) =>
		(await n8n!.rest<{ id: string }>('POST', '/workflows', workflowOf(row, items))).id;
	const ids: string[] = [];
	for (const row of table) {
		await runOnce(n8n, await create(row, recipients(200, 5_000_000)), row);
		ids.push(await create(row, recipients(ITEMS, 0)));
	}
	log(`warm-up done (200 recipients through each); ${REPS} runs of ${ITEMS} recipients each`);

	const results = table.map(() => [] as Measured[]);
	for (let rep = 0; rep < REPS; rep++) {
		for (const [index, row] of table.entries()) {
			const before = sandbox.control.messages().length;
			const measured = await runOnce(n8n, ids[index], row);
			const received = sandbox.control.messages().length - before;
			if (received !== ITEMS || measured.outputItems !== row.outputs(ITEMS))
				throw new Error(
					`${row.name}: the sandbox received ${received} messages (${ITEMS} expected), n8n output ${measured.outputItems} items`,
				);
			results[index].push(measured);
			log(
				`${row.name}: ${measured.executionMs} ms (its nodes ${measured.nodesMs} ms), ${received} messages`,
			);
		}
	}
	const summary = table.map((row, index) => ({
		row: row.name,
		runs: results[index].map((m) => m.executionMs),
		medianExecutionMs: median(results[index].map((m) => m.executionMs)),
		medianNodesMs: median(results[index].map((m) => m.nodesMs)),
	}));
	const send = summary[0].medianExecutionMs;
	console.log(`\n${ITEMS.toLocaleString('en')} recipients in n8n 2.40.7, medians of ${REPS} runs:`);
	for (const entry of summary)
		console.log(
			`  ${entry.row.padEnd(58)} ${String(entry.medianExecutionMs).padStart(7)} ms  (nodes ${String(entry.medianNodesMs).padStart(7)} ms)  ${(entry.medianExecutionMs / send).toFixed(2)}× Send`,
		);
	writeFileSync(
		join(ROOT_DIR, 'dev', 'bench', 'results-n8n.json'),
		`${JSON.stringify(
			{
				measuredAt: new Date().toISOString(),
				n8n: '2.40.7',
				items: ITEMS,
				reps: REPS,
				batchSize: BATCH,
				rows: summary,
			},
			null,
			'\t',
		)}\n`,
	);
} catch (error) {
	failed = true;
	log(`FAIL ${(error as Error).stack ?? String(error)}`);
	if (n8n) log(n8n.logs.slice(-20).join('\n'));
} finally {
	await n8n?.stop();
	await sandbox.close();
}
log(`took ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(failed ? 1 : 0);
