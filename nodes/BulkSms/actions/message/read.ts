/**
 * Send, first: the run, read before any request. The credential's settings, the Campaign options
 * (campaign.ts), then every input item read and checked into its messages (one per distinct
 * recipient of the item), whose recipients campaign.ts checks, each item handed to the output
 * (output.ts: One Item per Recipient, or summary.ts) once checked. A failure names the item, the
 * field, the rule and the value, and fails that item only.
 */
import { DateTime } from 'luxon';
import type { IDataObject, IExecuteFunctions, IGetNodeParameterOptions } from 'n8n-workflow';

import { withCampaignId } from '../../../shared/campaignId';
import { InputChecks } from '../../../shared/checks';
import {
	DATE_FORMATS,
	formatSmsSendtime,
	isValidTimeZone,
	serviceZone,
} from '../../../shared/dates';
import { asNodeError, type NodeError } from '../../../shared/errors';
import {
	estimateSegments,
	normalizeSmsSender,
	type SegmentEstimate,
	SMS_LIMITS,
	SMS_SENDER_RULES,
} from '../../../shared/limits';
import {
	DEFAULT_NUMBER_STYLE,
	type NumberStyle,
	numberStyleOf,
	PHONE_FIX,
	type PhoneReading,
	phoneToSend,
	readPhone,
} from '../../../shared/phones';
import { phoneListValues } from '../../../shared/phoneLists';
import { readCreditPath, SMS_CREDENTIAL, type SmsMessage } from '../../../shared/transport/smsApi';
import { SERVICE_TIME_ZONE_OPTION, WORKFLOW_TIME_ZONE } from '../../methods/loadOptions';
import { type Campaign, campaignText, readCampaign, RecipientChecks } from './campaign';
import {
	type Entry,
	type ItemPlan,
	newEntry,
	NO_ENTRIES,
	PerRecipient,
	type SendRun,
} from './output';
import { Summary } from './summary';
import { numberTexted } from './numberTexted';

/** A recipient of an item: the number however it was written (phones.ts), the form sent, what was read. */
interface Recipient {
	identity: string;
	dest: string;
	read?: string;
}

interface SendOptions {
	allowPastTime?: boolean;
	batchSize?: number;
	batchesInFlight?: number;
	checkCreditFirst?: boolean;
	maxMessageLength?: number;
	sendOncePerNumber?: boolean;
	creditPath?: string;
	callbackUrl?: string;
	sendAt?: unknown;
	timeZone?: string;
}

/** The options of an item, checked: shared by every item whose options hold no expression. */
interface ItemSettings {
	batchSize: number;
	inFlight: number;
	sendtime?: string;
	/** The Send At sent, when it is after the run: ISO 8601 in the service's zone. */
	scheduledFor?: string;
	callbackUrl?: string;
	creditPath?: string;
	/** Messages longer than this (in characters) are refused; 0: no limit. */
	maxLength: number;
	oncePerNumber: boolean;
}

/** What the whole run shares: the credential's Send Numbers As, and the node's version. */
interface RunContext {
	style: NumberStyle;
	/** Version 1 (saved workflows) checks no message length unless the option is set. */
	typeVersion: number;
	/** The credential's Service Time Zone as saved, checked when a Send At needs it. */
	serviceZone: unknown;
	campaign?: Campaign;
}

