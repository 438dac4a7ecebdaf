/**
 * Whose memory is a 100,000-recipient Send (Recipients From: Input Fields, Batch Size 100, Batches in
 * Flight 4) through n8n's engine in this process, the sandbox in a child process (`npm run sandbox`),
 * so that its own memory is not counted. V8's sampling heap profiler, sums by allocating function:
 *
 *   --when promoted  (default) what the run allocated that outlived V8's young generation (also what
 *                    died later): the memory a run leaves in the old generation until a full collection
 *   --when halfway   what is alive when half of the messages were sent (read from the sandbox's
 *                    credit), after a full collection: the state a run holds
 *   --when all       everything the run allocated
 *
 *   npm run build && node --expose-gc --import tsx dev/bench/summaryHeap.mts [--output summary|perRecipient]
 *     [--items 100000] [--when promoted|halfway|all] [--top 15]
 */
import { spawn } from 'node:child_process';
import type { HeapProfiler } from 'node:inspector';
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';

import { runWorkflow } from '../harness/engine.mts';
import { DEFAULT_TOKENS } from '../sandbox/index.mts';
import { freePort } from '../harness/n8n/server.mts';
import { waitUntil } from '../harness/n8n/workflows.mts';
import { FIELDS_PARAMETERS, PHONE_FIELD, SENDER, TEXT } from './tasks/sms.mts';

const { values } = parseArgs({
	options: {
		output: { type: 'string' },
		items: { type: 'string' },
		when: { type: 'string' },
		top: { type: 'string' },
	},
});
const ITEMS = Number(values.items ?? 100_000);
const WHEN = values.when ?? 'promoted';
const CREDIT = 1_000_000_000;
const MB = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

interface HeapNode {
	callFrame: { functionName: string; url: string; lineNumber: number };
	selfSize: number;
	children: HeapNode[];
}

const OWNERS: Array<[RegExp, string]> = [
	[/\/dist\/nodes\//, 'the node'],
	[/n8n-core/, "n8n's engine"],
	[/n8n-workflow/, "n8n's workflow library"],
	[/axios|backend-network|follow-redirects/, "n8n's HTTP helper"],
	[/^node:/, 'Node.js'],
	[/summaryHeap\.mts/, 'the input items (made here)'],
];

function report(head: HeapNode): void {
	const owners = new Map<string, number>();
	const functions = new Map<string, number>();
	const add = (map: Map<string, number>, key: string, bytes: number) =>
		map.set(key, (map.get(key) ?? 0) + bytes);
	const walk = (node: HeapNode) => {
		const { functionName, url, lineNumber } = node.callFrame;
		const owner = OWNERS.find(([pattern]) => pattern.test(url))?.[1] ?? (url || '(native)');
		add(owners, owner.replace(/^.*node_modules\//, ''), node.selfSize);
		const where = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|dist)\//, '')}:${lineNumber + 1}`;
		add(functions, where, node.selfSize);
		node.children.forEach(walk);
	};
	walk(head);
	const largest = (map: Map<string, number>, top: number) =>
		[...map].sort((a, b) => b[1] - a[1]).slice(0, top);
	for (const [owner, bytes] of largest(owners, 8))
		console.log(`${MB(bytes).padStart(8)} MB  ${owner}`);
	console.log('by function:');
	for (const [where, bytes] of largest(functions, Number(values.top ?? 15)))
		console.log(`${MB(bytes).padStart(8)} MB  ${where}`);
}

/** The sandbox in a child process; its SMS service's URL. */
async function childSandbox(): Promise<{ url: string; stop: () => void }> {
	const [smsPort, vnPort] = [await freePort(), await freePort()];
	const child = spawn(
		process.execPath,
		[
			'--import',
			'tsx',
			'dev/sandbox/main.mts',
			'--sms-port',
			`${smsPort}`,
			'--vn-port',
			`${vnPort}`,
		],
		{ stdio: 'ignore' },
	);
	const url = `http://127.0.0.1:${smsPort}`;
	const up = await waitUntil(
		() =>
			fetch(`${url}/_sandbox/credit`).then(
				(r) => r.ok,
				() => false,
			),
		30_000,
		100,
	);
	if (!up) throw new Error('the sandbox did not start');
	await fetch(`${url}/_sandbox/credit`, {
		method: 'POST',
		body: JSON.stringify({ credit: CREDIT }),
	});
	return { url, stop: () => child.kill() };
}

const sandbox = await childSandbox();
const credit = async () =>
	((await (await fetch(`${sandbox.url}/_sandbox/credit`)).json()) as { credit: number }).credit;
const campaign = (count: number, offset: number) =>
	Array.from({ length: count }, (_, i) => ({
		json: { [PHONE_FIELD]: `+972 50-${String(1_000_000 + offset + i).padStart(7, '0')}` },
	}));
/** Send as the real-n8n bench's sides (realN8n.mts), with the Output asked for. */
const parameters = {
	resource: 'message',
	operation: 'send',
	sender: { __rl: true, mode: 'id', value: SENDER },
	message: TEXT,
	...FIELDS_PARAMETERS,
	options: { batchSize: 100, batchesInFlight: 4 },
	campaign: { output: values.output ?? 'summary' },
};
const credentials = { virtualnumSmsApi: { baseUrl: sandbox.url, accessToken: DEFAULT_TOKENS.sms } };
const send = async (count: number, offset: number) =>
	await runWorkflow({
		nodes: [{ name: 'Send', type: 'bulkSms', parameters }],
		input: campaign(count, offset),
		credentials,
	});

await send(200, 5_000_000);
const session = new Session();
session.connect();
gc();
// Newer than Node 20's types: keep samples collected by a full (or also a young-generation) collection.
const sampling = {
	samplingInterval: 8192,
	includeObjectsCollectedByMajorGC: WHEN !== 'halfway',
	includeObjectsCollectedByMinorGC: WHEN === 'all',
} as HeapProfiler.StartSamplingParameterType;
await session.post('HeapProfiler.startSampling', sampling);
const start = await credit();
let halfway: Promise<HeapNode> | undefined;
const poll = setInterval(() => {
	void credit().then((left) => {
		if (WHEN !== 'halfway' || halfway || start - left < ITEMS / 2) return;
		gc();
		halfway = session
			.post('HeapProfiler.getSamplingProfile')
			.then((answer) => answer.profile.head as HeapNode);
	});
}, 20);
const result = await send(ITEMS, 0);
clearInterval(poll);
const head =
	(await halfway) ??
	((await session.post('HeapProfiler.getSamplingProfile')).profile.head as HeapNode);
console.log(
	`${ITEMS} recipients, ${values.output ?? 'summary'}: ${result.items('Send').length} output items, ` +
		`${start - (await credit())} messages; ${WHEN}:`,
);
report(head);
sandbox.stop();
process.exit(0);
