/**
 * One request as one item: its fields looked up under the package's vocabulary, and the event it
 * reports read by that event's file in events/.
 *
 * The spec shows neither the format nor the fields of callback requests: call fields are looked up
 * under the names of the package's one vocabulary (nodes/shared/callFields.ts: the service's own
 * names, and those public integrations report, e.g. CLI, DDI, UUID, CALLSTATUS, DURATION, DEST,
 * download), case-insensitively; each event's own fields in its file under events/. Every lookup
 * is in a Map, so a name such as `constructor` never reaches Object.prototype.
 */
import type { IDataObject } from 'n8n-workflow';

import { CALL_FIELDS } from '../../shared/callFields';
import { withSafeKeys } from '../../shared/outputKeys';
import { digitsOf, readPhone } from '../../shared/phones';
import { OWN_PARAMS, SECRET_PARAM } from '../../shared/triggerUrl';
import { TRIGGER_EVENTS } from './events';
import { callEnded } from './events/callEnded';
import { callStarted, isStartingStatus } from './events/callStarted';
import { SMS_FIELDS, smsDeliveryStatus } from './events/smsDeliveryStatus';
import { smsReceived } from './events/smsReceived';
import {
	isEmptyBody,
	isPlainObject,
	ownKeysObject,
	readBody,
	scalar,
	type ReceivedRequest,
} from './request';
import type { CallbackFields, TriggerEvent, TriggerSettings } from '../types';

export interface Normalized {
	event: NormalizedEvent;
	item: IDataObject;
	/** No parameter and no body at all (a reachability check). */
	empty: boolean;
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
export function normalizeRequest(
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
	const main = known?.read(readerOf(fields, options.settings), options.settings) ?? {};
	// An event's own receivedAt (an SMS's time at the service) comes before the time n8n received it.
	const item = { event, ...main, ...common, receivedAt: main.receivedAt ?? receivedAt };
	return { event, empty, item };
}

export type NormalizedEvent = string;
export const UNKNOWN = 'unknown';

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

/** A text as sent, also when it is only spaces: a reply of spaces is still a reply. */
function textAsSent(fields: Fields, candidates: readonly string[]): string | null {
	const text = pickAsSent(fields, candidates);
	if (text !== null) return text;
	for (const name of candidates) if (fields.has(name)) return fields.get(name) ?? null;
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
	// An inbound SMS: a sender and a text (spaces only are a text too), no call and no message ID.
	if (fields.has('msg') && pick(fields, ['from']) !== null) return smsReceived;
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

/** The numbers of the call vocabulary, which the lower-case template sends formatted (`050-1000090`). */
const NUMBER_KEYS = ['callerNumber', 'virtualNumber', 'destinationPhone'];

/**
 * A number as the service's other callbacks and its call records give it: digits only, read as
 * every number of the package is (readPhone: any script's digits, a leading 0 a template dropped
 * put back, an extension left out); a short code stays its digits, anything else as sent.
 */
function digitsOnly(value: IDataObject[string]): IDataObject[string] {
	if (typeof value !== 'string') return value;
	const reading = readPhone(value);
	if (!('problem' in reading)) return reading.digits;
	return /^[+\d\s().-]+$/.test(value) ? digitsOf(value) : value;
}

/**
 * Version 1.1: the same call vocabulary whatever the template: numbers as digits (as sent, they
 * stay in the `*Unformatted` fields and the item's query or body) and `recordingExists` always
 * true or false (a callback that does not say has no recording to point at).
 */
function oneVocabulary(item: IDataObject): void {
	for (const key of NUMBER_KEYS) item[key] = digitsOnly(item[key]);
	if (item.recordingExists === null) item.recordingExists = false;
}

function callItem(fields: Fields, settings?: TriggerSettings): IDataObject {
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
	if (settings?.oneVocabulary) oneVocabulary(item);
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

function readerOf(fields: Fields, settings?: TriggerSettings): CallbackFields {
	return {
		pick: (candidates) => pick(fields, candidates),
		pickAsSent: (candidates) => textAsSent(fields, candidates),
		call: () => callItem(fields, settings),
	};
}
