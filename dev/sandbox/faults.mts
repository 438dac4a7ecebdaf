// Fault injection: a queue of faults, each applying to the next `count` requests that match its
// server and operation. Pre-answer faults replace the answer; post-answer faults distort it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { wavChunks } from './audio.mts';
import { bearerToken } from './auth.mts';
import { send, sendText } from './http.mts';
import type { ParsedRequest } from './http.mts';

export type UnauthorizedText =
	| 'IP'
	| 'Token Required'
	| 'Token Expired'
	| 'Invalid Token'
	| 'Account Suspended'
	/** The texts integrators observed (the field profile's refusal-texts), on any operation. */
	| 'IP not legal'
	| 'Token missing'
	| 'Token expired'
	| 'Token invalid';

export type FaultSpec =
	| { kind: 'http500' }
	| { kind: 'hang' }
	| { kind: 'html' }
	| { kind: 'truncatedJson' }
	| { kind: 'xml' }
	| { kind: 'wrongLength'; delta?: number }
	/** The refusal `text`; HTTP `status` default 401, 200 for the observed texts (as seen). */
	| { kind: 'unauthorized'; text: UnauthorizedText; status?: number }
	| { kind: 'slow'; delayMs: number }
	/** The answer as it was when the request arrived, sent `delayMs` later (a read that goes stale in flight). */
	| { kind: 'lateAnswer'; delayMs: number }
	| { kind: 'empty' }
	| { kind: 'serviceError'; code: number; description?: string }
	/** A redirect (301, 302, 307 or 308) to `location`, by default the sandbox's redirect target (which records what reaches it). */
	| { kind: 'redirect'; status: RedirectStatus; location?: string }
	/** 200 with a text body labelled audio/wav (a status served as a file). */
	| { kind: 'notAudio'; text?: string }
	/**
	 * 200 with a generated WAV of `bytes` bytes, streamed (a file larger than any limit); with
	 * `announced: false` its header gives no length (a streaming WAV), so only the bytes tell.
	 */
	| { kind: 'largeFile'; bytes: number; announced?: boolean }
	/** 429 with `Retry-After`: in seconds, or as an HTTP date `retryAfterSec` from now. */
	| { kind: 'rateLimit'; retryAfterSec?: number; httpDate?: boolean }
	/** Headers (200, a Content-Length that is never reached), then nothing: the body never ends. */
	| { kind: 'headersThenSilence'; contentType?: string }
	/** The real answer, one byte every `intervalMs` (a Content-Length covering all of it). */
	| { kind: 'drip'; intervalMs: number }
	/** `page` is ignored: every page request gets the first page again (list operations). */
	| { kind: 'ignorePage' }
	/** `text` repeated to `bytes` bytes as the whole answer (default 80 KB of `<`, HTTP 200, HTML). */
	| { kind: 'hostileBody'; text?: string; bytes?: number; status?: number; contentType?: string }
	/** The real answer with a `length`-character text in `field` of each result (default: the status description). */
	| { kind: 'longText'; length?: number; text?: string; field?: string }
	/** The request's tokens (Bearer and the SMS account token) echoed back, see EchoPlace. */
	| { kind: 'echoToken'; where: EchoPlace }
	/** Send's answer items carry the message's `callback_url` back (its `secret=` included). */
	| { kind: 'echoCallbackUrl' }
	/** cdr_query answers each row `times` times (default 2), one after the other. */
	| { kind: 'repeatRows'; times?: number }
	/** cdr_query runs without the statement's LIMIT: every matching row in one answer. */
	| { kind: 'ignoreLimit' }
	/** cdr_query answers `rows` (default 2) rows before the asked `id > N` too: pages overlap. */
	| { kind: 'overlapRows'; rows?: number };

/**
 * unauthorized: 401 `Unauthorized - Invalid Token: Bearer <token>`; status: the service's status
 * description (VN; SMS sender/credit errors; every Send item); html: a 502 HTML page; smsItem:
 * each Send item failed with the tokens in its description; senderList: a sender-list error.
 */
