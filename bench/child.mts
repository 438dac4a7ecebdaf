/**
 * One measurement, in a fresh process (forked by bench/run.mts), so that one measurement's heap
 * does not pollute the next one's memory figures. The sandbox runs in the parent; this process
 * holds only n8n-core with the package (or the plain client of the baseline).
 *
 * Every task warms up first (a small run of the same code path: modules loaded, code compiled),
 * then collects garbage, then measures one run: wall time, CPU time of this process, and the
 * peak RSS growth over the RSS just before the run (sampled every 2 ms, and the kernel's own
 * high-water mark when the run raised it).
 */
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import type { IDataObject, INodeExecutionData, INodeType, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

export type Task =
	| { kind: 'smsNode'; smsUrl: string; token: string; items: number; batchSize: number; toFrom: 'expression' | 'fixed' }
	| { kind: 'smsFetch'; smsUrl: string; token: string; items: number; batchSize: number }
	| { kind: 'cdrNode'; vnUrl: string; token: string; limit: number; from: string; until: string }
	| { kind: 'cdrFetch'; vnUrl: string; token: string; sql: string }
	| { kind: 'recordingNode'; vnUrl: string; token: string; callUuid: string; binaryMode: 'default' | 'filesystem' }
	| { kind: 'recordingFetch'; vnUrl: string; token: string; callUuid: string; into: 'memory' | 'file' }
	| { kind: 'trigger'; callbacks: number; webhook: 'node' | 'passthrough' };

export interface Measurement {
	wallMs: number;
	cpuMs: number;
	/** Peak RSS during the run minus RSS just before it, in bytes. */
	peakRssGrowth: number;
	rssBefore: number;
	/** What the run produced, to check it did the work (items, rows, bytes…). */
	produced: number;
	extra?: Record<string, number | string>;
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

async function settleHeap(): Promise<void> {
	for (let i = 0; i < 3; i++) {
		gc();
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

/**
 * BENCH_PROFILE=<file.cpuprofile>: a CPU profile of the measured run only (not of the start-up
 * or the warm-up), for Chrome DevTools or any .cpuprofile viewer.
 */
async function startProfiler(): Promise<{ stop(file: string): Promise<void> }> {
	const { Session } = await import('node:inspector');
	const session = new Session();
	session.connect();
	const post = (method: string, params?: object) =>
		new Promise<unknown>((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
	await post('Profiler.enable');
	await post('Profiler.setSamplingInterval', { interval: 200 });
	await post('Profiler.start');
	return {
		async stop(file: string) {
			const { profile } = (await post('Profiler.stop')) as { profile: object };
			writeFileSync(file, JSON.stringify(profile));
			session.disconnect();
		},
	};
}

/** Measures `run` (after `warm`): wall, CPU, peak RSS growth. */
async function measure(
	warm: () => Promise<unknown>,
	run: () => Promise<{ produced: number; extra?: Measurement['extra'] }>,
	options: { breakdown?: boolean } = {},
): Promise<Measurement> {
	await warm();
	await settleHeap();
	const rssBefore = process.memoryUsage.rss();
	const highWaterBefore = process.resourceUsage().maxRSS * 1024;
	let peak = rssBefore;
	const sampler = setInterval(() => {
		const rss = process.memoryUsage.rss();
		if (rss > peak) peak = rss;
	}, 2);
	// With `breakdown`, where the memory is: V8 heap, and buffers outside it (every 5 ms; costlier to read).
	const base = process.memoryUsage();
	const parts = { heapUsed: 0, external: 0, arrayBuffers: 0 };
	const detail = options.breakdown
		? setInterval(() => {
				const now = process.memoryUsage();
				for (const key of Object.keys(parts) as Array<keyof typeof parts>) parts[key] = Math.max(parts[key], now[key] - base[key]);
			}, 5)
		: undefined;
	const profiler = process.env.BENCH_PROFILE ? await startProfiler() : undefined;
	const cpu = process.cpuUsage();
	const started = performance.now();
	const result = await run();
	const wallMs = performance.now() - started;
	const used = process.cpuUsage(cpu);
	await profiler?.stop(process.env.BENCH_PROFILE!);
	clearInterval(sampler);
	if (detail) clearInterval(detail);
	peak = Math.max(peak, process.memoryUsage.rss());
	const highWaterAfter = process.resourceUsage().maxRSS * 1024;
	// The kernel's high-water mark catches a peak between two samples, when the run raised it.
	if (highWaterAfter > highWaterBefore) peak = Math.max(peak, highWaterAfter);
	const mb = (bytes: number) => Math.round((bytes / (1024 * 1024)) * 10) / 10;
	return {
		wallMs,
		cpuMs: (used.user + used.system) / 1000,
		peakRssGrowth: Math.max(0, peak - rssBefore),
		rssBefore,
		produced: result.produced,
		extra: {
			...result.extra,
			...(options.breakdown
				? { peakHeapUsedGrowthMB: mb(parts.heapUsed), peakExternalGrowthMB: mb(parts.external), peakArrayBuffersGrowthMB: mb(parts.arrayBuffers) }
				: {}),
		},
	};
}

// ---- Bulk SMS ---------------------------------------------------------------------------------

const SENDER = 'VirtualNum';
const TEXT = 'Your order has shipped. Track it at https://shop.example.com/t/8841';

/** The campaign: one item per recipient, as read from a spreadsheet or a CRM. */
function campaign(items: number, offset = 0): INodeExecutionData[] {
	return Array.from({ length: items }, (_, i) => ({ json: { phone: `+972 50-${String(1_000_000 + offset + i).padStart(7, '0')}`, name: `Customer ${i}` } }));
}

async function smsNode(task: Extract<Task, { kind: 'smsNode' }>): Promise<Measurement> {
	const { runWorkflow } = await import('../test/harness/engine.mts');
	const send = async (input: INodeExecutionData[], fixedTo: string) => {
		const result = await runWorkflow({
			nodes: [
				{
					name: 'Send',
					type: 'bulkSms',
					parameters: {
						resource: 'message',
						operation: 'send',
						sender: { __rl: true, mode: 'id', value: SENDER },
						// The usual setup: each item's own number, mapped with an expression. "fixed" sends
						// the same text value on every item, isolating the node from n8n's expression engine.
						to: task.toFrom === 'expression' ? '={{ $json.phone }}' : fixedTo,
						message: TEXT,
						options: { batchSize: task.batchSize },
					},
				},
			],
			input,
			credentials: { virtualnumSmsApi: { baseUrl: task.smsUrl, accessToken: task.token } },
		});
		if (result.error) throw new Error(`the send failed: ${result.error.message}`);
		return result.items('Send');
	};
	return await measure(
		() => send(campaign(Math.min(task.batchSize * 2, 200), 5_000_000), '+972 50-6000000'),
		async () => {
			const out = await send(campaign(task.items), '+972 50-1000000');
			const sent = out.filter((item) => item.json.message_id !== undefined).length;
			return { produced: sent };
		},
	);
}

/** The baseline: a plain client that sends the same messages in the same batches with fetch. */
async function smsFetch(task: Extract<Task, { kind: 'smsFetch' }>): Promise<Measurement> {
	const send = async (input: INodeExecutionData[]) => {
		const messages = input.map((item) => ({
			service: 'send_sms',
			dest: String(item.json.phone).replace(/\D/g, ''),
			sender: SENDER,
			message: TEXT,
		}));
		let sent = 0;
		for (let start = 0; start < messages.length; start += task.batchSize) {
			const batch = messages.slice(start, start + task.batchSize);
			const response = await fetch(`${task.smsUrl}/api/ws_json_bulk.php`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${task.token}` },
				body: JSON.stringify(batch),
			});
			const results = (await response.json()) as IDataObject[];
			if (!Array.isArray(results) || results.length !== batch.length) throw new Error('wrong number of results');
			sent += results.filter((result) => result.message_id !== undefined).length;
		}
		return sent;
	};
	return await measure(
		() => send(campaign(Math.min(task.batchSize * 2, 200), 5_000_000)),
		async () => ({ produced: await send(campaign(task.items)) }),
	);
}

// ---- Call-record export -----------------------------------------------------------------------

async function cdrNode(task: Extract<Task, { kind: 'cdrNode' }>): Promise<Measurement> {
	const { runWorkflow } = await import('../test/harness/engine.mts');
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
async function cdrFetch(task: Extract<Task, { kind: 'cdrFetch' }>): Promise<Measurement> {
	const query = async (sql: string) => {
		const response = await fetch(`${task.vnUrl}/api/?service=cdr_query&format=json`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${task.token}`, 'Content-Type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({ sql }).toString(),
		});
		const answer = JSON.parse(await response.text()) as { status: { code: number }; result: unknown[] };
		if (answer.status.code !== 200) throw new Error(`cdr_query answered ${answer.status.code}`);
		return answer.result.length;
	};
	return await measure(
		() => query(task.sql.replace(/LIMIT \d+/i, 'LIMIT 200')),
		async () => ({ produced: await query(task.sql) }),
	);
}

// ---- Recording download -----------------------------------------------------------------------

/**
 * A loopback server in this process that answers every request with a small WAV (256 KB), for the
 * warm-up: the same code path as the measured download, without a 50 MB peak before the run.
 */
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

async function recordingNode(task: Extract<Task, { kind: 'recordingNode' }>): Promise<Measurement> {
	// n8n reads the mode from the environment when the binary data service is first built.
	const storage = mkdtempSync(join(tmpdir(), 'bench-binary-'));
	process.env.N8N_DEFAULT_BINARY_DATA_MODE = task.binaryMode;
	process.env.N8N_BINARY_DATA_STORAGE_PATH = storage;
	const { runWorkflow } = await import('../test/harness/engine.mts');
	const { Container } = await import('@n8n/di');
	const { BinaryDataService } = await import('n8n-core');
	const binaryData = Container.get(BinaryDataService);
	await binaryData.init();
	const small = await smallRecordingServer();
	const download = async (callUuid: string, baseUrl: string) => {
		const result = await runWorkflow({
			nodes: [{ name: 'Download', type: 'virtualNumber', parameters: { resource: 'cdr', operation: 'downloadRecording', callUuid } }],
			credentials: { virtualnumApi: { baseUrl, accessToken: task.token } },
		});
		if (result.error) throw new Error(`the download failed: ${result.error.message}`);
		const binary = result.items('Download')[0].binary!.data;
		return { bytes: binary.bytes ?? 0, stored: binary.id ? 'file' : 'item' };
	};
	try {
		return await measure(
			() => download(task.callUuid, small.url),
			async () => {
				const { bytes, stored } = await download(task.callUuid, task.vnUrl);
				return { produced: bytes, extra: { stored } };
			},
			{ breakdown: true },
		);
	} finally {
		await small.close();
		rmSync(storage, { recursive: true, force: true });
	}
}

/** The baseline: fetch the same file whole into memory, or stream it to a file. */
async function recordingFetch(task: Extract<Task, { kind: 'recordingFetch' }>): Promise<Measurement> {
	const dir = mkdtempSync(join(tmpdir(), 'bench-fetch-'));
	const small = await smallRecordingServer();
	const get = async (callUuid: string, baseUrl: string) => {
		const response = await fetch(
			`${baseUrl}/api/?service=get_record_by_call_uuid&format=json&type=wav&call_uuid=${encodeURIComponent(callUuid)}`,
			{ headers: { Authorization: `Bearer ${task.token}` } },
		);
		if (task.into === 'memory') return Buffer.from(await response.arrayBuffer()).length;
		const file = join(dir, `${callUuid}.wav`);
		await pipeline(Readable.fromWeb(response.body as never), createWriteStream(file));
		return Number(response.headers.get('content-length') ?? 0);
	};
	try {
		return await measure(
			() => get(task.callUuid, small.url),
			async () => ({ produced: await get(task.callUuid, task.vnUrl) }),
			{ breakdown: true },
		);
	} finally {
		await small.close();
		rmSync(dir, { recursive: true, force: true });
	}
}

// ---- Trigger ----------------------------------------------------------------------------------

/** The callbacks a call centre sends: call start and end (JSON, form, query string) and SMS delivery reports. */
function callbackRequest(i: number): { method: string; query: IDataObject; body: unknown; rawBody?: string; headers: Record<string, string> } {
	const call = {
		call_uuid: `${1_730_603_890 + i}.${i}`,
		cdr_ddi: '0722000100',
		cdr_ani: `05${String(20_000_000 + i)}`,
		user_phone: '0501234567',
		user_name: 'Sales line',
		start_call: '2024-11-03 10:18:10',
	};
	switch (i % 4) {
		case 0: {
			const body = { event: 'call.start', ...call };
			return { method: 'POST', query: {}, body, rawBody: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
		}
		case 1: {
			const body = { event: 'call.end', ...call, end_call: '2024-11-03 10:21:40', call_duration: '210', call_status: 'ANSWER', record_file_exists: '1' };
			const raw = new URLSearchParams(body).toString();
			return { method: 'POST', query: {}, body, rawBody: raw, headers: { 'content-type': 'application/x-www-form-urlencoded' } };
		}
		case 2:
			return { method: 'GET', query: { ...call, event: 'call.end', call_duration: '35', call_status: 'NOANSWER' }, body: {}, headers: {} };
		default: {
			const body = { message_id: 100_000_001 + i, dest: `97250${String(1_000_000 + i)}`, sender: 'VirtualNum', status: 'DELIVERED', status_time: '2024-11-03 10:18:15', sendtime: '2024-11-03 10:18:10' };
			return { method: 'POST', query: {}, body, rawBody: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
		}
	}
}

/** What a webhook that parses and normalises nothing does (n8n's Webhook node, reduced): the request as one item. */
async function passthrough(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	return {
		workflowData: [[{ json: { headers: this.getHeaderData(), query: this.getQueryData(), body: this.getBodyData() } as IDataObject }]],
	};
}

async function trigger(task: Extract<Task, { kind: 'trigger' }>): Promise<Measurement> {
	const { TriggerHost } = await import('../test/harness/trigger.mts');
	const host = await TriggerHost.start();
	const instance = host.add({
		parameters: { events: ['callStarted', 'callEnded', 'smsDelivery'], numbers: 'all', options: { secret: 'bench-secret' } },
		credentials: { virtualnumApi: { baseUrl: 'http://127.0.0.1:9', accessToken: 'unused' } },
	});
	if (task.webhook === 'passthrough') {
		const original = instance.nodeType;
		(instance as unknown as { nodeType: INodeType }).nodeType = Object.assign(Object.create(original) as INodeType, { webhook: passthrough });
	}
	const latencies: number[] = [];
	const receive = async (count: number, keep: boolean) => {
		let started = 0;
		for (let i = 0; i < count; i++) {
			const request = callbackRequest(i);
			const begin = performance.now();
			const outcome = await instance.receive(
				{ ...request, query: { ...request.query, secret: 'bench-secret' }, ip: '127.0.0.1' },
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
		latencies.sort((a, b) => a - b);
		const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
		measurement.extra = {
			perSecond: Math.round(task.callbacks / (measurement.wallMs / 1000)),
			p50Ms: round3(at(50)),
			p95Ms: round3(at(95)),
			p99Ms: round3(at(99)),
			maxMs: round3(latencies[latencies.length - 1]),
		};
		return measurement;
	} finally {
		await host.close();
	}
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;

export async function runTask(task: Task): Promise<Measurement> {
	switch (task.kind) {
		case 'smsNode':
			return await smsNode(task);
		case 'smsFetch':
			return await smsFetch(task);
		case 'cdrNode':
			return await cdrNode(task);
		case 'cdrFetch':
			return await cdrFetch(task);
		case 'recordingNode':
			return await recordingNode(task);
		case 'recordingFetch':
			return await recordingFetch(task);
		case 'trigger':
			return await trigger(task);
	}
}

// Forked by run.mts: one task from argv, its measurement back over IPC.
if (process.argv[2] === '--task') {
	const task = JSON.parse(process.argv[3]) as Task;
	// Run by hand (no IPC channel, e.g. under --cpu-prof): the measurement goes to stdout.
	const reply = (message: object, code: number) =>
		process.send ? process.send(message, () => process.exit(code)) : (console.log(JSON.stringify(message, null, 2)), process.exit(code));
	runTask(task).then(
		(measurement) => reply({ ok: true, measurement }, 0),
		(error: unknown) => reply({ ok: false, error: (error as Error).stack ?? String(error) }, 1),
	);
}
