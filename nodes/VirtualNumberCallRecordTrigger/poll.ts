/**
 * One poll. Active: the call records after the cursor, oldest first, at most one page; the cursor
 * moves past them only once they are read, so a failed poll emits nothing and moves nothing.
 * Manual ("Fetch Test Event"): the latest record that passes the filters; the cursor is untouched.
 */
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { InputChecks } from '../shared/checks';
import {
	credentialServiceZone,
	isEmptyDate,
	serviceNow,
	serviceTime,
	toDateTime,
} from '../shared/dates';
import { asNodeError } from '../shared/errors';
import { checkPhoneList, phoneForms } from '../shared/phones';
import type { RequestContext } from '../shared/transport/http';
import { VIRTUALNUM_CREDENTIAL, virtualnumRequest } from '../shared/transport/virtualnumApi';
import { resultRows } from '../shared/virtualnums';
import { readCursor, writeCursor, type Cursor } from './cursor';
import { PAGE_SIZE, TIMEOUT_SEC } from './description';
import { recordItem, rowIdOf } from './records';
import {
	LAST_ROW_STATEMENT,
	recordStatement,
	MAX_SQL_BYTES,
	type RecordFilters,
	type RecordQuery,
} from './statement';

const NOT_MOVED =
	"Nothing was emitted and the trigger's position did not move: the next poll reads the same call records again.";

interface Settings {
	filters: RecordFilters;
	recordingOnly: boolean;
	limit: number;
	timeoutMs: number;
	/** Start From as the service writes it, when set. */
	startFrom?: string;
	/**
	 * Start From as saved in the workflow (an expression unresolved): the cursor is made for it, and
	 * starts over only when the user changes it, not when `{{ $now }}` moves or a zone changes.
	 */
	startFromSetting: string;
	zone: string;
}

function numbers(checks: InputChecks, field: string, value: unknown): string[] {
	if (String(value ?? '').trim() === '') return [];
	return [...new Set(checkPhoneList(checks, field, value).flatMap((digits) => phoneForms(digits)))];
}

/**
 * The service's clock: the credential's Service Time Zone, or the node's option when set. Start
 * From on it: a text without an offset is read in it, a point in time is converted into it.
 */
async function readSettings(this: IPollFunctions): Promise<Settings> {
	const checks = new InputChecks(this.getNode(), 0);
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const answeredOnly = this.getNodeParameter('answeredOnly', false) as boolean;
	const zone = await credentialServiceZone(
		this,
		VIRTUALNUM_CREDENTIAL,
		checks,
		options.serviceTimeZone,
	);
	return {
		filters: {
			statuses: answeredOnly ? ['ANSWER'] : (this.getNodeParameter('statuses', []) as string[]),
			virtualNumbers: numbers(
				checks,
				'Virtual Numbers',
				this.getNodeParameter('virtualNumbers', ''),
			),
			callerNumbers: numbers(checks, 'Caller Numbers', this.getNodeParameter('callerNumbers', '')),
		},
		recordingOnly: this.getNodeParameter('recordingOnly', false) as boolean,
		limit:
			options.maxRecords === undefined
				? PAGE_SIZE.default
				: checks.integerInRange(
						'Max Records per Poll',
						options.maxRecords,
						PAGE_SIZE.min,
						PAGE_SIZE.max,
					),
		timeoutMs:
			1000 *
			(options.timeout === undefined
				? TIMEOUT_SEC.default
				: checks.integerInRange(
						'Timeout (Seconds)',
						options.timeout,
						TIMEOUT_SEC.min,
						TIMEOUT_SEC.max,
					)),
		startFrom: isEmptyDate(options.startFrom)
			? undefined
			: serviceTime(toDateTime(options.startFrom, zone, 'Start From', checks), zone),
		startFromSetting: String(
			(this.getNode().parameters.options as IDataObject | undefined)?.startFrom ?? '',
		).trim(),
		zone,
	};
}

async function readRows(
	this: IPollFunctions,
	query: RecordQuery | 'lastRow',
	settings: Settings,
): Promise<IDataObject[]> {
	const sql = query === 'lastRow' ? LAST_ROW_STATEMENT : recordStatement(query);
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
			// The statement is built, so valid: 1013 can only mean "no results".
			noResultsAsEmpty: true,
		});
		return resultRows(answer.result);
	} catch (error) {
		if (error instanceof NodeApiError && query !== 'lastRow' && query.kind === 'next') {
			error.description = `${error.description ?? ''} ${NOT_MOVED}`.trim();
		}
		throw asNodeError(this.getNode(), error);
	}
}

