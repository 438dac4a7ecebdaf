/**
 * The fields of a callback, and what event it is. The spec shows neither the format nor the
 * fields of callback requests: call fields are looked up under the names of the package's one
 * vocabulary (nodes/shared/callFields.ts: the service's own names, and those public integrations
 * report, e.g. CLI, DDI, UUID, CALLSTATUS, DURATION, DEST, download), case-insensitively; SMS
 * fields under the SMS result names. Every lookup is in a Map, so a name such as `constructor`
 * never reaches Object.prototype.
 */
import type { IDataObject } from 'n8n-workflow';

import { CALL_FIELDS, callField } from '../shared/callFields';
import { EVENTS, type TriggerEventName } from './description';
import { isPlainObject, scalar } from './request';

export type NormalizedEvent = TriggerEventName | 'unknown';

/** Field names (lower-case) and their first non-empty value. */
export type Fields = Map<string, string>;

const SMS_FIELDS = {
	messageId: ['message_id', 'messageid', 'msg_id', 'msgid'],
	recipient: ['dest', 'recipient', 'phone', 'destination', 'to'],
	sender: ['sender', 'from'],
	deliveryStatus: ['status', 'delivery_status', 'dlr_status', 'dlr'],
	statusTime: ['status_time', 'delivery_time'],
	sendTime: ['sendtime', 'send_time'],
} as const;

const EVENT_FIELDS = ['event', 'event_type', 'eventtype', 'type', 'callback_type'];

/** Event words (letters only, lower-case) and the event each one names. */
const EVENT_WORDS = new Map<string, TriggerEventName>([
	...['start', 'started', 'callstart', 'callstarted', 'begin', 'ring', 'ringing', 'incoming'].map(
		(word): [string, TriggerEventName] => [word, EVENTS.callStarted],
	),
	...['end', 'ended', 'callend', 'callended', 'hangup', 'complete', 'completed', 'finished'].map(
		(word): [string, TriggerEventName] => [word, EVENTS.callEnded],
	),
	...[
		'sms',
		'smsdelivery',
		'delivery',
		'dlr',
		'smsdlr',
		'deliveryreport',
		'smsstatus',
		'deliverystatus',
	].map((word): [string, TriggerEventName] => [word, EVENTS.smsDelivery]),
]);

/**
 * Call statuses that mean the call is starting (CALLSTATUS=STARTED); any other status
 * (ENDED, ANSWER, NOANSWER, BUSY, …) is a call's outcome, so the call ended.
 */
const STARTING_STATUSES = new Set([
	'started',
	'start',
	'ringing',
	'ring',
	'incoming',
	'new',
	'dialing',
	'calling',
	'inprogress',
]);

const names = (key: Parameters<typeof callField>[0]) => callField(key).callbackNames;

/** Adds an object's scalar fields (keys lower-cased), without overriding earlier sources. */
export function collect(into: Fields, source: unknown, skip: readonly string[] = []): void {
	if (!isPlainObject(source)) return;
	for (const key of Object.keys(source)) {
		const name = key.trim().toLowerCase();
		if (skip.includes(name) || into.has(name)) continue;
		const value = scalar(source[key]);
		if (value !== undefined) into.set(name, value);
	}
}

export function pick(fields: Fields, candidates: readonly string[]): string | null {
	for (const name of candidates) {
		const value = fields.get(name);
		if (value !== undefined && value !== '') return value;
	}
	return null;
}

function letters(word: string): string {
	return word.toLowerCase().replace(/[^a-z]/g, '');
}

function callEventOf(fields: Fields): TriggerEventName {
	const status = pick(fields, names('callStatus'));
	if (status !== null)
		return STARTING_STATUSES.has(letters(status)) ? EVENTS.callStarted : EVENTS.callEnded;
	const ended =
		pick(fields, [...names('endTime'), ...names('durationSec'), ...names('recordingUrl')]) !== null;
	return ended ? EVENTS.callEnded : EVENTS.callStarted;
}

/** The event a callback reports: its event word, else what its fields tell. */
export function classify(fields: Fields): NormalizedEvent {
	const word = pick(fields, EVENT_FIELDS);
	const named = word === null ? undefined : EVENT_WORDS.get(letters(word));
	if (named) return named;
	// The caller's generic names (from, caller_id) are left out: an SMS status may carry `from`.
	const hasCall =
		pick(fields, [...names('callId'), ...names('virtualNumber'), 'cdr_ani', 'ani', 'cli']) !== null;
	if (pick(fields, SMS_FIELDS.messageId) !== null && !hasCall) return EVENTS.smsDelivery;
	if (hasCall) return callEventOf(fields);
	if (pick(fields, ['dest']) !== null && pick(fields, SMS_FIELDS.deliveryStatus) !== null)
		return EVENTS.smsDelivery;
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

/** A call's fields under the vocabulary's keys (null when the callback did not carry one). */
export function callFields(fields: Fields): IDataObject {
	const item: IDataObject = {};
	for (const field of CALL_FIELDS) {
		if (field.callbackNames.length === 0) continue;
		const value = pick(fields, field.callbackNames);
		if (field.key === 'durationSec') item[field.key] = numberOrNull(value);
		else if (field.key === 'recordingExists') item[field.key] = booleanOrNull(value);
		else item[field.key] = value;
	}
	// A recording URL (`download`) says a recording exists when the callback does not say otherwise.
	if (item.recordingExists === null && item.recordingUrl !== null) item.recordingExists = true;
	return item;
}

export function smsFields(fields: Fields): IDataObject {
	const item: IDataObject = {};
	for (const [key, candidates] of Object.entries(SMS_FIELDS)) item[key] = pick(fields, candidates);
	return item;
}
