/**
 * Send's Sending Window: the days and hours messages may go out, on the service's clock (the
 * credential's Service Time Zone). No Israeli law sets such hours; the window is practice (vendors
 * advise 08:00-22:00 Sunday to Thursday, nothing on Shabbat), which the docs say.
 */
import type { DateTime } from 'luxon';
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { InputChecks } from '../../../shared/checks';

/** luxon's weekday numbers (Monday 1 … Sunday 7), by the option's values. */
const WEEKDAYS = { sun: 7, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } as const;
type Day = keyof typeof WEEKDAYS;

const DAY_NAMES: Record<Day, string> = {
	sun: 'Sunday',
	mon: 'Monday',
	tue: 'Tuesday',
	wed: 'Wednesday',
	thu: 'Thursday',
	fri: 'Friday',
	sat: 'Saturday',
};

/** Opening hours of one weekday, in minutes after midnight: from inclusive, until exclusive. */
interface Opening {
	weekday: number;
	from: number;
	until: number;
}

export interface SendingWindow {
	openings: Opening[];
	/** Outside the window: schedule for the next opening, or send nothing. */
	outside: 'schedule' | 'skip';
}

export const sendingWindowOptions: INodeProperties[] = [
	{
		displayName: 'Sending Window',
		name: 'sendingWindow',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Opening Hours',
		description:
			"The days and hours messages may go out, on the service's clock (the credential's Service Time Zone)",
		hint: 'No law sets these hours in Israel; 08:00-21:00 Sunday to Thursday and Friday until 14:00 is common practice',
		options: [
			{
				displayName: 'Opening Hours',
				name: 'hours',
				values: [
					{
						displayName: 'Days',
						name: 'days',
						type: 'multiOptions',
						default: ['sun', 'mon', 'tue', 'wed', 'thu'],
						options: Object.entries(DAY_NAMES).map(([value, name]) => ({ name, value })),
					},
					{
						displayName: 'From',
						name: 'from',
						type: 'string',
						default: '08:00',
						placeholder: 'e.g. 08:00',
						description: 'Opening time, HH:mm (24-hour clock)',
					},
					{
						displayName: 'Until',
						name: 'until',
						type: 'string',
						default: '21:00',
						placeholder: 'e.g. 21:00',
						description:
							'Closing time, HH:mm; no message goes out at or after it (24:00: midnight)',
					},
				],
			},
		],
	},
	{
		displayName: 'Outside the Sending Window',
		name: 'outsideWindow',
		type: 'options',
		default: 'schedule',
		options: [
			{
				name: 'Schedule for the Next Opening',
				value: 'schedule',
				description: 'The messages are sent with Send At set to the next opening',
			},
			{
				name: 'Do Not Send',
				value: 'skip',
				description: 'Each recipient gets an item "Not sent: outside the sending window"',
			},
		],
	},
];

function minutesOf(check: InputChecks, field: string, text: unknown): number {
	const match = /^\s*(\d{1,2}):(\d{2})\s*$/.exec(String(text ?? ''));
	const minutes = match ? Number(match[1]) * 60 + Number(match[2]) : NaN;
	if (!match || Number(match[2]) > 59 || minutes > 24 * 60)
		check.fail(`Sending Window → ${field}`, 'must be a time of day such as 08:00 or 21:30', text);
	return minutes;
}

/** The Sending Window as set, checked; undefined when it is not set. A window never open fails. */
export function readSendingWindow(
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
export function nextOpening(window: SendingWindow, at: DateTime): DateTime {
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
