/**
 * Reading one callback request as n8n hands it over: method, path, query, parsed body, raw body,
 * headers and client address, every read guarded (the webhook never throws); a body that n8n
 * left unparsed read here as JSON or form fields; and the limits a request is held to before it is
 * read further: its size, and its client address against the Allowed IPs option (addresses and
 * CIDR ranges, IPv4 or IPv6, read once with the settings).
 */
import type { IWebhookFunctions } from 'n8n-workflow';

import { OWN_PARAMS, SECRET_PARAM } from '../../shared/triggerUrl';
import type { IpRange } from '../types';

export interface ReceivedRequest {
	method: string;
	/** The path the request came to, without query string and trailing slash (n8n routes only registered paths here). */
	path: string;
	query: unknown;
	body: unknown;
	rawBody?: unknown;
	headers: Record<string, unknown>;
	ip?: string;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
	return (
		typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value)
	);
}

export function attempt<T>(read: () => T): T | undefined {
	try {
		return read();
	} catch {
		return undefined;
	}
}

/** A field value as text; repeated parameters give their first value; objects give nothing. */
export function scalar(value: unknown): string | undefined {
	if (Array.isArray(value)) return value.length > 0 ? scalar(value[0]) : undefined;
	if (typeof value === 'string') return value; // as sent: a reader trims what it compares
	if (typeof value === 'boolean') return String(value);
	if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
	return undefined;
}

/** Body text when the body is text or bytes n8n did not parse. */
export function textOf(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (Buffer.isBuffer(value)) return value.toString('utf8');
	if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
	return undefined;
}

export function isEmptyBody(body: unknown): boolean {
	if (body === undefined || body === null || body === '') return true;
	return isPlainObject(body) && Object.keys(body).length === 0;
}

/** An object holding exactly these entries as own keys (`__proto__` included, as JSON.parse makes it). */
export function ownKeysObject(entries: Iterable<[string, unknown]>): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	for (const [key, value] of entries) {
		if (!Object.prototype.hasOwnProperty.call(out, key))
			Object.defineProperty(out, key, {
				value,
				enumerable: true,
				writable: true,
				configurable: true,
			});
	}
	return out;
}

/** Reads a text body that n8n left unparsed: JSON, then form-encoded; undefined when neither. */
function parseText(text: string): unknown {
	const trimmed = text.trim();
	if (trimmed === '') return undefined;
	if (/^[[{]/.test(trimmed)) return attempt(() => JSON.parse(trimmed) as unknown);
	if (/^[^=&\s]+=[^&]*(&[^=&\s]+=[^&]*)*&?$/.test(trimmed))
		return attempt(() => ownKeysObject(new URLSearchParams(trimmed)));
	return undefined;
}

/**
 * The body to read fields from (what n8n parsed, or else the raw text read here), and the text
 * when none could be read.
 */
export function readBody(request: ReceivedRequest): { body: unknown; rawBody?: string } {
	const body = request.body;
	const bodyText = textOf(body) ?? (isEmptyBody(body) ? textOf(request.rawBody) : undefined);
	if (bodyText === undefined) return { body: body ?? {} };
	const parsed = parseText(bodyText);
	if (parsed !== undefined) return { body: parsed };
	const unreadBody =
		typeof body === 'string' || Buffer.isBuffer(body) || body instanceof Uint8Array
			? {}
			: (body ?? {});
	return { body: unreadBody, rawBody: bodyText.trim() === '' ? undefined : bodyText };
}

export function bodySize(request: ReceivedRequest): number {
	const raw = request.rawBody;
	if (Buffer.isBuffer(raw) || raw instanceof Uint8Array) return raw.length;
	if (typeof raw === 'string') return Buffer.byteLength(raw);
	const declared = Number(scalar(request.headers['content-length']));
	if (Number.isFinite(declared) && declared > 0) return declared;
	const text = textOf(request.body);
	if (text !== undefined) return Buffer.byteLength(text);
	try {
		return request.body === undefined ? 0 : Buffer.byteLength(JSON.stringify(request.body) ?? '');
	} catch {
		return Number.MAX_SAFE_INTEGER; // a body that cannot even be measured is not a callback
	}
}

/** Decodes one raw query component as a query parser does (`+` is a space); undefined when malformed. */
function decoded(raw: string): string | undefined {
	return attempt(() => decodeURIComponent(raw.replace(/\+/g, ' ')));
}

/**
 * The query with what the service appended read apart. The service appends `?event=<word>` to the
 * callback URL even when it already has a query string, so the second `?` lands inside the value
 * of the URL's last parameter: the trigger's `vnt_prev` (or the Secret of a URL pasted by hand).
 * The trigger encodes every `?` it writes (%3F), so a literal `?` in the raw value of one of its
 * own parameters starts what the service appended: that value is cut there, and the appended
 * parameter joins the query (next to, never replacing, one of the same name).
 */
function withAppendedApart(parsed: unknown, rawUrl: unknown): unknown {
	if (!isPlainObject(parsed) || typeof rawUrl !== 'string' || !rawUrl.includes('?')) return parsed;
	const query = ownKeysObject(Object.entries(parsed));
	const raw = rawUrl.slice(rawUrl.indexOf('?') + 1).split('#')[0];
	for (const pair of raw.split('&')) {
		const [name, value] = splitPair(pair);
		const key = decoded(name);
		const mark = value.indexOf('?');
		if (mark === -1 || key === undefined || typeof query[key] !== 'string') continue;
		if (![...OWN_PARAMS, SECRET_PARAM].includes(key)) continue;
		const [appendedName, appendedValue] = splitPair(value.slice(mark + 1)).map(decoded);
		const ownValue = decoded(value.slice(0, mark));
		if (ownValue === undefined || !appendedName) continue;
		query[key] = ownValue;
		const existing = query[appendedName];
		const added = appendedValue ?? '';
		query[appendedName] =
			existing === undefined
				? added
				: [...(Array.isArray(existing) ? existing : [existing]), added];
	}
	return query;
}

/** `name=value` as its raw name and value (the value '' when there is no `=`). */
function splitPair(pair: string): [string, string] {
	const eq = pair.indexOf('=');
	return eq === -1 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)];
}

