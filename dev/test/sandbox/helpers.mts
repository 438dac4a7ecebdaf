// Helpers for the sandbox tests: a started sandbox, small HTTP clients for both services, and a
// local receiver that records the callbacks the sandbox sends.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox } from '../../sandbox/index.mts';
import type { Sandbox, SandboxOptions } from '../../sandbox/index.mts';

export type { Sandbox };

export function start(options: SandboxOptions = {}): Promise<Sandbox> {
	return startSandbox({ callbackDelayMs: 10, ...options });
}

export interface VnAnswer {
	service: string;
	status: { code: number; description: string; [key: string]: unknown };
	result?: any;
}

export interface CallOptions {
	/** How parameters travel: query string (default), urlencoded body, JSON body. */
	via?: 'query' | 'form' | 'json';
	token?: string | null;
	format?: 'json' | 'xml' | null;
}

/** Raw call to the virtual number service; `service` goes with the other parameters. */
export async function vnRaw(
	sb: Sandbox,
	params: Record<string, string | number>,
	options: CallOptions = {},
): Promise<Response> {
	const token = options.token === undefined ? sb.tokens.vn : options.token;
	const all: Record<string, string> = {};
	for (const [key, value] of Object.entries(params)) all[key] = String(value);
	const format = options.format === undefined ? 'json' : options.format;
	if (format) all.format = format;
	const headers: Record<string, string> = {};
	if (token) headers.authorization = `Bearer ${token}`;
	const via = options.via ?? 'query';
	if (via === 'query') return fetch(`${sb.vnUrl}/api/?${new URLSearchParams(all)}`, { headers });
	if (via === 'form') {
		headers['content-type'] = 'application/x-www-form-urlencoded';
		return fetch(`${sb.vnUrl}/api/`, {
			method: 'POST',
			headers,
			body: new URLSearchParams(all).toString(),
		});
	}
	headers['content-type'] = 'application/json';
	return fetch(`${sb.vnUrl}/api/`, { method: 'POST', headers, body: JSON.stringify(all) });
}

/** Calls an operation with format=json and returns the parsed answer. */
export async function vn(
	sb: Sandbox,
	service: string,
	params: Record<string, string | number> = {},
	options: CallOptions = {},
): Promise<VnAnswer> {
	const res = await vnRaw(sb, { service, ...params }, options);
	const text = await res.text();
	if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${text}`);
	return JSON.parse(text) as VnAnswer;
}

export async function smsBulk(
	sb: Sandbox,
	items: unknown[],
	token: string | null = sb.tokens.sms,
): Promise<{ status: number; body: any }> {
	const headers: Record<string, string> = { 'content-type': 'application/json' };
	if (token) headers.authorization = `Bearer ${token}`;
	const res = await fetch(`${sb.smsUrl}/api/ws_json_bulk.php`, {
		method: 'POST',
		headers,
		body: JSON.stringify(items),
	});
	const text = await res.text();
	return {
		status: res.status,
		body: text.startsWith('[') || text.startsWith('{') ? JSON.parse(text) : text,
	};
}

export async function smsWs(
	sb: Sandbox,
	params: Record<string, string>,
	options: { method?: 'GET' | 'POST'; token?: string | null; inBody?: boolean } = {},
): Promise<{ status: number; body: any }> {
	const headers: Record<string, string> = {};
	const token = options.token === undefined ? sb.tokens.sms : options.token;
	if (token) headers.authorization = `Bearer ${token}`;
	let url = `${sb.smsUrl}/api/ws.php`;
	let body: string | undefined;
	if (options.inBody) {
		headers['content-type'] = 'application/x-www-form-urlencoded';
		body = new URLSearchParams(params).toString();
	} else url += `?${new URLSearchParams(params)}`;
	const res = await fetch(url, {
		method: options.method ?? (body ? 'POST' : 'GET'),
		headers,
		body,
	});
	const text = await res.text();
	return {
		status: res.status,
		body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text,
	};
}

export interface ReceivedCallback {
	method: string;
	url: string;
	query: Record<string, string>;
	headers: http.IncomingHttpHeaders;
	body: string;
}

/** A local HTTP server that records every request it gets and answers 200 "ok" (or `answer`'s text). */
export async function startReceiver(
	answer: (request: ReceivedCallback) => string = () => 'ok',
): Promise<{
	url: string;
	received: ReceivedCallback[];
	close(): Promise<void>;
}> {
	const received: ReceivedCallback[] = [];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const url = new URL(req.url ?? '/', 'http://receiver.local');
			const request = {
				method: req.method ?? '',
				url: req.url ?? '',
				query: Object.fromEntries(url.searchParams),
				headers: req.headers,
				body: Buffer.concat(chunks).toString('utf8'),
			};
			received.push(request);
			res.writeHead(200, { 'content-type': 'text/plain' });
			res.end(answer(request));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		received,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

export async function control(
	sb: Sandbox,
	method: string,
	path: string,
	body?: unknown,
	server: 'vn' | 'sms' = 'vn',
): Promise<{ status: number; body: any }> {
	const base = server === 'vn' ? sb.vnUrl : sb.smsUrl;
	const res = await fetch(`${base}/_sandbox/${path}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** A `DD/MM/YYYY HH:mm` sendtime `minutes` from now. */
export function sendtimeIn(minutes: number): string {
	const d = new Date(Date.now() + minutes * 60_000);
	const pad = (n: number) => String(n).padStart(2, '0');
	return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export async function waitFor<T>(probe: () => T | undefined | false, timeoutMs = 3000): Promise<T> {
	const until = Date.now() + timeoutMs;
	for (;;) {
		const value = probe();
		if (value) return value;
		if (Date.now() > until) throw new Error('condition not reached in time');
		await new Promise((r) => setTimeout(r, 10));
	}
}
