/**
 * Route Call's rules, which both nodes apply: the Virtual Number Trigger when it answers a call
 * start, and the Virtual Number node's Route Incoming Call, which must report in `routedTo` what
 * the trigger will answer. Here: which Respond With routes a call and in which of n8n's response
 * modes (the trigger's webhooks, its settings and the node all decide by `responseModeOf`), and
 * which destinations may be answered (Allowed Destinations, the loop refusal). The guard on the
 * answer, the Deadline and the trigger's own routing rules stay in the trigger
 * (nodes/VirtualNumberTrigger/callback/).
 */
import {
	DEFAULT_COUNTRY_CODE,
	phoneIdentity,
	readPhone,
	type PhoneProblem,
	type PhoneReading,
} from './phones';

// ---- Respond With and n8n's response mode ---------------------------------------------------

/** The Events value of a call start (the trigger's callback/events/callStarted.ts). */
export const CALL_STARTED_EVENT = 'callStarted';

/** How n8n answers the trigger's callbacks (its webhooks' responseMode). */
export type ResponseMode = 'onReceived' | 'lastNode' | 'responseNode';

/**
 * Respond With's values that route a call start, each with the response mode n8n answers it in: a
 * destination from the last node once the run ended (lastNode); a Route Incoming Call node's
 * answer from inside the run, when that node calls n8n's sendResponse (responseNode); the
 * trigger's own routing rules, answered by the trigger before any run (onReceived, as Nothing).
 */
export const ROUTES = {
	destination: 'lastNode',
	routeNode: 'responseNode',
	rules: 'onReceived',
} as const;

export type Route = keyof typeof ROUTES;

function isRoute(value: unknown): value is Route {
	return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ROUTES, value);
}

/** The trigger's parameters as the workflow holds them, or as read. */
interface TriggerParameters {
	events?: unknown;
	options?: unknown;
}

/** How the call start is routed: Respond With, when Call Started is chosen and it routes the call. */
export function routeOf({ events, options }: TriggerParameters): Route | undefined {
	if (!Array.isArray(events) || !events.includes(CALL_STARTED_EVENT)) return undefined;
	const respondWith = ((options ?? {}) as Record<string, unknown>).respondWith;
	return isRoute(respondWith) ? respondWith : undefined;
}

/**
 * n8n's response mode for the trigger's callbacks, from its parameters: a routing one when Call
 * Started is chosen and Respond With waits for the workflow, else 'onReceived' (answered at once,
 * by n8n or, for the routing rules, by the trigger itself). The trigger's settings, its webhooks
 * and the Route Incoming Call node (which fails unless a trigger waits for it) all decide by this.
 */
export function responseModeOf(parameters: TriggerParameters): ResponseMode {
	const route = routeOf(parameters);
	return route === undefined ? 'onReceived' : ROUTES[route];
}

// ---- Which destinations may be answered: Allowed Destinations -------------------------------

/*
 * A routed call is paid by the account, and the value comes from the workflow (a CRM field, a
 * form, an AI agent) or a rule typed once: a wrong or planted value must not send the account's
 * calls to a premium-rate or foreign line, nor back to the account's own numbers.
 *
 * Israel's national numbering plan (Ministry of Communications, "תוכנית המספור הלאומית"; published
 * to the ITU under E.164, e.g. ITU Operational Bulletin No. 865, 2006): geographic numbers are
 * 0A + 7 digits (A = 2, 3, 4, 8, 9), mobile numbers 05N + 7 digits, non-geographic (VoIP) numbers
 * 07N + 7 digits. Special services start with 1 instead: 1-800 / 1-80X toll-free, 1-700 and 1-599
 * shared-cost, and premium-rate services. The Ministry's rules for premium services (Appendix N,
 * "Premium Services", added to the operators' general licenses from 24 October 2014; English
 * translation in Partner Communications' SEC filing, exhibit 4a-91, 2015) define a premium
 * "Service Number" as a 10-digit number of the numbering plan made of a designated prefix code and
 * further digits: the 1-900 / 1-9XX ranges, whose exact allocation is kept in the Ministry's
 * administrative provisions, not in the license. The allow-list does not depend on that list: it
 * admits only the three national forms above, so every 10-digit 1-number, premium or not, is
 * refused unless the user allows its prefix.
 */

/** Route Call → Allowed Destinations, and the digit prefixes always answered (as written, or in the 972… form). */
export interface AllowList {
	allowed: 'israel' | 'international' | 'any';
	prefixes: string[];
}

/** Version 1 of the trigger answered any phone number: its saved workflows keep that unless they choose otherwise. */
function defaultAllowed(triggerVersion: number): AllowList['allowed'] {
	return triggerVersion >= 1.1 ? 'israel' : 'any';
}

/** Allowed Destinations and Also Allowed Prefixes as the trigger's Options hold them. */
export function allowListOf(options: Record<string, unknown>, triggerVersion: number): AllowList {
	const allowed = ['israel', 'international', 'any'].includes(String(options.allowedDestinations))
		? (options.allowedDestinations as AllowList['allowed'])
		: defaultAllowed(triggerVersion);
	return { allowed, prefixes: prefixesOf(String(options.allowedPrefixes ?? '')) };
}

/** National numbers (after 972) of Israeli landlines (0A), mobiles (05N) and VoIP lines (07N). */
const ISRAELI_LINE = /^(?:[23489]\d{7}|5\d{8}|7[2-9]\d{7})$/;

