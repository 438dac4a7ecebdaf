/**
 * The service's clock, in one place: `start_call` is a `Y-m-d H:i:s` without an offset, written in
 * the provider's time zone (Israel time), whatever the zone of the workflow or of the n8n server.
 * Every date this trigger sends or compares (now, Start From) is written here in that zone.
 */
import { DateTime } from 'luxon';

import type { InputChecks } from '../shared/checks';
import { DATE_FORMATS, isValidTimeZone, toDateTime } from '../shared/dates';

/** The provider's zone: its help pages speak of Israel time, and integrators convert to it. */
export const SERVICE_TIME_ZONE = 'Asia/Jerusalem';

/** The Service Time Zone option, checked; the provider's zone when empty. */
export function serviceZone(checks: InputChecks, value: unknown): string {
	const zone = String(value ?? '').trim() || SERVICE_TIME_ZONE;
	if (!isValidTimeZone(zone))
		checks.fail(
			'Service Time Zone',
			'must be an IANA time zone such as Asia/Jerusalem or UTC',
			zone,
		);
	return zone;
}

/** A point in time as the service writes it. */
export function serviceTime(date: DateTime, zone: string): string {
	return date.setZone(zone).toFormat(DATE_FORMATS.virtualnum);
}

/** Now, as the service writes it. */
export function serviceNow(zone: string): string {
	return serviceTime(DateTime.now(), zone);
}

/**
 * The Start From option as the service writes it: a text without an offset is read in the
 * workflow's zone (as the date picker means it), then written in the service's.
 */
export function serviceStartFrom(
	checks: InputChecks,
	value: unknown,
	workflowZone: string,
	zone: string,
): string {
	return serviceTime(toDateTime(value, workflowZone, 'Start From', checks), zone);
}
