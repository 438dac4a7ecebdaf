/**
 * Where the trigger is in the service's call records, kept in the node's static data (n8n saves
 * it when a poll emits, and after activation): the last row passed on (`rowId`, with its
 * `startTime` and `endTime`), the earliest call start it reads (`since`), and the Start From it
 * was made for. Flat keys on the static data object itself, so n8n notices each change. (poll.ts
 * also keeps a `readingSince` mark there while a poll reads; it is never part of the cursor.)
 *
 * Row ids are kept as decimal text: the service's ids may pass 2^53, where a JavaScript number
 * would round them and the next poll would read from the wrong row.
 */
import type { IDataObject } from 'n8n-workflow';

export interface Cursor {
	/** The last row passed on, as digits; the next poll reads rows after it. '0': none yet. */
	rowId: string;
	/** `start_call` of that row, as the service wrote it ('' when none yet). */
	startTime: string;
	/** `end_call` of that row ('' when none yet, or saved by a version that did not keep it). */
	endTime: string;
	/** Calls that started before this (service time) are never read; '' for no bound. */
	since: string;
	/** The Start From option this cursor was made for ('' for "from the first activation"). */
	startFrom: string;
}

const DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
export const ROW_ID = /^(0|[1-9]\d{0,19})$/;

const text = (value: unknown) => (typeof value === 'string' ? value : '');

function rowIdText(value: unknown): string | undefined {
	if (typeof value === 'number')
		return Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
	return typeof value === 'string' && ROW_ID.test(value) ? value : undefined;
}

/**
 * The saved cursor; 'none' on the first activation (nothing saved), 'unreadable' when something
 * is saved that cannot be read (the trigger must not guess where it was).
 */
export function readCursor(data: IDataObject): Cursor | 'none' | 'unreadable' {
	const { since } = data;
	if (data.rowId === undefined && since === undefined) return 'none';
	const rowId = rowIdText(data.rowId);
	if (rowId === undefined) return 'unreadable';
	if (typeof since !== 'string' || (since !== '' && !DATE.test(since))) return 'unreadable';
	return {
		rowId,
		startTime: text(data.startTime),
		endTime: text(data.endTime),
		since,
		startFrom: text(data.startFrom),
	};
}

/** The Start From a saved cursor was made for, also when the rest of it cannot be read. */
export function savedStartFrom(data: IDataObject): string {
	return text(data.startFrom);
}

/** Row ids as numbers while they are exact (readable in the static data), as text beyond. */
export function rowIdValue(rowId: string): number | string {
	const id = Number(rowId);
	return Number.isSafeInteger(id) ? id : rowId;
}

/** A record waiting for its recording: the row as read, and when the trigger first read it (ms). */
export interface Held extends IDataObject {
	row: IDataObject;
	since: number;
}

/**
 * Records held for their recording (Include → Recording), kept beside the cursor, which is already
 * past them: n8n saves both together, so a held record is emitted once, and a restart loses none.
 */
const HELD = 'heldRecords';

export function readHeld(data: IDataObject): Held[] {
	const list = data[HELD];
	if (!Array.isArray(list)) return [];
	return (list as IDataObject[]).filter(
		(entry): entry is Held =>
			entry !== null &&
			typeof entry === 'object' &&
			typeof entry.since === 'number' &&
			entry.row !== null &&
			typeof entry.row === 'object',
	);
}

export function writeHeld(data: IDataObject, held: Held[]): void {
	if (held.length > 0) data[HELD] = held;
	else delete data[HELD];
}

export function writeCursor(data: IDataObject, cursor: Cursor): void {
	data.rowId = rowIdValue(cursor.rowId);
	data.startTime = cursor.startTime;
	data.endTime = cursor.endTime;
	data.since = cursor.since;
	data.startFrom = cursor.startFrom;
}
