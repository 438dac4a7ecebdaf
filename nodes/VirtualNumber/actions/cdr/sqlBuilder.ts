/**
 * The Query builder: turns the builder's choices into ONE statement that meets the five rules of
 * cdr_query. Every value is validated by the operation before it gets here (dates formatted by
 * the node, digits only for numbers, statuses from the spec's list); quoting here is a second
 * guard: a value with a quote, a backslash or any character outside the expected set is refused,
 * never escaped into the statement, so text from earlier nodes cannot change the statement.
 */
import type { INodePropertyOptions } from 'n8n-workflow';

import { CDR_SQL_RULES, findCdrSqlViolation } from '../../../shared/checks';

/** Columns of the view webserviceview, in the spec's order, in the user's words. */
export const CDR_COLUMNS: INodePropertyOptions[] = [
	{ name: 'Row ID', value: 'id', description: 'Internal row number of the view' },
	{ name: 'Call Start', value: 'start_call', description: 'Column start_call' },
	{ name: 'Call End', value: 'end_call', description: 'Column end_call' },
	{ name: 'Duration (Seconds)', value: 'call_duration', description: 'Column call_duration' },
	{ name: 'Caller Number', value: 'cdr_ani', description: 'Column cdr_ani' },
	{ name: 'Virtual Number', value: 'cdr_ddi', description: 'The number that was dialed (cdr_ddi)' },
	{ name: 'Answering Phone', value: 'user_phone', description: 'Destination that received the call (user_phone)' },
	{ name: 'Number Description', value: 'user_name', description: 'Description of the virtual number (user_name)' },
	{ name: 'Call Status', value: 'call_status', description: 'Column call_status' },
	{ name: 'Agent Rating', value: 'onetouch', description: 'Rating given by the answering agent (onetouch)' },
	{ name: 'Call ID', value: 'cdr_uniqueid', description: 'Unique call ID, used as call_uuid elsewhere (cdr_uniqueid)' },
	{ name: 'Marketing Metadata', value: 'cdr_meta_data', description: 'Pixel metadata (cdr_meta_data)' },
	{ name: 'Ad Click ID', value: 'gclid', description: 'Click ID of the advertising platform (gclid)' },
];

/** The spec's enumerated call_status values, in the user's words. */
export const CALL_STATUSES: INodePropertyOptions[] = [
	{ name: 'Answered', value: 'ANSWER' },
	{ name: 'Blacklisted', value: 'Black List' },
	{ name: 'Busy', value: 'BUSY' },
	{ name: 'Caller Cancelled', value: 'CALLER CANCEL' },
	{ name: 'No Answer', value: 'NOANSWER' },
	{ name: 'Number Not Active', value: 'NOT ACTIVE' },
	{ name: 'Outside Working Hours', value: 'OUT OF TIME' },
];

export const RECORDING_FLAG = 'record_file_exists';

export interface CdrQuery {
	columns: string[];
	/** Adds `1 AS record_file_exists`: the service empties it where no recording file exists. */
	recordingExists: boolean;
	/** `Y-m-d H:i:s`, inclusive. */
	from?: string;
	to?: string;
	statuses: string[];
	virtualnums: string[];
	callers: string[];
	order: 'ASC' | 'DESC';
	/** Omitted: no LIMIT (Return All). */
	limit?: number;
}

const COLUMN_NAMES = CDR_COLUMNS.map((column) => String(column.value));
const STATUS_VALUES = CALL_STATUSES.map((status) => String(status.value));
const DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const DIGITS = /^\d+$/;

/** A string literal of a value already known to be safe; anything else is refused, not escaped. */
function literal(value: string, allowed: RegExp): string {
	if (!allowed.test(value)) throw new Error(`Refused to put the value "${value}" into a statement`);
	return `'${value}'`;
}

function inList(column: string, values: string[], allowed: RegExp): string {
	const list = values.map((value) => literal(value, allowed));
	return list.length === 1 ? `${column} = ${list[0]}` : `${column} IN (${list.join(', ')})`;
}

export function buildCdrSql(query: CdrQuery): string {
	const columns = query.columns.length > 0 ? query.columns : COLUMN_NAMES;
	for (const column of columns) {
		if (!COLUMN_NAMES.includes(column)) throw new Error(`Unknown column ${column}`);
	}
	// Spec order, whatever order they were picked in, so rows always look the same.
	const selected = COLUMN_NAMES.filter((column) => columns.includes(column));
	if (query.recordingExists) selected.push(`1 AS ${RECORDING_FLAG}`);

	const where: string[] = [];
	if (query.from !== undefined) where.push(`start_call >= ${literal(query.from, DATE)}`);
	if (query.to !== undefined) where.push(`start_call <= ${literal(query.to, DATE)}`);
	if (query.statuses.length > 0) {
		for (const status of query.statuses) {
			if (!STATUS_VALUES.includes(status)) throw new Error(`Unknown call status ${status}`);
		}
		where.push(inList('call_status', query.statuses, /^[A-Za-z ]+$/));
	}
	if (query.virtualnums.length > 0) where.push(inList('cdr_ddi', query.virtualnums, DIGITS));
	if (query.callers.length > 0) where.push(inList('cdr_ani', query.callers, DIGITS));

	let sql = `SELECT ${selected.join(', ')} FROM ${CDR_SQL_RULES.view}`;
	if (where.length > 0) sql += ` WHERE ${where.join(' AND ')}`;
	sql += ` ORDER BY start_call ${query.order === 'ASC' ? 'ASC' : 'DESC'}`;
	if (query.limit !== undefined) {
		if (!Number.isInteger(query.limit) || query.limit < 1) throw new Error(`Invalid limit ${query.limit}`);
		sql += ` LIMIT ${query.limit}`;
	}
	const violation = findCdrSqlViolation(sql);
	if (violation) throw new Error(`The built statement breaks a rule of the service: ${violation}`);
	return sql;
}
