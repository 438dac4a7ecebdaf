// Outgoing callbacks (call start/end, SMS delivery status). Sent with node:http on fresh connections
// so that nothing lingers after close(); every attempt is recorded with the answer it got.
import http from 'node:http';
import https from 'node:https';
import type { Core } from './core.mts';
import type { CallbackRecord } from './state.mts';

const TIMEOUT_MS = 5000;
const MAX_CONCURRENT = 32;
const MAX_RECORDED_BODY = 10_000;

let active = 0;
const waiting: Array<() => void> = [];

async function withSlot<T>(work: () => Promise<T>): Promise<T> {
	if (active >= MAX_CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
	active++;
	try {
		return await work();
	} finally {
		active--;
		waiting.shift()?.();
	}
}

function request(
	url: URL,
	method: string,
	headers: Record<string, string>,
	body: string | undefined,
	signal: AbortSignal,
): Promise<{ status: number; body: string }> {
	return new Promise((resolve, reject) => {
		const client = url.protocol === 'https:' ? https : http;
		const req = client.request(
			url,
			{ method, headers, agent: false, signal, timeout: TIMEOUT_MS },
			(res) => {
				const chunks: Buffer[] = [];
				let size = 0;
				res.on('data', (chunk: Buffer) => {
					if (size < MAX_RECORDED_BODY) chunks.push(chunk);
					size += chunk.length;
				});
				res.on('end', () =>
					resolve({
						status: res.statusCode ?? 0,
						body: Buffer.concat(chunks).toString('utf8').slice(0, MAX_RECORDED_BODY),
					}),
				);
				res.on('error', reject);
			},
		);
		req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
		req.on('error', reject);
		req.end(body);
	});
}

/**
 * Sends one callback in the configured style: 'json' POSTs a JSON object, 'form' POSTs the same
 * fields urlencoded, 'query' and 'upper' GET with the fields added to the query string ('upper'
 * payloads are built with the upper-case names, see vn/calls.mts). A query string already on the
 * URL (e.g. a secret) is always kept.
 */
export function sendCallback(
	core: Core,
	kind: CallbackRecord['kind'],
	target: string,
	payload: Record<string, string | number>,
): Promise<CallbackRecord> {
	const state = core.state; // a reset while in flight must not move the record into the new state
	const style = core.config.callbackStyle;
	const work = async (): Promise<CallbackRecord> => {
		const record: CallbackRecord = {
			kind,
			url: target,
			method: style === 'query' || style === 'upper' ? 'GET' : 'POST',
			headers: { 'user-agent': 'virtualnum-sandbox/1.0' },
			query: {},
			body: null,
			sentAt: new Date().toISOString(),
			responseStatus: null,
			responseBody: '',
		};
		try {
			const url = new URL(target);
			let body: string | undefined;
			if (record.method === 'GET') {
				for (const [key, value] of Object.entries(payload))
					url.searchParams.append(key, String(value));
			} else if (style === 'form') {
				body = new URLSearchParams(
					Object.entries(payload).map(([k, v]): [string, string] => [k, String(v)]),
				).toString();
				record.headers['content-type'] = 'application/x-www-form-urlencoded';
				record.body = Object.fromEntries(Object.entries(payload).map(([k, v]) => [k, String(v)]));
			} else {
				body = JSON.stringify(payload);
				record.headers['content-type'] = 'application/json';
				record.body = payload;
			}
			if (body !== undefined) record.headers['content-length'] = String(Buffer.byteLength(body));
			record.url = url.toString();
			record.query = Object.fromEntries(url.searchParams);
			const answer = await withSlot(() =>
				request(url, record.method, record.headers, body, core.signal),
			);
			record.responseStatus = answer.status;
			record.responseBody = answer.body;
		} catch (error) {
			record.error = (error as Error).message;
		}
		state.callbacks.push(record);
		core.log(
			`callback ${kind} ${record.method} -> ${record.responseStatus ?? 'error: ' + record.error}`,
		);
		return record;
	};
	return core.track(work());
}
