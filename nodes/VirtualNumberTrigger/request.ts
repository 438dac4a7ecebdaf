/**
 * Reading one callback request as n8n hands it over: method, query, parsed body, raw body,
 * headers and client address, every read guarded (the webhook never throws); and a body that n8n
 * left unparsed read here as JSON or form fields.
 */
import type { IWebhookFunctions } from 'n8n-workflow';

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

/** The body to read fields from (what n8n parsed, or else the raw text read here), and the text when none could be read. */
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

export function readRequest(context: IWebhookFunctions): ReceivedRequest {
	const req = attempt(() => context.getRequestObject()) as
		| (Record<string, unknown> & { socket?: { remoteAddress?: string } })
		| undefined;
	const headers = attempt(() => context.getHeaderData()) as Record<string, unknown> | undefined;
	const ip = attempt(() => (typeof req?.ip === 'string' ? req.ip : req?.socket?.remoteAddress));
	const method = attempt(() => req?.method);
	return {
		method: typeof method === 'string' && method !== '' ? method.toUpperCase() : 'POST',
		query: attempt(() => context.getQueryData()),
		body: attempt(() => context.getBodyData()),
		rawBody: attempt(() => req?.rawBody),
		headers: isPlainObject(headers) ? headers : {},
		ip: typeof ip === 'string' ? ip : undefined,
	};
}
