/**
 * The load generator of the full-webhook-path rows, in its own process so that the measured
 * process (the webhook server) spends its CPU on receiving only: sends `count` callbacks to `url`
 * with `concurrency` requests in flight (keep-alive connections, as a call centre's client keeps),
 * and prints the latency of each (time to the response) and the wall time, as JSON on stdout.
 * It prints `ready` once loaded and starts on a line on stdin, so its start-up is not measured.
 *   tsx dev/bench/load.mts '{"url":"http://127.0.0.1:…/webhook/…/webhook","count":20000,"concurrency":4,"first":0}'
 */
import { Agent, request } from 'node:http';

import { TRIGGER_SECRET, callbackRequest } from './callbacks.mts';

interface LoadTask {
	url: string;
	count: number;
	concurrency: number;
	/** Index of the first callback (the warm-up and the measured run send different calls). */
	first: number;
}

export interface LoadResult {
	wallMs: number;
	latenciesMs: number[];
	statuses: Record<string, number>;
}

const task = JSON.parse(process.argv[2]) as LoadTask;
const agent = new Agent({ keepAlive: true, maxSockets: task.concurrency });

function send(i: number): Promise<number> {
	const callback = callbackRequest(task.first + i);
	const url = new URL(task.url);
	url.searchParams.set('secret', TRIGGER_SECRET);
	for (const [key, value] of Object.entries(callback.query))
		url.searchParams.set(key, String(value));
	return new Promise((resolve, reject) => {
		const req = request(
			url,
			{ method: callback.method, headers: callback.headers, agent },
			(res) => {
				res.resume();
				res.on('end', () => resolve(res.statusCode ?? 0));
				res.on('error', reject);
			},
		);
		req.on('error', reject);
		req.end(callback.rawBody);
	});
}

const latenciesMs: number[] = new Array<number>(task.count);
const statuses: Record<string, number> = {};
let next = 0;
async function worker(): Promise<void> {
	while (next < task.count) {
		const i = next++;
		const begin = performance.now();
		const status = await send(i);
		latenciesMs[i] = performance.now() - begin;
		statuses[status] = (statuses[status] ?? 0) + 1;
	}
}

process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
const started = performance.now();
await Promise.all(Array.from({ length: task.concurrency }, worker));
const result: LoadResult = { wallMs: performance.now() - started, latenciesMs, statuses };
agent.destroy();
process.stdout.write(`${JSON.stringify(result)}\n`);
process.stdin.destroy();
