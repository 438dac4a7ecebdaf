/**
 * Send, second: the checks of the run's recipients, the one place that decides why a recipient is
 * not sent. Send Once per Number (an item's option) and the Campaign options, which apply to the
 * whole run rather than to an item: the campaign's ID, the advertisement, the opted-out numbers,
 * the sending window, the output. Those are read once, from the first item, before anything is
 * sent; a workflow without them sends as before. Their fields are in fields.ts.
 *
 * The advertisement: the user writes only the message; what goes out starts with the word
 * "פרסומת", names the advertiser with contact details, and says how to refuse (a reply keyword, a
 * link, or both), as Israel's Communications Law section 30A (Amendment 40) requires of an
 * advertisement sent by SMS (docs/bulk-sms-node.md, Campaigns, cites the sources). Whether the
 * recipient consented is for the user to know; nothing here can decide it.
 *
 * The sending window: the days and hours messages may go out, on the service's clock (the
 * credential's Service Time Zone). No Israeli law sets such hours; the window is practice (vendors
 * advise 08:00-22:00 Sunday to Thursday, nothing on Shabbat), which the docs say.
 */
import { DateTime } from 'luxon';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import { readColumn } from '../../../shared/dataTables';
import { DATE_FORMATS, serviceZone } from '../../../shared/dates';
import { messageOf } from '../../../shared/errors';
import { digitsOf, phoneIdentity, splitPhoneList } from '../../../shared/phones';
import { DEFAULT_OPT_OUT_KEYWORD, OPT_OUTS_OPTION } from './fields';
import type { Entry, ItemPlan, NotSent } from './output';

export interface Campaign {
	id: string;
	advertisement?: Advertisement;
	/** Identities of the numbers that opted out (phones.ts). */
	optOuts?: Set<string>;
	window?: SendingWindow;
	/** The service's zone, for the sending window. */
	zone: string;
	summary: boolean;
}

interface Advertisement {
	advertiser: string;
	contact: string;
	keyword: string;
	link: string;
}

/** Opening hours of one weekday, in minutes after midnight: from inclusive, until exclusive. */
interface Opening {
	weekday: number;
	from: number;
	until: number;
}

interface SendingWindow {
	openings: Opening[];
	/** Outside the window: schedule for the next opening, or send nothing. */
	outside: 'schedule' | 'skip';
}

/** The Campaign options, read and checked once; undefined when none is set. */
export async function readCampaign(
	context: IExecuteFunctions,
	countryCode: string,
	serviceZoneSetting: unknown,
): Promise<Campaign | undefined> {
	if (context.getInputData().length === 0) return undefined;
	const options = context.getNodeParameter('campaign', 0, {}) as IDataObject;
	if (Object.keys(options).length === 0) return undefined;
	const check = new InputChecks(context.getNode(), 0);
	const window = readSendingWindow(check, options.sendingWindow, options.outsideWindow);
	const id = String(options.campaignId ?? '').trim() || String(context.getExecutionId() ?? '');
	return {
		id,
		advertisement: readAdvertisement(check, options.advertisement),
		optOuts: await readOptOuts(context, options.optOuts, countryCode),
		window,
		zone: window ? serviceZone(check, serviceZoneSetting) : '',
		summary: options.output === 'summary',
	};
}

/**
 * Why a recipient of the run is not sent, decided as each item is read: a number an earlier item
 * was sent to (Send Once per Number), an opted-out number, a message due outside the sending window
 * (Do Not Send); a message due outside it otherwise is scheduled for the next opening. Before any
 * request, so nothing taken out is ever sent or charged.
 */
export class RecipientChecks {
	/** Send Once per Number: the item each number was first sent with. */
	private readonly sentWith = new Map<string, number>();
	private readonly nowInZone?: DateTime;

	constructor(
		private readonly campaign: Campaign | undefined,
		now = Date.now(),
	) {
		if (campaign?.window) this.nowInZone = DateTime.fromMillis(now, { zone: campaign.zone });
	}

	/** Marks each message of a checked item that is not sent with why (`notSent`). */
	check(item: ItemPlan, oncePerNumber: boolean): void {
		for (const entry of item.entries) {
			if (oncePerNumber) {
				const first = this.sentWith.get(entry.identity);
				if (first !== undefined) {
					entry.notSent = 'sameNumber';
					entry.sentWithItem = first;
					continue;
				}
				this.sentWith.set(entry.identity, item.itemIndex);
			}
			entry.notSent = this.campaignLeavesOut(entry);
		}
	}

	private campaignLeavesOut(entry: Entry): NotSent | undefined {
		const campaign = this.campaign;
		if (campaign?.optOuts?.has(entry.identity)) return 'optedOut';
		if (!campaign?.window || !this.nowInZone) return undefined;
		return this.scheduleInWindow(entry, campaign.window, campaign.zone, this.nowInZone);
	}

