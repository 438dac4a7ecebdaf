// Outgoing callbacks (call start/end, SMS delivery status). Sent with node:http on fresh connections
// so that nothing lingers after close(); every attempt is recorded with the answer it got, decoded
// by its Content-Encoding when the callbacks ask for compressed answers (core.mts).
import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';
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
): Promise<{ status: number; body: string; encoding?: string }> {
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
				res.on('end', () => {
					const encoding = res.headers['content-encoding'];
					try {
						const body = decoded(Buffer.concat(chunks), encoding).toString('utf8');
						resolve({
							status: res.statusCode ?? 0,
							body: body.slice(0, MAX_RECORDED_BODY),
							encoding,
						});
					} catch (error) {
						reject(
							new Error(
								`an answer with Content-Encoding ${encoding} that does not decode: ${String(error)}`,
							),
						);
					}
				});
				res.on('error', reject);
			},
		);
		req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
		req.on('error', reject);
		req.end(body);
	});
}

/** An answer's body as a client that asked for compression reads it: by its Content-Encoding only. */
function decoded(body: Buffer, encoding: string | undefined): Buffer {
	const coding = (encoding ?? '').trim().toLowerCase();
	if (coding === 'gzip' || coding === 'x-gzip') return zlib.gunzipSync(body);
	if (coding === 'br') return zlib.brotliDecompressSync(body);
	if (coding === 'deflate') return zlib.inflateSync(body);
	return body;
}

export interface CallbackHow {
	/** GET with the fields in the query string, whatever the configured style. */
	get?: boolean;
	/**
	 * Text appended to the configured URL as it is, before the fields (the field profile's
	 * `?event=hangup`, which lands inside the last parameter when the URL has a query already).
	 */
	appendRaw?: string;
}

/** The URL of a GET callback: the fields appended, after `appendRaw` when there is one. */
function getUrl(target: string, payload: Record<string, string | number>, how: CallbackHow): URL {
	if (how.appendRaw === undefined) {
		const url = new URL(target);
		for (const [key, value] of Object.entries(payload)) url.searchParams.append(key, String(value));
		return url;
	}
	const fields = new URLSearchParams(
		Object.entries(payload).map(([k, v]): [string, string] => [k, String(v)]),
	).toString();
	return new URL(`${target}${how.appendRaw}${fields ? `&${fields}` : ''}`);
}

/** The query string as a PHP service would read it: split on `&`, the first `=` separates. */
function readQuery(url: URL): Record<string, string> {
	return Object.fromEntries(url.searchParams);
}

/**
 * Sends one callback in the configured style: 'json' POSTs a JSON object, 'form' POSTs the same
 * fields urlencoded, 'query', 'upper' and 'lower' GET with the fields added to the query string
 * ('upper' and 'lower' payloads are built with their templates' names, see vn/calls.mts). A query
 * string already on the URL (e.g. a secret) is always kept.
 */
export function sendCallback(
	core: Core,
	kind: CallbackRecord['kind'],
	target: string,
	payload: Record<string, string | number>,
	how: CallbackHow = {},
): Promise<CallbackRecord> {
	const state = core.state; // a reset while in flight must not move the record into the new state
	const style = core.config.callbackStyle;
	const isGet = how.get === true || style === 'query' || style === 'upper' || style === 'lower';
	const work = async (): Promise<CallbackRecord> => {
		const record: CallbackRecord = {
			kind,
			url: target,
			method: isGet ? 'GET' : 'POST',
			headers: { 'user-agent': 'virtualnum-sandbox/1.0' },
			query: {},
			body: null,
			sentAt: new Date().toISOString(),
			responseStatus: null,
			responseBody: '',
		};
		try {
			const url = isGet ? getUrl(target, payload, how) : new URL(target);
			let body: string | undefined;
			if (isGet) {
				// the fields are in the URL
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
			const accept = core.config.callbackAcceptEncoding ?? '';
			if (accept !== '') record.headers['accept-encoding'] = accept;
			record.url = url.toString();
			record.query = readQuery(url);
			const answer = await withSlot(() =>
				request(url, record.method, record.headers, body, core.signal),
			);
			record.responseStatus = answer.status;
			record.responseBody = answer.body;
			if (answer.encoding !== undefined) record.responseEncoding = answer.encoding;
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
