/**
 * The trigger's parameters, read and checked once for the lifecycle methods and the webhook, and
 * the limits this package chooses for incoming callbacks. Every check fails before any request,
 * naming the field and the fix.
 */
import type { IDataObject, IHookFunctions, INode, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { PHONE_LIMITS, PHONE_RULE, phoneDigits } from '../shared/phones';
import { OPT_OUT_DEFAULT, phrasesOf, unmatchablePhrases } from '../shared/replies';
import { TRIGGER_EVENTS } from './callback/events';
import { parseIpAllowList } from './callback/request';
import { ROUTE_DEADLINE_SEC, allowListOf, routeOf } from '../shared/callRouting';
import { readRoutingRules } from './callback/routingRules';
import { readSecret } from './secret';
import { REPLY_WAITS_TABLE } from '../shared/replyWaits';
import type { ConversationSettings, IpRange, RouteSettings, TriggerSettings } from './types';

type TriggerEventKey = string;

type TriggerContext = IHookFunctions | IWebhookFunctions;

/** callback_url_option for the chosen events: each call event's bit (1 start, 2 end), 3 for both. */
function callbackOptionFor(events: TriggerEventKey[]): 1 | 2 | 3 | undefined {
	let option = 0;
	for (const event of TRIGGER_EVENTS)
		if (events.includes(event.key)) option |= event.callbackOption ?? 0;
	return option === 0 ? undefined : (option as 1 | 2 | 3);
}

/** The events' names in the user's words: "Call Started, Call Ended or SMS Delivery Status". */
function eventNames(): string {
	const names = TRIGGER_EVENTS.map(({ option }) => option.name);
	return `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}

function fail(node: INode, field: string, problem: string, fix: string): never {
	throw new NodeOperationError(node, `${field}: ${problem}`, { description: fix });
}

/**
 * A Keywords option's phrases. At the activation of version 1.2, an entry no message can match is
 * refused, not dropped unseen; earlier versions, and a workflow already active, keep reading the
 * words they can (refusing in a request would answer every callback 500).
 */
function readPhrases(node: INode, field: string, text: string, atActivation: boolean): string[] {
	const strict = atActivation && node.typeVersion >= 1.2;
	const unmatchable = strict ? unmatchablePhrases(text) : [];
	if (unmatchable.length > 0)
		fail(
			node,
			field,
			`no message can match ${unmatchable.map((entry) => `"${entry}"`).join(', ')}: ` +
				'replies are read by their words, without punctuation, symbols and emoji',
			'Use words or digits (STOP, הסר, 1), separated by commas or new lines.',
		);
	return phrasesOf(text);
}

export function readSettings(this: TriggerContext, atActivation = false): TriggerSettings {
	const node = this.getNode();
	const rawEvents = this.getNodeParameter('events', []) as unknown;
	const events = (Array.isArray(rawEvents) ? rawEvents : []).filter(
		(event): event is TriggerEventKey => TRIGGER_EVENTS.some(({ key }) => key === event),
	);
	if (events.length === 0) {
		fail(node, 'Events', 'choose at least one event', `Pick ${eventNames()}.`);
	}
	const callbackOption = callbackOptionFor(events);
	const options = (this.getNodeParameter('options', {}) ?? {}) as IDataObject;

	const { secret, generatesSecret } = readSecret(node, events, options);
	const { ranges, kb } = readRequestLimits(node, options);

	let scope: TriggerSettings['scope'] = 'all';
	let selected: string[] = [];
	let onExisting: TriggerSettings['onExisting'] = 'replace';
	if (callbackOption !== undefined) {
		scope = this.getNodeParameter('numbers', 'all') === 'selected' ? 'selected' : 'all';
		onExisting =
			this.getNodeParameter('existingCallback', 'replace') === 'fail' ? 'fail' : 'replace';
		if (scope === 'selected') selected = readSelectedNumbers.call(this, node);
	}

	return {
		events,
		callbackOption,
		scope,
		selected,
		onExisting,
		secret,
		generatesSecret,
		allowList: ranges,
		maxBodyBytes: Math.floor(kb * 1024),
		onceCallStarted: options.onceCallStarted === true,
		keywords: readPhrases(node, 'Keywords', String(options.keywords ?? ''), atActivation),
		optOutKeywords: readPhrases(
			node,
			'Opt-Out Keywords',
			String(options.optOutKeywords ?? OPT_OUT_DEFAULT),
			atActivation,
		),
		route: readRoute(node, events, options),
		unansweredOnly: events.includes('callEnded') && options.unansweredOnly === true,
		conversation: events.includes('smsReceived') ? readConversation.call(this, options) : undefined,
		oneVocabulary: node.typeVersion >= 1.1,
		conversationKeys: node.typeVersion >= 1.2,
	};
}

/** SMS Received's Look Up in Data Tables, and the tables' names. */
function readConversation(
	this: TriggerContext,
	options: IDataObject,
): ConversationSettings | undefined {
	const raw = this.getNodeParameter('dataTables', []) as unknown;
	const chosen = Array.isArray(raw) ? raw : [];
	const text = (value: unknown, fallback: string) => String(value ?? '').trim() || fallback;
	const conversation: ConversationSettings = {};
	if (chosen.includes('waitingRuns'))
		conversation.replyWaits = text(options.replyWaitsTable, REPLY_WAITS_TABLE);
	if (chosen.includes('optedOut'))
		conversation.optOuts = {
			table: text(options.optOutTable, OPT_OUTS_TABLE),
			column: text(options.optOutColumn, 'phone'),
		};
	return Object.keys(conversation).length > 0 ? conversation : undefined;
}

/** The table the examples keep opt-outs in (examples/sms-opt-out-to-data-table.json). */
const OPT_OUTS_TABLE = 'SMS opt-outs';

/** Allowed IPs and Max Body Size (KB), checked. */
function readRequestLimits(node: INode, options: IDataObject): { ranges: IpRange[]; kb: number } {
	const { ranges, invalid } = parseIpAllowList(String(options.allowedIps ?? ''));
	if (invalid.length > 0) {
		fail(
			node,
			'Allowed IPs',
			`not an IP address or CIDR range: ${invalid.map((entry) => `"${entry}"`).join(', ')}`,
			'Enter addresses such as 203.0.113.10 or ranges such as 198.51.100.0/24 or 2001:db8::/32, separated by commas.',
		);
	}
	const kb = Number(options.maxBodyKb ?? TRIGGER_LIMITS.maxBodyKb.default);
	const { min, max } = TRIGGER_LIMITS.maxBodyKb;
	if (!Number.isFinite(kb) || kb < min || kb > max) {
		fail(
			node,
			'Max Body Size (KB)',
			`must be a number from ${min} to ${max} (got ${String(options.maxBodyKb)})`,
			'Correct the option.',
		);
	}
	return { ranges, kb };
}

/**
 * Respond With (Call Started only): A Destination From the Workflow (its field), Using a 'Route
 * Incoming Call' Node, or Using Routing Rules (the rules); the Deadline and which destinations may
 * be answered apply to each.
 */
function readRoute(
	node: INode,
	events: TriggerEventKey[],
	options: IDataObject,
): RouteSettings | undefined {
	const route = routeOf({ events, options });
	if (route === undefined) return undefined;
	const field =
		route === 'destination' ? String(options.destinationField ?? 'destination').trim() : '';
	if (route === 'destination' && field === '') {
		fail(
			node,
			'Destination Field',
			'is empty',
			"Name the last node's field that holds the number.",
		);
	}
	const seconds = Number(options.routeDeadlineSec ?? TRIGGER_LIMITS.routeDeadlineSec.default);
	const { min, max } = TRIGGER_LIMITS.routeDeadlineSec;
	if (!Number.isFinite(seconds) || seconds < min || seconds > max) {
		fail(
			node,
			'Deadline (Seconds)',
			`must be a number from ${min} to ${max} (got ${String(options.routeDeadlineSec)})`,
			'The service holds the caller while it waits: keep the deadline short.',
		);
	}
	return {
		route,
		field,
		deadlineMs: Math.round(seconds * 1000),
		allowList: allowListOf(options, node.typeVersion),
		refusesAccount: node.typeVersion >= 1.1,
		rules: route === 'rules' ? readRoutingRules(node, options) : undefined,
	};
}

/**
 * A virtual number as typed or picked (`+972 72-200 0100`), as the digits the service lists it by;
 * undefined when it is none.
 */
function virtualnumDigits(raw: string): string | undefined {
	const digits = phoneDigits(raw);
	const { virtualnumMinDigits, maxDigits } = PHONE_LIMITS;
	return digits !== undefined && digits.length >= virtualnumMinDigits && digits.length <= maxDigits
		? digits
		: undefined;
}

function readSelectedNumbers(this: TriggerContext, node: INode): string[] {
	const collection = (this.getNodeParameter('virtualnums', {}) ?? {}) as IDataObject;
	const entries = Array.isArray(collection.number) ? (collection.number as IDataObject[]) : [];
	const numbers: string[] = [];
	entries.forEach((entry, index) => {
		const locator = entry.virtualnum as IDataObject | string | undefined;
		const raw = String(
			(typeof locator === 'object' && locator !== null ? locator.value : locator) ?? '',
		).trim();
		const digits = virtualnumDigits(raw);
		if (digits === undefined) {
			fail(
				node,
				`Virtual Numbers, entry ${index + 1}`,
				raw === ''
					? 'no number chosen'
					: `"${raw}" is not a virtual number (${PHONE_LIMITS.virtualnumMinDigits} to ${PHONE_LIMITS.maxDigits} ` +
							`digits: ${PHONE_RULE})`,
				'Pick the number from the list, or type it (e.g. 0722000100).',
			);
		}
		if (!numbers.includes(digits)) numbers.push(digits);
	});
	if (numbers.length === 0) {
		fail(
			node,
			'Virtual Numbers',
			'add at least one number',
			'Add the numbers whose calls should start the workflow, or choose All Numbers of the Account.',
		);
	}
	return numbers;
}

/** Limits this package chooses for incoming callbacks (the spec shows none). */
export const TRIGGER_LIMITS = {
	/** Callbacks carry a handful of fields; anything far larger is not one. */
	maxBodyKb: { default: 64, min: 1, max: 16 * 1024 },
	/** Route Call's Deadline (shared/callRouting.ts: the Route Incoming Call node reads it too). */
	routeDeadlineSec: ROUTE_DEADLINE_SEC,
} as const;