	/** Outside the window: Do Not Send leaves the message out, else it is scheduled for the next opening. */
	private scheduleInWindow(
		entry: Entry,
		window: SendingWindow,
		zone: string,
		now: DateTime,
	): NotSent | undefined {
		const { sendtime } = entry.message;
		const due = sendtime
			? DateTime.fromFormat(String(sendtime), DATE_FORMATS.smsSendtime, { zone })
			: now;
		const opening = nextOpening(window, due);
		if (opening.toMillis() === due.toMillis()) return undefined;
		if (window.outside === 'skip') {
			entry.nextOpening = opening.toISO({ suppressMilliseconds: true }) ?? undefined;
			return 'outsideWindow';
		}
		entry.message.sendtime = opening.toFormat(DATE_FORMATS.smsSendtime);
		return undefined;
	}
}

// ---- the advertisement --------------------------------------------------------------------------

/** The word the law requires at the start of an advertisement. */
const ADVERTISEMENT_WORD = 'פרסומת';

/** The Advertisement option as set, checked; undefined when it is not set. */
function readAdvertisement(check: InputChecks, raw: unknown): Advertisement | undefined {
	const details = (raw as IDataObject | undefined)?.details as IDataObject | undefined;
	if (!details) return undefined;
	const text = (value: unknown) =>
		value === undefined || value === null ? '' : String(value).trim();
	const advertiser = text(details.advertiser);
	const contact = text(details.contact);
	const keyword = details.keyword === undefined ? DEFAULT_OPT_OUT_KEYWORD : text(details.keyword);
	const link = text(details.link);
	if (!advertiser)
		check.fail(
			'Advertiser Name',
			'is required in an advertisement: the law requires the advertiser to be named',
		);
	if (!contact)
		check.fail(
			'Contact Details',
			"are required in an advertisement: the law requires the advertiser's contact details",
		);
	if (!keyword && !link)
		check.fail(
			'Opt-Out Reply Keyword',
			'is empty, and so is Opt-Out Link: an advertisement must say how to refuse further ' +
				'messages (a reply keyword, a link, or both)',
		);
	return { advertiser, contact, keyword, link };
}

/** How to refuse, in Hebrew: "to be removed, reply הסר", "or at <link>". */
function optOutLine(ad: Advertisement): string {
	if (ad.keyword && ad.link) return `להסרה השיבו ${ad.keyword} או ${ad.link}`;
	if (ad.keyword) return `להסרה השיבו ${ad.keyword}`;
	return `להסרה: ${ad.link}`;
}

/**
 * The text that goes out: the message, or with an advertisement "פרסומת: " and the message (a
 * message already starting with the word keeps it once), then the advertiser and contact, then how
 * to refuse, each on its own line.
 */
export function campaignText(message: string, campaign: Campaign | undefined): string {
	const ad = campaign?.advertisement;
	if (!ad) return message;
	const body = message.trimStart().startsWith(ADVERTISEMENT_WORD)
		? message
		: `${ADVERTISEMENT_WORD}: ${message}`;
	return `${body}\n${ad.advertiser}, ${ad.contact}\n${optOutLine(ad)}`;
}

// ---- the opted-out numbers ----------------------------------------------------------------------

/** A resource locator's value, or the value itself. */
function tableId(value: unknown): string {
	const locator = value as { value?: unknown } | undefined;
	return String(locator && typeof locator === 'object' ? (locator.value ?? '') : (value ?? ''));
}

/**
 * Skip Opted-Out Numbers: the identities of the numbers that refused further messages, read once
 * per run (from an earlier node's items, an n8n Data Table, or a list an expression gives), matched
 * by phone identity (`0541110010`, `972541110010` and `+972-54-111-0010` are one number, phones.ts);
 * undefined when the option is not set. A value that holds no digit (a note, an empty cell) is no
 * number and matches nothing.
 */
async function readOptOuts(
	context: IExecuteFunctions,
	raw: unknown,
	countryCode: string,
): Promise<Set<string> | undefined> {
	const source = (raw as IDataObject | undefined)?.source as IDataObject | undefined;
	if (!source) return undefined;
	const values =
		source.from === 'dataTable'
			? await readColumn(context, {
					table: tableId(source.dataTable),
					column: String(source.column ?? '').trim(),
					option: OPT_OUTS_OPTION,
					itemIndex: 0,
				})
			: source.from === 'nodeItems'
				? nodeItemValues(context, String(source.nodeName ?? ''), String(source.field ?? ''))
				: splitPhoneList(source.numbers);
	const identities = new Set<string>();
	for (const value of values) {
		const digits = digitsOf(value);
		if (digits) identities.add(phoneIdentity(digits, countryCode));
	}
	return identities;
}

