/**
 * Receiving callbacks. GET (query string) and POST (JSON, form-encoded, XML or plain text) are all
 * read (request.ts), their fields looked up under the package's vocabulary (fields.ts).
 *
 * The webhook answers at once with an empty body (the service is holding a phone call) and never
 * throws: a request that passes the checks always becomes one item, unparseable bodies included
 * (as raw text).
 */
import { createHash, timingSafeEqual } from 'crypto';
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { addCallTimesWithOffset, savedServiceZone, usableZone } from '../shared/dates';
import { VIRTUALNUM_CREDENTIAL } from '../shared/transport/virtualnumApi';
import { OWN_PARAMS } from './callbackUrl';
import { isFirstCallStart } from './dedupe';
import { EVENTS, type TriggerEventKey } from './description';
import {
	callFields,
	classify,
	collect,
	smsFields,
	type Fields,
	type NormalizedEvent,
} from './fields';
import {
	attempt,
	bodySize,
	isEmptyBody,
	isPlainObject,
	ownKeysObject,
	readBody,
	readRequest,
	textOf,
	type ReceivedRequest,
} from './request';
import { TRIGGER_LIMITS, ipAllowed } from './rules';
import { withSafeKeys } from './safeKeys';
import { readSettings, type TriggerSettings } from './settings';

export type { NormalizedEvent } from './fields';
export type { ReceivedRequest } from './request';

export interface Normalized {
	event: NormalizedEvent;
	item: IDataObject;
	/** No parameter and no body at all (a reachability check). */
	empty: boolean;
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
 * refuses in expressions renamed with a trailing underscore, safeKeys.ts). A body that could not
 * be read at all comes out as `rawBody` text.
 */
export function normalizeRequest(
	request: ReceivedRequest,
	receivedAt: string,
	options: { removeSecret: boolean } = { removeSecret: false },
): Normalized {
	const hidden = options.removeSecret
		? [...OWN_PARAMS, TRIGGER_LIMITS.secretParam]
		: [...OWN_PARAMS];
	const query = callerQuery(request.query, hidden);
	const { body, rawBody } = readBody(request);
	const fields = gatherFields(body, query);
	const event = classify(fields);
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
	const main =
		event === EVENTS.smsDelivery
			? smsFields(fields)
			: event === 'unknown'
				? {}
				: callFields(fields);
	return { event, empty, item: { event, ...main, ...common } };
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

function log(
	context: IWebhookFunctions,
	level: 'warn' | 'error',
	message: string,
	meta?: IDataObject,
): void {
	attempt(() => context.logger[level](`Virtual Number Trigger: ${message}`, meta));
}

function chosen(settings: TriggerSettings, event: NormalizedEvent): boolean {
	if (event === 'unknown') return true; // unreadable requests still come out, so nothing is lost silently
	return (Object.keys(EVENTS) as TriggerEventKey[]).some(
		(key) => EVENTS[key] === event && settings.events.includes(key),
	);
}

/** Why a request must be refused (status and answer), or undefined when it passes. */
function checkRequest(
	context: IWebhookFunctions,
	settings: TriggerSettings,
	request: ReceivedRequest,
): [number, string] | undefined {
	if (settings.allowList.length > 0 && !ipAllowed(request.ip, settings.allowList)) {
		log(context, 'warn', 'refused a request from an address not in Allowed IPs', {
			ip: request.ip ?? 'unknown',
		});
		return [401, 'Unauthorized'];
	}
	if (settings.secret !== '') {
		const query = isPlainObject(request.query) ? request.query : {};
		if (!secretMatches(query[TRIGGER_LIMITS.secretParam], settings.secret)) {
			log(context, 'warn', 'refused a request without the right secret', {
				ip: request.ip ?? 'unknown',
			});
			return [401, 'Unauthorized'];
		}
	}
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
		return normalizeRequest(request, receivedAt, { removeSecret: settings.secret !== '' });
	} catch (error) {
		// Never lose a request that passed the checks: it comes out as raw text.
		const raw = textOf(request.rawBody) ?? attempt(() => JSON.stringify(request.body)) ?? '';
		log(context, 'warn', `could not read a request (${messageOf(error)}); passed on as raw text`);
		return {
			event: 'unknown',
			empty: false,
			item: {
				event: 'unknown',
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
	const callId = normalized.item.callId;
	if (
		!settings.onceCallStarted ||
		normalized.event !== EVENTS.callStarted ||
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
		return refuse(this, 500, 'Trigger misconfigured');
	}
	let refusal: [number, string] | undefined;
	try {
		refusal = checkRequest(this, settings, request);
	} catch (error) {
		log(this, 'error', `refused a request: it could not be checked (${messageOf(error)})`);
		refusal = [401, 'Unauthorized'];
	}
	if (refusal) return refuse(this, ...refusal);

	const normalized = normalizeOrRaw(this, request, receivedAt, settings);
	// Events not chosen, empty requests and repeated call starts start nothing; the answer is an empty 200.
	if (!starts(this, settings, normalized, now)) return { webhookResponse: '' };
	return { workflowData: [[{ json: await withCallTimes(this, normalized.item) }]] };
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
