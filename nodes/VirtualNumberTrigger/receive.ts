/**
 * Receiving callbacks. The spec shows neither the format nor the fields of the callback requests,
 * so GET (query string) and POST (JSON, form-encoded, XML or plain text) are all read, and the
 * fields are looked up under the names of the service's own vocabulary (the call record view
 * `webserviceview`, the SMS result items) and a few common aliases.
 *
 * The webhook answers at once (the service is holding a phone call) and never throws: a request
 * that passes the checks always becomes one item, unparseable bodies included (as raw text).
 */
import { createHash, timingSafeEqual } from 'crypto';
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { TRIGGER_LIMITS, ipAllowed } from '../shared/checks';
import { EVENTS, type TriggerEventKey, type TriggerEventName } from './description';
import { readSettings, type TriggerSettings } from './settings';

export interface ReceivedRequest {
	method: string;
	query: unknown;
	body: unknown;
	rawBody?: unknown;
	headers: Record<string, unknown>;
	ip?: string;
}

export type NormalizedEvent = TriggerEventName | 'unknown';

const CALL_FIELDS = {
	callId: ['call_uuid', 'cdr_uniqueid', 'uniqueid', 'call_id', 'callid'],
	virtualNumber: ['cdr_ddi', 'virtualnum', 'ddi', 'did', 'virtual_number'],
	caller: ['cdr_ani', 'ani', 'caller', 'caller_id', 'callerid', 'from'],
	destination: ['user_phone', 'destination', 'dest_phone', 'answered_by', 'to'],
	numberDescription: ['user_name', 'description'],
	callStatus: ['call_status'],
	startTime: ['start_call', 'start_time'],
	endTime: ['end_call', 'end_time'],
	durationSec: ['call_duration', 'duration'],
	recordingExists: ['record_file_exists'],
} as const;

const SMS_FIELDS = {
	messageId: ['message_id', 'messageid', 'msg_id', 'msgid'],
	recipient: ['dest', 'recipient', 'phone', 'destination', 'to'],
	sender: ['sender', 'from'],
	deliveryStatus: ['status', 'delivery_status', 'dlr_status', 'dlr'],
	statusTime: ['status_time', 'delivery_time'],
	sendTime: ['sendtime', 'send_time'],
} as const;

const EVENT_FIELDS = ['event', 'event_type', 'eventtype', 'type', 'callback_type'];

const EVENT_WORDS: Record<string, TriggerEventName> = {};
for (const word of ['start', 'started', 'callstart', 'callstarted', 'begin', 'ring', 'ringing', 'incoming'])
	EVENT_WORDS[word] = EVENTS.callStarted;
for (const word of ['end', 'ended', 'callend', 'callended', 'hangup', 'complete', 'completed', 'finished'])
	EVENT_WORDS[word] = EVENTS.callEnded;
for (const word of ['sms', 'smsdelivery', 'delivery', 'dlr', 'smsdlr', 'deliveryreport', 'smsstatus', 'deliverystatus'])
	EVENT_WORDS[word] = EVENTS.smsDelivery;

type Fields = Map<string, string>;

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
}

/** A field value as text; repeated parameters give their first value; objects give nothing. */
function scalar(value: unknown): string | undefined {
	if (Array.isArray(value)) return value.length > 0 ? scalar(value[0]) : undefined;
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'boolean') return String(value);
	if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
	return undefined;
}

/** Adds an object's scalar fields (keys lower-cased), without overriding earlier sources. */
function collect(into: Fields, source: unknown, skip?: string): void {
	if (!isPlainObject(source)) return;
	for (const key of Object.keys(source)) {
		const name = key.trim().toLowerCase();
		if (name === skip || into.has(name)) continue;
		const value = scalar(source[key]);
		if (value !== undefined) into.set(name, value);
	}
}

function pick(fields: Fields, names: readonly string[]): string | null {
	for (const name of names) {
		const value = fields.get(name);
		if (value !== undefined && value !== '') return value;
	}
	return null;
}

/** Body text when the body is text or bytes n8n did not parse. */
function textOf(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (Buffer.isBuffer(value)) return value.toString('utf8');
	if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
	return undefined;
}

function isEmptyBody(body: unknown): boolean {
	if (body === undefined || body === null || body === '') return true;
	return isPlainObject(body) && Object.keys(body).length === 0;
}

