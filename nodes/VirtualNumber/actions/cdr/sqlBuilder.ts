/**
 * The Query builder: turns the builder's choices into ONE statement that meets the five rules of
 * cdr_query. Every value is validated by the operation before it gets here (dates formatted by
 * the node, digits only for numbers, statuses from the spec's list); quoting here is a second
 * guard: a value with a quote, a backslash or any character outside the expected set is refused,
 * never escaped into the statement, so text from earlier nodes cannot change the statement.
 */
import type { INodePropertyOptions } from 'n8n-workflow';

import { CALL_FIELDS, CALL_STATUSES, callField, type CallField } from '../../../shared/callFields';
import { findCdrSqlViolation } from './sqlCheck';
import { CDR_SQL_RULES, describeCdrSqlViolation } from './sqlRules';

/** `1 AS record_file_exists`: the service empties it where no recording file exists. */
export const RECORDING_FLAG = callField('recordingExists').column as string;

/** The view's columns, in the vocabulary's order (the order of the built SELECT). */
const VIEW_FIELDS = (CALL_FIELDS as readonly CallField[]).filter(
	(field) => field.column !== undefined && field.column !== RECORDING_FLAG,
);

/** The builder's column choices, in the user's words, by display name. */
export const CDR_COLUMNS: INodePropertyOptions[] = VIEW_FIELDS.map((field) => ({
	name: field.displayName,
	value: field.column as string,
	description: `Column ${field.column} (output as ${field.key} when simplified)`,
})).sort((a, b) => a.name.localeCompare(b.name));

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

const COLUMN_NAMES = VIEW_FIELDS.map((field) => field.column as string);
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
	// The vocabulary's order, whatever order they were picked in, so rows always look the same.
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
		if (!Number.isInteger(query.limit) || query.limit < 1)
			throw new Error(`Invalid limit ${query.limit}`);
		sql += ` LIMIT ${query.limit}`;
	}
	const violation = findCdrSqlViolation(sql);
	if (violation) throw new Error(`The built statement ${describeCdrSqlViolation(violation)}`);
	return sql;
}
