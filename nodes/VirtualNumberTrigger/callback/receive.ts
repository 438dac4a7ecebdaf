/**
 * Receiving callbacks, the trigger's webhook: the checks a request must pass (Allowed IPs and size:
 * request.ts; the secret: ../secret.ts), whether it starts the workflow, and the answer (Route
 * Call's: routeCall.ts). GET (query string) and POST (JSON, form-encoded, XML or plain text) are
 * all read (request.ts) and become one item (normalize.ts, with the event's file in events/).
 *
 * The webhook answers at once with an empty body (the service is holding a phone call), or with
 * where the call goes when Respond With routes it (routeCall.ts), and never throws: a request
 * that passes the checks always becomes one item, unparseable bodies included
 * (as raw text).
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { addCallTimesWithOffset, usableZone } from '../../shared/dates';
import { messageOf } from '../../shared/errors';
import {
	IDENTIFIER_WORD,
	identifierWordOf,
	isIdentifierWord,
	VIRTUALNUM_CREDENTIAL,
	withContractWord,
} from '../../shared/transport/virtualnumApi';
import { carriesSecret, logLine, onSmsUrl } from '../secret';
import { readSettings } from '../settings';
import type { RouteSettings, TriggerSettings } from '../types';
import { TRIGGER_EVENTS } from './events';
import { callEnded } from './events/callEnded';
import { callStarted, isFirstCallStart } from './events/callStarted';
import { smsReceived } from './events/smsReceived';
import { converse, withConversationKey } from './conversation';
import { UNKNOWN, normalizeRequest, type Normalized, type NormalizedEvent } from './normalize';
import {
	answerPlain,
	attempt,
	bodySize,
	ipAllowed,
	readRequest,
	textOf,
	type ReceivedRequest,
} from './request';
import { answerByRules, answerWithDestination, dropLaterAnswers } from './routeCall';

/** Answers the request here (n8n then sends nothing); a refusal also starts nothing. */
function answerHere(
	context: IWebhookFunctions,
	status: number,
	text: string,
): IWebhookResponseData {
	try {
		answerPlain(context.getResponseObject(), status, text);
		return { noWebhookResponse: true };
	} catch {
		// No response object to set the status on: still start nothing.
		return { webhookResponse: text };
	}
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
const CALL_EVENTS: string[] = [callStarted.name, callEnded.name];

/** When a refused request was last logged (ms), so a flood of forged callbacks writes one line a minute. */
const LOGGED_KEY = 'refusalLoggedAt';
const LOG_EVERY_MS = 60 * 1000;

/**
 * Whether a refused request is logged now: the first refusal of each minute is (per workflow, in
 * its static data, so every process agrees). Saved with the callback's static data by n8n.
 */
function logRefusalNow(context: IWebhookFunctions, now: number): boolean {
	const data = context.getWorkflowStaticData('node') as IDataObject;
	const last = Number(data[LOGGED_KEY]);
	if (Number.isFinite(last) && now - last >= 0 && now - last < LOG_EVERY_MS) return false;
	data[LOGGED_KEY] = now;
	return true;
}

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

/** Why a request must be refused (status and answer), or undefined when it passes. */
function checkRequest(
	context: IWebhookFunctions,
	settings: TriggerSettings,
	request: ReceivedRequest,
	now: number,
): [number, string] | undefined {
	if (settings.allowList.length > 0 && !ipAllowed(request.ip, settings.allowList))
		return refuse(context, request, 'a request from an address not in Allowed IPs', now);
	if (!carriesSecret(context, settings, request))
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
		log(
			context,
			'warn',
			`could not read a request (${messageOf(error) || 'unknown error'}); passed on as raw text`,
		);
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

/** The settings, once the request passed the checks; else the answer refusing it (failing closed). */
function admit(
	context: IWebhookFunctions,
	request: ReceivedRequest,
	now: number,
): { settings: TriggerSettings } | { answer: IWebhookResponseData } {
	let settings: TriggerSettings;
	try {
		settings = readSettings.call(context);
	} catch (error) {
		// Without its settings the trigger cannot tell whether the request is allowed.
		log(
			context,
			'error',
			`refused a request: the trigger's settings could not be read (${messageOf(error) || 'unknown error'})`,
		);
		return { answer: answerHere(context, 500, 'Trigger misconfigured') };
	}
	let refusal: [number, string] | undefined;
	try {
		refusal = checkRequest(context, settings, request, now);
	} catch (error) {
		log(
			context,
			'error',
			`refused a request: it could not be checked (${messageOf(error) || 'unknown error'})`,
		);
		refusal = UNAUTHORIZED;
	}
	return refusal ? { answer: answerHere(context, ...refusal) } : { settings };
}

export async function receiveCallback(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const now = Date.now();
	const receivedAt = new Date(now).toISOString();
	const request = readRequest(this);
	const admitted = admit(this, request, now);
	if ('answer' in admitted) return admitted.answer;
	const { settings } = admitted;

	const credentials = await credentialsOf(this);
	const normalized = normalizeOrRaw(
		this,
		inContractWord(request, credentials),
		receivedAt,
		settings,
	);
	// The SMS URL travels with every message to the SMS provider: it never starts a call's events.
	if (onSmsUrl(request.path) && CALL_EVENTS.includes(normalized.event))
		return answerHere(this, ...refuse(this, request, 'a call callback sent to the SMS URL', now));
	if (settings.conversation && normalized.event === smsReceived.name && !normalized.empty)
		return await inConversation.call(this, settings, normalized, credentials, now);
	// Events not chosen, empty requests and repeated call starts start nothing; the answer is an empty 200.
	if (!starts(this, settings, normalized, now)) return { webhookResponse: '' };
	const timed = withCallTimes(normalized.item, credentials);
	const item = settings.conversationKeys ? withConversationKey(timed, credentials) : timed;
	if (settings.route === undefined) return { workflowData: [[{ json: item }]] };
	// Respond With routes only a call start; every other callback is answered here at once, empty.
	if (normalized.event === callStarted.name)
		return routeCallStart(this, settings.route, item, { receivedAt: now, credentials });
	const answered = answerHere(this, 200, '');
	// In responseNode mode n8n still sends a Route Incoming Call node's answer on this response.
	if (settings.route.route === 'routeNode') attempt(() => dropLaterAnswers(this));
	return { ...answered, workflowData: [[{ json: item }]] };
}

/**
 * A call start under Respond With: answered here by the routing rules (the run gets what was
 * answered), or guarded until the workflow answers it (responseMode lastNode or responseNode).
 */
function routeCallStart(
	context: IWebhookFunctions,
	route: RouteSettings,
	item: IDataObject,
	{ receivedAt, credentials }: { receivedAt: number; credentials: IDataObject | undefined },
): IWebhookResponseData {
	try {
		if (route.route === 'rules') {
			const zone = credentials?.serviceTimeZone;
			const routed = answerByRules(context, route, item, { receivedAt, zone });
			const workflowData = [[{ json: routed.item }]];
			return routed.answered ? { workflowData, noWebhookResponse: true } : { workflowData };
		}
		answerWithDestination(context, route, item, receivedAt);
	} catch (error) {
		// Without a response object to guard, n8n answers as it would without the trigger.
		log(
			context,
			'warn',
			`could not guard the routing answer (${messageOf(error) || 'unknown error'})`,
		);
	}
	return { workflowData: [[{ json: item }]] };
}

/**
 * SMS Received with Look Up in Data Tables: the service is answered at once (it never waits
 * for n8n's API), then the reply is relayed to the run waiting for it or the sender looked up
 * (conversation.ts). A reply a run took starts nothing; anything else starts the workflow as
 * Keywords allow.
 */
async function inConversation(
	this: IWebhookFunctions,
	settings: TriggerSettings,
	normalized: Normalized,
	credentials: IDataObject | undefined,
	now: number,
): Promise<IWebhookResponseData> {
	const answered = answerHere(this, 200, '');
	const item = await converse.call(this, settings, normalized.item, credentials);
	if (item === undefined || !starts(this, settings, { ...normalized, item }, now)) return answered;
	return { ...answered, workflowData: [[{ json: item }]] };
}

/**
 * The credential, read once per request (its Identifier Word and Service Time Zone): n8n reads it
 * from the database and decrypts it at every call, which a routed call start waits for (12 to
 * 160 ms for a call alone in n8n 2.40.7, several hundred under 10 at once: dev/docs/benchmarks.md).
 * Undefined when it cannot be read: the callback is still taken, in the contract's word.
 */
async function credentialsOf(context: IWebhookFunctions): Promise<IDataObject | undefined> {
	try {
		return await context.getCredentials<IDataObject>(VIRTUALNUM_CREDENTIAL);
	} catch {
		return undefined;
	}
}

/**
 * A call's `startedAt` / `endedAt` beside `startTime` / `endTime`: the times with the offset of
 * the service's clock (the credential's Service Time Zone; null when the callback had no time).
 * A callback is never refused for it: with no zone that can be used, the item has neither.
 */
function withCallTimes(item: IDataObject, credentials: IDataObject | undefined): IDataObject {
	if (!('startTime' in item) && !('endTime' in item)) return item;
	const zone = usableZone(credentials?.serviceTimeZone);
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
function inContractWord(
	request: ReceivedRequest,
	credentials: IDataObject | undefined,
): ReceivedRequest {
	if (credentials === undefined) return request;
	const word = identifierWordOf(credentials);
	if (word === IDENTIFIER_WORD || !isIdentifierWord(word)) return request;
	return {
		...request,
		query: withContractWord(request.query, word),
		body: withContractWord(request.body, word),
	};
}
