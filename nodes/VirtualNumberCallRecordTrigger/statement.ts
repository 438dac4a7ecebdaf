/**
 * The cdr_query statements of this trigger, sent and answered as rows, and how their answers are
 * read: each row as an item in the call vocabulary, placed by its row id after the trigger's
 * position.
 *
 * Rows are read by their `id` (the view's row id, which the service assigns in the order it
 * records calls): a record is written when its call ends, so a long call appears after shorter
 * calls that started later, and a cursor on the start time alone would skip it. `start_call`
 * bounds the statement in time, as the spec recommends. Each statement also selects the row id as
 * text (`CAST(id AS CHAR)`): a service whose ids pass 2^53 answers them as JSON numbers that
 * JavaScript rounds.
 *
 * Every value is checked before it gets here; a value outside its expected form is refused, never
 * escaped into the statement (the same guard as the Query builder's).
 *
 * The service's answers are never trusted blindly: a row repeated on a page or between pages, a
 * page longer than asked for, row ids that jump far ahead or go backwards, a saved position that
 * cannot be read. Each record is passed on once; what the trigger cannot place stops the poll with
 * what it found and how to start over, never a skip. The position itself (the cursor) is kept at
 * the end of this file.
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import {
	CALL_FIELDS,
	CALL_STATUSES,
	callField,
	callValue,
	type CallField,
	type CallFieldKey,
} from '../shared/callFields';
import { addCallTimesWithOffset } from '../shared/dates';
import { asNodeError } from '../shared/errors';
import type { RequestContext } from '../shared/transport/http';
import { virtualnumRequest } from '../shared/transport/virtualnumApi';
import { resultRows } from '../shared/virtualnums';
import type { RecordFilters, Settings } from './description';

/** `1 AS record_file_exists`: the service empties it where no recording file exists. */
const RECORDING_FLAG = callField('recordingExists').column as string;
const ID_COLUMN = callField('rowId').column as string;
const START = callField('startTime').column as string;
const END = callField('endTime').column as string;

/** The alias of the row id as text. */
const ROW_ID_TEXT = 'row_id_text';
const ID_AS_TEXT = `CAST(${ID_COLUMN} AS CHAR) AS ${ROW_ID_TEXT}`;

/** Every column of the view, in the vocabulary's order. */
const COLUMNS = (CALL_FIELDS as readonly CallField[])
	.map((field) => field.column)
	.filter((column): column is string => column !== undefined && column !== RECORDING_FLAG);

/** What every statement that reads call records selects: each column, the row id as text, the flag. */
const SELECT_RECORDS = `SELECT ${COLUMNS.join(', ')}, ${ID_AS_TEXT}, 1 AS ${RECORDING_FLAG} FROM webserviceview`;

/** The spec's limit on `sql`. */
const MAX_SQL_BYTES = 8192;

const DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const DIGITS = /^\d{1,15}$/;
const ROW_ID_DIGITS = /^\d{1,20}$/;
const STATUS_VALUES = CALL_STATUSES.map((status) => String(status.value));

type RecordQuery = RecordFilters &
	(
		| { kind: 'next'; afterRowId: string; since: string; limit: number }
		| { kind: 'latest'; limit: number }
	);

/** The last row id of the account, whatever the filters: where the first activation starts. */
const LAST_ROW_STATEMENT = `SELECT ${ID_AS_TEXT} FROM webserviceview ORDER BY ${ID_COLUMN} DESC LIMIT 1`;

/**
 * The call that started last, whatever the filters (start_call is the column the service indexes
 * for time): a row id below the trigger's for a call that started after the trigger's last call
 * ended means the ids went backwards.
 */
const LATEST_START_STATEMENT =
	`SELECT ${ID_AS_TEXT}, ${START} FROM webserviceview ` +
	`ORDER BY ${START} DESC, ${ID_COLUMN} DESC LIMIT 1`;

/** One row strictly between two row ids, whatever the filters: whether a jump of ids skips any. */
function betweenStatement(afterRowId: string, beforeRowId: string): string {
	for (const id of [afterRowId, beforeRowId])
		if (!ROW_ID_DIGITS.test(id)) throw new Error(`Invalid row id ${id}`);
	return (
		`SELECT ${ID_AS_TEXT} FROM webserviceview ` +
		`WHERE ${ID_COLUMN} > ${afterRowId} AND ${ID_COLUMN} < ${beforeRowId} LIMIT 1`
	);
}

function literal(value: string, allowed: RegExp): string {
	if (!allowed.test(value)) throw new Error(`Refused to put the value "${value}" into a statement`);
	return `'${value}'`;
}

function inList(column: string, values: string[], allowed: RegExp): string {
	const list = values.map((value) => literal(value, allowed));
	return list.length === 1 ? `${column} = ${list[0]}` : `${column} IN (${list.join(', ')})`;
}

