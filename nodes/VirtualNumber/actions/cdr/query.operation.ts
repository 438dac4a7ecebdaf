import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { CALL_STATUSES, simplifyCallRows } from '../../../shared/callFields';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { withoutEmptyFields } from '../../../shared/asTool';
import { InputChecks } from '../../../shared/checks';
import { PHONES_FOR_MODEL, checkPhoneList, phoneForms } from '../../../shared/phones';
import {
	addCallTimesWithOffset,
	savedServiceZone,
	serviceZone,
	usableZone,
	formatVirtualnumDate,
	toDateTime,
} from '../../../shared/dates';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { VIRTUALNUM_CREDENTIAL, virtualnumRequest } from '../../../shared/transport/virtualnumApi';
import { resultRows } from '../../../shared/virtualnums';
import { readLimit } from '../../helpers/utils';
import { returnAllFields } from '../fields';
import { simplifyField, simplifyOn } from './callOutput';
import { timeoutMs, timeoutOptions } from './fields';
import { CDR_COLUMNS, RECORDING_FLAG, buildCdrSql, type CdrQuery } from './sqlBuilder';
import {
	CDR_SQL_RULES,
	cdrSqlToSend,
	describeCdrSqlViolation,
	findCdrSqlViolation,
} from './sqlRules';

const builder = { queryMode: ['builder'] };
const sqlMode = { queryMode: ['sql'] };
/** Versions whose number filters match the form typed only (1.3 on: every form of the number). */
const TYPED_FORM_VERSIONS = [1, 1.1, 1.2];

/**
 * A filter on numbers, in the builder: from version 1.3 each number matches every form the service
 * may store it in (phoneForms), as the Call Record Trigger's filters do; before, the form typed.
 */
function numberFilter(field: {
	displayName: string;
	name: string;
	placeholder: string;
	what: string;
	before: string;
}): INodeProperties[] {
	const { displayName, name, placeholder, what, before } = field;
	const base = { displayName, name, type: 'string' as const, default: '', placeholder };
	return [
		{
			...base,
			description:
				`Only calls ${what}, comma-separated, each in any form: 0541110010, +972-54-111-0010 ` +
				'and 972541110010 find the same calls',
			displayOptions: { show: builder, hide: { '@version': TYPED_FORM_VERSIONS } },
		},
		{
			...base,
			description: `Only calls ${what} (comma-separated, ${before})`,
			displayOptions: { show: { ...builder, '@version': TYPED_FORM_VERSIONS } },
		},
	];
}

/** The numbers of a filter as the statement matches them: every form from version 1.3. */
function numbersToMatch(this: IExecuteFunctions, digits: string[]): string[] {
	if (TYPED_FORM_VERSIONS.includes(this.getNode().typeVersion)) return digits;
	return [...new Set(digits.flatMap((number) => phoneForms(number)))];
}