const CALLBACK_URL_PATTERN = /^https?:\/\/[^\s/?#]+[^\s]*$/i;

/**
 * A new run: the Campaign options, then every item. Without Continue On Fail the first failure is
 * thrown; with it, Campaign options that cannot be used fail every item, and nothing is sent.
 */
export async function readRun(this: IExecuteFunctions, continueOnFail: boolean): Promise<SendRun> {
	const context = await runContext.call(this);
	const { countryCode } = context.style;
	// The campaign's options and tables are read before any item, so a bad one sends nothing.
	let campaign: Campaign | undefined;
	let refused: NodeError | undefined;
	try {
		campaign = readCampaign(this, countryCode, context.serviceZone);
	} catch (error) {
		refused = asNodeError(this.getNode(), error, 0);
		if (!continueOnFail) throw refused;
	}
	const run: SendRun = {
		output: campaign?.summary ? new Summary(countryCode) : new PerRecipient(),
		batches: [],
		inFlight: SMS_LIMITS.batchesInFlight.max,
		countryCode,
		campaignId: campaign?.id,
		attempt: 1,
		rateLimit: { waits: 0, waitedSec: 0 },
	};
	readItems.call(this, run, { ...context, campaign }, continueOnFail, refused);
	run.batches = run.output.batches();
	return run;
}

/**
 * The credential's Send Numbers As and Service Time Zone. A credential that cannot be read here fails the run where it
 * always did (the first request), after the items are checked.
 */
async function runContext(this: IExecuteFunctions): Promise<RunContext> {
	const typeVersion = this.getNode().typeVersion;
	try {
		const credentials = await this.getCredentials(SMS_CREDENTIAL);
		const serviceZone = credentials.serviceTimeZone;
		return { style: numberStyleOf(credentials), typeVersion, serviceZone };
	} catch {
		return { style: DEFAULT_NUMBER_STYLE, typeVersion, serviceZone: undefined };
	}
}

/** Reads and checks every input item, its recipients checked, into the run's output. */
function readItems(
	this: IExecuteFunctions,
	run: SendRun,
	context: RunContext,
	continueOnFail: boolean,
	refused?: NodeError,
): void {
	const node = this.getNode();
	const count = this.getInputData().length;
	const read = itemReader(this);
	const checker = itemChecker(this, context);
	const recipientChecks = new RecipientChecks(context.campaign);
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		const item: ItemPlan = { itemIndex, failure: undefined, entries: NO_ENTRIES };
		try {
			const check = new InputChecks(node, itemIndex);
			const settings = readItem(check, read, checker, item);
			recipientChecks.check(item, settings.oncePerNumber);
			if (settings.inFlight < run.inFlight) run.inFlight = settings.inFlight;
			if (settings.creditPath !== undefined && !run.credit)
				run.credit = { itemIndex, path: settings.creditPath };
		} catch (error) {
			const failure = asNodeError(node, error, itemIndex);
			if (!continueOnFail) throw failure;
			item.failure = failure;
			item.entries = NO_ENTRIES;
		}
		if (refused) {
			item.failure ??= refused;
			item.entries = NO_ENTRIES;
		}
		run.output.add(item);
	}
}

/** Sets the item's messages; returns the item's checked options. */
function readItem(
	check: InputChecks,
	read: ItemReader,
	checker: ItemChecker,
	item: ItemPlan,
): ItemSettings {
	const { itemIndex } = check;
	const sender = checker.sender(read.sender(itemIndex, check), check);
	const recipients = checker.recipients(read.to.value(itemIndex), check, read.to.field);
	const rawText = read.message.value(itemIndex);
	check.required(read.message.field, rawText);
	const text = checker.text(String(rawText));
	const settings = checker.settings(read.options(itemIndex), check);
	checkLength(
		check,
		read.message.field,
		text,
		settings.maxLength,
		text.length !== String(rawText).length,
	);
	const estimate = checker.estimate(text);
	const entries = new Array<Entry>(recipients.length);
	const { batchSize, scheduledFor } = settings;
	for (let index = 0; index < recipients.length; index++) {
		const { identity, dest, read } = recipients[index];
		const message: SmsMessage = { service: 'send_sms', dest, sender, message: text };
		if (settings.sendtime) message.sendtime = settings.sendtime;
		if (settings.callbackUrl) message.callback_url = settings.callbackUrl;
		entries[index] = newEntry(
			itemIndex,
			message,
			estimate,
			identity,
			batchSize,
			read,
			scheduledFor,
		);
	}
	item.entries = entries;
	return settings;
}

