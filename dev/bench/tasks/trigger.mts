/**
 * The trigger's benchmarks: callbacks into the webhook function (n8n-core's WebhookContext, no
 * HTTP), and callbacks through the whole webhook path (the harness's HTTP server parsing bodies as
 * n8n's does, WebhookContext, the answer, an execution started and run on WorkflowExecute) against
 * n8n's own Webhook node on the same server and the same requests.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import type {
	IDataObject,
	INodeType,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import type { TriggerInstance } from '../../harness/trigger.mts';
import { TRIGGER_SECRET, callbackRequest } from '../callbacks.mts';
import type { LoadResult } from '../load.mts';
import { measure, round3, type Measurement } from '../measure.mts';
import { BenchNodeTypes, WEBHOOK, baseNodes } from '../n8n.mts';

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
	return {
		workflowData: [
			[
				{
					json: {
						headers: this.getHeaderData(),
						query: this.getQueryData(),
						body: this.getBodyData(),
					} as IDataObject,
				},
			],
		],
	};
}

const percentiles = (latencies: number[]) => {
	const sorted = [...latencies].sort((a, b) => a - b);
	const at = (p: number) =>
		sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
	return {
		p50Ms: round3(at(50)),
		p95Ms: round3(at(95)),
		p99Ms: round3(at(99)),
		maxMs: round3(sorted[sorted.length - 1]),
	};
};

/** Callbacks straight into the webhook function, one after the other, no HTTP and no execution. */
export async function triggerFunction(
	task: Extract<TriggerTask, { kind: 'trigger' }>,
): Promise<Measurement> {
	const { TriggerHost } = await import('../../harness/trigger.mts');
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

const LOAD = fileURLToPath(new URL('../load.mts', import.meta.url));

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
			['--import', 'tsx', LOAD, JSON.stringify({ url, count, concurrency, first })],
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
	const base = baseNodes();
	if (!base.available) throw new Error(base.reason);
	const webhook = base.types[WEBHOOK] as INodeType;
	const entry = (webhook.description.webhooks ?? [])[0];
	const version = 2.1;
	return {
		parameters: {
			multipleMethods: true,
			httpMethod: ['GET', 'POST'],
			path: 'callbacks',
			responseMode: 'onReceived',
			options: {},
		},
		credentials: {},
		node: {
			type: WEBHOOK,
			typeVersion: version,
			webhooks: ['GET', 'POST'].map(
				(method): IWebhookDescription => ({ ...entry, httpMethod: method as never }),
			),
		},
	};
}

/**
 * Callbacks through the whole webhook path: the load generator (another process) sends them over
 * HTTP; this process answers and runs one execution per callback. The run ends when every
 * execution has finished, not only when every answer was sent.
 */
export async function webhookPath(
	task: Extract<TriggerTask, { kind: 'webhookPath' }>,
): Promise<Measurement> {
	const { TriggerHost } = await import('../../harness/trigger.mts');
	const base = baseNodes();
	const host = await TriggerHost.start(
		(loader) => new BenchNodeTypes(loader, base.available ? base.types : {}),
	);
	const instance: TriggerInstance =
		task.receiver === 'trigger'
			? host.add({ parameters: TRIGGER_PARAMETERS, credentials: UNUSED_CREDENTIALS })
			: host.add(webhookNodeOptions());
	const url = instance.webhookUrl;
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
		await done;
		if (failed > 0)
			throw new Error(
				`${failed} of ${count} callbacks failed (statuses ${JSON.stringify(load.statuses)})`,
			);
		return started;
	};
	return { round, lastLoad: () => load! };
}