const properties: INodeProperties[] = [
	{
		displayName: 'Mode',
		name: 'queryMode',
		type: 'options',
		options: [
			{
				name: 'Build the Query',
				value: 'builder',
				description: 'Pick columns and filters; the node writes a safe statement',
			},
			{
				name: 'Write SQL',
				value: 'sql',
				description: 'Write a read-only SELECT on webserviceview',
			},
		],
		default: 'builder',
	},
	// ---- SQL ----
	{
		displayName: 'SQL Statement',
		name: 'sql',
		type: 'string',
		typeOptions: { editor: 'sqlEditor', sqlDialect: 'MySQL', rows: 5 },
		required: true,
		default: '',
		placeholder:
			"SELECT start_call, cdr_ani, call_status FROM webserviceview WHERE start_call >= '2024-05-01 00:00:00' LIMIT 100",
		description:
			`One SELECT from ${CDR_SQL_RULES.view}, at most ${CDR_SQL_RULES.maxBytes} ` +
			`bytes. The node checks the service's rules before sending: no other table, ` +
			`JOIN, subquery, UNION or second statement; no INSERT, UPDATE, DELETE, ` +
			`DROP, ALTER, CREATE, TRUNCATE, RENAME, GRANT, REVOKE, LOAD_FILE, INTO ` +
			`or information_schema; no comments, @@ variables, := or SLEEP/BENCHMARK/GET_LOCK. ` +
			`Select "1 AS ${RECORDING_FLAG}" to learn per row whether a recording exists.`,
		hint:
			'Use a time filter and LIMIT: a heavy statement may run up to 10 minutes. ' +
			"With Simplify on, known columns come out under the trigger's names (cdr_uniqueid " +
			'→ callId).',
		displayOptions: { show: sqlMode },
	},
	// ---- builder ----
	{
		displayName: 'Columns',
		name: 'columns',
		type: 'multiOptions',
		options: CDR_COLUMNS,
		default: [
			'start_call',
			'call_duration',
			'cdr_ani',
			'cdr_ddi',
			'user_phone',
			'call_status',
			'cdr_uniqueid',
		],
		description: 'Columns of each call record to return; none selected returns every column',
		displayOptions: { show: builder },
	},
	{
		displayName: 'Include Recording Exists',
		name: 'recordingExists',
		type: 'boolean',
		default: false,
		description:
			`Whether to add recordingExists (true/false) telling whether the call has ` +
			`a recording to download (with Simplify off: the service's ${RECORDING_FLAG}, ` +
			`1 or empty)`,
		displayOptions: { show: builder },
	},
	{
		displayName: 'Calls From',
		name: 'from',
		type: 'dateTime',
		default: '',
		description:
			"Only calls that started at or after this time, on the service's clock (the credential's " +
			'Service Time Zone) unless it has an offset. Any date from an earlier node works too, such as ' +
			'{{ $now.minus({ hours: 2 }) }} for the last 2 hours.',
		displayOptions: { show: builder },
	},
	{
		displayName: 'Calls Until',
		name: 'to',
		type: 'dateTime',
		default: '',
		description:
			"Only calls that started at or before this time, on the service's clock (the credential's " +
			'Service Time Zone) unless it has an offset',
		displayOptions: { show: builder },
	},
	{
		displayName: 'Call Statuses',
		name: 'statuses',
		type: 'multiOptions',
		options: CALL_STATUSES,
		default: [],
		description: 'Only calls with one of these statuses; none selected returns every status',
		displayOptions: { show: builder },
	},
	...numberFilter({
		displayName: 'Virtual Numbers',
		name: 'virtualnums',
		placeholder: 'e.g. 97235551234, 97235551235',
		what: 'to these numbers',
		before: 'as the account lists them',
	}),
	...numberFilter({
		displayName: 'Caller Numbers',
		name: 'callers',
		placeholder: 'e.g. 0501234567, +972 54-111-0010',
		what: 'from these numbers',
		before: 'as the service stores them',
	}),
	{
		displayName: 'Order',
		name: 'order',
		type: 'options',
		options: [
			{ name: 'Newest First', value: 'DESC' },
			{ name: 'Oldest First', value: 'ASC' },
		],
		default: 'DESC',
		displayOptions: { show: builder },
	},
	...returnAllFields().map((field) => ({
		...field,
		displayOptions: { show: { ...field.displayOptions?.show, ...builder } },
	})),
	simplifyField,
	timeoutOptions,
];

export const option: OperationOption = {
	name: 'Query',
	description: 'Get call records, built from filters or with a read-only SQL statement',
	action: 'Query call records',
};

export const toolDescription =
	'Search the call records (the history of calls to the virtual numbers). Free, changes nothing. ' +
	'Filters, as the node sets them: calls from and until a date and time (ISO 8601 such as ' +
	'2024-05-01T09:00:00+03:00, or 2024-05-01 09:00), call statuses, virtual numbers, caller numbers. ' +
	`${PHONES_FOR_MODEL} ` +
	'Returns one row per call, newest first by default: callId, virtualNumber, callerNumber, ' +
	'destinationPhone (who answered), callStatus (ANSWER, NO ANSWER, BUSY, …), startedAt (with its UTC offset), ' +
	'durationSec, recordingExists. Use a callId with Get Metadata or Get Transcript.';

/** In a tool: a row without its empty fields, and without startTime (startedAt says the same with its offset). */
export function toolOutput(json: IDataObject): IDataObject {
	return withoutEmptyFields(json, json.startedAt !== undefined ? ['startTime'] : []);
}

export const description = updateDisplayOptions(
	{ show: { resource: ['cdr'], operation: ['query'] } },
	properties,
);

/** Comma-separated values of a text field (or a list from an expression). */
function listOf(value: unknown): string {
	return Array.isArray(value) ? value.map(String).join(',') : String(value ?? '');
}