export type EchoPlace = 'unauthorized' | 'status' | 'html' | 'smsItem' | 'senderList';
const ECHO_PLACES = new Set(['unauthorized', 'status', 'html', 'smsItem', 'senderList']);

export type RedirectStatus = 301 | 302 | 307 | 308;
const REDIRECT_STATUSES = new Set([301, 302, 307, 308]);

/** `callId`: only requests for this call (`call_uuid`), e.g. one call's recording among many. */
export type Fault = FaultSpec & {
	server?: 'vn' | 'sms';
	operation?: string;
	callId?: string;
	count?: number;
};

export interface PendingFault {
	id: number;
	fault: Fault;
	remaining: number;
}

const KINDS = new Set([
	'http500',
	'hang',
	'html',
	'truncatedJson',
	'xml',
	'wrongLength',
	'unauthorized',
	'slow',
	'lateAnswer',
	'empty',
	'serviceError',
	'redirect',
	'notAudio',
	'largeFile',
	'rateLimit',
	'headersThenSilence',
	'drip',
	'ignorePage',
	'hostileBody',
	'longText',
	'echoToken',
	'echoCallbackUrl',
	'repeatRows',
	'ignoreLimit',
	'overlapRows',
]);
const TEXTS = new Set([
	'IP',
	'Token Required',
	'Token Expired',
	'Invalid Token',
	'Account Suspended',
	'IP not legal',
	'Token missing',
	'Token expired',
	'Token invalid',
]);

/** Throws a readable error for a malformed fault, so a typo in a test fails loudly. */
export function validateFault(input: unknown): Fault {
	if (!input || typeof input !== 'object') throw new Error('fault must be an object');
	const fault = input as Record<string, unknown>;
	if (!KINDS.has(String(fault.kind)))
		throw new Error(
			`unknown fault kind "${String(fault.kind)}"; expected one of ${[...KINDS].join(', ')}`,
		);
	if (fault.server !== undefined && fault.server !== 'vn' && fault.server !== 'sms')
		throw new Error('server must be "vn" or "sms"');
	if (fault.count !== undefined && (!Number.isInteger(fault.count) || (fault.count as number) < 1))
		throw new Error('count must be a positive integer');
	if (fault.callId !== undefined && (typeof fault.callId !== 'string' || fault.callId === ''))
		throw new Error('callId must be a call_uuid');
	if (fault.kind === 'unauthorized' && !TEXTS.has(String(fault.text)))
		throw new Error(`text must be one of ${[...TEXTS].join(', ')}`);
	if (
		(fault.kind === 'slow' || fault.kind === 'lateAnswer') &&
		(typeof fault.delayMs !== 'number' || fault.delayMs < 0)
	)
		throw new Error(`${String(fault.kind)} needs delayMs >= 0`);
	if (fault.kind === 'serviceError' && !Number.isInteger(fault.code))
		throw new Error('serviceError needs an integer code');
	if (fault.kind === 'wrongLength' && fault.delta !== undefined && !Number.isInteger(fault.delta))
		throw new Error('delta must be an integer');
	if (fault.kind === 'redirect' && !REDIRECT_STATUSES.has(Number(fault.status)))
		throw new Error('redirect needs a status of 301, 302, 307 or 308');
	if (
		fault.kind === 'largeFile' &&
		(!Number.isInteger(fault.bytes) || (fault.bytes as number) < 44)
	)
		throw new Error('largeFile needs bytes >= 44');
	const nonNegative = (name: string) => {
		const value = fault[name];
		if (value !== undefined && (typeof value !== 'number' || !(value >= 0)))
			throw new Error(`${String(fault.kind)}: ${name} must be a number >= 0`);
	};
	for (const name of ['retryAfterSec', 'intervalMs', 'bytes', 'length', 'times', 'rows'])
		nonNegative(name);
	if (fault.kind === 'drip' && fault.intervalMs === undefined)
		throw new Error('drip needs intervalMs');
	if (fault.kind === 'echoToken' && !ECHO_PLACES.has(String(fault.where)))
		throw new Error(`echoToken needs where: one of ${[...ECHO_PLACES].join(', ')}`);
	return fault as unknown as Fault;
}

