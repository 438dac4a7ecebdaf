/**
 * One poll. Active: the call records after the cursor, oldest first, at most one page; the cursor
 * moves past them only once they are read, so a failed poll emits nothing and moves nothing.
 * Manual ("Fetch Test Event"): the latest record that passes the filters; the cursor is untouched.
 */
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { writeCursor } from './cursor';
import { beforeJump, checkNotBehind, currentCursor, movedTo, newRows } from './position';
import { readRows } from './read';
import { recordItem } from './records';
import { readSettings, type Settings } from './settings';
import { recordStatement } from './statement';

/** The next page after the cursor; the cursor moves past it once it is read. */
async function readNext(
	this: IPollFunctions,
	data: IDataObject,
	settings: Settings,
): Promise<INodeExecutionData[][] | null> {
	const cursor = await currentCursor.call(this, data, settings);
	if (!cursor) return null;
	const sql = recordStatement({
		kind: 'next',
		afterRowId: cursor.rowId,
		since: cursor.since,
		limit: settings.limit,
		...settings.filters,
	});
	const fresh = newRows.call(
		this,
		await readRows.call(this, sql, settings),
		cursor,
		settings.limit,
	);
	if (fresh.length === 0) {
		await checkNotBehind.call(this, cursor, settings);
		return null;
	}
	const passed = await beforeJump.call(this, fresh, cursor, settings);
	writeCursor(data, movedTo(cursor, passed[passed.length - 1]));
	const items = passed
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
	const sql = recordStatement({ kind: 'latest', limit, ...settings.filters });
	const rows = await readRows.call(this, sql, settings, false);
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