function filterConditions(filters: RecordFilters): string[] {
	const where: string[] = [];
	for (const status of filters.statuses) {
		if (!STATUS_VALUES.includes(status)) throw new Error(`Unknown call status ${status}`);
	}
	if (filters.statuses.length > 0)
		where.push(inList('call_status', filters.statuses, /^[A-Za-z ]+$/));
	if (filters.virtualNumbers.length > 0)
		where.push(inList('cdr_ddi', filters.virtualNumbers, DIGITS));
	if (filters.callerNumbers.length > 0)
		where.push(inList('cdr_ani', filters.callerNumbers, DIGITS));
	return where;
}

/** The statement: the next rows after the cursor (oldest first), or the latest ones (newest first). */
export function recordStatement(query: RecordQuery): string {
	if (!Number.isInteger(query.limit) || query.limit < 1)
		throw new Error(`Invalid limit ${query.limit}`);
	const where = filterConditions(query);
	if (query.kind === 'next') {
		if (!ROW_ID_DIGITS.test(query.afterRowId))
			throw new Error(`Invalid row id ${query.afterRowId}`);
		// No time bound without Start From: the row id is the service's key, and a bound taken
		// from n8n's clock would hide every call from a service whose clock runs behind it.
		const since = query.since === '' ? [] : [`${START} >= ${literal(query.since, DATE)}`];
		where.unshift(`${ID_COLUMN} > ${query.afterRowId}`, ...since);
	}
	const order = query.kind === 'next' ? 'ASC' : 'DESC';
	return (
		SELECT_RECORDS +
		(where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '') +
		` ORDER BY ${ID_COLUMN} ${order} LIMIT ${query.limit}`
	);
}

/**
 * The rows of these row ids, whatever the filters (they passed them when first read): a held call
 * is read again when it is emitted, so the static data keeps its ids, not its row. As many
 * statements as keep each within the spec's limit.
 */
export function rowsStatements(rowIds: string[]): string[] {
	const head = `${SELECT_RECORDS} WHERE ${ID_COLUMN} IN (`;
	const statements: string[] = [];
	let ids: string[] = [];
	let bytes = head.length + 1;
	for (const id of rowIds) {
		if (!ROW_ID_DIGITS.test(id)) throw new Error(`Invalid row id ${id}`);
		if (ids.length > 0 && bytes + id.length + 2 > MAX_SQL_BYTES) {
			statements.push(`${head}${ids.join(', ')})`);
			ids = [];
			bytes = head.length + 1;
		}
		ids.push(id);
		bytes += id.length + 2;
	}
	if (ids.length > 0) statements.push(`${head}${ids.join(', ')})`);
	return statements;
}

// ---- sending a statement ------------------------------------------------------------------

export const NOT_MOVED =
	"Nothing was emitted and the trigger's position did not move: the next poll reads the same call records again.";

/** `active`: a failure of this read leaves the position where it was, and the error says so. */
export async function readRows(
	this: IPollFunctions,
	sql: string,
	settings: Settings,
	active = true,
): Promise<IDataObject[]> {
	const bytes = new TextEncoder().encode(sql).length;
	if (bytes > MAX_SQL_BYTES) {
		throw new NodeOperationError(this.getNode(), 'Too many numbers in the filters', {
			description:
				`The statement would be ${bytes} bytes; the service takes at most ${MAX_SQL_BYTES}. ` +
				'Filter on fewer numbers, or on none and filter in the workflow.',
		});
	}
	try {
		const answer = await virtualnumRequest.call(this as unknown as RequestContext, {
			service: 'cdr_query',
			// POST: a statement can exceed what a URL carries.
			method: 'POST',
			params: { sql },
			timeoutMs: settings.timeoutMs,
			credentials: settings.credentials,
			// The statement is built, so valid: 1013 can only mean "no results".
			noResultsAsEmpty: true,
		});
		return resultRows(answer.result);
	} catch (error) {
		if (error instanceof NodeApiError && active) {
			error.description = `${error.description ?? ''} ${NOT_MOVED}`.trim();
		}
		throw asNodeError(this.getNode(), error);
	}
}

// ---- rows as items ------------------------------------------------------------------------

/** The event of every item, beside the Virtual Number Trigger's call.started / call.ended. */
const RECORD_EVENT = 'call.record';

/** A row id as the cursor keeps it: digits without a leading zero. */
export const ROW_ID = /^(0|[1-9]\d{0,19})$/;

const VIEW_FIELDS = (CALL_FIELDS as readonly CallField[]).filter(
	(field) => field.column !== undefined,
);

function present(value: unknown): boolean {
	return value !== undefined && value !== null && value !== '';
}

/** Empty values as null, so every item has every field; the rest as the vocabulary reads them. */
function valueOf(key: CallFieldKey, value: unknown): IDataObject[string] {
	if (key !== 'recordingExists' && !present(value)) return null;
	return callValue(key, value as IDataObject[string]);
}

