/**
 * Route Call (Call Started → Respond With a destination). At call start the service reads the
 * answer to its callback as a routing destination: a bare phone number as plain text routes the
 * call there, an empty answer leaves the number's own routing. Here: how n8n answers (the response
 * mode, read by the node's settings, its webhooks and the Route Incoming Call node), which
 * destinations may be answered, and the guard on the answer.
 *
 * n8n 2.x lets a trigger answer with what the workflow produced in two ways, both through this
 * request's response object (`res.status()`, `res.setHeaders()`, then `res.json()` or `res.send()`;
 * a failed run gives a 500):
 * - A Destination From the Workflow: the webhook's responseMode 'lastNode' (an expression on the
 *   option). n8n answers the first item of the last node that ran once the run ended and the
 *   execution was saved.
 * - Using a 'Route Incoming Call' Node: responseMode 'responseNode'. That node (Virtual Number →
 *   Call) calls n8n's `sendResponse` with the number as plain text, and n8n answers from inside the
 *   run. A run that ends without it answering gets n8n's answer with no body as soon as the
 *   execution is saved (active-executions resolves the response with EXECUTION_ENDED_WITHOUT_RESPONSE;
 *   in queue mode the main process answers `{}` when the job finished).
 * n8n has no deadline of its own for either answer, and it sends whatever it was given. So before
 * returning, the webhook puts a guard on this one response object: n8n's answer is read (checked
 * as a phone number, against Allowed Destinations) and turned into the plain-text destination, or
 * into an empty answer when it is none or the run failed; and at the deadline an empty answer goes
 * out if n8n's has not come, after which n8n's is dropped. n8n's Respond to Webhook node cannot be
 * used for this: since its version 1.1 it refuses to run unless n8n's own Webhook, Form, Chat or
 * Wait node started the workflow.
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import {
	DEFAULT_COUNTRY_CODE,
	PHONE_LIMITS,
	phoneDigits,
	phoneIdentity,
} from '../../shared/phones';
import { logLine, printable } from '../secret';
import type { RouteSettings } from '../types';
import { callStarted } from './events/callStarted';

// ---- How n8n answers: the response mode -----------------------------------------------------

/** How n8n answers the trigger's callbacks (its webhooks' responseMode). */
type ResponseMode = 'onReceived' | 'lastNode' | 'responseNode';

/**
 * Respond With's values that route a call start, each with the response mode n8n answers it in: a
 * destination from the last node once the run ended (lastNode); a Route Incoming Call node's
 * answer from inside the run, when that node calls n8n's sendResponse (responseNode).
 */
export const ROUTES = { destination: 'lastNode', routeNode: 'responseNode' } as const;

export type Route = keyof typeof ROUTES;

function isRoute(value: unknown): value is Route {
	return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ROUTES, value);
}

/**
 * n8n's response mode for the trigger's callbacks, from its parameters (as the workflow holds them,
 * or as read): a routing one when Call Started is chosen and Respond With routes the call, else
 * 'onReceived' (answered at once). The node's settings, its webhooks and the Route Incoming Call
 * node (which fails unless a trigger waits for it) all decide by this.
 */
export function responseModeOf(parameters: { events?: unknown; options?: unknown }): ResponseMode {
	const { events, options } = parameters;
	if (!Array.isArray(events) || !events.includes(callStarted.key)) return 'onReceived';
	const respondWith = ((options ?? {}) as IDataObject).respondWith;
	return isRoute(respondWith) ? ROUTES[respondWith] : 'onReceived';
}

/** The same rule as n8n's expression, for a route: Call Started chosen, Respond With that route. */
const routesBy = (route: Route) =>
	`$parameter["events"].includes("${callStarted.key}") && $parameter["options"]["respondWith"] === "${route}"`;

/**
 * The call URL's response fields, each as n8n's expression and as the resolver n8n 2.x reads instead
 * when the parameters are static (the same value for every setting: the webhooks' test compares
 * them). A destination from the last node is answered with its first item (firstEntryJson);
 * everything else with no body.
 */
export const CALL_RESPONSE = {
	responseMode: {
		template: `={{ ${Object.entries(ROUTES)
			.map(([route, mode]) => `${routesBy(route as Route)} ? "${mode}" : `)
			.join('')}"onReceived" }}`,
		resolve: (parameters: IDataObject): ResponseMode => responseModeOf(parameters),
	},
	responseData: {
		template: `={{ ${routesBy('destination')} ? "firstEntryJson" : "noData" }}`,
		resolve: (parameters: IDataObject): string =>
			responseModeOf(parameters) === ROUTES.destination ? 'firstEntryJson' : 'noData',
	},
};

// ---- Which destinations may be answered: Allowed Destinations -------------------------------

/*
 * Which destinations Route Call may answer. A routed call is paid by the account, and the value
 * comes from the workflow (a CRM field, a form, an AI agent): a wrong or planted value must not
 * send the account's calls to a premium-rate or foreign line.
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
type RouteAllowList = RouteSettings['allowList'];
type AllowedDestinations = RouteAllowList['allowed'];

/** Version 1 answered any phone number: its saved workflows keep that unless they choose otherwise. */
export function defaultAllowed(nodeVersion: number): AllowedDestinations {
	return nodeVersion >= 1.1 ? 'israel' : 'any';
}

