/**
 * The trigger's position in the call records, and the service's answers it never trusts blindly:
 * a row repeated on a page or between pages, a page longer than asked for, row ids that jump far
 * ahead or go backwards, a position that cannot be read. Each record is passed on once; what the
 * trigger cannot place stops the poll with what it found and how to start over, never a skip.
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { callField } from '../shared/callFields';
import { readCursor, savedStartFrom, writeCursor, writeHeld, type Cursor } from './cursor';
import { NOT_MOVED, readRows } from './read';
import { rowIdOf } from './records';
import type { Settings } from './settings';
import { LAST_ROW_STATEMENT, LATEST_START_STATEMENT, betweenStatement } from './statement';

/** Row ids further apart than this, with no row between them, are a jump the trigger will not follow. */
const JUMP_ROWS = 1_000_000;

const START = callField('startTime').column as string;
const END = callField('endTime').column as string;

const START_OVER =
	'To start over, set Start From (Options) to the time from which to emit calls, e.g. just after ' +
	'the end of the last call this workflow received: changing Start From moves the trigger there.';

interface PlacedRow {
	row: IDataObject;
	id: string;
}

/** Row ids as digits, compared without rounding: by length, then as text. */
function compareRowIds(a: string, b: string): number {
	return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
}

function positionError(this: IPollFunctions, message: string, found: string): NodeOperationError {
	return new NodeOperationError(this.getNode(), message, {
		description: `${found} ${NOT_MOVED} ${START_OVER}`,
	});
}

/**
 * Where the first activation (or a new Start From) starts: after the newest record of the account
 * by row id (no clock is compared, so a service whose clock differs still emits every new call),
 * or from Start From with every record of calls since then.
 */
async function startCursor(this: IPollFunctions, settings: Settings): Promise<Cursor> {
	const startFrom = settings.startFromSetting;
	const cursor = { rowId: '0', startTime: '', endTime: '', since: '', startFrom };
	if (settings.startFrom) return { ...cursor, since: settings.startFrom };
	const [last] = await readRows.call(this, LAST_ROW_STATEMENT, settings, false);
	if (!last) return cursor;
	const rowId = rowIdOf(last);
	if (rowId === undefined)
		throw new NodeOperationError(
			this.getNode(),
			'The service answered a row id the trigger cannot read',
			{
				description: `The newest call record's id: ${JSON.stringify(last).slice(0, 200)}.`,
			},
		);
	return { ...cursor, rowId };
}

/**
 * The position to read from; undefined when this poll placed the trigger "from now" (the records
 * that exist now are not new). A changed Start From starts over; an unreadable position fails.
 */
export async function currentCursor(
	this: IPollFunctions,
	data: IDataObject,
	settings: Settings,
): Promise<Cursor | undefined> {
	const saved = readCursor(data);
	const sameStart = savedStartFrom(data) === settings.startFromSetting;
	if (saved === 'unreadable' && sameStart) {
		const kept = JSON.stringify({ rowId: data.rowId, since: data.since }).slice(0, 200);
		throw positionError.call(
			this,
			"The trigger's saved position cannot be read",
			`The workflow's static data holds ${kept}, which is not a row id and a time.`,
		);
	}
	if (typeof saved === 'object' && sameStart) return saved;
	const cursor = await startCursor.call(this, settings);
	writeCursor(data, cursor);
	// Records held for the old position are read again from the new one.
	writeHeld(data, []);
	return settings.startFrom ? cursor : undefined;
}

/**
 * The rows after the cursor, each once (a row the page repeats, or one already passed on by an
 * overlapping page, is dropped), in row id order, at most `limit` (a service ignoring LIMIT).
 */
export function newRows(
	this: IPollFunctions,
	rows: IDataObject[],
	cursor: Cursor,
	limit: number,
): PlacedRow[] {
	const byId = new Map<string, PlacedRow>();
	for (const row of rows) {
		const id = rowIdOf(row);
		if (id === undefined)
			throw new NodeOperationError(
				this.getNode(),
				'The service answered a call record without a row id',
				{
					description:
						'The trigger keeps its position by the row id (column id) and cannot place this record: ' +
						`${JSON.stringify(row).slice(0, 200)}. The position did not move.`,
				},
			);
		if (compareRowIds(id, cursor.rowId) > 0 && !byId.has(id)) byId.set(id, { row, id });
	}
	return [...byId.values()].sort((a, b) => compareRowIds(a.id, b.id)).slice(0, limit);
}

/**
 * The rows before a jump far ahead with no row between (a service that renumbered, or an id it got
 * wrong): following it would skip every record written after it under the old numbering. The rows
 * before the jump are passed on; a poll whose first row jumps fails.
 */
export async function beforeJump(
	this: IPollFunctions,
	fresh: PlacedRow[],
	cursor: Cursor,
	settings: Settings,
): Promise<PlacedRow[]> {
	let previous = cursor.rowId;
	for (const [index, entry] of fresh.entries()) {
		const far = previous !== '0' && BigInt(entry.id) - BigInt(previous) > BigInt(JUMP_ROWS);
		if (
			far &&
			(await readRows.call(this, betweenStatement(previous, entry.id), settings)).length === 0
		) {
			if (index > 0) return fresh.slice(0, index);
			throw positionError.call(
				this,
				`The call records' row ids jump from ${previous} to ${entry.id}`,
				`The service answered row id ${entry.id} after ${previous}, more than ${JUMP_ROWS} ahead ` +
					'with no record between: following it would skip the records written after it with lower ids.',
			);
		}
		previous = entry.id;
	}
	return fresh;
}

/**
 * On a poll with nothing new: whether the service's ids went backwards (a restored or renumbered
 * database). A call that started after the trigger's last call ended was written after it, so its
 * row id must be higher; a lower one means the trigger would wait above every new record forever.
 */
export async function checkNotBehind(
	this: IPollFunctions,
	cursor: Cursor,
	settings: Settings,
): Promise<void> {
	if (cursor.rowId === '0' || cursor.endTime === '') return;
	const [latest] = await readRows.call(this, LATEST_START_STATEMENT, settings);
	const id = latest ? rowIdOf(latest) : undefined;
	const start = String(latest?.[START] ?? '');
	if (id === undefined || compareRowIds(id, cursor.rowId) >= 0 || start <= cursor.endTime) return;
	throw positionError.call(
		this,
		`The call records' row ids went backwards, below ${cursor.rowId}`,
		`The call that started last (${start}) has row id ${id}, below the trigger's position ` +
			`${cursor.rowId} (a call that ended at ${cursor.endTime}): new records would never be read.`,
	);
}

/** The cursor on the last row passed on. */
export function movedTo(cursor: Cursor, last: PlacedRow): Cursor {
	return {
		...cursor,
		rowId: last.id,
		startTime: String(last.row[START] ?? ''),
		endTime: String(last.row[END] ?? ''),
	};
}