/** Row ids as numbers while they are exact (readable in the static data), as text beyond. */
function rowIdValue(rowId: string): number | string {
	const id = Number(rowId);
	return Number.isSafeInteger(id) ? id : rowId;
}

/**
 * The row id as digits, which the cursor needs: the statement's text copy of it, else `id` while
 * it is an exact number. Undefined when the row has none (or one rounded past 2^53).
 */
export function rowIdOf(row: IDataObject): string | undefined {
	const copy = row[ROW_ID_TEXT];
	if (copy !== undefined && copy !== null) {
		const digits = String(copy).trim();
		return ROW_ID.test(digits) && digits !== '0' ? digits : undefined;
	}
	const id = typeof row.id === 'string' ? row.id.trim() : row.id;
	if (typeof id === 'number') return Number.isSafeInteger(id) && id > 0 ? String(id) : undefined;
	return typeof id === 'string' && ROW_ID.test(id) && id !== '0' ? id : undefined;
}

/**
 * One row as an item: `event`, then every call field of the view under its name (null when empty),
 * then `startedAt` / `endedAt`: the call times with the offset of the service's `zone`.
 */
export function recordItem(row: IDataObject, zone: string): IDataObject {
	const item: IDataObject = { event: RECORD_EVENT };
	for (const field of VIEW_FIELDS)
		item[field.key] = valueOf(field.key as CallFieldKey, row[field.column as string]);
	const rowId = rowIdOf(row);
	if (rowId !== undefined) item.rowId = rowIdValue(rowId);
	item.startedAt = null;
	item.endedAt = null;
	return addCallTimesWithOffset(item, zone, true);
}

/** A row that only its ids are known of (read again and no longer there): every other field null. */
export function rowOfIds(rowId: string, callId: string): IDataObject {
	return { [ROW_ID_TEXT]: rowId, [callField('callId').column as string]: callId };
}

// ---- rows placed after the position -------------------------------------------------------

/** Row ids further apart than this, with no row between them, are a jump the trigger will not follow. */
const JUMP_ROWS = 1_000_000;

const START_OVER =
	'To start over, set Start From (Options) to the time from which to emit calls, e.g. just after ' +
	'the end of the last call this workflow received: changing Start From moves the trigger there.';

export interface PlacedRow {
	row: IDataObject;
	id: string;
}

/** Row ids as digits, compared without rounding: by length, then as text. */
export function compareRowIds(a: string, b: string): number {
	return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
}

function positionError(this: IPollFunctions, message: string, found: string): NodeOperationError {
	return new NodeOperationError(this.getNode(), message, {
		description: `${found} ${NOT_MOVED} ${START_OVER}`,
	});
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

// ---- the cursor in the static data ------------------------------------------------------

/**
 * Where the trigger is in the service's call records: the last row passed on (`rowId`, with its
 * `startTime` and `endTime`), the earliest call start it reads (`since`), and the Start From it
 * was made for. Flat keys of the node's static data (poll.ts says how n8n keeps them).
 */
interface Cursor {
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

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** Row ids are kept as numbers while exact, as digits beyond 2^53 (a number would round). */
function rowIdText(value: unknown): string | undefined {
	if (typeof value === 'number')
		return Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
	return typeof value === 'string' && ROW_ID.test(value) ? value : undefined;
}

/**
 * The saved cursor; 'none' on the first activation (nothing saved), 'unreadable' when something
 * is saved that cannot be read (the trigger must not guess where it was).
 */
function readCursor(data: IDataObject): Cursor | 'none' | 'unreadable' {
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

export function writeCursor(data: IDataObject, cursor: Cursor): void {
	data.rowId = rowIdValue(cursor.rowId);
	data.startTime = cursor.startTime;
	data.endTime = cursor.endTime;
	data.since = cursor.since;
	data.startFrom = cursor.startFrom;
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
 * The position to read from; none when this poll placed the trigger "from now" (the records that
 * exist now are not new). A changed Start From starts over; an unreadable position fails.
 */
export async function currentCursor(
	this: IPollFunctions,
	data: IDataObject,
	settings: Settings,
): Promise<{ cursor?: Cursor; startedOver: boolean }> {
	const saved = readCursor(data);
	const sameStart = text(data.startFrom) === settings.startFromSetting;
	if (saved === 'unreadable' && sameStart) {
		const kept = JSON.stringify({ rowId: data.rowId, since: data.since }).slice(0, 200);
		throw positionError.call(
			this,
			"The trigger's saved position cannot be read",
			`The workflow's static data holds ${kept}, which is not a row id and a time.`,
		);
	}
	if (typeof saved === 'object' && sameStart) return { cursor: saved, startedOver: false };
	const cursor = await startCursor.call(this, settings);
	writeCursor(data, cursor);
	return { cursor: settings.startFrom ? cursor : undefined, startedOver: true };
}
