/**
 * Send At → the service's `sendtime` (`DD/MM/YYYY HH:mm`, spec: SMS message fields). Accepts
 * every shape an n8n date input can take: ISO text from the date picker, a Luxon DateTime or a
 * JS Date returned by an expression, epoch numbers, and a few common text formats.
 */
import { DateTime, IANAZone } from 'luxon';

import { DATE_FORMATS, type InputChecks } from '../../../shared/checks';

/** The service's format has minute precision: a time up to a minute ago is "now", not the past. */
export const PAST_TOLERANCE_MS = 60_000;

/** Text formats tried after ISO 8601, each read in the chosen time zone. */
const TEXT_FORMATS = [DATE_FORMATS.smsSendtime, 'dd/MM/yyyy HH:mm:ss', 'dd/MM/yyyy', 'yyyy-MM-dd HH:mm'];

/**
 * Zones already checked. Luxon builds an Intl.DateTimeFormat on every isValidZone call (about
 * 0.1 ms): once per item, that was most of the time of a 10,000-item send (bench/README.md).
 */
const checkedZones = new Map<string, boolean>();

export function isValidTimeZone(zone: string): boolean {
	let valid = checkedZones.get(zone);
	if (valid === undefined) {
		valid = IANAZone.isValidZone(zone);
		// Bounded: zones from expressions could be any text.
		if (checkedZones.size < 500) checkedZones.set(zone, valid);
	}
	return valid;
}

/**
 * Reads a Send At value as an instant. A text without an offset is read in `zone`; a DateTime,
 * a Date, an epoch number or a text with an offset is an instant already.
 */
export function readDateTime(value: unknown, zone: string): DateTime | undefined {
	if (DateTime.isDateTime(value)) return value.isValid ? value : undefined;
	if (Object.prototype.toString.call(value) === '[object Date]') {
		const date = DateTime.fromJSDate(value as Date);
		return date.isValid ? date : undefined;
	}
	if (typeof value === 'number') return fromEpoch(value);
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	if (text === '') return undefined;
	if (/^\d{9,13}$/.test(text)) return fromEpoch(Number(text));
	const attempts = [
		() => DateTime.fromISO(text, { zone, setZone: true }),
		() => DateTime.fromSQL(text, { zone, setZone: true }),
		() => DateTime.fromRFC2822(text, { zone, setZone: true }),
		() => DateTime.fromHTTP(text, { zone, setZone: true }),
		...TEXT_FORMATS.map((format) => () => DateTime.fromFormat(text, format, { zone })),
	];
	for (const attempt of attempts) {
		const parsed = attempt();
		if (parsed.isValid) return parsed;
	}
	return undefined;
}

/** Epoch seconds (up to 11 digits) or milliseconds. */
function fromEpoch(value: number): DateTime | undefined {
	if (!Number.isFinite(value) || value <= 0) return undefined;
	const date = value < 1e11 ? DateTime.fromSeconds(value) : DateTime.fromMillis(value);
	return date.isValid ? date : undefined;
}

/**
 * Checks and converts one item's Send At. Fails the item when the value cannot be read, or when
 * it is in the past and past times are not allowed (a past `sendtime` would be sent at once,
 * which is rarely what a schedule meant).
 */
export function toSendtime(
	check: InputChecks,
	value: unknown,
	zone: string,
	allowPastTime: boolean,
	now = Date.now(),
): string {
	const date = readDateTime(value, zone);
	if (!date) {
		check.fail(
			'Send At',
			'must be a date and time, e.g. 2025-12-31T09:30 (ISO 8601), a DateTime or Date from an expression, or 31/12/2025 09:30',
			describeInput(value),
		);
	}
	const local = date.setZone(zone);
	if (!allowPastTime && date.toMillis() < now - PAST_TOLERANCE_MS) {
		check.fail(
			'Send At',
			`is in the past (${local.toFormat('yyyy-MM-dd HH:mm')} ${zone}); pick a future time, or turn on "Allow Past Time" to send at once`,
			describeInput(value),
		);
	}
	return local.toFormat(DATE_FORMATS.smsSendtime);
}

function describeInput(value: unknown): unknown {
	if (DateTime.isDateTime(value)) return `DateTime (${value.invalidReason ?? 'invalid'})`;
	if (Object.prototype.toString.call(value) === '[object Date]') return 'an invalid Date';
	return value;
}