export function readRequest(context: IWebhookFunctions): ReceivedRequest {
	const req = attempt(() => context.getRequestObject()) as
		| (Record<string, unknown> & { socket?: { remoteAddress?: string } })
		| undefined;
	const headers = attempt(() => context.getHeaderData()) as Record<string, unknown> | undefined;
	const ip = attempt(() => (typeof req?.ip === 'string' ? req.ip : req?.socket?.remoteAddress));
	const method = attempt(() => req?.method);
	const path = attempt(() =>
		String(req?.originalUrl ?? req?.url ?? '')
			.split(/[?#]/)[0]
			.replace(/\/+$/, ''),
	);
	return {
		method: typeof method === 'string' && method !== '' ? method.toUpperCase() : 'POST',
		path: path ?? '',
		query: attempt(() => withAppendedApart(context.getQueryData(), req?.originalUrl ?? req?.url)),
		body: attempt(() => context.getBodyData()),
		rawBody: attempt(() => req?.rawBody),
		headers: isPlainObject(headers) ? headers : {},
		ip: typeof ip === 'string' ? ip : undefined,
	};
}

// ---- Allowed IPs ----------------------------------------------------------------------------

/** An IPv4 or IPv6 address as 16 bytes (IPv4 mapped to ::ffff:a.b.c.d), or undefined. */
function parseIpAddress(raw: string): number[] | undefined {
	let text = raw.trim();
	if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
	const zone = text.indexOf('%');
	if (zone !== -1) text = text.slice(0, zone);
	if (!text.includes(':')) {
		const v4 = parseIpv4(text);
		return v4 ? [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...v4] : undefined;
	}
	return parseIpv6(text);
}

function parseIpv4(text: string): number[] | undefined {
	const parts = text.split('.');
	if (parts.length !== 4) return undefined;
	const bytes: number[] = [];
	for (const part of parts) {
		if (!/^\d{1,3}$/.test(part)) return undefined;
		const value = Number(part);
		if (value > 255) return undefined;
		bytes.push(value);
	}
	return bytes;
}

function parseIpv6(text: string): number[] | undefined {
	if (!/^[0-9a-fA-F:.]+$/.test(text)) return undefined;
	const halves = text.split('::');
	if (halves.length > 2) return undefined;
	const groups = (half: string): number[] | undefined => {
		if (half === '') return [];
		const out: number[] = [];
		const parts = half.split(':');
		for (let i = 0; i < parts.length; i++) {
			const part = parts[i];
			if (i === parts.length - 1 && part.includes('.')) {
				const v4 = parseIpv4(part);
				if (!v4) return undefined;
				out.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
			} else {
				if (!/^[0-9a-fA-F]{1,4}$/.test(part)) return undefined;
				out.push(parseInt(part, 16));
			}
		}
		return out;
	};
	const head = groups(halves[0]);
	const tail = halves.length === 2 ? groups(halves[1]) : [];
	if (!head || !tail) return undefined;
	let all: number[];
	if (halves.length === 2) {
		const missing = 8 - head.length - tail.length;
		if (missing < 1) return undefined;
		all = [...head, ...new Array<number>(missing).fill(0), ...tail];
	} else {
		all = head;
	}
	if (all.length !== 8) return undefined;
	return all.flatMap((group) => [group >> 8, group & 0xff]);
}

/**
 * Reads an allowed-IP list: addresses or CIDR ranges, IPv4 or IPv6, separated by commas, spaces
 * or new lines. IPv4 entries also match IPv6-mapped IPv4 clients (::ffff:a.b.c.d).
 */
export function parseIpAllowList(text: string): { ranges: IpRange[]; invalid: string[] } {
	const ranges: IpRange[] = [];
	const invalid: string[] = [];
	for (const entry of text.split(/[\s,;]+/).filter(Boolean)) {
		const [address, prefixText, extra] = entry.split('/');
		const bytes = parseIpAddress(address);
		const isV4 = bytes !== undefined && !address.includes(':');
		const max = isV4 ? 32 : 128;
		const prefix =
			prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
		if (!bytes || extra !== undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > max) {
			invalid.push(entry);
			continue;
		}
		ranges.push({ text: entry, bytes, prefix: isV4 ? prefix + 96 : prefix });
	}
	return { ranges, invalid };
}

/** Whether the client address falls in one of the ranges. */
export function ipAllowed(ip: string | undefined, ranges: IpRange[]): boolean {
	if (!ip) return false;
	const bytes = parseIpAddress(ip);
	if (!bytes) return false;
	return ranges.some((range) => {
		for (let bit = 0; bit < range.prefix; bit += 8) {
			const bits = Math.min(8, range.prefix - bit);
			const mask = (0xff << (8 - bits)) & 0xff;
			const index = bit / 8;
			if ((bytes[index] & mask) !== (range.bytes[index] & mask)) return false;
		}
		return true;
	});
}