/** Reads a text body that n8n left unparsed: JSON, then form-encoded; undefined when neither. */
function parseText(text: string): unknown {
	const trimmed = text.trim();
	if (trimmed === '') return undefined;
	if (/^[[{]/.test(trimmed)) {
		try {
			return JSON.parse(trimmed) as unknown;
		} catch {
			return undefined;
		}
	}
	if (/^[^=&\s]+=[^&]*(&[^=&\s]+=[^&]*)*&?$/.test(trimmed)) {
		try {
			const out: Record<string, string> = {};
			for (const [key, value] of new URLSearchParams(trimmed)) if (!(key in out)) Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
			return out;
		} catch {
			return undefined;
		}
	}
	return undefined;
}

function bodySize(request: ReceivedRequest): number {
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

function digest(value: string): Buffer {
	return createHash('sha256').update(value, 'utf8').digest();
}

/** Constant-time comparison (of digests, so the lengths match and leak nothing either). */
export function secretMatches(given: unknown, secret: string): boolean {
	const text = Array.isArray(given) || typeof given !== 'string' ? undefined : given;
	if (text === undefined) return false;
	return timingSafeEqual(digest(text), digest(secret));
}

function withoutSecret(query: unknown, removeSecret: boolean): unknown {
	if (!isPlainObject(query)) return query ?? {};
	if (!removeSecret || !Object.prototype.hasOwnProperty.call(query, TRIGGER_LIMITS.secretParam)) return query;
	const copy: Record<string, unknown> = {};
	for (const key of Object.keys(query)) {
		if (key !== TRIGGER_LIMITS.secretParam) Object.defineProperty(copy, key, { value: query[key], enumerable: true, writable: true, configurable: true });
	}
	return copy;
}

function classify(fields: Fields): NormalizedEvent {
	const word = pick(fields, EVENT_FIELDS);
	if (word !== null) {
		const known = EVENT_WORDS[word.toLowerCase().replace(/[^a-z]/g, '')];
		if (known) return known;
	}
	const hasCall = pick(fields, [...CALL_FIELDS.callId, ...CALL_FIELDS.virtualNumber, 'cdr_ani']) !== null;
	if (pick(fields, SMS_FIELDS.messageId) !== null && !hasCall) return EVENTS.smsDelivery;
	if (hasCall) {
		const ended = pick(fields, [...CALL_FIELDS.endTime, ...CALL_FIELDS.durationSec, ...CALL_FIELDS.callStatus]) !== null;
		return ended ? EVENTS.callEnded : EVENTS.callStarted;
	}
	if (pick(fields, ['dest']) !== null && pick(fields, SMS_FIELDS.deliveryStatus) !== null) return EVENTS.smsDelivery;
	return 'unknown';
}

function numberOrNull(value: string | null): number | null {
	if (value === null || value === '') return null;
	const number = Number(value);
	return Number.isFinite(number) ? number : null;
}

function booleanOrNull(value: string | null): boolean | null {
	if (value === null) return null;
	const lower = value.toLowerCase();
	if (['1', 'true', 'yes'].includes(lower)) return true;
	if (['0', 'false', 'no', ''].includes(lower)) return false;
	return null;
}

/**
 * One request as one item (`empty` when it carries no parameter and no body at all): `event`,
 * the main fields under stable names (null when absent), the time received, the method, and the
 * untouched query (without the secret) and body. A body that could not be read at all comes out
 * as `rawBody` text.
 */
export function normalizeRequest(
	request: ReceivedRequest,
	receivedAt: string,
	options: { removeSecret: boolean } = { removeSecret: false },
): { event: NormalizedEvent; item: IDataObject; empty: boolean } {
	const query = withoutSecret(request.query, options.removeSecret);
	let body: unknown = request.body;
	let rawBody: string | undefined;

	// What n8n parsed, or else the raw text read here.
	const bodyText = textOf(body) ?? (isEmptyBody(body) ? textOf(request.rawBody) : undefined);
	if (bodyText !== undefined) {
		const parsed = parseText(bodyText);
		if (parsed !== undefined) body = parsed;
		else if (bodyText.trim() !== '') rawBody = bodyText;
		if (typeof body === 'string' || Buffer.isBuffer(body) || body instanceof Uint8Array) body = {};
	}
	if (body === undefined || body === null) body = {};

	const fields: Fields = new Map();
	const bodyFields = Array.isArray(body) ? body[0] : body;
	collect(fields, bodyFields);
	// An XML body is one root element holding the fields.
	if (isPlainObject(bodyFields)) {
		const values = Object.values(bodyFields);
		if (values.length === 1 && isPlainObject(values[0])) collect(fields, values[0]);
	}
	collect(fields, query, options.removeSecret ? TRIGGER_LIMITS.secretParam : undefined);

	const event = classify(fields);
	const empty =
		fields.size === 0 &&
		rawBody === undefined &&
		isEmptyBody(body) &&
		(!isPlainObject(query) || Object.keys(query).length === 0);
	const common: IDataObject = {
		receivedAt,
		method: request.method,
		query: query as IDataObject,
		body: body as IDataObject,
		...(rawBody !== undefined ? { rawBody } : {}),
	};
	if (event === EVENTS.callStarted || event === EVENTS.callEnded) {
		return {
			event,
			empty,
			item: {
				event,
				callId: pick(fields, CALL_FIELDS.callId),
				virtualNumber: pick(fields, CALL_FIELDS.virtualNumber),
				caller: pick(fields, CALL_FIELDS.caller),
				destination: pick(fields, CALL_FIELDS.destination),
				numberDescription: pick(fields, CALL_FIELDS.numberDescription),
				callStatus: pick(fields, CALL_FIELDS.callStatus),
				startTime: pick(fields, CALL_FIELDS.startTime),
				endTime: pick(fields, CALL_FIELDS.endTime),
				durationSec: numberOrNull(pick(fields, CALL_FIELDS.durationSec)),
				recordingExists: booleanOrNull(pick(fields, CALL_FIELDS.recordingExists)),
				...common,
			},
		};
	}
	if (event === EVENTS.smsDelivery) {
		return {
			event,
			empty,
			item: {
				event,
				messageId: pick(fields, SMS_FIELDS.messageId),
				recipient: pick(fields, SMS_FIELDS.recipient),
				sender: pick(fields, SMS_FIELDS.sender),
				deliveryStatus: pick(fields, SMS_FIELDS.deliveryStatus),
				statusTime: pick(fields, SMS_FIELDS.statusTime),
				sendTime: pick(fields, SMS_FIELDS.sendTime),
				...common,
			},
		};
	}
	return { event, empty, item: { event, ...common } };
}

function attempt<T>(read: () => T): T | undefined {
	try {
		return read();
	} catch {
		return undefined;
	}
}

function readRequest(context: IWebhookFunctions): ReceivedRequest {
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

/** Answers the request here and starts nothing. */
function refuse(context: IWebhookFunctions, status: number, text: string): IWebhookResponseData {
	try {
		const res = context.getResponseObject();
		res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
		res.end(text);
		return { noWebhookResponse: true };
	} catch {
		// No response object to set the status on: still start nothing.
		return { webhookResponse: text };
	}
}

function messageOf(error: unknown): string {
	return attempt(() => String((error as Error).message)) ?? 'unknown error';
}

function log(context: IWebhookFunctions, level: 'warn' | 'error', message: string, meta?: IDataObject): void {
	attempt(() => context.logger[level](`Virtual Number Trigger: ${message}`, meta));
}

function chosen(settings: TriggerSettings, event: NormalizedEvent): boolean {
	if (event === 'unknown') return true; // unreadable requests still come out, so nothing is lost silently
	return (Object.keys(EVENTS) as TriggerEventKey[]).some((key) => EVENTS[key] === event && settings.events.includes(key));
}

export async function receiveCallback(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const receivedAt = new Date().toISOString();
	const request = readRequest(this);

	let settings: TriggerSettings;
	try {
		settings = readSettings.call(this);
	} catch (error) {
		// Fail closed: without its settings the trigger cannot tell whether the request is allowed.
		log(this, 'error', `refused a request: the trigger's settings could not be read (${messageOf(error)})`);
		return refuse(this, 500, 'Trigger misconfigured');
	}

	try {
		if (settings.allowList.length > 0 && !ipAllowed(request.ip, settings.allowList)) {
			log(this, 'warn', 'refused a request from an address not in Allowed IPs', { ip: request.ip ?? 'unknown' });
			return refuse(this, 401, 'Unauthorized');
		}
		if (settings.secret !== '') {
			const query = isPlainObject(request.query) ? request.query : {};
			if (!secretMatches(query[TRIGGER_LIMITS.secretParam], settings.secret)) {
				log(this, 'warn', 'refused a request without the right secret', { ip: request.ip ?? 'unknown' });
				return refuse(this, 401, 'Unauthorized');
			}
		}
		const size = bodySize(request);
		if (size > settings.maxBodyBytes) {
			log(this, 'warn', `refused a request of ${size} bytes (Max Body Size is ${settings.maxBodyBytes} bytes)`);
			return refuse(this, 413, 'Payload Too Large');
		}
	} catch (error) {
		log(this, 'error', `refused a request: it could not be checked (${messageOf(error)})`);
		return refuse(this, 401, 'Unauthorized');
	}

	let normalized: { event: NormalizedEvent; item: IDataObject; empty: boolean };
	try {
		normalized = normalizeRequest(request, receivedAt, { removeSecret: settings.secret !== '' });
	} catch (error) {
		// Never lose a request that passed the checks: it comes out as raw text.
		const raw = textOf(request.rawBody) ?? attempt(() => JSON.stringify(request.body)) ?? '';
		normalized = { event: 'unknown', empty: false, item: { event: 'unknown', receivedAt, method: request.method, query: {}, body: {}, rawBody: raw } };
		log(this, 'warn', `could not read a request (${messageOf(error)}); passed on as raw text`);
	}

	// Events not chosen, and empty requests (no field, no body: nothing to pass on), start nothing.
	if (normalized.empty || !chosen(settings, normalized.event)) return { webhookResponse: 'OK' };
	return { workflowData: [[{ json: normalized.item }]] };
}