export class FaultQueue {
	private pending: PendingFault[] = [];
	private nextId = 1;

	add(input: unknown): PendingFault {
		const fault = validateFault(input);
		const entry = { id: this.nextId++, fault, remaining: fault.count ?? 1 };
		this.pending.push(entry);
		return entry;
	}

	/** The first pending fault matching the request, consumed by one. */
	take(server: 'vn' | 'sms', operation: string, callId?: string): Fault | undefined {
		const index = this.pending.findIndex(
			(p) =>
				(p.fault.server === undefined || p.fault.server === server) &&
				(p.fault.operation === undefined || p.fault.operation === operation) &&
				(p.fault.callId === undefined || p.fault.callId === callId),
		);
		if (index < 0) return undefined;
		const entry = this.pending[index];
		entry.remaining--;
		if (entry.remaining <= 0) this.pending.splice(index, 1);
		return entry.fault;
	}

	list(): PendingFault[] {
		return this.pending.map((p) => ({ ...p, fault: { ...p.fault } }));
	}

	clear(): void {
		this.pending = [];
	}
}

export function unauthorizedText(text: UnauthorizedText, clientIp: string): string {
	if (text === 'IP') return `Unauthorized - IP Address:'${clientIp}' is not allowed`;
	if (text === 'IP not legal')
		return `The ip address is not legal for this web service ${clientIp}`;
	return OBSERVED_TOKEN_TEXTS.has(text) ? text : `Unauthorized - ${text}`;
}

const OBSERVED_TOKEN_TEXTS = new Set<string>(['Token missing', 'Token expired', 'Token invalid']);

function isObserved(text: UnauthorizedText): boolean {
	return text === 'IP not legal' || OBSERVED_TOKEN_TEXTS.has(text);
}

export const HTML_PROXY_ERROR = `<!DOCTYPE html>
<html>
<head><title>502 Bad Gateway</title></head>
<body>
<center><h1>502 Bad Gateway</h1></center>
<hr><center>nginx</center>
</body>
</html>
`;

/** First half of a serialized answer, cut so that it is certainly not valid JSON any more. */
export function truncate(text: string): string {
	return text.slice(0, Math.max(1, Math.floor(text.length / 2)));
}

/** wrongLength: drops |delta| trailing items, or repeats the last item delta times. */
export function distortLength<T>(items: T[], delta = -1): T[] {
	if (delta < 0) return items.slice(0, Math.max(0, items.length + delta));
	if (items.length === 0) return items;
	return [...items, ...Array.from({ length: delta }, () => items[items.length - 1])];
}

/** The secrets a request carries, as a careless service or proxy would quote them. */
export function echoedTokens(req: ParsedRequest, itemToken?: string): string {
	const parts: string[] = [];
	const bearer = bearerToken(req.headers);
	if (bearer) parts.push(`Bearer ${bearer}`);
	const account = itemToken ?? (req.params.token ?? '').trim();
	if (account) parts.push(`token=${account}`);
	return parts.join(' ') || 'Bearer (none)';
}

function retryAfter(fault: { retryAfterSec?: number; httpDate?: boolean }): string {
	const seconds = fault.retryAfterSec ?? 1;
	return fault.httpDate
		? new Date(Date.now() + seconds * 1000).toUTCString()
		: String(Math.ceil(seconds));
}

/** `text` repeated to exactly `bytes` bytes (never built by repeated concatenation). */
export function repeatTo(text: string, bytes: number): string {
	const unit = text === '' ? '<' : text;
	return unit.repeat(Math.ceil(bytes / Buffer.byteLength(unit))).slice(0, bytes);
}

/** Faults that replace the answer entirely; true when the request is answered (or left hanging). */
export function applyPreFault(
	res: ServerResponse,
	fault: Fault | undefined,
	clientIp: string,
	redirectTarget = '',
	req?: ParsedRequest,
): boolean {
	if (!fault) return false;
	return answerBroken(res, fault, redirectTarget) || answerRefusal(res, fault, clientIp, req);
}

