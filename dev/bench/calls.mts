/**
 * The call benchmarks' tasks (run in the child process of measure.mts): Call Record → Query of
 * 10,000 rows against fetch + JSON.parse of the same statement; Download Recording of a 50 MB WAV in
 * n8n's binary data modes against n8n's HTTP Request node and a plain fetch; and the trigger's
 * callbacks, straight into its webhook function and through the whole webhook path (the harness's
 * HTTP server parsing bodies as n8n's does, an execution started and run per callback) against
 * n8n's own Webhook node. The full path's callbacks come from a load generator in another process
 * (this file with `--load`), so that the measured process spends its CPU on receiving only.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';

import type {
	IDataObject,
	INodeType,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { runWorkflow, type RunOptions } from '../harness/engine.mts';
import { TriggerHost, type TriggerInstance } from '../harness/trigger.mts';
import {
	BenchNodeTypes,
	HTTP_REQUEST,
	WEBHOOK,
	baseNodes,
	baseNodesStatus,
	benchNodeTypes,
	defaultVersion,
	measure,
	percentiles,
	type Measurement,
} from './measure.mts';

export type CallTask = CdrTask | RecordingTask | TriggerTask;

/** Runs one of this file's tasks. */
export async function runCallTask(task: CallTask): Promise<Measurement> {
	switch (task.kind) {
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

// ---- call-record export ---------------------------------------------------------------------------

export type CdrTask =
	| { kind: 'cdrNode'; vnUrl: string; token: string; limit: number; from: string; until: string }
	| { kind: 'cdrFetch'; vnUrl: string; token: string; sql: string };

export async function cdrNode(task: Extract<CdrTask, { kind: 'cdrNode' }>): Promise<Measurement> {
	const query = async (limit: number) => {
		const result = await runWorkflow({
			nodes: [
				{
					name: 'Query',
					type: 'virtualNumber',
					parameters: {
						resource: 'cdr',
						operation: 'query',
						queryMode: 'builder',
						// No column chosen: every column of the view, as an export to a CRM wants.
						columns: [],
						from: task.from,
						to: task.until,
						order: 'ASC',
						returnAll: false,
						limit,
					},
				},
			],
			credentials: { virtualnumApi: { baseUrl: task.vnUrl, accessToken: task.token } },
		});
		if (result.error) throw new Error(`the query failed: ${result.error.message}`);
		return result.items('Query').length;
	};
	return await measure(
		() => query(200),
		async () => ({ produced: await query(task.limit) }),
	);
}

/** The baseline: the same statement with fetch, the answer parsed with JSON.parse. */
export async function cdrFetch(task: Extract<CdrTask, { kind: 'cdrFetch' }>): Promise<Measurement> {
	const query = async (sql: string) => {
		const response = await fetch(`${task.vnUrl}/api/?service=cdr_query&format=json`, {
			method: 'POST',
			headers: {
				Authorization: `Bearer ${task.token}`,
				'Content-Type': 'application/x-www-form-urlencoded',
			},
			body: new URLSearchParams({ sql }).toString(),
		});
		const answer = JSON.parse(await response.text()) as {
			status: { code: number };
			result: unknown[];
		};
		if (answer.status.code !== 200) throw new Error(`cdr_query answered ${answer.status.code}`);
		return answer.result.length;
	};
	return await measure(
		() => query(task.sql.replace(/LIMIT \d+/i, 'LIMIT 200')),
		async () => ({ produced: await query(task.sql) }),
	);
}

// ---- recording download -------------------------------------------------------------------------

export type BinaryMode = 'default' | 'filesystem';

interface Recording {
	vnUrl: string;
	token: string;
	callUuid: string;
}

export type RecordingTask =
	| ({ kind: 'recordingNode' | 'recordingHttpNode'; binaryMode: BinaryMode } & Recording)
	| ({ kind: 'recordingFetch'; into: 'memory' | 'file' } & Recording);

const recordingUrl = (baseUrl: string, callUuid: string) =>
	`${baseUrl}/api/?service=get_record_by_call_uuid&format=json&type=wav&call_uuid=${encodeURIComponent(callUuid)}`;

/** A loopback server answering a 256 KB WAV, for the warm-up: the same path without a 50 MB peak before the run. */
async function smallRecordingServer(): Promise<{ url: string; close(): Promise<void> }> {
	const bytes = Buffer.alloc(256 * 1024, 0x80);
	bytes.write('RIFF', 0, 'latin1');
	bytes.writeUInt32LE(bytes.length - 8, 4);
	bytes.write('WAVE', 8, 'latin1');
	const server = createServer((_req, res) => {
		res.writeHead(200, { 'Content-Type': 'audio/wav', 'Content-Length': bytes.length });
		res.end(bytes);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

/** The workflow of one download: this package's node, or n8n's HTTP Request node set to save the answer as a file. */
async function downloadWorkflow(
	task: Extract<RecordingTask, { kind: 'recordingNode' | 'recordingHttpNode' }>,
	baseUrl: string,
): Promise<RunOptions> {
	if (task.kind === 'recordingNode') {
		return {
			nodes: [
				{
					name: 'Download',
					type: 'virtualNumber',
					parameters: { resource: 'cdr', operation: 'downloadRecording', callUuid: task.callUuid },
				},
			],
			credentials: { virtualnumApi: { baseUrl, accessToken: task.token } },
		};
	}
	return {
		nodes: [
			{
				name: 'Download',
				type: HTTP_REQUEST,
				typeVersion: defaultVersion(HTTP_REQUEST),
				parameters: {
					method: 'GET',
					url: recordingUrl(baseUrl, task.callUuid),
					authentication: 'genericCredentialType',
					genericAuthType: 'httpHeaderAuth',
					options: { response: { response: { responseFormat: 'file' } } },
				},
				credentials: { httpHeaderAuth: { id: 'header-auth', name: 'Virtual Number token' } },
			},
		],
		nodeTypes: await benchNodeTypes(baseNodes()),
		credentials: { httpHeaderAuth: { name: 'Authorization', value: `Bearer ${task.token}` } },
	};
}

export async function recordingNode(
	task: Extract<RecordingTask, { kind: 'recordingNode' | 'recordingHttpNode' }>,
): Promise<Measurement> {
	// n8n reads the mode from the environment when the binary data service is first built.
	const storage = mkdtempSync(join(tmpdir(), 'bench-binary-'));
	process.env.N8N_DEFAULT_BINARY_DATA_MODE = task.binaryMode;
	process.env.N8N_BINARY_DATA_STORAGE_PATH = storage;
	const { Container } = await import('@n8n/di');
	const { BinaryDataService } = await import('n8n-core');
	await Container.get(BinaryDataService).init();
	const small = await smallRecordingServer();
	const download = async (baseUrl: string) => {
		const result = await runWorkflow(await downloadWorkflow(task, baseUrl));
		if (result.error) throw new Error(`the download failed: ${result.error.message}`);
		const binary = result.items('Download')[0].binary!.data;
		return {
			bytes: Number(binary.bytes ?? Buffer.byteLength(binary.data, 'base64')),
			stored: binary.id ? 'file' : 'item',
		};
	};
	try {
		return await measure(
			() => download(small.url),
			async () => {
				const { bytes, stored } = await download(task.vnUrl);
				return { produced: bytes, extra: { stored } };
			},
			{ breakdown: true },
		);
	} finally {
		await small.close();
		rmSync(storage, { recursive: true, force: true });
	}
}

/** The plain client: fetch the same file whole into memory, or stream it to a file. */
export async function recordingFetch(
	task: Extract<RecordingTask, { kind: 'recordingFetch' }>,
): Promise<Measurement> {
	const dir = mkdtempSync(join(tmpdir(), 'bench-fetch-'));
	const small = await smallRecordingServer();
	const get = async (baseUrl: string) => {
		const response = await fetch(recordingUrl(baseUrl, task.callUuid), {
			headers: { Authorization: `Bearer ${task.token}` },
		});
		if (task.into === 'memory') return Buffer.from(await response.arrayBuffer()).length;
		const file = join(dir, 'recording.wav');
		await pipeline(Readable.fromWeb(response.body as never), createWriteStream(file));
		return Number(response.headers.get('content-length') ?? 0);
	};
	try {
		return await measure(
			() => get(small.url),
			async () => ({ produced: await get(task.vnUrl) }),
			{ breakdown: true },
		);
	} finally {
		await small.close();
		rmSync(dir, { recursive: true, force: true });
	}
}

// ---- the trigger ----------------------------------------------------------------------------------

export const TRIGGER_SECRET = 'bench-secret';

export interface Callback {
	method: 'GET' | 'POST';
	query: IDataObject;
	body: unknown;
	/** The body as sent on the wire (absent for a GET). */
	rawBody?: string;
	headers: Record<string, string>;
}

export function callbackRequest(i: number): Callback {
	const call = {
		call_uuid: `${1_730_603_890 + i}.${i}`,
		cdr_ddi: '0722000100',
		cdr_ani: `05${String(20_000_000 + i)}`,
		user_phone: '0501234567',
		user_name: 'Sales line',
		start_call: '2024-11-03 10:18:10',
	};
	switch (i % 4) {
		case 0:
			return post({ event: 'call.start', ...call });
		case 1:
			return post(
				{
					event: 'call.end',
					...call,
					end_call: '2024-11-03 10:21:40',
					call_duration: '210',
					call_status: 'ANSWER',
					record_file_exists: '1',
				},
				true,
			);
		case 2:
			return {
				method: 'GET',
				query: { ...call, event: 'call.end', call_duration: '35', call_status: 'NOANSWER' },
				body: {},
				headers: {},
			};
		default:
			return post({
				message_id: 100_000_001 + i,
				dest: `97250${String(1_000_000 + i)}`,
				sender: 'VirtualNum',
				status: 'DELIVERED',
				status_time: '2024-11-03 10:18:15',
				sendtime: '2024-11-03 10:18:10',
			});
	}
}

/** A POST as the service sends it: its body as JSON, or as a form (`form`). */
function post(body: Record<string, string | number>, form = false): Callback {
	const rawBody = form
		? new URLSearchParams(body as Record<string, string>).toString()
		: JSON.stringify(body);
	const type = form ? 'application/x-www-form-urlencoded' : 'application/json';
	return { method: 'POST', query: {}, body, rawBody, headers: { 'content-type': type } };
}

export type TriggerTask =
	| { kind: 'trigger'; callbacks: number; webhook: 'node' | 'passthrough' }
	| {
			kind: 'webhookPath';
			callbacks: number;
			concurrency: number;
			receiver: 'trigger' | 'webhookNode';
	  };

const TRIGGER_PARAMETERS = {
	events: ['callStarted', 'callEnded', 'smsDelivery'],
	numbers: 'all',
	options: { secret: TRIGGER_SECRET },
};
const UNUSED_CREDENTIALS = {
	virtualnumApi: { baseUrl: 'http://127.0.0.1:9', accessToken: 'unused' },
};

/** What a webhook that parses and normalises nothing does (n8n's Webhook node, reduced): the request as one item. */
async function passthrough(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const json = {
		headers: this.getHeaderData(),
		query: this.getQueryData(),
		body: this.getBodyData(),
	};
	return { workflowData: [[{ json: json as IDataObject }]] };
}

/** Callbacks straight into the webhook function, one after the other, no HTTP and no execution. */
export async function triggerFunction(
	task: Extract<TriggerTask, { kind: 'trigger' }>,
): Promise<Measurement> {
	const host = await TriggerHost.start();
	const instance = host.add({ parameters: TRIGGER_PARAMETERS, credentials: UNUSED_CREDENTIALS });
	if (task.webhook === 'passthrough') {
		const original = instance.nodeType;
		(instance as unknown as { nodeType: INodeType }).nodeType = Object.assign(
			Object.create(original) as INodeType,
			{ webhook: passthrough },
		);
	}
	const latencies: number[] = [];
	const receive = async (count: number, keep: boolean) => {
		let started = 0;
		for (let i = 0; i < count; i++) {
			const request = callbackRequest(i);
			const begin = performance.now();
			const outcome = await instance.receive(
				{ ...request, query: { ...request.query, secret: TRIGGER_SECRET }, ip: '127.0.0.1' },
				{ execute: false },
			);
			if (keep) latencies.push(performance.now() - begin);
			if (outcome.started) started++;
			// The harness keeps every outcome; a real n8n does not.
			instance.outcomes.length = 0;
		}
		return started;
	};
	try {
		const measurement = await measure(
			() => receive(2_000, false),
			async () => ({ produced: await receive(task.callbacks, true) }),
		);
		measurement.extra = {
			perSecond: Math.round(task.callbacks / (measurement.wallMs / 1000)),
			...percentiles(latencies),
		};
		return measurement;
	} finally {
		await host.close();
	}
}

/** Starts the load generator; it sends when `go` is called (its start-up stays out of the measurement). */
function loadGenerator(
	url: string,
	count: number,
	concurrency: number,
	first: number,
): Promise<{ go(): Promise<LoadResult> }> {
	return new Promise((ready, reject) => {
		const proc = spawn(
			process.execPath,
			[
				'--import',
				'tsx',
				fileURLToPath(import.meta.url),
				'--load',
				JSON.stringify({ url, count, concurrency, first }),
			],
			{ stdio: ['pipe', 'pipe', 'inherit'] },
		);
		let out = '';
		let result: ((value: LoadResult) => void) | undefined;
		proc.stdout.on('data', (chunk: Buffer) => {
			out += chunk.toString('utf8');
			if (out.startsWith('ready\n') && !result) {
				out = out.slice('ready\n'.length);
				ready({
					go: () =>
						new Promise<LoadResult>((resolve) => {
							result = resolve;
							proc.stdin.write('go\n');
						}),
				});
			}
		});
		proc.on('error', reject);
		proc.on('exit', (code) => {
			if (code === 0 && result) result(JSON.parse(out) as LoadResult);
			else reject(new Error(`the load generator exited with ${code}`));
		});
	});
}

/** n8n's Webhook node as a user sets it up for these callbacks: GET and POST, answer at once. */
function webhookNodeOptions() {
	const webhook = baseNodes()[WEBHOOK] as INodeType;
	const entry = (webhook.description.webhooks ?? [])[0];
	const methods = ['GET', 'POST'];
	const webhooks = methods.map(
		(method): IWebhookDescription => ({ ...entry, httpMethod: method as never }),
	);
	const parameters = {
		multipleMethods: true,
		httpMethod: methods,
		path: 'callbacks',
		responseMode: 'onReceived',
		options: {},
	};
	return { parameters, credentials: {}, node: { type: WEBHOOK, typeVersion: 2.1, webhooks } };
}

/**
 * Callbacks through the whole webhook path: the load generator (another process) sends them over
 * HTTP; this process answers and runs one execution per callback. The run ends when every
 * execution has finished, not only when every answer was sent.
 */
export async function webhookPath(
	task: Extract<TriggerTask, { kind: 'webhookPath' }>,
): Promise<Measurement> {
	const base = baseNodesStatus().available ? baseNodes() : {};
	const host = await TriggerHost.start((loader) => new BenchNodeTypes(loader, base));
	const instance: TriggerInstance =
		task.receiver === 'trigger'
			? host.add({ parameters: TRIGGER_PARAMETERS, credentials: UNUSED_CREDENTIALS })
			: host.add(webhookNodeOptions());
	// n8n's Webhook node answers on its own path (`callbacks`), the trigger on `webhook`.
	const url = instance.webhookUrl.replace(/webhook$/, instance.webhookPaths()[0].path);
	const { round, lastLoad } = countOutcomes(instance);
	let measured: { go(): Promise<LoadResult> } | undefined;
	try {
		const measurement = await measure(
			async () => {
				await round(await loadGenerator(url, 2_000, task.concurrency, 1_000_000), 2_000);
				measured = await loadGenerator(url, task.callbacks, task.concurrency, 0);
			},
			async () => ({ produced: await round(measured!, task.callbacks) }),
		);
		measurement.extra = {
			perSecond: Math.round(task.callbacks / (measurement.wallMs / 1000)),
			clientWallMs: Math.round(lastLoad().wallMs),
			...percentiles(lastLoad().latenciesMs),
		};
		return measurement;
	} finally {
		await host.close();
	}
}

/**
 * Counts the webhook's outcomes instead of keeping them (the harness keeps every outcome for the
 * tests; a real n8n keeps none). `round` sends one generator's callbacks and resolves once every
 * execution has finished, with how many started; a failed callback fails the round.
 */
function countOutcomes(instance: TriggerInstance) {
	let finished = 0;
	let failed = 0;
	let started = 0;
	let expected = 0;
	let allFinished: (() => void) | undefined;
	instance.outcomes.push = (...outcomes) => {
		for (const outcome of outcomes) {
			finished++;
			if (outcome.started) started++;
			if (outcome.error !== undefined || outcome.status >= 400) failed++;
		}
		if (finished >= expected) allFinished?.();
		return 0;
	};
	let load: LoadResult | undefined;
	const round = async (generator: { go(): Promise<LoadResult> }, count: number) => {
		finished = 0;
		failed = 0;
		started = 0;
		expected = count;
		const done = new Promise<void>((resolve) => (allFinished = resolve));
		load = await generator.go();
		if (Object.keys(load.statuses).some((status) => !status.startsWith('2')))
			throw new Error(`callbacks refused before a webhook ran: ${JSON.stringify(load.statuses)}`);
		await done;
		if (failed > 0)
			throw new Error(
				`${failed} of ${count} callbacks failed (statuses ${JSON.stringify(load.statuses)})`,
			);
		return started;
	};
	return { round, lastLoad: () => load! };
}

// ---- the load generator, in its own process ------------------------------------------------------

interface LoadTask {
	url: string;
	count: number;
	concurrency: number;
	/** Index of the first callback (the warm-up and the measured run send different calls). */
	first: number;
}

interface LoadResult {
	wallMs: number;
	latenciesMs: number[];
	statuses: Record<string, number>;
}

/** One callback, the trigger's secret added; resolves with the answer's status. */
function sendCallback(task: LoadTask, agent: Agent, i: number): Promise<number> {
	const callback = callbackRequest(task.first + i);
	const url = new URL(task.url);
	url.searchParams.set('secret', TRIGGER_SECRET);
	for (const [key, value] of Object.entries(callback.query))
		url.searchParams.set(key, String(value));
	return new Promise((resolve, reject) => {
		const options = { method: callback.method, headers: callback.headers, agent };
		const req = request(url, options, (res) => {
			res.resume();
			res.on('end', () => resolve(res.statusCode ?? 0));
			res.on('error', reject);
		});
		req.on('error', reject);
		req.end(callback.rawBody);
	});
}

/**
 * Sends `count` callbacks with `concurrency` in flight (keep-alive connections, as a call centre's
 * client keeps) and prints the latency of each and the wall time as JSON. It prints `ready` once
 * loaded and starts on a line on stdin, so its start-up is not measured.
 */
async function generateLoad(task: LoadTask): Promise<void> {
	const agent = new Agent({ keepAlive: true, maxSockets: task.concurrency });
	const latenciesMs: number[] = new Array<number>(task.count);
	const statuses: Record<string, number> = {};
	let next = 0;
	const worker = async () => {
		while (next < task.count) {
			const i = next++;
			const begin = performance.now();
			const status = await sendCallback(task, agent, i);
			latenciesMs[i] = performance.now() - begin;
			statuses[status] = (statuses[status] ?? 0) + 1;
		}
	};
	process.stdout.write('ready\n');
	await new Promise((resolve) => process.stdin.once('data', resolve));
	const started = performance.now();
	await Promise.all(Array.from({ length: task.concurrency }, worker));
	const result: LoadResult = { wallMs: performance.now() - started, latenciesMs, statuses };
	agent.destroy();
	process.stdout.write(`${JSON.stringify(result)}\n`);
	process.stdin.destroy();
}

if (process.argv[2] === '--load') await generateLoad(JSON.parse(process.argv[3]) as LoadTask);
