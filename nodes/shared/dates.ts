/**
 * Dates from any n8n date input (the date picker, an expression giving a luxon DateTime or a JS
 * Date, an ISO or SQL string, a Unix timestamp) read in one time zone and written in the
 * services' formats. Shared by every operation that sends a date.
 */
import { DateTime } from 'luxon';

import { DATE_FORMATS, type InputChecks } from './checks';

/** Text layouts accepted besides ISO 8601, SQL, RFC 2822 and HTTP dates. */
const TEXT_LAYOUTS = ['yyyy-MM-dd HH:mm:ss', 'yyyy-MM-dd HH:mm', 'yyyy-MM-dd H:mm:ss', 'yyyy-MM-dd H:mm'];

/** Unix timestamps: 10 digits are seconds, 13 digits milliseconds (any number above 1e11 is read as milliseconds). */
function fromEpoch(value: number, zone: string): DateTime {
	return DateTime.fromMillis(Math.abs(value) >= 1e11 ? value : value * 1000, { zone });
}

function fromText(text: string, zone: string): DateTime | undefined {
	if (/^\d{9,13}$/.test(text)) return fromEpoch(Number(text), zone);
	const parsers = [
		() => DateTime.fromISO(text, { zone }),
		() => DateTime.fromSQL(text, { zone }),
		...TEXT_LAYOUTS.map((layout) => () => DateTime.fromFormat(text, layout, { zone })),
		() => DateTime.fromRFC2822(text, { zone }),
		() => DateTime.fromHTTP(text, { zone }),
	];
	for (const parse of parsers) {
		const date = parse();
		if (date.isValid) return date;
	}
	return undefined;
}

/**
 * Reads `value` as a point in time in `timezone` (the workflow's time zone: text without an
 * offset is read in it, text with an offset is converted to it). Fails through `checks`, naming
 * the field and the value, when the value is empty or not a date.
 */
export function toDateTime(value: unknown, timezone: string, field: string, checks: InputChecks): DateTime {
	const zone = timezone || 'UTC';
	let date: DateTime | undefined;
	if (DateTime.isDateTime(value)) {
		// A DateTime from n8n's own luxon copy: rebuilt so only this module's luxon is used.
		date = DateTime.fromMillis((value as DateTime).toMillis(), { zone });
	} else if (value instanceof Date) {
		date = DateTime.fromJSDate(value, { zone });
	} else if (typeof value === 'number' && Number.isFinite(value)) {
		date = fromEpoch(value, zone);
	} else if (typeof value === 'string' && value.trim() !== '') {
		date = fromText(value.trim(), zone);
	}
	if (date === undefined || !date.isValid) {
		if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
			checks.fail(field, 'is required and cannot be empty');
		}
		checks.fail(field, 'must be a date, e.g. 2024-05-01 13:30:00, an ISO date or a Unix timestamp', value);
	}
	return date.setZone(zone);
}

/** The virtual number service's `Y-m-d H:i:s`, in `timezone`. */
export function formatVirtualnumDate(value: unknown, timezone: string, field: string, checks: InputChecks): string {
	return toDateTime(value, timezone, field, checks).toFormat(DATE_FORMATS.virtualnum);
}
