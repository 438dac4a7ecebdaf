/**
 * The one date module: every date input of both nodes and the triggers (Send At, Start/End Time,
 * Calls From/Until, Call Start, Start From) is read here, by one list of accepted forms
 * (`readDate`, the list of docs/inputs.md) and one rule for numbers, and written in the
 * services' formats, in the service's clock: the Service Time Zone of the credential.
 *
 * Both services write and read dates without an offset, on the provider's clock (Israel time),
 * whatever the zone of the workflow or of the n8n server. So a text without an offset is read in
 * the service's zone (the same wall clock goes to the service), and a text with an offset, a
 * DateTime, a Date and a Unix time, which are points in time already, are converted into it.
 *
 * n8n-workflow's `tryToParseDateTime` reads DateTime and Date values (from expressions such as
 * `$now` or `new Date()`). Texts are read here with luxon: `tryToParseDateTime` hands a text its
 * luxon parsers refuse to JavaScript's `Date.parse`, which reads it in the n8n server's time zone
 * (`2024-05-01 9:05:00` comes out hours off for a workflow in another zone, `12/31/2025` is read
 * month first, `1` is 1 January 2001), and n8n-workflow 1.83 reads every text in the server's zone.
 */
import { DateTime, IANAZone } from 'luxon';
import type { IDataObject } from 'n8n-workflow';
import { tryToParseDateTime } from 'n8n-workflow';

import type { InputChecks } from './checks';

/** The provider's zone: its help pages speak of Israel time, and integrators convert to it. */
export const SERVICE_TIME_ZONE = 'Asia/Jerusalem';

/** The credentials' field (and the Call Record Trigger's override option) naming the service's zone. */
export const SERVICE_TIME_ZONE_FIELD = 'Service Time Zone';

/** Formats the services use for dates. */
export const DATE_FORMATS = {
	/** cdr_subunique_query, get_users_access_log, create_virtualnum_cdr, cdr_query ("Y-m-d H:i:s"). */
	virtualnum: 'yyyy-MM-dd HH:mm:ss',
	/** send_sms sendtime ("DD/MM/YYYY HH:mm"). */
	smsSendtime: 'dd/MM/yyyy HH:mm',
} as const;

/** Text layouts beside ISO 8601, SQL, RFC 2822 and HTTP, each read in the input's zone. */
const TEXT_LAYOUTS = [
	'yyyy-MM-dd H:mm:ss',
	'yyyy-MM-dd H:mm',
	'dd/MM/yyyy HH:mm:ss',
	'dd/MM/yyyy HH:mm',
	'dd/MM/yyyy H:mm',
	'dd/MM/yyyy',
];

/** Unix time: seconds below 1e11 (the year 5138), milliseconds from there on. Zero and negative values are refused. */
function fromUnixTime(value: number, zone: string): DateTime | undefined {
	if (!Number.isFinite(value) || value <= 0) return undefined;
	return DateTime.fromMillis(value < 1e11 ? value * 1000 : value, { zone });
}

function fromText(text: string, zone: string): DateTime | undefined {
	if (/^\d{9,13}$/.test(text)) return fromUnixTime(Number(text), zone);
	const parsers = [
		() => DateTime.fromISO(text, { zone, setZone: true }),
		() => DateTime.fromSQL(text, { zone, setZone: true }),
		...TEXT_LAYOUTS.map((layout) => () => DateTime.fromFormat(text, layout, { zone })),
		() => DateTime.fromRFC2822(text, { zone, setZone: true }),
		() => DateTime.fromHTTP(text, { zone, setZone: true }),
	];
	for (const parse of parsers) {
		const date = parse();
		if (date.isValid) return date;
	}
	return undefined;
}

/** A DateTime (any luxon copy) or a Date, through n8n's own reader; rebuilt on this module's luxon. */
function fromObject(value: object, zone: string): DateTime | undefined {
	try {
		const parsed = tryToParseDateTime(value);
		return parsed.isValid ? DateTime.fromMillis(parsed.toMillis(), { zone }) : undefined;
	} catch {
		return undefined;
	}
}

/** Whether the value counts as "not given": undefined, null, or empty text. */
export function isEmptyDate(value: unknown): boolean {
	return (
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
	);
}

/**
 * Reads `value` as a point in time, in `zone`; undefined when it is none of the accepted forms (the
 * list of docs/inputs.md, in the order they are tried).
 */
function readDate(value: unknown, zone: string): DateTime | undefined {
	let date: DateTime | undefined;
	if (typeof value === 'number') date = fromUnixTime(value, zone);
	else if (typeof value === 'string')
		date = value.trim() === '' ? undefined : fromText(value.trim(), zone);
	else if (DateTime.isDateTime(value) || Object.prototype.toString.call(value) === '[object Date]')
		date = fromObject(value as object, zone);
	return date?.isValid ? date.setZone(zone) : undefined;
}

