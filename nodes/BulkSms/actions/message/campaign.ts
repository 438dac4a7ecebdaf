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
 * The sending window: the days and hours messages may go out, on the service's wall clock (the
 * credential's Service Time Zone), also on the days its clocks change. No Israeli law sets such
 * hours; the window is practice (vendors advise 08:00-22:00 Sunday to Thursday, nothing on
 * Shabbat), which the docs say.
 */
import { DateTime } from 'luxon';
import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import { DATE_FORMATS, serviceZone } from '../../../shared/dates';
import { messageOf, withErrorDetails } from '../../../shared/errors';
import { type PhoneProblem, readPhone } from '../../../shared/phones';
import { phoneListValues } from '../../../shared/phoneLists';
import { refusalKeywordProblem } from '../../../shared/replies';
import { shown } from '../../../shared/typedText';
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
export function readCampaign(
	context: IExecuteFunctions,
	countryCode: string,
	serviceZoneSetting: unknown,
): Campaign | undefined {
	if (context.getInputData().length === 0) return undefined;
	const options = context.getNodeParameter('campaign', 0, {}) as IDataObject;
	if (Object.keys(options).length === 0) return undefined;
	const check = new InputChecks(context.getNode(), 0);
	const window = readSendingWindow(check, options.sendingWindow, options.outsideWindow);
	const id = String(options.campaignId ?? '').trim() || String(context.getExecutionId() ?? '');
	return {
		id,
		advertisement: readAdvertisement(check, options.advertisement),
		optOuts: readOptOuts(context, options.optOuts, countryCode),
		window,
		zone: window ? serviceZone(check, serviceZoneSetting) : '',
		summary: options.output === 'summary',
	};
}

/** What the sending window makes of a message due at one time: open then, or its next opening. */
type WindowVerdict =
	| undefined
	| { sendtime: string; iso: string; /** The opening is after the run. */ later: boolean };

/**
 * Why a recipient of the run is not sent, decided as each item is read, by the first reason that
 * is true: an opted-out number, a message due outside the sending window (Do Not Send), a number
 * an earlier item's message goes to (Send Once per Number: only a message that is sent counts). A
 * message due outside the window otherwise is scheduled for the next opening. Before any request,
 * so nothing taken out is ever sent or charged.
 */
export class RecipientChecks {
	/** Send Once per Number: the item whose message goes to each number. */
	private readonly sentWith = new Map<string, number>();
	private readonly now: number;
	/** The last due time asked and the window's verdict: most messages of a run share one. */
	private lastDue?: { sendtime: string | undefined; verdict: WindowVerdict };

	constructor(
		private readonly campaign: Campaign | undefined,
		now = Date.now(),
	) {
		this.now = now;
	}

	/** Marks each message of a checked item that is not sent with why (`notSent`). */
	check(item: ItemPlan, oncePerNumber: boolean): void {
		for (const entry of item.entries) {
			entry.notSent = this.campaignLeavesOut(entry);
			if (entry.notSent !== undefined || !oncePerNumber) continue;
			const first = this.sentWith.get(entry.identity);
			if (first === undefined) {
				this.sentWith.set(entry.identity, item.itemIndex);
			} else {
				entry.notSent = 'sameNumber';
				entry.sameNumberAs = first;
			}
		}
	}

	private campaignLeavesOut(entry: Entry): NotSent | undefined {
		const campaign = this.campaign;
		if (campaign?.optOuts?.has(entry.identity)) return 'optedOut';
		const window = campaign?.window;
		if (!window) return undefined;
		const verdict = this.verdict(entry.message.sendtime, window, campaign.zone);
		if (verdict === undefined) return undefined;
		if (window.outside === 'skip') {
			entry.nextOpening = verdict.iso;
			return 'outsideWindow';
		}
		entry.message.sendtime = verdict.sendtime;
		entry.scheduledFor = verdict.later ? verdict.iso : undefined;
		return undefined;
	}

	/** The window's verdict on a message due at `sendtime` (now without one), the last one remembered. */
	private verdict(
		sendtime: string | undefined,
		window: SendingWindow,
		zone: string,
	): WindowVerdict {
		const last = this.lastDue;
		if (last && last.sendtime === sendtime) return last.verdict;
		const due = sendtime
			? DateTime.fromFormat(sendtime, DATE_FORMATS.smsSendtime, { zone })
			: DateTime.fromMillis(this.now, { zone });
		const opening = nextOpening(window, due);
		const verdict: WindowVerdict =
			opening.toMillis() === due.toMillis()
				? undefined
				: {
						sendtime: opening.toFormat(DATE_FORMATS.smsSendtime),
						iso: opening.toISO({ suppressMilliseconds: true }) ?? '',
						later: opening.toMillis() > this.now,
					};
		this.lastDue = { sendtime, verdict };
		return verdict;
	}
}

// ---- the advertisement --------------------------------------------------------------------------