/** The builder's query; its dates on the service's clock (`savedZone`: the credential's field). */
function builderQuery(
	this: IExecuteFunctions,
	itemIndex: number,
	checks: InputChecks,
	savedZone: unknown,
): CdrQuery {
	const columns = this.getNodeParameter('columns', itemIndex, []) as string[];
	for (const column of columns) {
		checks.oneOf(
			'Columns',
			column,
			CDR_COLUMNS.map((option) => String(option.value)),
		);
	}
	const statuses = this.getNodeParameter('statuses', itemIndex, []) as string[];
	for (const status of statuses) {
		checks.oneOf(
			'Call Statuses',
			status,
			CALL_STATUSES.map((option) => String(option.value)),
		);
	}
	const fromValue = this.getNodeParameter('from', itemIndex, '') as unknown;
	const toValue = this.getNodeParameter('to', itemIndex, '') as unknown;
	const given = (value: unknown) =>
		value !== undefined && value !== null && String(value).trim() !== '';
	const query: CdrQuery = {
		columns,
		recordingExists: this.getNodeParameter('recordingExists', itemIndex, false) as boolean,
		statuses,
		virtualnums: [],
		callers: [],
		order: this.getNodeParameter('order', itemIndex, 'DESC') === 'ASC' ? 'ASC' : 'DESC',
	};
	const timezone = given(fromValue) || given(toValue) ? serviceZone(checks, savedZone) : '';
	if (given(fromValue))
		query.from = formatVirtualnumDate(fromValue, timezone, 'Calls From', checks);
	if (given(toValue)) query.to = formatVirtualnumDate(toValue, timezone, 'Calls Until', checks);
	if (given(fromValue) && given(toValue)) {
		const from = toDateTime(fromValue, timezone, 'Calls From', checks);
		const to = toDateTime(toValue, timezone, 'Calls Until', checks);
		if (from > to)
			checks.fail('Calls Until', `must not be before Calls From (${query.from})`, query.to);
	}
	const virtualnums = listOf(this.getNodeParameter('virtualnums', itemIndex, ''));
	if (virtualnums.trim() !== '')
		query.virtualnums = numbersToMatch.call(
			this,
			checkPhoneList(checks, 'Virtual Numbers', virtualnums),
		);
	const callers = listOf(this.getNodeParameter('callers', itemIndex, ''));
	if (callers.trim() !== '')
		query.callers = numbersToMatch.call(this, checkPhoneList(checks, 'Caller Numbers', callers));
	const limit = readLimit.call(this, checks);
	if (limit !== Infinity) query.limit = limit;
	return query;
}

/** The statement of SQL mode, checked against the spec's rules; a trailing semicolon is not stacking and is dropped. */
function sqlStatement(this: IExecuteFunctions, itemIndex: number, checks: InputChecks): string {
	const sql = cdrSqlToSend(
		checks.required('SQL Statement', this.getNodeParameter('sql', itemIndex, '')),
	);
	const violation = findCdrSqlViolation(sql);
	if (violation) {
		throw new NodeOperationError(
			this.getNode(),
			`SQL Statement: ${describeCdrSqlViolation(violation)}`,
			{
				itemIndex,
				description:
					`${violation.fix} Fix the "SQL Statement" field of item ${itemIndex} and ` +
					`run the node again; nothing was sent.`,
			},
		);
	}
	return sql;
}

/**
 * cdr_query answers 1013 both for "no results" and for an invalid statement. A built statement is
 * valid by construction: 1013 can only mean "no results". For a written one, only a description
 * that says so (or none) counts as an empty result; anything else (a syntax error, an unknown
 * column) stays an error.
 */
function isNoResults(description: string, builderMode: boolean): boolean {
	const said = description.trim();
	return (
		builderMode ||
		said === '' ||
		/\bno (results?|rows?|records?|data)\b|not found|empty/i.test(said)
	);
}

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const mode = this.getNodeParameter('queryMode', itemIndex, 'builder') as string;
	const builderMode = mode !== 'sql';
	const savedZone = await savedServiceZone(this, VIRTUALNUM_CREDENTIAL);
	const query = builderMode ? builderQuery.call(this, itemIndex, checks, savedZone) : undefined;
	const sql = query ? buildCdrSql(query) : sqlStatement.call(this, itemIndex, checks);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;

	const answer = await virtualnumRequest.call(this, {
		service: 'cdr_query',
		// POST: a statement can exceed what a URL carries.
		method: 'POST',
		params: { sql },
		itemIndex,
		timeoutMs: timeoutMs(options, checks),
		noResultsAsEmpty: (status) => isNoResults(status.description, builderMode),
	});
	const rows = resultRows(answer.result);
	const simplify = simplifyOn(this.getNodeParameter('simplify', itemIndex, true));
	const items = simplify
		? simplifyCallRows(rows).map((row) => addCallTimesWithOffset(row, usableZone(savedZone)))
		: rows;
	return this.helpers.returnJsonArray(items);
};