/** The fix of a recipient that cannot be one number, in the user's words. */
const RECIPIENT_FIX = `${PHONE_FIX}; separate several numbers with commas, semicolons or new lines`;

/**
 * The recipients of an item (identity, the form Send Numbers As sends, what was read), in order,
 * each read by the one phone reader (phones.ts: `541110010`, `054-111-0010 ext 5`, other scripts'
 * digits, invisible marks): a number listed twice, in any form (`0501234567, +972-50-123-4567`),
 * is one message and one charge. A value that cannot be one number fails the item, quoted.
 */
function readRecipients(
	check: InputChecks,
	field: string,
	value: unknown,
	style: NumberStyle,
): Recipient[] {
	if (!Array.isArray(value)) check.required(field, value);
	const entries = phoneListValues(value);
	if (entries.length === 0) check.fail(field, 'needs at least one phone number', value);
	const recipients: Recipient[] = [];
	// One number, the usual item of a large send: nothing to tell apart, no set built.
	const seen = entries.length > 1 ? new Set<string>() : undefined;
	for (let index = 0; index < entries.length; index++) {
		if (entries[index] === '')
			check.fail(field, `has an empty entry at position ${index + 1} of the list`, value);
		const reading = readPhone(entries[index], style.countryCode);
		if ('problem' in reading)
			check.fail(
				field,
				`"${reading.seen}" ${reading.problem}, so it cannot be a phone number: ${RECIPIENT_FIX}`,
			);
		if (seen?.has(reading.identity)) continue;
		seen?.add(reading.identity);
		recipients.push({
			identity: reading.identity,
			dest: destOf(reading, style),
			read: reading.read,
		});
	}
	return recipients;
}

/**
 * The form a number is sent in (Send Numbers As), or its digits as written when it was read as
 * another country's number (written with +), so that what is sent is the number matched.
 */
function destOf({ digits, identity }: PhoneReading, style: NumberStyle): string {
	return identity.startsWith(style.countryCode) ? phoneToSend(digits, style) : digits;
}

/** A message over the account's limit is refused before any request (the service would split and charge it). */
function checkLength(
	check: InputChecks,
	field: string,
	text: string,
	max: number,
	advertisement = false,
): void {
	if (max <= 0 || text.length <= max) return;
	// Characters as people count them: an emoji is one (text.length counts it as two).
	const length = Array.from(text).length;
	if (length <= max) return;
	check.fail(
		field,
		`is ${length} characters long${advertisement ? " with the advertisement's added text" : ''}, ` +
			`more than the ${max} the SMS service accepts: shorten it, ` +
			'or set Options → Maximum Message Length if your account allows longer messages',
	);
}

// ---- reading the values of an item -------------------------------------------------------------

/** Where each value of an item comes from, and the name a failure gives it. */
interface ItemReader {
	sender(itemIndex: number, check: InputChecks): unknown;
	to: { field: string; value(itemIndex: number): unknown };
	message: { field: string; value(itemIndex: number): unknown };
	options(itemIndex: number): SendOptions;
}

/** A parameter's value for an item. */
type ValueOf = (itemIndex: number) => unknown;

function hasExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(hasExpression);
	if (value !== null && typeof value === 'object') return Object.values(value).some(hasExpression);
	return false;
}

/**
 * Reads a parameter for many items. A parameter with no expression in it has the same value for
 * every item, so it is read once: getNodeParameter copies and walks the value on every call, which
 * was most of the node's own time in a 10,000-item send (docs/benchmarks.md). Values are not mutated.
 */
function parameterValue(
	context: IExecuteFunctions,
	name: string,
	fallback: unknown,
	options?: IGetNodeParameterOptions,
): ValueOf {
	if (hasExpression(context.getNode().parameters[name]))
		return (itemIndex) => context.getNodeParameter(name, itemIndex, fallback, options);
	let value: unknown;
	let read = false;
	return (itemIndex) => {
		if (!read) {
			value = context.getNodeParameter(name, itemIndex, fallback, options);
			read = true;
		}
		return value;
	};
}

