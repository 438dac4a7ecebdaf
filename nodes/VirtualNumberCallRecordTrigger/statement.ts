/**
 * The one cdr_query statement of this trigger. Rows are read by their `id` (the view's row id,
 * which the service assigns in the order it records calls): a record is written when its call
 * ends, so a long call appears after shorter calls that started later, and a cursor on the start
 * time alone would skip it. `start_call` bounds the statement in time, as the spec recommends.
 *
 * Every value is checked before it gets here; a value outside its expected form is refused, never
 * escaped into the statement (the same guard as the Query builder's).
 */
import { CALL_FIELDS, CALL_STATUSES, callField, type CallField } from '../shared/callFields';

/** `1 AS record_file_exists`: the service empties it where no recording file exists. */
const RECORDING_FLAG = callField('recordingExists').column as string;
const ROW_ID = callField('rowId').column as string;
const START = callField('startTime').column as string;

/** Every column of the view, in the vocabulary's order. */
const COLUMNS = (CALL_FIELDS as readonly CallField[])
	.map((field) => field.column)
	.filter((column): column is string => column !== undefined && column !== RECORDING_FLAG);

/** The spec's limit on `sql`. */
export const MAX_SQL_BYTES = 8192;

const DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const DIGITS = /^\d{1,15}$/;
const STATUS_VALUES = CALL_STATUSES.map((status) => String(status.value));

export interface RecordFilters {
	statuses: string[];
	virtualNumbers: string[];
	callerNumbers: string[];
}

export type RecordQuery = RecordFilters &
	(
		| { kind: 'next'; afterRowId: number; since: string; limit: number }
		| { kind: 'latest'; limit: number }
	);

/** The last row id of the account, whatever the filters: where the first activation starts. */
export const LAST_ROW_STATEMENT = `SELECT ${ROW_ID} FROM webserviceview ORDER BY ${ROW_ID} DESC LIMIT 1`;

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
		if (!Number.isSafeInteger(query.afterRowId) || query.afterRowId < 0)
			throw new Error(`Invalid row id ${query.afterRowId}`);
		where.unshift(`${ROW_ID} > ${query.afterRowId}`, `${START} >= ${literal(query.since, DATE)}`);
	}
	const order = query.kind === 'next' ? 'ASC' : 'DESC';
	return (
		`SELECT ${COLUMNS.join(', ')}, 1 AS ${RECORDING_FLAG} FROM webserviceview` +
		(where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '') +
		` ORDER BY ${ROW_ID} ${order} LIMIT ${query.limit}`
	);
}
