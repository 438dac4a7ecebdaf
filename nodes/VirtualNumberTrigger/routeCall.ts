/**
 * Route Call (Call Started → Respond With a destination). At call start the service reads the
 * answer to its callback as a routing destination: a bare phone number as plain text routes the
 * call there, an empty answer leaves the number's own routing.
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

import { PHONE_LIMITS, phoneDigits } from '../shared/phones';
import { logLine, printable } from './logLine';
import { refusedDestination } from './routeAllowList';
import type { RouteSettings } from './types';

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