/** Answers that break the transfer itself: 429, a silent body, a huge body, a redirect, a file. */
function answerBroken(res: ServerResponse, fault: Fault, redirectTarget: string): boolean {
	switch (fault.kind) {
		case 'rateLimit':
			res.writeHead(429, {
				'retry-after': retryAfter(fault),
				'content-type': 'text/plain; charset=utf-8',
			});
			res.end('Too Many Requests');
			return true;
		case 'headersThenSilence':
			res.writeHead(200, {
				'content-type': fault.contentType ?? 'application/json; charset=utf-8',
				'content-length': 1024 * 1024,
			});
			res.flushHeaders();
			return true;
		case 'hostileBody':
			send(
				res,
				fault.status ?? 200,
				fault.contentType ?? 'text/html; charset=utf-8',
				repeatTo(fault.text ?? '<', fault.bytes ?? 80 * 1024),
			);
			return true;
		case 'redirect':
			res.writeHead(fault.status, {
				location: fault.location ?? `${redirectTarget}/moved/here?session=redirect-query-secret`,
				'content-type': 'text/plain; charset=utf-8',
			});
			res.end(`Moved to ${fault.location ?? redirectTarget}`);
			return true;
		case 'notAudio':
			send(res, 200, 'audio/wav', fault.text ?? 'Recording not available');
			return true;
		case 'largeFile':
			streamChunks(res, wavChunks(fault.bytes, 440, fault.announced ?? true), 'audio/wav');
			return true;
		default:
			return false;
	}
}

/** Answers the service gives when it refuses or fails: 401 texts, 500, a proxy's page, nothing. */
function answerRefusal(
	res: ServerResponse,
	fault: Fault,
	clientIp: string,
	req: ParsedRequest | undefined,
): boolean {
	switch (fault.kind) {
		case 'echoToken':
			if (fault.where === 'unauthorized' && req) {
				sendText(res, 401, `Unauthorized - Invalid Token: ${echoedTokens(req)}`);
				return true;
			}
			if (fault.where === 'html' && req) {
				sendText(res, 502, echoHtml(echoedTokens(req)), 'text/html; charset=utf-8');
				return true;
			}
			return false;
		case 'http500':
			sendText(res, 500, 'Internal Server Error');
			return true;
		case 'html':
			sendText(res, 502, HTML_PROXY_ERROR, 'text/html; charset=utf-8');
			return true;
		case 'empty':
			send(res, 200, 'text/html; charset=utf-8', '');
			return true;
		case 'unauthorized':
			sendText(
				res,
				fault.status ?? (isObserved(fault.text) ? 200 : 401),
				unauthorizedText(fault.text, clientIp),
			);
			return true;
		case 'hang':
			// Never answered: the socket stays open until the client gives up or the sandbox closes.
			return true;
		default:
			return false;
	}
}

function echoHtml(tokens: string): string {
	return `<!DOCTYPE html>
<html><head><title>401 Authorization Required</title></head>
<body><h1>Authorization Required</h1><p>The request carried: Authorization: ${tokens}</p>
<hr><center>nginx</center></body></html>
`;
}

/** The `drip` fault: the answer's bytes one at a time, every `intervalMs`, until done or closed. */
export function dripAnswer(
	res: ServerResponse,
	status: number,
	headers: Record<string, string | number>,
	body: Buffer,
	intervalMs: number,
	signal: AbortSignal,
): void {
	res.writeHead(status, { ...headers, 'content-length': body.length });
	res.flushHeaders();
	let next = 0;
	const timer = setInterval(() => {
		if (res.destroyed || signal.aborted) return stop();
		res.write(body.subarray(next, next + 1));
		next++;
		if (next >= body.length) {
			stop();
			res.end();
		}
	}, intervalMs);
	const stop = () => clearInterval(timer);
	res.once('close', stop);
	signal.addEventListener('abort', stop, { once: true });
}