const EXAMPLE =
	'e.g. 2025-12-31 09:30:00, 2025-12-31T09:30:00+02:00, 31/12/2025 09:30, a Unix time or {{ $now }}';

const WALL_CLOCK = 'yyyy-MM-dd HH:mm:ss';

/**
 * A text without an offset naming a wall-clock time the zone skips (the hour the clocks move
 * forward): luxon would move it an hour on, silently. Read in UTC, which skips nothing, such a
 * text shows another wall clock; a text with an offset keeps its own either way.
 */
function skipsTime(value: unknown, zone: string): boolean {
	if (typeof value !== 'string' || /^\d{9,13}$/.test(value.trim()) || zone === 'UTC') return false;
	const inZone = fromText(value.trim(), zone);
	const inUtc = fromText(value.trim(), 'UTC');
	return (
		inZone !== undefined &&
		inUtc !== undefined &&
		inZone.toFormat(WALL_CLOCK) !== inUtc.toFormat(WALL_CLOCK)
	);
}

/** A required date of `field`, read in `timezone`; fails naming the field and the value. */
export function toDateTime(
	value: unknown,
	timezone: string,
	field: string,
	checks: InputChecks,
): DateTime {
	const zone = timezone || 'UTC';
	if (isEmptyDate(value)) checks.fail(field, 'is required and cannot be empty');
	const date = readDate(value, zone);
	if (!date) checks.fail(field, `must be a date (${EXAMPLE})`, describeInput(value));
	if (skipsTime(value, zone))
		checks.fail(
			field,
			`does not exist in ${zone}: the clocks move forward an hour then. ` +
				`Give a time before or after the change, or a time with an offset`,
			value,
		);
	return date;
}

/** An optional date: undefined when empty, else as `toDateTime`. */
export function toOptionalDateTime(
	value: unknown,
	timezone: string,
	field: string,
	checks: InputChecks,
): DateTime | undefined {
	return isEmptyDate(value) ? undefined : toDateTime(value, timezone, field, checks);
}

/** The virtual number service's `Y-m-d H:i:s`, in `timezone`. */
export function formatVirtualnumDate(
	value: unknown,
	timezone: string,
	field: string,
	checks: InputChecks,
): string {
	return toDateTime(value, timezone, field, checks).toFormat(DATE_FORMATS.virtualnum);
}

/** Fails when `end` is before `start` (both given), naming the end field. */
export function checkDateOrder(
	checks: InputChecks,
	range: { start?: DateTime; end?: DateTime; startField: string; endField: string },
): void {
	const { start, end } = range;
	if (start && end && end < start) {
		checks.fail(
			range.endField,
			`must not be before ${range.startField} (${start.toFormat(DATE_FORMATS.virtualnum)})`,
			end.toFormat(DATE_FORMATS.virtualnum),
		);
	}
}

/** The service's format has minute precision: a Send At up to a minute ago is "now", not the past. */
const PAST_TOLERANCE_MS = 60_000;

/** A point in time as people read it: the wall clock and its offset (2025-12-31 09:30 +02:00). */
function withOffsetText(date: DateTime): string {
	return date.toFormat('yyyy-MM-dd HH:mm ZZ');
}

/**
 * Send At → send_sms `sendtime` ("DD/MM/YYYY HH:mm" in the service's `zone`). A text without an
 * offset is read in `inputZone` (the service's unless the node names another). A time in the
 * past fails unless allowed: the service would send at once, which is rarely what a schedule meant.
 */
export function formatSmsSendtime(
	checks: InputChecks,
	value: unknown,
	zone: string,
	allowPastTime: boolean,
	now = Date.now(),
	inputZone = zone,
): string {
	const date = toDateTime(value, inputZone, 'Send At', checks).setZone(zone);
	if (!allowPastTime && date.toMillis() < now - PAST_TOLERANCE_MS) {
		const current = DateTime.fromMillis(now, { zone });
		checks.fail(
			'Send At',
			`is in the past (${withOffsetText(date)}, ${zone}; now it is ${withOffsetText(current)}): ` +
				`the service would send at once. Pick a future time, or turn on "Allow Past Time" to send at once`,
			describeInput(value),
		);
	}
	return date.toFormat(DATE_FORMATS.smsSendtime);
}

/** Whatever reads a credential: the nodes' and the triggers' contexts. */
interface CredentialReader {
	getCredentials(type: string, itemIndex?: number): Promise<IDataObject>;
}

/**
 * The Service Time Zone: the first of `values` given (a node's override, then the credential's
 * field), else the provider's; fails naming the field when it is no IANA zone.
 */
