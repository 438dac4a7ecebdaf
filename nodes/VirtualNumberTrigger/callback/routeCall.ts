/**
 * Route Call (Call Started → Respond With a destination). At call start the service reads the
 * answer to its callback as a routing destination: a bare phone number as plain text routes the
 * call there, an empty answer leaves the number's own routing. Here: the call URL's response
 * fields, the answer of each way, and the Deadline. Which Respond With routes and in which of
 * n8n's response modes, and which destinations may be answered (Allowed Destinations, no loops):
 * nodes/shared/callRouting.ts, which the Route Incoming Call node applies too.
 *
 * Using Routing Rules (routingRules.ts): the trigger answers the call start itself, as soon as it
 * has read the call, before n8n creates (or queues) the execution, so the caller never waits for
 * n8n's database, its concurrency limit or a queue; the run starts as with Nothing (n8n's
 * responseMode onReceived), with what was answered (`routedTo`, `routeRefused`, `routeRule`).
 *
 * The two other ways wait for the run, and n8n answers through this request's response object
 * (`res.status()`, `res.setHeaders()`, then `res.json()` or `res.send()`; a failed run gives a 500):
 * - A Destination From the Workflow: the webhook's responseMode 'lastNode'. n8n answers the first
 *   item of the last node that ran once the run ended and the execution was saved.
 * - Using a 'Route Incoming Call' Node: responseMode 'responseNode'. That node (Virtual Number →
 *   Call) calls n8n's `sendResponse` with the number as plain text, and n8n answers from inside the
 *   run. A run that ends without it answering gets n8n's answer with no body as soon as the
 *   execution is saved (active-executions resolves the response with EXECUTION_ENDED_WITHOUT_RESPONSE;
 *   in queue mode the main process answers `{}` when the job finished).
 * n8n has no deadline of its own for either answer, and it sends whatever it was given. So before
 * returning, the webhook puts a guard on this one response object: n8n's answer is read (checked
 * as a phone number, against Allowed Destinations and the account's own numbers) and turned into
 * the plain-text destination, or into an empty answer when it is none or the run failed; and at
 * the deadline an empty answer goes out if n8n's has not come, after which n8n's is only logged,
 * with how late it came. n8n's Respond to Webhook node cannot be used for this: since its version
 * 1.1 it refuses to run unless n8n's own Webhook, Form, Chat or Wait node started the workflow.
 *
 * Every answer is written with its length (request.ts `answerPlain`): n8n's compression middleware
 * then leaves it as it is, and whatever headers it sets go through the guard while it is written.
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import {
	CALL_STARTED_EVENT,
	ROUTES,
	checkDestination,
	keptAccountNumbers,
	pastDeadline,
	responseModeOf,
	type OwnNumbers,
	type ResponseMode,
	type Route,
} from '../../shared/callRouting';
import { usableZone } from '../../shared/dates';
import { logLine, printable } from '../secret';
import type { RouteSettings } from '../types';
import { answerPlain } from './request';
import { isOpen, ruleFor } from './routingRules';

// ---- The call URL's response fields ---------------------------------------------------------

/** The same rule as n8n's expression, for a route: Call Started chosen, Respond With that route. */
const routesBy = (route: Route) =>
	`$parameter["events"].includes("${CALL_STARTED_EVENT}") && $parameter["options"]["respondWith"] === "${route}"`;

/** The routes n8n waits for the workflow's answer on (the rules are answered as Nothing is, at once). */
const WAITING = Object.entries(ROUTES).filter(([, mode]) => mode !== 'onReceived');

/**
 * The call URL's response fields, each as n8n's expression and as the resolver n8n 2.x reads instead
 * when the parameters are static (the same value for every setting: the webhooks' test compares
 * them). A destination from the last node is answered with its first item (firstEntryJson);
 * everything else with no body.
 */
