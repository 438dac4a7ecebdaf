/**
 * Receiving callbacks. GET (query string) and POST (JSON, form-encoded, XML or plain text) are all
 * read, their fields looked up under the package's vocabulary, and the event each one reports
 * read by that event's file in events/.
 *
 * The webhook answers at once with an empty body (the service is holding a phone call) and never
 * throws: a request that passes the checks always becomes one item, unparseable bodies included
 * (as raw text).
 */
import { createHash, timingSafeEqual } from 'crypto';
import type {
	IDataObject,
	INodePropertyOptions,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { CALL_FIELDS } from '../shared/callFields';
import { addCallTimesWithOffset, savedServiceZone, usableZone } from '../shared/dates';
import { withSafeKeys } from '../shared/outputKeys';
import {
	IDENTIFIER_WORD,
	identifierWordOf,
	isIdentifierWord,
	VIRTUALNUM_CREDENTIAL,
	withContractWord,
} from '../shared/transport/virtualnumApi';
import { OWN_PARAMS, SECRET_PARAM } from './callbackUrl';
import { expectedSecret, logRefusalNow } from './callbackSecret';
import { callEnded } from './events/callEnded';
import {
	answerWithDestination,
	callStarted,
	isFirstCallStart,
	isStartingStatus,
} from './events/callStarted';
import { SMS_FIELDS, smsDeliveryStatus } from './events/smsDeliveryStatus';
import { smsReceived } from './events/smsReceived';
import { logLine } from './logLine';
import { TRIGGER_EVENTS, ipAllowed, readSettings, type TriggerSettings } from './settings';

interface Normalized {
	event: NormalizedEvent;
	item: IDataObject;
	/** No parameter and no body at all (a reachability check). */
	empty: boolean;
}

function digest(value: string): Buffer {
	return createHash('sha256').update(value, 'utf8').digest();
}

/** Constant-time comparison (of digests, so the lengths match and leak nothing either). */
function secretMatches(given: unknown, secret: string): boolean {
	const text = Array.isArray(given) || typeof given !== 'string' ? undefined : given;
	if (text === undefined) return false;
	return timingSafeEqual(digest(text), digest(secret));
}

/** The query without the parameters the trigger put on its own URL (its marks, and the secret when one is set). */
function callerQuery(query: unknown, hidden: readonly string[]): Record<string, unknown> {
	if (!isPlainObject(query)) return {};
	return ownKeysObject(
		Object.keys(query)
			.filter((key) => !hidden.includes(key))
			.map((key) => [key, query[key]]),
	);
}

/** The request's fields: the body's (an XML body is one root element holding them), then the query's. */
function gatherFields(body: unknown, query: Record<string, unknown>): Fields {
	const fields: Fields = new Map();
	const bodyFields = Array.isArray(body) ? (body[0] as unknown) : body;
	collect(fields, bodyFields);
	if (isPlainObject(bodyFields)) {
		const values = Object.values(bodyFields);
		if (values.length === 1 && isPlainObject(values[0])) collect(fields, values[0]);
	}
	collect(fields, query);
	return fields;
}

/**
 * One request as one item: `event`, the main fields under the vocabulary's names (null when
 * absent), the time received, the method, and the caller's query and body as sent (each key n8n
 * refuses in expressions renamed with a trailing underscore: shared/outputKeys). A body that could not
 * be read at all comes out as `rawBody` text.
 */
function normalizeRequest(
	request: ReceivedRequest,
	receivedAt: string,
	options: { settings?: TriggerSettings } = {},
): Normalized {
	// The secret (the user's or the generated one) never reaches an item.
	const query = callerQuery(request.query, [...OWN_PARAMS, SECRET_PARAM]);
	const { body, rawBody } = readBody(request);
	const fields = gatherFields(body, query);
	const known = classify(fields);
	const event = known?.name ?? UNKNOWN;
	const empty =
		fields.size === 0 &&
		rawBody === undefined &&
		isEmptyBody(body) &&
		Object.keys(query).length === 0;
	const common: IDataObject = {
		receivedAt,
		method: request.method,
		query: withSafeKeys(query) as IDataObject,
		body: withSafeKeys(body) as IDataObject,
		...(rawBody !== undefined ? { rawBody } : {}),
	};
	const main = known?.read(readerOf(fields), options.settings) ?? {};
	// An event's own receivedAt (an SMS's time at the service) comes before the time n8n received it.
	const item = { event, ...main, ...common, receivedAt: main.receivedAt ?? receivedAt };
	return { event, empty, item };
}

/** Answers the request here (n8n then sends nothing); a refusal also starts nothing. */
function answerHere(
	context: IWebhookFunctions,
	status: number,
	text: string,
): IWebhookResponseData {
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

function log(
	context: IWebhookFunctions,
	level: 'warn' | 'error',
	message: string,
	meta?: IDataObject,
): void {
	logLine(context.logger, level, message, { meta });
}

function chosen(settings: TriggerSettings, event: NormalizedEvent): boolean {
	if (event === UNKNOWN) return true; // unreadable requests still come out, so nothing is lost silently
	return TRIGGER_EVENTS.some(({ key, name }) => name === event && settings.events.includes(key));
}

const UNAUTHORIZED: [number, string] = [401, 'Unauthorized'];

/** Refuses a request (401), writing the first refusal of each minute to the log. */
function refuse(
	context: IWebhookFunctions,
	request: ReceivedRequest,
	why: string,
	now: number,
): [number, string] {
	if (attempt(() => logRefusalNow(context, now)) !== false)
		log(context, 'warn', `refused ${why} (further refusals this minute are not logged)`, {
			ip: request.ip ?? 'unknown',
		});
	return UNAUTHORIZED;
}

/** Whether the request carries the secret it must: the user's Secret, else the generated one (callbackSecret.ts). */
function hasSecret(
	context: IWebhookFunctions,
	settings: TriggerSettings,
	request: ReceivedRequest,
): boolean {
	const secret = expectedSecret(context, settings.secret, settings.generatesSecret);
	if (secret === undefined) return true;
	const query = isPlainObject(request.query) ? request.query : {};
	return secretMatches(query[SECRET_PARAM], secret);
}

/** Why a request must be refused (status and answer), or undefined when it passes. */
function checkRequest(
	context: IWebhookFunctions,
	settings: TriggerSettings,
	request: ReceivedRequest,
	now: number,
): [number, string] | undefined {
	if (settings.allowList.length > 0 && !ipAllowed(request.ip, settings.allowList))
		return refuse(context, request, 'a request from an address not in Allowed IPs', now);
	if (!hasSecret(context, settings, request))
		return refuse(context, request, 'a request without the right secret', now);
	const size = bodySize(request);
	if (size > settings.maxBodyBytes) {
		log(
			context,
			'warn',
			`refused a request of ${size} bytes (Max Body Size is ${settings.maxBodyBytes} bytes)`,
		);
		return [413, 'Payload Too Large'];
	}
	return undefined;
}

function normalizeOrRaw(
	context: IWebhookFunctions,
	request: ReceivedRequest,
	receivedAt: string,
	settings: TriggerSettings,
): Normalized {
	try {
		return normalizeRequest(request, receivedAt, { settings });
	} catch (error) {
		// Never lose a request that passed the checks: it comes out as raw text.
		const raw = textOf(request.rawBody) ?? attempt(() => JSON.stringify(request.body)) ?? '';
		log(context, 'warn', `could not read a request (${messageOf(error)}); passed on as raw text`);
		return {
			event: UNKNOWN,
			empty: false,
			item: {
				event: UNKNOWN,
				receivedAt,
				method: request.method,
				query: {},
				body: {},
				rawBody: raw,
			},
		};
	}
}

/** Whether the request starts the workflow: a chosen event (unknown ones too), not empty, not a repeated call start. */
function starts(
	context: IWebhookFunctions,
	settings: TriggerSettings,
	normalized: Normalized,
	now: number,
): boolean {
	if (normalized.empty || !chosen(settings, normalized.event)) return false;
	const event = TRIGGER_EVENTS.find(({ name }) => name === normalized.event);
	if (event?.accepts && !event.accepts(normalized.item, settings)) return false;
	const callId = normalized.item.callId;
	if (
		!settings.onceCallStarted ||
		normalized.event !== callStarted.name ||
		typeof callId !== 'string'
	)
		return true;
	return attempt(() => isFirstCallStart(context, callId, now)) ?? true;
}

export async function receiveCallback(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const now = Date.now();
	const receivedAt = new Date(now).toISOString();
	const request = readRequest(this);

	let settings: TriggerSettings;
	try {
		settings = readSettings.call(this);
	} catch (error) {
		// Fail closed: without its settings the trigger cannot tell whether the request is allowed.
		log(
			this,
			'error',
			`refused a request: the trigger's settings could not be read (${messageOf(error)})`,
		);
		return answerHere(this, 500, 'Trigger misconfigured');
	}
	let refusal: [number, string] | undefined;
	try {
		refusal = checkRequest(this, settings, request, now);
	} catch (error) {
		log(this, 'error', `refused a request: it could not be checked (${messageOf(error)})`);
		refusal = UNAUTHORIZED;
	}
	if (refusal) return answerHere(this, ...refusal);

	const normalized = normalizeOrRaw(
		this,
		await inContractWord(this, request),
		receivedAt,
		settings,
	);
	// Events not chosen, empty requests and repeated call starts start nothing; the answer is an empty 200.
	if (!starts(this, settings, normalized, now)) return { webhookResponse: '' };
	const workflowData = [[{ json: await withCallTimes(this, normalized.item) }]];
	if (settings.route === undefined) return { workflowData };
	// Respond With a destination sets n8n's responseMode to lastNode: only a call start waits for
	// the workflow's answer; every other callback is answered here at once, empty.
	if (normalized.event === callStarted.name) {
		try {
			answerWithDestination(this, settings.route, normalized.item);
		} catch (error) {
			// Without a response object to guard, n8n answers the last node's item as it is.
			log(this, 'warn', `could not guard the routing answer (${messageOf(error)})`);
		}
		return { workflowData };
	}
	return { ...answerHere(this, 200, ''), workflowData };
}

/**
 * A call's `startedAt` / `endedAt` beside `startTime` / `endTime`: the times with the offset of
 * the service's clock (the credential's Service Time Zone; null when the callback had no time).
 * A callback is never refused for it: with no zone that can be used, the item has neither.
 */
async function withCallTimes(context: IWebhookFunctions, item: IDataObject): Promise<IDataObject> {
	if (!('startTime' in item) && !('endTime' in item)) return item;
	const zone = usableZone(await savedServiceZone(context, VIRTUALNUM_CREDENTIAL));
	if (zone === undefined) return item;
	const full = { ...item };
	if ('startTime' in item) full.startedAt = null;
	if ('endTime' in item) full.endedAt = null;
	return addCallTimesWithOffset(full, zone, true);
}

/**
 * A callback in the contract's word: an account whose service names numbers with another word
 * (the credential's Identifier Word, e.g. `did`) sends `did` and `did_unformatted` for the
 * dialled number. Read after the Secret and IP checks, which see the request as it came.
 */
async function inContractWord(
	context: IWebhookFunctions,
	request: ReceivedRequest,
): Promise<ReceivedRequest> {
	let word = IDENTIFIER_WORD;
	try {
		word = identifierWordOf(await context.getCredentials(VIRTUALNUM_CREDENTIAL));
	} catch {
		return request;
	}
	if (word === IDENTIFIER_WORD || !isIdentifierWord(word)) return request;
	return {
		...request,
		query: withContractWord(request.query, word),
		body: withContractWord(request.body, word),
	};
}

// ---- reading the request -----------------------------------------------------------------------------

/**
 * Reading one callback request as n8n hands it over: method, query, parsed body, raw body,
 * headers and client address, every read guarded (the webhook never throws); and a body that n8n
 * left unparsed read here as JSON or form fields.
 */
interface ReceivedRequest {
	method: string;
	query: unknown;
	body: unknown;
	rawBody?: unknown;
	headers: Record<string, unknown>;
	ip?: string;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return (
		typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value)
	);
}

function attempt<T>(read: () => T): T | undefined {
	try {
		return read();
	} catch {
		return undefined;
	}
}

/** A field value as text; repeated parameters give their first value; objects give nothing. */
function scalar(value: unknown): string | undefined {
	if (Array.isArray(value)) return value.length > 0 ? scalar(value[0]) : undefined;
	if (typeof value === 'string') return value;
	if (typeof value === 'boolean') return String(value);
	if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
	return undefined;
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

/** An object holding exactly these entries as own keys (`__proto__` included, as JSON.parse makes it). */
function ownKeysObject(entries: Iterable<[string, unknown]>): Record<string, unknown> {
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
function readBody(request: ReceivedRequest): { body: unknown; rawBody?: string } {
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

function readRequest(context: IWebhookFunctions): ReceivedRequest {
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

// ---- fields and event --------------------------------------------------------------------------

/*
 * The spec shows neither the format nor the fields of callback requests: call fields are looked up
 * under the names of the package's one vocabulary (nodes/shared/callFields.ts: the service's own
 * names, and those public integrations report, e.g. CLI, DDI, UUID, CALLSTATUS, DURATION, DEST,
 * download), case-insensitively; each event's own fields in its file under events/. Every lookup
 * is in a Map, so a name such as `constructor` never reaches Object.prototype.
 */

/** What a callback's fields offer an event's reading. */
interface CallbackFields {
	/** The first non-empty value among these names (lower-case), trimmed, or null. */
	pick(names: readonly string[]): string | null;
	/** The same value exactly as sent (spaces kept), or null. */
	pickAsSent(names: readonly string[]): string | null;
	/** The call's fields under the call vocabulary's keys (null when the callback did not carry one). */
	call(): IDataObject;
}

/** One event the trigger can start the workflow on; each lives in a file of events/ named after it. */
export interface TriggerEvent {
	/** The value in the Events parameter. */
	key: string;
	/** The `event` value of the item. */
	name: string;
	option: INodePropertyOptions;
	/** Event words (letters only, lower-case) a callback may name the event by. */
	words: readonly string[];
	/** The callback_url_option bit a call event needs on the numbers; none when nothing is registered. */
	callbackOption?: 1 | 2;
	/** The event's fields; `settings` is absent only when a request is read outside a workflow. */
	read(fields: CallbackFields, settings?: TriggerSettings): IDataObject;
	/** Whether an item of this event starts the workflow under the user's options (all do when absent). */
	accepts?(item: IDataObject, settings: TriggerSettings): boolean;
}

type NormalizedEvent = string;
const UNKNOWN = 'unknown';

/** Field names (lower-case) and their first non-empty value. */
type Fields = Map<string, string>;

const EVENT_FIELDS = ['event', 'event_type', 'eventtype', 'type', 'callback_type'];

/**
 * Names of the service's lower-case callback template that the call vocabulary does not list yet
 * (`status`, `recording`, `name`): read after the vocabulary's own names. They belong with the
 * vocabulary's callbackNames in nodes/shared/callFields.ts.
 */
const TEMPLATE_NAMES: Record<string, readonly string[]> = {
	callStatus: ['status'],
	recordingUrl: ['recording'],
	numberDescription: ['name'],
};

/** Values the lower-case template also carries as dialled, next to the vocabulary's formatted ones. */
const UNFORMATTED = {
	callerNumberUnformatted: 'cli_unformatted',
	virtualNumberUnformatted: 'virtualnum_unformatted',
	destinationPhoneUnformatted: 'destination_unformatted',
} as const;

const PRIVATE_FIELDS = Array.from({ length: 10 }, (_, index) => `private_field${index + 1}`);

const names = (key: string): readonly string[] => [
	...(CALL_FIELDS.find((field) => field.key === key)?.callbackNames ?? []),
	...(TEMPLATE_NAMES[key] ?? []),
];

/** Adds an object's scalar fields (keys lower-cased), without overriding earlier sources. */
function collect(into: Fields, source: unknown): void {
	if (!isPlainObject(source)) return;
	for (const key of Object.keys(source)) {
		const name = key.trim().toLowerCase();
		if (into.has(name)) continue;
		const value = scalar(source[key]);
		if (value !== undefined) into.set(name, value);
	}
}

function pickAsSent(fields: Fields, candidates: readonly string[]): string | null {
	for (const name of candidates) {
		const value = fields.get(name);
		if (value !== undefined && value.trim() !== '') return value;
	}
	return null;
}

function pick(fields: Fields, candidates: readonly string[]): string | null {
	return pickAsSent(fields, candidates)?.trim() ?? null;
}

function letters(word: string): string {
	return word.toLowerCase().replace(/[^a-z]/g, '');
}

function eventNamed(word: string | null): TriggerEvent | undefined {
	if (word === null) return undefined;
	const wanted = letters(word);
	return TRIGGER_EVENTS.find((event) => event.words.includes(wanted));
}

function callEventOf(fields: Fields): TriggerEvent {
	const status = pick(fields, names('callStatus'));
	if (status !== null) return isStartingStatus(letters(status)) ? callStarted : callEnded;
	const ended =
		pick(fields, [...names('endTime'), ...names('durationSec'), ...names('recordingUrl')]) !== null;
	return ended ? callEnded : callStarted;
}

/** The event a callback reports: its event word, else what its fields tell. */
function classify(fields: Fields): TriggerEvent | undefined {
	const named = eventNamed(pick(fields, EVENT_FIELDS));
	if (named) return named;
	// An inbound SMS: a sender and a text, no call and no message ID.
	if (pick(fields, ['msg']) !== null && pick(fields, ['from']) !== null) return smsReceived;
	// The caller's generic names (from, caller_id) are left out: an SMS status may carry `from`.
	const hasCall =
		pick(fields, [...names('callId'), ...names('virtualNumber'), 'cdr_ani', 'ani', 'cli']) !== null;
	if (pick(fields, SMS_FIELDS.messageId) !== null && !hasCall) return smsDeliveryStatus;
	if (hasCall) return callEventOf(fields);
	if (pick(fields, ['dest']) !== null && pick(fields, SMS_FIELDS.deliveryStatus) !== null)
		return smsDeliveryStatus;
	return undefined;
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

function callItem(fields: Fields): IDataObject {
	const item: IDataObject = {};
	for (const field of CALL_FIELDS) {
		if (field.callbackNames.length === 0) continue;
		const value = pick(fields, names(field.key));
		if (field.key === 'durationSec') item[field.key] = numberOrNull(value);
		// The lower-case template writes `NO ANSWER` with a space; the service's status is NOANSWER.
		else if (field.key === 'callStatus')
			item[field.key] = value?.replace(/^no\s+answer$/i, 'NOANSWER') ?? null;
		else if (field.key === 'recordingExists') item[field.key] = booleanOrNull(value);
		else item[field.key] = value;
	}
	// A recording URL (`download`) says a recording exists when the callback does not say otherwise.
	if (item.recordingExists === null && item.recordingUrl !== null) item.recordingExists = true;
	// Only when the template carries them, so the upper-case template's items keep their shape.
	const extra: Array<[string, string]> = [
		...Object.entries(UNFORMATTED),
		...PRIVATE_FIELDS.map((name, index): [string, string] => [`privateField${index + 1}`, name]),
	];
	for (const [key, name] of extra) {
		const value = pick(fields, [name]);
		if (value !== null) item[key] = value;
	}
	return item;
}

function readerOf(fields: Fields): CallbackFields {
	return {
		pick: (candidates) => pick(fields, candidates),
		pickAsSent: (candidates) => pickAsSent(fields, candidates),
		call: () => callItem(fields),
	};
}
