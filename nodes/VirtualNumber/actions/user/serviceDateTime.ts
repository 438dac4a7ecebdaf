/**
 * Date input for get_users_access_log, formatted as the service wants it ("Y-m-d H:i:s").
 * Kept in the user resource until the node has one shared date module (nodes/shared/dates.ts).
 */
import { DateTime } from 'luxon';

import { DATE_FORMATS, type InputChecks } from '../../../shared/checks';

const TEXT_FORMATS = ['yyyy-MM-dd HH:mm:ss', 'yyyy-MM-dd HH:mm', 'yyyy-MM-dd', 'dd/MM/yyyy HH:mm:ss', 'dd/MM/yyyy HH:mm', 'dd/MM/yyyy'];

/**
 * Any date input — ISO text with or without an offset, "Y-m-d H:i:s", a luxon DateTime (what
 * `$now` gives), a JS Date, epoch milliseconds — as "Y-m-d H:i:s" in the workflow's time zone.
 * Texts without an offset are read in that zone. Undefined for an empty value.
 */
export function toServiceDateTime(
	check: InputChecks,
	field: string,
	value: unknown,
	timezone: string,
): string | undefined {
	const parsed = parseDateInput(value, timezone);
	if (parsed === null) return undefined;
	if (!parsed?.isValid) {
		check.fail(field, 'must be a date, e.g. 2024-03-01 08:00:00 or 2024-03-01T08:00:00Z', value);
	}
	return parsed.setZone(timezone).toFormat(DATE_FORMATS.virtualnum);
}

function parseDateInput(value: unknown, zone: string): DateTime | null | undefined {
	if (value === undefined || value === null) return null;
	if (DateTime.isDateTime(value)) return value;
	if (value instanceof Date) return DateTime.fromJSDate(value, { zone });
	if (typeof value === 'number') return Number.isFinite(value) ? DateTime.fromMillis(value, { zone }) : undefined;
	const text = String(value).trim();
	if (text === '') return null;
	const iso = DateTime.fromISO(text, { zone });
	if (iso.isValid) return iso;
	for (const format of TEXT_FORMATS) {
		const found = DateTime.fromFormat(text, format, { zone });
		if (found.isValid) return found;
	}
	const others = [DateTime.fromSQL(text, { zone }), DateTime.fromRFC2822(text, { zone }), DateTime.fromHTTP(text, { zone })];
	return others.find((candidate) => candidate.isValid);
}
