/**
 * Route Call (Call Started → Respond With: A Destination From the Workflow). At call start the
 * service reads the answer to its callback as a routing destination: a bare phone number as plain
 * text routes the call there, an empty answer leaves the number's own routing.
 *
 * How n8n 2.x lets a trigger answer with what the workflow produced: the webhook's responseMode
 * 'lastNode' (set by an expression on the option), after which n8n answers with the first item
 * of the last node that ran, through the response object (`res.status()`, `res.json()`,
 * `res.send()`; on a failed run a 500). n8n has no deadline of its own for that answer, and it
 * sends whatever the item holds. So before returning, the webhook puts a guard on this one
 * response object: n8n's answer is read (the user's field, checked as a phone number) and turned
 * into the plain-text destination, or into an empty answer when it is none or the run failed; and
 * at the deadline an empty answer goes out if n8n's has not come, after which n8n's is dropped.
 * n8n's Respond to Webhook node cannot be used for this: since its version 1.1 it refuses to run
 * unless n8n's own Webhook, Form, Chat or Wait node started the workflow.
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { PHONE_LIMITS, phoneDigits } from '../shared/phones';
import { logLine, printable } from './logLine';
import { refusedDestination } from './routeAllowList';
import type { RouteSettings } from './types';

/** The fewest digits a routing destination has (a short extension is not one). */
const MIN_DESTINATION_DIGITS = 6;

/** The destination as digits, or why the value is none. */
function destinationOf(
	body: unknown,
	{ field, allowList }: RouteSettings,
): { digits: string } | { problem: string } {
	let value: unknown = body;
	if (typeof body === 'object' && body !== null) {
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
	if (digits === undefined || digits.length < MIN_DESTINATION_DIGITS)
		return { problem: `"${printable(value, 40)}" in "${field}" is not a phone number` };
	if (digits.length > PHONE_LIMITS.maxDigits)
		return { problem: `"${field}" has more than ${PHONE_LIMITS.maxDigits} digits` };
	const refused = refusedDestination(digits, allowList);
	if (refused !== undefined)
		return { problem: `refused ${digits} in "${field}": it ${refused} (Allowed Destinations)` };
	return { digits };
}

type Response = ReturnType<IWebhookFunctions['getResponseObject']>;

/**
 * Guards the response n8n will send after the run: answers the destination it carries, or an
 * empty 200 (the number's own routing) when it carries none, the run failed, or the deadline
 * passed first. The deadline counts from `receivedAt` (ms), when n8n handed the request to the
 * trigger: the caller has been waiting since, whatever the trigger did before the run started.
 * Each case that routes nowhere writes one log line.
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
	let status = 200;
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
	const read = (body: unknown) => {
		if (status >= 400) return answer('', `the workflow failed (n8n answered ${status})`);
		const found = destinationOf(body, route);
		if ('problem' in found) return answer('', found.problem);
		answer(found.digits);
	};
	// Only this request's response object is guarded; n8n's calls after the answer do nothing.
	const guarded = res as unknown as Record<string, unknown>;
	guarded.status = (code: number) => {
		status = code;
		return res;
	};
	for (const name of ['setHeader', 'setHeaders']) {
		const original = guarded[name];
		if (typeof original !== 'function') continue;
		guarded[name] = (...args: unknown[]) => {
			if (!answered && !res.headersSent)
				(original as (...a: unknown[]) => unknown).apply(res, args);
			return res;
		};
	}
	guarded.json = (body: unknown) => {
		read(body);
		return res;
	};
	guarded.send = (body: unknown) => {
		read(typeof body === 'string' ? body.trim() : body);
		return res;
	};
	void sleep(Math.max(0, receivedAt + route.deadlineMs - Date.now())).then(() =>
		answer('', `no destination within ${route.deadlineMs / 1000} s (Deadline)`),
	);
}