/**
 * The item's values: To and Message from their parameters, or (Recipients From: Input Fields) from
 * the fields of the input item that the user named, with no expression evaluated per item.
 */
function itemReader(context: IExecuteFunctions): ItemReader {
	const setting = (name: string, fallback: unknown) => parameterValue(context, name, fallback)(0);
	const items = context.getInputData();
	const fromParameter = (name: string, field: string) => ({
		field,
		value: parameterValue(context, name, ''),
	});
	// A failure names the input field, or the setting when it names none.
	const fromInput = (name: string, label: string) => {
		const field = String(setting(name, '') ?? '').trim();
		return {
			field: field ? `${field} (input field)` : label,
			value: (i: number) => inputField(items[i].json, field),
		};
	};
	const fields = setting('recipientSource', 'toField') === 'inputFields';
	const messageFromField = fields && setting('messageFrom', 'text') === 'field';
	return {
		sender:
			setting('sendFrom', 'sender') === 'numberTexted'
				? numberTexted(context)
				: parameterValue(context, 'sender', '', { extractValue: true }),
		to: fields ? fromInput('phoneField', 'Phone Number Field') : fromParameter('to', 'To'),
		message: messageFromField
			? fromInput('messageField', 'Message Field')
			: fromParameter('message', 'Message'),
		options: parameterValue(context, 'options', {}) as (itemIndex: number) => SendOptions,
	};
}

const own = (value: object, key: string) => Object.prototype.hasOwnProperty.call(value, key);

/** An input field by its name, or by a dotted path (`contact.phone`) when no field has the whole name. */
function inputField(json: IDataObject, name: string): unknown {
	if (name === '') return undefined;
	if (own(json, name)) return json[name];
	let value: unknown = json;
	for (const part of name.split('.')) {
		if (value === null || typeof value !== 'object' || !own(value, part)) return undefined;
		value = (value as IDataObject)[part];
	}
	return value;
}

// ---- checking them ----------------------------------------------------------------------------

/**
 * The checks of an item's sender, options and text. Items usually share them (no expression in
 * the parameter), so the last value checked is remembered: a value that failed is checked again
 * on every item, so that each failure names its own item.
 */
interface ItemChecker {
	sender(raw: unknown, check: InputChecks): string;
	/** The same To for every item (a fixed text) is split and checked once, not 10,000 times. */
	recipients(value: unknown, check: InputChecks, field: string): Recipient[];
	settings(options: SendOptions, check: InputChecks): ItemSettings;
	estimate(text: string): SegmentEstimate;
	/** The text that goes out: the message, or the advertisement made of it (campaign.ts). */
	text(message: string): string;
}

function itemChecker(context: IExecuteFunctions, runContext: RunContext): ItemChecker {
	return {
		sender: remembered(readSender),
		recipients: remembered((value: unknown, check: InputChecks, field: string) =>
			readRecipients(check, field, value, runContext.style),
		),
		settings: remembered((options: SendOptions, check: InputChecks) =>
			checkOptions(context, check, options, runContext),
		),
		estimate: remembered(estimateSegments),
		text: remembered((message: string) => campaignText(message, runContext.campaign)),
	};
}

/**
 * `compute` with the result of its last input remembered (inputs compared by identity). Called
 * for every item: no object or argument list is allocated per call.
 */
function remembered<I, O, A = void, B = void>(
	compute: (input: I, a: A, b: B) => O,
): (input: I, a: A, b: B) => O {
	let computed = false;
	let lastInput: I | undefined;
	let lastOutput: O | undefined;
	return (input, a, b) => {
		if (!computed || lastInput !== input) {
			// Not remembered until computed: a value that failed is checked again for the next item.
			computed = false;
			lastOutput = compute(input, a, b);
			lastInput = input;
			computed = true;
		}
		return lastOutput as O;
	};
}

