/**
 * Reading one callback request as n8n hands it over: method, query, parsed body, raw body,
 * headers and client address, every read guarded (the webhook never throws); and a body that n8n
 * left unparsed read here as JSON or form fields.
 */
import type { IWebhookFunctions } from 'n8n-workflow';

import { OWN_PARAMS, SECRET_PARAM } from './callbackUrl';

export interface ReceivedRequest {
	method: string;
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
	if (typeof value === 'string') return value.trim();
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
	return {
		method: typeof method === 'string' && method !== '' ? method.toUpperCase() : 'POST',
		query: attempt(() => withAppendedApart(context.getQueryData(), req?.originalUrl ?? req?.url)),
		body: attempt(() => context.getBodyData()),
		rawBody: attempt(() => req?.rawBody),
		headers: isPlainObject(headers) ? headers : {},
		ip: typeof ip === 'string' ? ip : undefined,
	};
}