/** What n8n's `$(name)` gives in a node's own code (`getWorkflowDataProxy`): the node's output items. */
interface NodeItemsProxy {
	$(name: string): { all(): Array<{ json: IDataObject }> };
}

/**
 * The field of every item an earlier node output, read in the node's code: n8n 2.x evaluates an
 * expression in an isolate, and mapping 50,000 items there costs about twice the whole read
 * (docs/benchmarks.md). A field no item has (a typo) would skip no one, so it fails instead;
 * the empty item n8n's Always Output Data gives for no rows is no item.
 */
function nodeItemValues(context: IExecuteFunctions, nodeName: string, field: string): unknown[] {
	const name = nodeName.trim();
	const key = field.trim();
	const refuse = (message: string, fix: string) =>
		new NodeOperationError(context.getNode(), `${OPT_OUTS_OPTION}: ${message}`, {
			itemIndex: 0,
			description: `Nothing was sent. ${fix}`,
		});
	const nameFix =
		'Set Node Name to an earlier node of this workflow, connected before Send, as named on the canvas.';
	if (name === '' || key === '') throw refuse('Node Name and Field are required', nameFix);
	let items: Array<{ json: IDataObject }>;
	try {
		items = (context.getWorkflowDataProxy(0) as unknown as NodeItemsProxy).$(name).all();
	} catch (error) {
		throw refuse(`cannot read the items of the node "${name}": ${messageOf(error)}`, nameFix);
	}
	const values = new Array<unknown>(items.length);
	let found = false;
	for (let index = 0; index < items.length; index++) {
		const { json } = items[index];
		if (!Object.prototype.hasOwnProperty.call(json, key)) continue;
		values[index] = json[key];
		found = true;
	}
	const rows = found ? 0 : items.filter((item) => Object.keys(item.json).length > 0).length;
	if (rows > 0)
		throw refuse(
			`none of the ${rows} items of "${name}" has a field "${key}"`,
			"Set Field to the name of the field holding the numbers, as in that node's output.",
		);
	return values;
}

// ---- the sending window -------------------------------------------------------------------------

/** luxon's weekday numbers (Monday 1 … Sunday 7), by the option's values. */
const WEEKDAYS = { sun: 7, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } as const;
type Day = keyof typeof WEEKDAYS;

function minutesOf(check: InputChecks, field: string, text: unknown): number {
	const match = /^\s*(\d{1,2}):(\d{2})\s*$/.exec(String(text ?? ''));
	const minutes = match ? Number(match[1]) * 60 + Number(match[2]) : NaN;
	if (!match || Number(match[2]) > 59 || minutes > 24 * 60)
		check.fail(`Sending Window → ${field}`, 'must be a time of day such as 08:00 or 21:30', text);
	return minutes;
}

/** The Sending Window as set, checked; undefined when it is not set. A window never open fails. */
function readSendingWindow(
	check: InputChecks,
	raw: unknown,
	outside: unknown,
): SendingWindow | undefined {
	if (raw === undefined) return undefined;
	const rows = ((raw as IDataObject).hours as IDataObject[] | undefined) ?? [];
	const openings: Opening[] = [];
	for (const row of rows) {
		const from = minutesOf(check, 'From', row.from);
		const until = minutesOf(check, 'Until', row.until);
		const days = (row.days as Day[] | undefined) ?? [];
		if (from >= until)
			check.fail(
				'Sending Window',
				`opens at ${String(row.from)} and closes at ${String(row.until)}: From must come before Until`,
			);
		for (const day of days)
			if (WEEKDAYS[day]) openings.push({ weekday: WEEKDAYS[day], from, until });
	}
	if (openings.length === 0)
		check.fail(
			'Sending Window',
			'has no open hour (no opening hours, or none with a day): add opening hours with their days, or remove the option',
		);
	return { openings, outside: outside === 'skip' ? 'skip' : 'schedule' };
}

/** `at` itself when the window is open then, else the start of the next opening (within a week). */
function nextOpening(window: SendingWindow, at: DateTime): DateTime {
	for (let dayOffset = 0; dayOffset <= 7; dayOffset++) {
		const day = at.plus({ days: dayOffset }).startOf('day');
		const minute = dayOffset === 0 ? at.hour * 60 + at.minute : -1;
		const starts = window.openings
			.filter((o) => o.weekday === day.weekday && minute < o.until)
			.map((o) => Math.max(o.from, minute))
			.sort((a, b) => a - b);
		if (starts.length === 0) continue;
		if (starts[0] === minute) return at;
		return day.plus({ minutes: starts[0] });
	}
	// readSendingWindow refuses a window without an opening, so a week always holds one.
	return at;
}