/** Rows after the cursor, each once, by row id; a row without one cannot be placed and stops the poll. */
function newRows(this: IPollFunctions, rows: IDataObject[], cursor: Cursor) {
	const placed = rows.map((row) => ({ row, id: rowIdOf(row) }));
	const unplaced = placed.find((entry) => entry.id === undefined);
	if (unplaced) {
		throw new NodeOperationError(
			this.getNode(),
			'The service answered a call record without a row id',
			{
				description:
					'The trigger keeps its position by the row id (column id) and cannot place this record: ' +
					`${JSON.stringify(unplaced.row).slice(0, 200)}. The position did not move.`,
			},
		);
	}
	return (placed as Array<{ row: IDataObject; id: number }>)
		.filter((entry) => entry.id > cursor.rowId)
		.sort((a, b) => a.id - b.id);
}

/**
 * Where the first activation (or a new Start From) starts: after the last record of the account
 * and with calls started from now on, or from Start From with every record of calls since then.
 */
async function startCursor(this: IPollFunctions, settings: Settings): Promise<Cursor> {
	const startFrom = settings.startFromSetting;
	if (settings.startFrom) return { rowId: 0, startTime: '', since: settings.startFrom, startFrom };
	const since = serviceNow(settings.zone);
	const [last] = await readRows.call(this, 'lastRow', settings);
	const rowId = last ? (rowIdOf(last) ?? 0) : 0;
	return { rowId, startTime: '', since, startFrom };
}

/** The next page after the cursor; the cursor moves past it once it is read. */
async function readNext(
	this: IPollFunctions,
	data: IDataObject,
	settings: Settings,
): Promise<INodeExecutionData[][] | null> {
	let cursor = readCursor(data);
	if (!cursor || cursor.startFrom !== settings.startFromSetting) {
		cursor = await startCursor.call(this, settings);
		writeCursor(data, cursor);
		// From now on: the records that exist now are not new.
		if (!settings.startFrom) return null;
	}
	const rows = await readRows.call(
		this,
		{
			kind: 'next',
			afterRowId: cursor.rowId,
			since: cursor.since,
			limit: settings.limit,
			...settings.filters,
		},
		settings,
	);
	const fresh = newRows.call(this, rows, cursor);
	if (fresh.length === 0) return null;
	const last = fresh[fresh.length - 1];
	writeCursor(data, { ...cursor, rowId: last.id, startTime: String(last.row.start_call ?? '') });
	const items = fresh
		.map((entry) => recordItem(entry.row, settings.zone))
		.filter((item) => !settings.recordingOnly || item.recordingExists === true);
	return items.length > 0 ? [this.helpers.returnJsonArray(items)] : null;
}

/** Kept in the static data while a poll reads; the minute a stuck one may keep it past its timeout. */
const READING = 'readingSince';
const STUCK_MARGIN_MS = 60_000;

/**
 * n8n starts the next poll even when the last one has not finished (a slow service): both would
 * read the same page. The later poll passes while an earlier one of the same workflow is reading.
 */
async function pollActive(
	this: IPollFunctions,
	settings: Settings,
): Promise<INodeExecutionData[][] | null> {
	const data = this.getWorkflowStaticData('node');
	const reading = data[READING];
	if (typeof reading === 'number' && Date.now() - reading < settings.timeoutMs + STUCK_MARGIN_MS)
		return null;
	data[READING] = Date.now();
	try {
		return await readNext.call(this, data, settings);
	} finally {
		delete data[READING];
	}
}

async function pollLatest(
	this: IPollFunctions,
	settings: Settings,
): Promise<INodeExecutionData[][]> {
	// With "With Recording Only" the latest rows may have none: read a page and take the first that has one.
	const limit = settings.recordingOnly ? settings.limit : 1;
	const rows = await readRows.call(this, { kind: 'latest', limit, ...settings.filters }, settings);
	const item = rows
		.map((row) => recordItem(row, settings.zone))
		.find((candidate) => !settings.recordingOnly || candidate.recordingExists === true);
	if (!item) {
		const among = settings.recordingOnly ? ` (with a recording, among the latest ${limit})` : '';
		throw new NodeOperationError(this.getNode(), 'No call record matches the filters', {
			description:
				`Fetch Test Event returns the latest call record that passes the filters${among}. ` +
				'Place a call to one of the numbers, or widen the filters, and fetch again.',
		});
	}
	return [this.helpers.returnJsonArray([item])];
}

export async function pollCallRecords(
	this: IPollFunctions,
): Promise<INodeExecutionData[][] | null> {
	const settings = await readSettings.call(this);
	return this.getMode() === 'manual'
		? await pollLatest.call(this, settings)
		: await pollActive.call(this, settings);
}