/** The word the law requires at the start of an advertisement. */
const ADVERTISEMENT_WORD = 'פרסומת';

/**
 * What would break a field of the advertisement out of its line, or reorder the lines as the phone
 * shows them: control characters (a new line, a tab), Unicode's line and paragraph separators, and
 * the bidi controls (marks, embeddings, overrides, isolates). With them a name or contact could
 * show a fake refusal line before the real one.
 */
const NOT_ONE_LINE = /[\p{Cc}\u2028\u2029\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

/** A character NOT_ONE_LINE finds, in the user's words. */
function lineBreakerName(char: string): string {
	const code = `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
	if (char === '\n' || char === '\r') return `a line break (${code})`;
	if (char === '\u2028' || char === '\u2029') return `a line separator (${code})`;
	if (/\p{Cc}/u.test(char)) return `a control character (${code})`;
	return `a direction control (${code})`;
}

/** A field of the advertisement as one line of text: anything else is refused, naming the field. */
function oneLine(check: InputChecks, field: string, value: string): string {
	const found = NOT_ONE_LINE.exec(value);
	if (found)
		check.fail(
			field,
			`must be one line of plain text: character ${found.index + 1} is ` +
				`${lineBreakerName(found[0])}, which would put text on another line of the SMS or ` +
				'reorder its lines; remove it (it is often pasted with the text)',
			shown(value, 80),
		);
	return value;
}

/** The Advertisement option as set, checked; undefined when it is not set. */
function readAdvertisement(check: InputChecks, raw: unknown): Advertisement | undefined {
	const details = (raw as IDataObject | undefined)?.details as IDataObject | undefined;
	if (!details) return undefined;
	const text = (field: string, value: unknown) =>
		value === undefined || value === null ? '' : oneLine(check, field, String(value).trim());
	const advertiser = text('Advertiser Name', details.advertiser);
	const contact = text('Contact Details', details.contact);
	const keyword =
		details.keyword === undefined
			? DEFAULT_OPT_OUT_KEYWORD
			: text('Opt-Out Reply Keyword', details.keyword);
	const link = text('Opt-Out Link', details.link);
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
	// A keyword the package's own reader would not take as a refusal would leave refusals unheard.
	const problem = keyword ? refusalKeywordProblem(keyword) : undefined;
	if (problem) check.fail('Opt-Out Reply Keyword', problem, keyword);
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

/**
 * Skip Opted-Out Numbers: the identities of the numbers that refused further messages, read once
 * per run (from an earlier node's items, or a list an expression gives) by the one phone reader, so
 * that `541110010` (a spreadsheet's lost 0), `054-111-0010 ext 5`, `٠٥٤١١١٠٠١٠` and
 * `+972-54-111-0010` are one number (phones.ts); undefined when the option is not set. An empty
 * cell is no row. A value that cannot be one number refuses the whole run before anything is sent,
 * naming the row and the value: a refusal that cannot be read could be anyone's.
 */
function readOptOuts(
	context: IExecuteFunctions,
	raw: unknown,
	countryCode: string,
): Set<string> | undefined {
	const source = (raw as IDataObject | undefined)?.source as IDataObject | undefined;
	if (!source) return undefined;
	const node = context.getNode();
	// Numbers From: Data Table was removed (n8n serves Data Tables only to its own nodes): a saved
	// workflow that still has it gets the error n8n's refusal gave it.
	if (source.from === 'dataTable') throw dataTableRefused(node);
	const reader = new OptOutReader(countryCode);
	if (source.from === 'nodeItems') {
		const name = String(source.nodeName ?? '').trim();
		const field = String(source.field ?? '').trim();
		const values = nodeItemValues(context, name, field);
		for (let index = 0; index < values.length; index++)
			reader.addCell(values[index], () => `item ${index} of "${name}" (field "${field}")`);
	} else {
		const entries = phoneListValues(source.numbers);
		for (let index = 0; index < entries.length; index++)
			reader.add(entries[index], () => `entry ${index + 1} of the list`);
	}
	return reader.identities(node);
}

/** An empty cell (Always Output Data's item, a row without the number): no row, no refusal. */
const isEmptyCell = (value: unknown) =>
	value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** The opted-out numbers as they are read, and the rows that cannot be. */
class OptOutReader {
	private readonly found = new Set<string>();
	private readonly refused: Array<{ where: string; problem: PhoneProblem }> = [];

	constructor(private readonly countryCode: string) {}

	/** A cell of an item: one number, or several as in a list (`0541110010; 0521234567`, an array). */
	addCell(value: unknown, where: () => string): void {
		if (typeof value === 'string' || Array.isArray(value))
			for (const entry of phoneListValues(value)) this.add(entry, where);
		else this.add(value, where);
	}

	add(value: unknown, where: () => string): void {
		if (isEmptyCell(value)) return;
		const reading = readPhone(value, this.countryCode);
		if ('problem' in reading) this.refused.push({ where: where(), problem: reading });
		else this.found.add(reading.identity);
	}

	/** The identities read; a row that cannot be read fails the run. */
	identities(node: INode): Set<string> {
		if (this.refused.length === 0) return this.found;
		const [first, ...more] = this.refused;
		const row = ({ where, problem }: (typeof this.refused)[number]) =>
			`${where}: "${problem.seen}" ${problem.problem}`;
		const listed = more.slice(0, 9).map(row).join('; ');
		const error = new NodeOperationError(
			node,
			`${OPT_OUTS_OPTION}: ${first.where} is not one phone number: "${first.problem.seen}" ${first.problem.problem}`,
			{
				itemIndex: 0,
				description:
					"Nothing was sent: a refusal that cannot be read could be anyone's. Correct the value, " +
					'or remove the row (an empty cell is skipped), and run again.' +
					(more.length > 0
						? ` ${more.length} more cannot be read: ${listed}${more.length > 9 ? '; …' : ''}.`
						: ''),
			},
		);
		throw withErrorDetails(error, { field: OPT_OUTS_OPTION, unreadRows: this.refused.map(row) });
	}
}

/** The error n8n's refusal gave Numbers From: Data Table, which saved workflows may still have. */
function dataTableRefused(node: INode): NodeOperationError {
	return new NodeOperationError(
		node,
		`n8n refused the Data Table of "${OPT_OUTS_OPTION}" to this node`,
		{
			itemIndex: 0,
			description:
				'Nothing was sent. n8n serves its Data Tables only to its own nodes, so Numbers From: Data ' +
				"Table is no longer offered. Read the table with n8n's Data table node (Get, Return All, " +
				"with Always Output Data) before Send, and set Numbers From to An Earlier Node's Items " +
				"with that node's name and the column holding the numbers.",
		},
	);
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
function nodeItemValues(context: IExecuteFunctions, name: string, key: string): unknown[] {
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

/**
 * `at` itself when the window is open then, else the first moment of the next opening. Openings
 * and closings are wall-clock times in the service's zone, also on the days its clocks change: on
 * the day summer time ends an opening at 08:00 is at 08:00 (not 07:00), and the window is open
 * whenever the clock reads a time inside it (in the hour that repeats, both times). An opening in
 * the hour the clock skips in spring (02:30 when 02:00 becomes 03:00) opens when the clock jumps
 * (03:00), the first moment it reads 02:30 or later; one the skipped hour covers whole does not
 * open that day.
 */
function nextOpening(window: SendingWindow, at: DateTime): DateTime {
	const minute = at.hour * 60 + at.minute;
	// A week holds every opening; two, in case one falls in an hour the clock skips.
	for (let dayOffset = 0; dayOffset <= 14; dayOffset++) {
		const day = dayOffset === 0 ? at : at.plus({ days: dayOffset });
		let next: DateTime | undefined;
		for (const opening of window.openings) {
			if (opening.weekday !== day.weekday) continue;
			if (dayOffset === 0 && opening.from <= minute && minute < opening.until) return at;
			const start = firstMomentAt(day, opening.from);
			if (start.toMillis() <= at.toMillis() || !start.hasSame(day, 'day')) continue;
			if (start.hour * 60 + start.minute >= opening.until) continue;
			if (next === undefined || start.toMillis() < next.toMillis()) next = start;
		}
		if (next) return next;
	}
	// readSendingWindow refuses a window without an opening, so two weeks always hold one.
	return at;
}

/**
 * The first moment of `day` at which its clock reads `minutes` after midnight, or later: in the
 * hour that repeats, the first of the two; in the hour the clock skips, the moment it jumps.
 */
function firstMomentAt(day: DateTime, minutes: number): DateTime {
	const wall = { hour: Math.floor(minutes / 60), minute: minutes % 60, second: 0, millisecond: 0 };
	const at = day.set(wall);
	const offsetBefore = at.minus({ hours: 3 }).offset;
	if (at.hour * 60 + at.minute === minutes) {
		// luxon reads a time of the repeated hour with the later offset: the clock read it earlier.
		if (offsetBefore <= at.offset) return at;
		const first = at.minus({ minutes: offsetBefore - at.offset });
		return first.hour * 60 + first.minute === minutes ? first : at;
	}
	// A skipped time, which luxon moves on by the skip: the change is within the 3 hours before.
	let before = at.minus({ hours: 3 }).toMillis();
	let after = at.toMillis();
	while (after - before > MINUTE_MS) {
		const middle = before + Math.floor((after - before) / 2 / MINUTE_MS) * MINUTE_MS;
		if (DateTime.fromMillis(middle, { zone: at.zone }).offset === at.offset) after = middle;
		else before = middle;
	}
	return DateTime.fromMillis(after, { zone: at.zone });
}

const MINUTE_MS = 60_000;
