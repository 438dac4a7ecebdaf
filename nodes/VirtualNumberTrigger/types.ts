/**
 * The shapes the trigger's modules share: its settings as read, this trigger in the mode it
 * registers in, and what an event's file offers. Types only, so every module (the
 * events above all) can name them without importing another module's code.
 */
import type { IDataObject, INodePropertyOptions } from 'n8n-workflow';

import type { AllowList, Route } from '../shared/callRouting';
import type { UrlMode } from '../shared/triggerUrl';

/** One allowed address or range, as 16 bytes (IPv4 as IPv4-mapped IPv6) and a prefix length. */
export interface IpRange {
	text: string;
	bytes: number[];
	prefix: number;
}

/** A caller a routing rule names: a number (its phone identity) or the start of one (`054777*`). */
export interface CallerPattern {
	identity: string;
	prefix: boolean;
}

/** One routing rule as read: which calls it takes (callers, the number dialled, when) and where they go. */
export interface RoutingRule {
	/** Empty: every caller. */
	callers: CallerPattern[];
	/** The phone identity of the virtual number it is for; undefined for any. */
	dialled?: string;
	when: 'always' | 'open' | 'closed';
	/** The destination as typed ('' for the number's own routing), checked as every answer is. */
	destination: string;
}

/** Opening hours: days (luxon's weekdays, 1 Monday … 7 Sunday) and minutes after midnight, in the Service Time Zone. */
export interface OpeningPeriod {
	days: number[];
	opens: number;
	closes: number;
}

/** Respond With "Using Routing Rules", as read (callback/routingRules.ts). */
export interface RoutingRules {
	rules: RoutingRule[];
	/** None: always open. */
	hours: OpeningPeriod[];
	/** Where a call out of hours goes that no rule took ('' for the number's own routing). */
	afterHours: string;
}

export interface RouteSettings {
	/**
	 * How the call start is answered (Respond With): the last node's item (destination), a Route
	 * Incoming Call node from inside the run (routeNode), or the trigger's own rules (rules).
	 */
	route: Route;
	/** The field of the last node's first item that holds the destination (dots go deeper). */
	field: string;
	deadlineMs: number;
	/** Which destinations may be answered (Allowed Destinations, Also Allowed Prefixes: shared/callRouting.ts). */
	allowList: AllowList;
	/** Version 1.1: every number of the account is refused as a destination, not only the one dialled. */
	refusesAccount: boolean;
	/** Respond With "Using Routing Rules": the rules, read (callback/routingRules.ts). */
	rules?: RoutingRules;
}

export interface TriggerSettings {
	/** The keys of the events chosen. */
	events: string[];
	/** callback_url_option for the call events chosen: 1 start, 2 end, 3 both; undefined when none. */
	callbackOption?: 1 | 2 | 3;
	scope: 'all' | 'selected';
	/** The numbers typed or picked, digits only (scope 'selected'). */
	selected: string[];
	onExisting: 'replace' | 'fail';
	/** The Secret the user set ('' when none; the generated one is the static data's: secret.ts). */
	secret: string;
	/** No Secret set under node version 1.1: the trigger generates one for the URLs it registers. */
	generatesSecret: boolean;
	allowList: IpRange[];
	maxBodyBytes: number;
	/** Start the workflow once per call ID for Call Started (the service may repeat the start callback). */
	onceCallStarted: boolean;
	/** SMS Received: only messages starting with one of these phrases start the workflow (all when empty). */
	keywords: string[];
	/** SMS Received: phrases also read as refusals, besides the reader's own (shared/replies.ts). */
	optOutKeywords: string[];
	/** Call Started → Respond With a destination (from the workflow, a node or the rules); undefined for Nothing. */
	route?: RouteSettings;
	/** Call Ended: only unanswered calls start the workflow (callback/events/callEnded.ts). */
	unansweredOnly: boolean;
	/** SMS Received: the look-ups in n8n Data Tables (callback/conversation.ts); undefined for none. */
	conversation?: ConversationSettings;
	/**
	 * Version 1.1: one call vocabulary from every callback template (numbers as digits,
	 * `recordingExists` always true or false). Version 1 keeps the values as each template sent them.
	 */
	oneVocabulary: boolean;
	/**
	 * Version 1.2: SMS Received and call items carry `conversationKey`, the sender's or caller's
	 * phone identity (callback/conversation.ts). Earlier versions keep their items' shape.
	 */
	conversationKeys: boolean;
}

/** SMS Received's look-ups in n8n Data Tables, through n8n's public API. */
export interface ConversationSettings {
	/** Relay replies to the runs waiting for them (Send and Wait by SMS reply): the table's name. */
	replyWaits?: string;
	/** Mark senders found in this table's column as `optedOut`. */
	optOuts?: { table: string; column: string };
}

/** This trigger, in the mode it is registering or deregistering in. */
export interface OwnTrigger {
	webhookUrl: string;
	base: string;
	webhookId: string;
	mode: UrlMode;
	secret: string;
	/** callback_url_option for the call events chosen. */
	option: number;
}

/** What a callback's fields offer an event's reading. */
export interface CallbackFields {
	/** The first non-empty value among these names (lower-case), trimmed, or null. */
	pick(names: readonly string[]): string | null;
	/** The same value exactly as sent (spaces kept; a value of spaces only when no name has more), or null. */
	pickAsSent(names: readonly string[]): string | null;
	/** The call's fields under the call vocabulary's keys (null when the callback did not carry one). */
	call(): IDataObject;
}

/** One event the trigger can start the workflow on; each lives in a file of callback/events/ named after it. */
export interface TriggerEvent {
	/** The value in the Events parameter. */
	key: string;
	/** The `event` value of the item. */
	name: string;
	option: INodePropertyOptions;
	/** Event words (letters only, lower-case) a callback may name the event by. */
	words: readonly string[];
	/** The callback_url_option bit a call event needs on the numbers; none when nothing is registered. */
	callbackOption?: 1 | 2;
	/** The event's fields; `settings` is absent only when a request is read outside a workflow. */
	read(fields: CallbackFields, settings?: TriggerSettings): IDataObject;
	/** Whether an item of this event starts the workflow under the user's options (all do when absent). */
	accepts?(item: IDataObject, settings: TriggerSettings): boolean;
}