function readSender(raw: unknown, check: InputChecks): string {
	const text = check.required('Sender', raw);
	const sender = normalizeSmsSender(text);
	if (!sender)
		check.fail('Sender', `is not valid: ${SMS_SENDER_RULES.text}; ${SMS_SENDER_RULES.phone}`, text);
	return sender.value;
}

function checkOptions(
	context: IExecuteFunctions,
	check: InputChecks,
	options: SendOptions,
	runContext: RunContext,
): ItemSettings {
	const { batchSize: size, batchesInFlight: flight, messageLength } = SMS_LIMITS;
	const batchSize = check.integerInRange(
		'Batch Size',
		options.batchSize ?? size.default,
		size.min,
		size.max,
	);
	const inFlight = check.integerInRange(
		'Batches in Flight',
		options.batchesInFlight ?? flight.default,
		flight.min,
		flight.max,
	);
	const maxLength =
		options.maxMessageLength === undefined
			? runContext.typeVersion >= 1.1
				? messageLength.default
				: 0
			: check.integerInRange(
					'Maximum Message Length',
					options.maxMessageLength,
					1,
					messageLength.max,
				);
	const sendAt = readSendtime(context, check, options, runContext.serviceZone);
	const settings: ItemSettings = {
		batchSize,
		inFlight,
		sendtime: sendAt?.sendtime,
		scheduledFor: sendAt?.scheduledFor,
		maxLength,
		oncePerNumber: options.sendOncePerNumber === true,
	};
	const callbackUrl = String(options.callbackUrl ?? '').trim();
	if (callbackUrl !== '') {
		const url = check.pattern(
			'Delivery Report URL',
			callbackUrl,
			CALLBACK_URL_PATTERN,
			'must be a full http:// or https:// address without spaces',
		);
		settings.callbackUrl = runContext.campaign ? withCampaignId(url, runContext.campaign.id) : url;
	}
	if (options.checkCreditFirst === true)
		settings.creditPath = readCreditPath(check, options.creditPath);
	return settings;
}

/**
 * Send At on the service's clock. A text without an offset is read in the Time Zone option's zone:
 * the Service Time Zone by default (the wall clock typed is the one the service gets), the
 * workflow's or a named one when chosen; every other form is a point in time, converted. With it,
 * when it is after the run: the time the service holds the messages until (`scheduledFor`).
 */
function readSendtime(
	context: IExecuteFunctions,
	check: InputChecks,
	options: SendOptions,
	serviceZoneSetting: unknown,
): { sendtime: string; scheduledFor?: string } | undefined {
	const zoneOption = String(options.timeZone ?? '').trim();
	const named = zoneOption === SERVICE_TIME_ZONE_OPTION ? '' : zoneOption;
	const inputZone = named === WORKFLOW_TIME_ZONE ? context.getTimezone() : named;
	if (inputZone !== '' && !isValidTimeZone(inputZone))
		check.fail('Time Zone', 'must be an IANA time zone such as Asia/Jerusalem or UTC', inputZone);
	if (!('sendAt' in options)) return undefined;
	const value = options.sendAt;
	// An added but empty Send At (often an expression whose field is missing) must not send at once.
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
		check.fail('Send At', 'is empty: enter a date and time, or remove the option to send at once');
	}
	const zone = serviceZone(check, serviceZoneSetting);
	const allowPast = options.allowPastTime === true;
	const now = Date.now();
	const sendtime = formatSmsSendtime(check, value, zone, allowPast, now, inputZone || zone);
	const at = DateTime.fromFormat(sendtime, DATE_FORMATS.smsSendtime, { zone });
	// A time past (Allow Past Time) goes out at once: it is sent, not scheduled.
	if (at.toMillis() <= now) return { sendtime };
	return { sendtime, scheduledFor: at.toISO({ suppressMilliseconds: true }) ?? undefined };
}