/** The `longText` fault on an answer: the text in `field` of every result object, or the status. */
export function lengthenText(
	answer: unknown,
	fault: { length?: number; text?: string; field?: string },
): void {
	const long = repeatTo(fault.text ?? 'a', fault.length ?? 8000);
	const objects = (value: unknown): Array<Record<string, unknown>> =>
		Array.isArray(value)
			? value.filter((v): v is Record<string, unknown> => !!v && typeof v === 'object')
			: value && typeof value === 'object'
				? [value as Record<string, unknown>]
				: [];
	if (!answer || typeof answer !== 'object') return;
	const top = answer as Record<string, unknown>;
	if (fault.field === undefined) {
		const status = top.status;
		if (status && typeof status === 'object')
			(status as Record<string, unknown>).description = long;
		else for (const item of objects(answer)) item.description = long;
		return;
	}
	const targets = Array.isArray(answer) ? objects(answer) : objects(top.result ?? top);
	for (const item of targets) item[fault.field] = long;
}

/** The cdr_query faults that change the statement before it runs (ignoreLimit, overlapRows). */
export function distortStatement(params: Record<string, string>, fault: Fault | undefined): void {
	const sql = params.sql;
	if (sql === undefined || !fault) return;
	if (fault.kind === 'ignoreLimit') params.sql = sql.replace(/\s+LIMIT\s+\d+\s*$/i, '');
	if (fault.kind === 'overlapRows')
		params.sql = sql.replace(/\bid > (\d+)/, (_, id: string) => {
			const from = BigInt(id) - BigInt(fault.rows ?? 2);
			return `id > ${from < BigInt(0) ? 0 : from}`;
		});
}

/** repeatRows: each row `times` times, one after the other. */
export function repeatRows<T>(rows: T[], times = 2): T[] {
	return rows.flatMap((row) => Array.from({ length: Math.max(1, times) }, () => row));
}

/** Streams generated chunks with back-pressure (a large file is never held whole). */
function streamChunks(res: ServerResponse, chunks: Iterator<Buffer>, contentType: string): void {
	res.writeHead(200, { 'content-type': contentType });
	const pump = () => {
		while (!res.destroyed) {
			const next = chunks.next();
			if (next.done) break;
			if (!res.write(next.value)) {
				res.once('drain', pump);
				return;
			}
		}
		res.end();
	};
	pump();
}

// ---- the redirect target: a second listener that records whatever a redirect brings to it ------

export interface RedirectedRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string>;
	/** Bytes of the body that arrived. */
	bodyBytes: number;
	receivedAt: string;
}

export interface RedirectTarget {
	url: string;
	requests(): RedirectedRequest[];
	clear(): void;
	close(): Promise<void>;
}

/** Listens on 127.0.0.1 (free port) and records every request; answers a harmless 200. */
export async function startRedirectTarget(host = '127.0.0.1'): Promise<RedirectTarget> {
	const received: RedirectedRequest[] = [];
	const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
		let bodyBytes = 0;
		req.on('data', (chunk: Buffer) => {
			bodyBytes += chunk.length;
		});
		req.on('end', () => {
			const url = new URL(req.url ?? '/', 'http://redirect.target');
			received.push({
				method: req.method ?? 'GET',
				path: url.pathname,
				query: Object.fromEntries(url.searchParams),
				headers: Object.fromEntries(
					Object.entries(req.headers).map(([k, v]) => [
						k,
						Array.isArray(v) ? v.join(', ') : String(v ?? ''),
					]),
				),
				bodyBytes,
				receivedAt: new Date().toISOString(),
			});
			send(
				res,
				200,
				'application/json; charset=utf-8',
				JSON.stringify({ service: 'test', status: { code: 200, description: 'Redirect target' } }),
			);
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, host, () => resolve());
	});
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
		requests: () =>
			received.map((r) => ({ ...r, headers: { ...r.headers }, query: { ...r.query } })),
		clear: () => {
			received.length = 0;
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}
