/**
 * The shapes the trigger's modules share: its settings as read, a number's callback, this trigger
 * in the mode it registers in, and what an event's file offers. Types only, so every module (the
 * events above all) can name them without importing another module's code.
 */
import type { IDataObject, INodePropertyOptions } from 'n8n-workflow';

export type UrlMode = 'live' | 'test';

/** A number's callback as the service holds it. */
export interface Callback {
	url: string;
	option: number;
}

/** One allowed address or range, as 16 bytes (IPv4 as IPv4-mapped IPv6) and a prefix length. */
export interface IpRange {
	text: string;
	bytes: number[];
	prefix: number;
}

export interface RouteSettings {
	/** The field of the last node's first item that holds the destination (dots go deeper). */
	field: string;
	deadlineMs: number;
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
	secret: string;
	allowList: IpRange[];
	maxBodyBytes: number;
	/** Start the workflow once per call ID for Call Started (the service may repeat the start callback). */
	onceCallStarted: boolean;
	/** SMS Received: only messages whose first word is one of these start the workflow (all when empty). */
	keywords: string[];
	/** SMS Received: first words that mark the item `optOut: true`. */
	optOutKeywords: string[];
	/** Call Started → Respond With: A Destination From the Workflow; undefined for Nothing. */
	route?: RouteSettings;
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
	/** The first non-empty value among these names (lower-case), or null. */
	pick(names: readonly string[]): string | null;
	/** The call's fields under the call vocabulary's keys (null when the callback did not carry one). */
	call(): IDataObject;
}

/** One event the trigger can start the workflow on; each lives in a file of events/ named after it. */
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