export function serviceZone(checks: InputChecks, ...values: unknown[]): string {
	const given = values.map((value) => (typeof value === 'string' ? value.trim() : ''));
	const zone = given.find((value) => value !== '') ?? SERVICE_TIME_ZONE;
	if (!isValidTimeZone(zone))
		checks.fail(
			SERVICE_TIME_ZONE_FIELD,
			'must be an IANA time zone such as Asia/Jerusalem or UTC (check the credential, or the ' +
				"node's option when it has one)",
			zone,
		);
	return zone;
}

/**
 * The Service Time Zone of `credential` (a credential saved before the field existed has none:
 * the provider's zone), unless `override` names one.
 */
export async function credentialServiceZone(
	context: CredentialReader,
	credential: string,
	checks: InputChecks,
	override?: unknown,
): Promise<string> {
	const credentials = await context.getCredentials(credential, checks.itemIndex);
	return serviceZone(checks, override, credentials.serviceTimeZone);
}

/**
 * The Service Time Zone field of `credential` as saved, unchecked (checked where a date needs it:
 * a run without dates must not fail on it); undefined when the credential cannot be read, which
 * the request that follows reports.
 */
export async function savedServiceZone(
	context: CredentialReader,
	credential: string,
): Promise<unknown> {
	try {
		return (await context.getCredentials(credential)).serviceTimeZone;
	} catch {
		return undefined;
	}
}

/** The saved Service Time Zone for outputs: the provider's when empty, undefined when it is no zone. */
export function usableZone(saved: unknown): string | undefined {
	const zone = typeof saved === 'string' && saved.trim() !== '' ? saved.trim() : SERVICE_TIME_ZONE;
	return isValidTimeZone(zone) ? zone : undefined;
}

/** A point in time as the virtual number service writes it, in its `zone`. */
export function serviceTime(date: DateTime, zone: string): string {
	return date.setZone(zone).toFormat(DATE_FORMATS.virtualnum);
}

/**
 * A time the virtual number service wrote (`Y-m-d H:i:s`, on its clock in `zone`) in ISO 8601
 * with its offset (2025-12-31T09:30:00+02:00); undefined when it is not such a time.
 */
function serviceTimeWithOffset(value: unknown, zone: string): string | undefined {
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	const date = DateTime.fromSQL(value.trim(), { zone });
	return date.isValid ? (date.toISO({ suppressMilliseconds: true }) ?? undefined) : undefined;
}

/** The call-time fields of an output, each with the field that follows it with the offset. */
const CALL_TIMES: Record<string, string> = { startTime: 'startedAt', endTime: 'endedAt' };

/**
 * `item` with `startedAt` / `endedAt` right after a call's `startTime` / `endTime` (kept as the
 * service wrote them): the same moment in ISO 8601 with the offset of the service's `zone`, which
 * a Date, `DateTime.fromISO` or a spreadsheet reads right in any zone. A field the item already
 * has (an SQL alias) is left alone, unless null and `replaceNull` (the trigger's items hold every
 * field, null when empty). No zone (the credential's cannot be used): the item as it is.
 */
export function addCallTimesWithOffset(
	item: IDataObject,
	zone: string | undefined,
	replaceNull = false,
): IDataObject {
	if (zone === undefined) return item;
	const out: IDataObject = {};
	const added = new Set<string>();
	for (const [key, value] of Object.entries(item)) {
		if (added.has(key)) continue;
		out[key] = value;
		const withOffset = CALL_TIMES[key];
		if (withOffset === undefined) continue;
		const kept = item[withOffset];
		if (withOffset in item && !(replaceNull && kept === null)) continue;
		out[withOffset] = serviceTimeWithOffset(value, zone) ?? (kept === null ? null : undefined);
		if (out[withOffset] === undefined) delete out[withOffset];
		else added.add(withOffset);
	}
	return out;
}

/**
 * Zones already checked. Luxon builds an Intl.DateTimeFormat on every isValidZone call (about
 * 0.1 ms): once per item, that was most of the time of a 10,000-item send (bench/README.md).
 */
const checkedZones = new Map<string, boolean>();

/** Whether `zone` is an IANA time zone such as Asia/Jerusalem or UTC. */
export function isValidTimeZone(zone: string): boolean {
	let valid = checkedZones.get(zone);
	if (valid === undefined) {
		valid = IANAZone.isValidZone(zone);
		// Bounded: zones from expressions could be any text.
		if (checkedZones.size < 500) checkedZones.set(zone, valid);
	}
	return valid;
}

function describeInput(value: unknown): unknown {
	if (DateTime.isDateTime(value)) return `DateTime (${value.invalidReason ?? 'invalid'})`;
	if (Object.prototype.toString.call(value) === '[object Date]') return 'an invalid Date';
	return value;
}
