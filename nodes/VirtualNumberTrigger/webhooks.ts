/**
 * The trigger's webhooks. The spec does not show how callbacks are sent: both methods on the same
 * path. Only the first entry has lifecycle methods (n8n's own nodes name the second `setup`), so n8n
 * registers once. Callbacks are answered with an empty body, as a callback endpoint should; with
 * Respond With a destination, n8n waits for the answer (lastNode or responseNode) and routeCall.ts
 * guards it.
 *
 * n8n reads a webhook's path and response options from these expressions on every request. n8n 2.x
 * (since 2.40) also takes a resolver per field, a function of the parameters giving the same value
 * without its expression engine, used when no parameter holds an expression or a resource locator
 * (Numbers: All Numbers, the default): each field below carries both. Earlier n8n versions ignore the
 * resolvers and evaluate the expressions.
 */
import type { IDataObject, IWebhookDescription } from 'n8n-workflow';

import { SMS_PATH, SMS_PATH_EXPRESSION, smsToken } from '../shared/triggerUrl';

/** The key n8n 2.x reads the resolvers from (n8n-workflow's WEBHOOK_RESOLVERS, a registered symbol). */
const WEBHOOK_RESOLVERS = Symbol.for('n8n.webhookDescriptionResolvers');

type Resolver = { template: string; resolve: (parameters: IDataObject) => unknown };

// The same conditions as readSettings' route: Call Started chosen and Respond With a way to route.
const RESPONDS = (value: string) =>
	`$parameter["events"].includes("callStarted") && $parameter["options"]["respondWith"] === "${value}"`;

function responds(parameters: IDataObject, value: string): boolean {
	const events = parameters.events;
	const options = (parameters.options ?? {}) as IDataObject;
	return (
		Array.isArray(events) &&
		(events as unknown[]).includes('callStarted') &&
		options.respondWith === value
	);
}

// A destination from the last node: n8n answers once the run ended (lastNode). A Route Incoming Call
// node: n8n answers when that node calls sendResponse, from inside the run (responseNode).
const RESPONSE_MODE: Resolver = {
	template:
		`={{ ${RESPONDS('destination')} ? "lastNode" : ` +
		`${RESPONDS('routeNode')} ? "responseNode" : "onReceived" }}`,
	resolve: (parameters) =>
		responds(parameters, 'destination')
			? 'lastNode'
			: responds(parameters, 'routeNode')
				? 'responseNode'
				: 'onReceived',
};

const RESPONSE_DATA: Resolver = {
	template: `={{ ${RESPONDS('destination')} ? "firstEntryJson" : "noData" }}`,
	resolve: (parameters) => (responds(parameters, 'destination') ? 'firstEntryJson' : 'noData'),
};

/** The SMS URL's path: `sms`, or `sms/<token>` with a Secret (shared/triggerUrl.ts). */
const SMS_URL_PATH: Resolver = {
	template: SMS_PATH_EXPRESSION,
	resolve: (parameters) => {
		const secret = ((parameters.options ?? {}) as IDataObject).secret;
		return secret ? `${SMS_PATH}/${smsToken(String(secret))}` : SMS_PATH;
	},
};

/** A description's fields, each as its expression, with the resolvers n8n 2.x reads beside. */
function withResolvers(
	description: IWebhookDescription,
	fields: Record<string, Resolver>,
): IWebhookDescription {
	const templates = Object.fromEntries(
		Object.entries(fields).map(([field, { template }]) => [field, template]),
	);
	return { ...description, ...templates, [WEBHOOK_RESOLVERS]: fields } as IWebhookDescription;
}

/** The editor shows the SMS URL (the one to paste) while an SMS event is chosen, else the call URL. */
const SMS_CHOSEN = '["smsReceived", "smsDelivery"].some((e) => $parameter["events"].includes(e))';
const SMS_ONLY_URLS = `={{ ${SMS_CHOSEN} }}`;
const CALL_ONLY_URLS = `={{ !(${SMS_CHOSEN}) }}`;

const CALL_URL = { responseMode: RESPONSE_MODE, responseData: RESPONSE_DATA };

export const TRIGGER_WEBHOOKS: IWebhookDescription[] = [
	withResolvers(
		{ name: 'default', httpMethod: 'POST', path: 'webhook', ndvHideUrl: SMS_ONLY_URLS },
		CALL_URL,
	),
	withResolvers(
		{ name: 'setup', httpMethod: 'GET', path: 'webhook', ndvHideUrl: SMS_ONLY_URLS },
		CALL_URL,
	),
	// The URL pasted by hand for SMS events, its secret in the path (shared/triggerUrl.ts), so that
	// the panel shows it whole. Callbacks of calls are refused there (receive.ts). Named `setup` (n8n
	// knows two names, and only `default` has lifecycle methods to run).
	...(['POST', 'GET'] as const).map((httpMethod) =>
		withResolvers(
			{
				name: 'setup',
				httpMethod,
				responseMode: 'onReceived',
				responseData: 'noData',
				ndvHideUrl: CALL_ONLY_URLS,
			} as IWebhookDescription,
			{ path: SMS_URL_PATH },
		),
	),
];