/** National numbers (after 972) of Israeli landlines (0A), mobiles (05N) and VoIP lines (07N). */
const ISRAELI_LINE = /^(?:[23489]\d{7}|5\d{8}|7[2-9]\d{7})$/;

/** Comma-separated digit prefixes as the user typed them (`+44, 1-800`). */
export function prefixesOf(text: string): string[] {
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
function refusedDestination(digits: string, list: RouteAllowList): string | undefined {
	if (list.allowed === 'any') return undefined;
	const identity = phoneIdentity(digits, DEFAULT_COUNTRY_CODE);
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

// ---- The guard on the answer ----------------------------------------------------------------

/** What the answer carries: the destination as digits ('' for the number's own routing), or why none. */
function destinationOf(
	body: unknown,
	{ byNode, field, allowList }: RouteSettings,
): { digits: string } | { problem: string } {
	const named = byNode ? 'the Route Incoming Call node' : `"${field}"`;
	let value: unknown = body;
	if (byNode) {
		if (body === undefined || body === null)
			return { problem: 'the run ended without a Route Incoming Call node answering' };
		// The node answers '' on purpose for the number's own routing: nothing to log.
		if (body === '') return { digits: '' };
	} else if (typeof body === 'object' && body !== null) {
		for (const key of field.split('.')) {
			value =
				typeof value === 'object' &&
				value !== null &&
				Object.prototype.hasOwnProperty.call(value, key)
					? (value as IDataObject)[key]
					: undefined;
		}
	}
	if (value === undefined || value === null || value === '')
		return { problem: `the last node's first item has no "${field}"` };
	const digits = phoneDigits(value);
	if (digits === undefined || digits.length < PHONE_LIMITS.destinationMinDigits)
		return { problem: `"${printable(value, 40)}" from ${named} is not a phone number` };
	if (digits.length > PHONE_LIMITS.maxDigits)
		return { problem: `${named} gave more than ${PHONE_LIMITS.maxDigits} digits` };
	const refused = refusedDestination(digits, allowList);
	if (refused !== undefined)
		return { problem: `refused ${digits} from ${named}: it ${refused} (Allowed Destinations)` };
	return { digits };
}

type Response = ReturnType<IWebhookFunctions['getResponseObject']>;

/**
 * Puts `onBody` in place of n8n's answer on this one response object: n8n's status is kept for
 * it, its headers are set only until an answer went out, and its body goes to `onBody`.
 */
function guardResponse(
	res: Response,
	onBody: (body: unknown, status: number) => void,
	answered: () => boolean,
): void {
	let status = 200;
	const guarded = res as unknown as Record<string, unknown>;
	guarded.status = (code: number) => {
		status = code;
		return res;
	};
	for (const name of ['setHeader', 'setHeaders']) {
		const original = guarded[name];
		if (typeof original !== 'function') continue;
		guarded[name] = (...args: unknown[]) => {
			if (!answered() && !res.headersSent)
				(original as (...a: unknown[]) => unknown).apply(res, args);
			return res;
		};
	}
	guarded.json = (body: unknown) => {
		onBody(body, status);
		return res;
	};
	guarded.send = (body: unknown) => {
		onBody(typeof body === 'string' ? body.trim() : body, status);
		return res;
	};
}

/**
 * After a callback other than a call start was answered at once: n8n's later answer (a Route
 * Incoming Call node run on that event's item) is dropped instead of failing on a sent response.
 */
export function dropLaterAnswers(context: IWebhookFunctions): void {
	guardResponse(
		context.getResponseObject(),
		() => undefined,
		() => true,
	);
}

/**
 * Guards the response n8n will send (after the run, or when a Route Incoming Call node answers):
 * answers the destination it carries, or an empty 200 (the number's own routing) when it carries
 * none, the run failed, or the deadline passed first. The deadline counts from `receivedAt` (ms),
 * when n8n handed the request to the trigger: the caller has been waiting since, whatever the
 * trigger did before the run started. Each case that routes nowhere writes one log line.
 */
export function answerWithDestination(
	context: IWebhookFunctions,
	route: RouteSettings,
	item: { callId?: unknown; callerNumber?: unknown },
	receivedAt: number,
): void {
	const res: Response = context.getResponseObject();
	const logger = context.logger;
	const call = typeof item.callId === 'string' ? item.callId : 'unknown';
	const caller = typeof item.callerNumber === 'string' ? item.callerNumber : 'unknown';
	let answered = false;
	const answer = (destination: string, why?: string) => {
		if (answered) return;
		answered = true;
		if (why)
			logLine(
				logger,
				'warn',
				`call ${call} from ${caller} left to the number's own routing: ${why}`,
			);
		if (res.headersSent) return;
		res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
		res.end(destination);
	};
	// Only this request's response object is guarded; n8n's calls after the answer do nothing.
	guardResponse(
		res,
		(body, status) => {
			if (status >= 400) return answer('', `the workflow failed (n8n answered ${status})`);
			const found = destinationOf(body, route);
			if ('problem' in found) return answer('', found.problem);
			answer(found.digits);
		},
		() => answered,
	);
	void sleep(Math.max(0, receivedAt + route.deadlineMs - Date.now())).then(() =>
		answer('', `no destination within ${route.deadlineMs / 1000} s (Deadline)`),
	);
}