export const CALL_RESPONSE = {
	responseMode: {
		template: `={{ ${WAITING.map(
			([route, mode]) => `${routesBy(route as Route)} ? "${mode}" : `,
		).join('')}"onReceived" }}`,
		resolve: (parameters: IDataObject): ResponseMode => responseModeOf(parameters),
	},
	responseData: {
		template: `={{ ${routesBy('destination')} ? "firstEntryJson" : "noData" }}`,
		resolve: (parameters: IDataObject): string =>
			responseModeOf(parameters) === ROUTES.destination ? 'firstEntryJson' : 'noData',
	},
};

// ---- What a call may be routed to -----------------------------------------------------------

type CallItem = { callId?: unknown; callerNumber?: unknown; virtualNumber?: unknown };

/** The numbers this call must not be routed back to: the one dialled, and (version 1.1) the account's. */
function ownNumbers(context: IWebhookFunctions, route: RouteSettings, item: CallItem): OwnNumbers {
	const dialled = typeof item.virtualNumber === 'string' ? item.virtualNumber : undefined;
	if (!route.refusesAccount) return { dialled, account: [] };
	const global = context.getWorkflowStaticData('global') as IDataObject;
	return { dialled, account: keptAccountNumbers(global, context.getNode().name) };
}

/** What the answer carries: the destination as digits ('' for the number's own routing), or why none. */
function destinationOf(
	body: unknown,
	{ route, field, allowList }: RouteSettings,
	own: OwnNumbers,
): { digits: string } | { refused: string } {
	const byNode = route === 'routeNode';
	let value: unknown = body;
	if (byNode) {
		if (body === undefined || body === null)
			return { refused: 'the run ended without a Route Incoming Call node answering' };
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
		return { refused: `the last node's first item has no "${field}"` };
	return checkDestination(
		value,
		byNode ? 'the Route Incoming Call node' : `"${field}"`,
		allowList,
		own,
	);
}

// ---- The guard on n8n's answer --------------------------------------------------------------

type Response = ReturnType<IWebhookFunctions['getResponseObject']>;

/**
 * Puts `onBody` in place of n8n's answer on this one response object: n8n's status is kept for
 * it, its headers are set only until an answer went out, and its body goes to `onBody`. Headers
 * set while the trigger's own answer is written (n8n's compression middleware) go through.
 */
function guardResponse(res: Response, onBody: (body: unknown, status: number) => void): void {
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
			if (!res.headersSent) (original as (...a: unknown[]) => unknown).apply(res, args);
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
	guardResponse(context.getResponseObject(), () => undefined);
}

/** Who the log lines name: the call and its caller. */
function callOf(item: CallItem): string {
	const call = typeof item.callId === 'string' ? item.callId : 'unknown';
	const caller = typeof item.callerNumber === 'string' ? item.callerNumber : 'unknown';
	return `call ${call} from ${caller}`;
}

/** What n8n's answer would have routed, for the log line of an answer past the Deadline. */
function lateOutcome(route: RouteSettings, own: OwnNumbers, body: unknown, status: number): string {
	if (status >= 400) return `the workflow failed (n8n answered ${status})`;
	const found = destinationOf(body, route, own);
	if ('refused' in found) return found.refused;
	return found.digits === ''
		? "it named the number's own routing"
		: `it would have routed to ${found.digits}`;
}

/**
 * Guards the response n8n will send (after the run, or when a Route Incoming Call node answers):
 * answers the destination it carries, or an empty 200 (the number's own routing) when it carries
 * none, the run failed, or the deadline passed first. The deadline counts from `receivedAt` (ms),
 * when n8n handed the request to the trigger: the caller has been waiting since, whatever the
 * trigger did before the run started. Each case that routes nowhere writes one log line; an answer
 * that comes after the Deadline writes another, with how late it came and what it said.
 */
export function answerWithDestination(
	context: IWebhookFunctions,
	route: RouteSettings,
	item: CallItem,
	receivedAt: number,
): void {
	const res: Response = context.getResponseObject();
	const own = ownNumbers(context, route, item);
	const log = (what: string) => logLine(context.logger, 'warn', `${callOf(item)}${what}`);
	const deadlineAt = receivedAt + route.deadlineMs;
	let answered = false;
	const answer = (destination: string, why?: string) => {
		if (answered) return;
		answered = true;
		if (why) log(` left to the number's own routing: ${why}`);
		if (!res.headersSent) answerPlain(res, 200, destination);
	};
	// Only this request's response object is guarded; n8n's calls after the answer do nothing.
	guardResponse(res, (body, status) => {
		if (answered) {
			const lateMs = Date.now() - deadlineAt;
			if (lateMs > 0)
				log(
					`: the workflow's answer came ${lateMs} ms after the ${route.deadlineMs / 1000} s Deadline ` +
						`(${lateOutcome(route, own, body, status)}); the call had kept the number's own routing`,
				);
			return;
		}
		if (status >= 400) return answer('', `the workflow failed (n8n answered ${status})`);
		const found = destinationOf(body, route, own);
		if ('refused' in found) return answer('', found.refused);
		answer(found.digits);
	});
	void sleep(Math.max(0, deadlineAt - Date.now())).then(() =>
		answer('', pastDeadline(route.deadlineMs)),
	);
}

// ---- Using Routing Rules: answered here, before the run -------------------------------------

/** What the rules answered, as the run's item shows it. */
interface RulesAnswer {
	/** The destination answered ('' for the number's own routing). */
	routedTo: string;
	/** Why the call kept the number's own routing although a rule named a destination; null when it did not. */
	routeRefused: string | null;
	/** The rule that decided ('rule 2', 'After-Hours Destination'); null when none did. */
	routeRule: string | null;
}

function decideByRules(
	context: IWebhookFunctions,
	route: RouteSettings,
	item: CallItem,
	at: { receivedAt: number; zone: unknown },
): RulesAnswer {
	const rules = route.rules!;
	const zone = rules.hours.length > 0 ? usableZone(at.zone) : 'UTC';
	if (zone === undefined) {
		const why =
			`the credential's Service Time Zone "${printable(at.zone, 40)}" is no time zone, so the ` +
			'Opening Hours cannot be told';
		return { routedTo: '', routeRefused: why, routeRule: null };
	}
	const found = ruleFor(rules, item, isOpen(rules.hours, at.receivedAt, zone));
	if (found === undefined || found.destination === '')
		return { routedTo: '', routeRefused: null, routeRule: found?.rule ?? null };
	const lateMs = Date.now() - at.receivedAt - route.deadlineMs;
	if (lateMs > 0) {
		const why = `${pastDeadline(route.deadlineMs)}: reading the call took ${lateMs} ms past it`;
		return { routedTo: '', routeRefused: why, routeRule: found.rule };
	}
	const own = ownNumbers(context, route, item);
	const checked = checkDestination(found.destination, found.rule, route.allowList, own);
	if ('refused' in checked)
		return { routedTo: '', routeRefused: checked.refused, routeRule: found.rule };
	return { routedTo: checked.digits, routeRefused: null, routeRule: found.rule };
}

/**
 * Respond With "Using Routing Rules": answers the call start now with the destination the rules
 * give (checked as every answer is), and returns the item with what was answered. `answered` is
 * false when no answer could be written here (n8n then answers it empty, as with Nothing).
 */
export function answerByRules(
	context: IWebhookFunctions,
	route: RouteSettings,
	item: IDataObject,
	at: { receivedAt: number; zone: unknown },
): { item: IDataObject; answered: boolean } {
	let outcome = decideByRules(context, route, item, at);
	let answered = false;
	try {
		answerPlain(context.getResponseObject(), 200, outcome.routedTo);
		answered = true;
	} catch (error) {
		const why = `the answer could not be written (${printable((error as Error)?.message, 200)})`;
		outcome = { ...outcome, routedTo: '', routeRefused: outcome.routeRefused ?? why };
	}
	if (outcome.routeRefused !== null)
		logLine(
			context.logger,
			'warn',
			`${callOf(item)} left to the number's own routing: ${outcome.routeRefused}`,
		);
	return { item: { ...item, ...outcome }, answered };
}
