/**
 * Where the trigger is in the service's call records, kept in the node's static data (n8n saves
 * it when a poll emits, and after activation): the last row passed on (`rowId`, with its
 * `startTime`), the earliest call start it reads (`since`), and the Start From it was made for.
 * Flat keys on the static data object itself, so n8n notices each change. (poll.ts also keeps a
 * `readingSince` mark there while a poll reads; it is never part of the cursor.)
 */
import type { IDataObject } from 'n8n-workflow';

export interface Cursor {
	/** The last row passed on; the next poll reads rows after it. 0: none yet. */
	rowId: number;
	/** `start_call` of that row, as the service wrote it ('' when none yet). */
	startTime: string;
	/** Calls that started before this (service time) are never read. */
	since: string;
	/** The Start From option this cursor was made for ('' for "from the first activation"). */
	startFrom: string;
}

const DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** The saved cursor, or undefined when there is none (first activation) or it cannot be read. */
export function readCursor(data: IDataObject): Cursor | undefined {
	const { rowId, startTime, since, startFrom } = data;
	if (typeof rowId !== 'number' || !Number.isSafeInteger(rowId) || rowId < 0) return undefined;
	if (typeof since !== 'string' || !DATE.test(since)) return undefined;
	return {
		rowId,
		startTime: typeof startTime === 'string' ? startTime : '',
		since,
		startFrom: typeof startFrom === 'string' ? startFrom : '',
	};
}

export function writeCursor(data: IDataObject, cursor: Cursor): void {
	data.rowId = cursor.rowId;
	data.startTime = cursor.startTime;
	data.since = cursor.since;
	data.startFrom = cursor.startFrom;
}