/** Comma-separated digit prefixes as the user typed them (`+44, 1-800`). */
function prefixesOf(text: string): string[] {
	return text
		.split(/[,;\n]+/)
		.map((prefix) => prefix.replace(/\D/g, ''))
		.filter(Boolean);
}

/** Israeli special-service numbers as dialled: 1 and 9 digits (1-800-XX-XXXX, 1-900-XX-XXXX). */
const ISRAELI_SPECIAL = /^1\d{9}$/;
/** North American premium-rate area codes (+1 900, +1 976), the ones an "international" list still refuses. */
const NANP_PREMIUM = /^1(?:900|976)\d{7}$/;

/** Why the destination is refused under the allow-list, or undefined when it may be answered. */
function refusedByList({ digits, identity }: PhoneReading, list: AllowList): string | undefined {
	if (list.allowed === 'any') return undefined;
	if (list.prefixes.some((prefix) => digits.startsWith(prefix) || identity.startsWith(prefix)))
		return undefined;
	if (identity.startsWith(DEFAULT_COUNTRY_CODE)) {
		if (ISRAELI_LINE.test(identity.slice(DEFAULT_COUNTRY_CODE.length))) return undefined;
		return 'is not an Israeli mobile or landline number';
	}
	if (ISRAELI_SPECIAL.test(digits))
		return 'is an Israeli special-service number (1-800, 1-700, 1-599, premium-rate 1-900 …)';
	if (list.allowed !== 'international') return 'is an international number';
	if (NANP_PREMIUM.test(digits.replace(/^00/, '')))
		return 'is a premium-rate number (+1 900, +1 976)';
	return undefined;
}

// ---- No loops: the account's own numbers ----------------------------------------------------

/**
 * The numbers a call must not be routed back to, as phone identities: the number dialled (a call
 * sent there comes back to the same callback, and every leg is billed) and, from trigger version
 * 1.1, every number of the account the trigger knows (read at activation: the trigger's
 * lifecycle). Another number of the account can be a real route (a line with its own menu): the
 * user lists it whole in Also Allowed Prefixes.
 */
export interface OwnNumbers {
	dialled?: string;
	account: readonly string[];
}

/** Where the trigger keeps the account's numbers (for the Route Incoming Call node too): global static data. */
export const ACCOUNT_NUMBERS_KEY = 'virtualnumAccountNumbers';

/** The account's numbers a trigger kept (by the trigger's name), as identities; none when it kept none. */
export function keptAccountNumbers(global: Record<string, unknown>, trigger: string): string[] {
	const kept = global[ACCOUNT_NUMBERS_KEY] as Record<string, unknown> | undefined;
	const numbers = kept !== null && typeof kept === 'object' ? kept[trigger] : undefined;
	return Array.isArray(numbers) ? numbers.filter((n): n is string => typeof n === 'string') : [];
}

/** Why the destination would loop back into the account, or undefined. Listed whole, it is the user's choice. */
function loopOf(
	{ identity }: PhoneReading,
	own: OwnNumbers,
	prefixes: string[],
): string | undefined {
	if (prefixes.some((prefix) => phoneIdentity(prefix) === identity)) return undefined;
	// As the callback sent it (version 1 keeps its formatting): read as every number is.
	const dialled = own.dialled === undefined ? undefined : readPhone(own.dialled);
	if (dialled !== undefined && !('problem' in dialled) && dialled.identity === identity)
		return 'is the virtual number that was dialled: the call would come back to it';
	if (own.account.includes(identity)) return 'is a virtual number of this account';
	return undefined;
}

// ---- One destination, checked ---------------------------------------------------------------

/** What a destination comes to: the digits to answer, or why the call keeps the number's own routing. */
type Checked = { digits: string } | { refused: string };

/** Why a value (from `from`) is no phone number, in the words of the log, `routeRefused` and the settings' errors. */
export function notAPhoneNumber({ seen, problem }: PhoneProblem, from?: string): string {
	return `"${seen}"${from === undefined ? '' : ` from ${from}`} is not a phone number: it ${problem}`;
}

/**
 * A destination as the workflow, a node or a rule gave it, read as a phone number (readPhone: a
 * dropped leading 0 put back, any script's digits, an extension not dialled) and checked against
 * the loop refusal and Allowed Destinations. `refused` says why, naming the rule, in the words of
 * the log line and of `routeRefused`.
 */
export function checkDestination(
	value: unknown,
	from: string,
	list: AllowList,
	own: OwnNumbers,
): Checked {
	const reading = readPhone(value);
	if ('problem' in reading) return { refused: notAPhoneNumber(reading, from) };
	const { digits } = reading;
	const loop = loopOf(reading, own, list.prefixes);
	if (loop !== undefined) {
		const allow = 'no loops; list it in Also Allowed Prefixes to allow it';
		return { refused: `refused ${digits} from ${from}: it ${loop} (${allow})` };
	}
	const refused = refusedByList(reading, list);
	if (refused !== undefined)
		return { refused: `refused ${digits} from ${from}: it ${refused} (Allowed Destinations)` };
	return { digits };
}

/**
 * How long a routed call waits for its destination (the trigger's Deadline option). The service
 * holds the caller meanwhile and its own limit is not shown: 3 s by default, at most 10 s.
 */
export const ROUTE_DEADLINE_SEC = { default: 3, min: 0.5, max: 10 } as const;

/** The Deadline's refusal, in the words of the log line and of `routeRefused`. */
export function pastDeadline(deadlineMs: number): string {
	return `no destination within ${deadlineMs / 1000} s (Deadline)`;
}
