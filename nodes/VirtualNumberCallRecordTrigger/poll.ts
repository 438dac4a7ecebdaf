/**
 * One poll. Active: the call records after the cursor, oldest first, at most one page; the cursor
 * moves past them only once they are read, so a failed poll emits nothing and moves nothing.
 * Manual ("Fetch Test Event"): the latest record that passes the filters; the cursor is untouched.
 */
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readHeld, writeCursor, writeHeld, type Held } from './cursor';
import { complete } from './include';
import { beforeJump, checkNotBehind, currentCursor, movedTo, newRows } from './position';
import { readRows } from './read';
import { recordItem } from './records';
import { readSettings, type Settings } from './settings';
import { recordStatement } from './statement';

/** Whether the record passes With Recording Only: by its recording, once Include read it. */
function passes(item: INodeExecutionData, settings: Settings): boolean {
	if (!settings.recordingOnly) return true;
	return settings.include.recording
		? item.json.recordingStatus === 'included'
		: item.json.recordingExists === true;
}

/**
 * The held records first (older rows), then the new ones: each emitted once complete, or held
 * again while its recording is not written and the hold allows. Items come in row order within
 * an execution; a held record may come after records written after it.
 */
async function completeAll(
	this: IPollFunctions,
	candidates: Held[],
	settings: Settings,
): Promise<{ items: INodeExecutionData[]; held: Held[] }> {
	const now = Date.now();
	const items: INodeExecutionData[] = [];
	const held: Held[] = [];
	for (const candidate of candidates) {
		const item = await complete.call(this, candidate, settings, now);
		if (!item) held.push(candidate);
		else if (passes(item, settings)) items.push(item);
	}
	return { items, held };
}

/**
 * The next page after the cursor (no more than the held records leave room for, so a poll's
 * requests and items stay within Max Records per Poll); the cursor moves past it, and the held
 * list is written, only once every record of the poll was read.
 */
async function readNext(
	this: IPollFunctions,
	data: IDataObject,
	settings: Settings,
): Promise<INodeExecutionData[][] | null> {
	const cursor = await currentCursor.call(this, data, settings);
	if (!cursor) return null;
	const waiting = readHeld(data);
	const room = settings.limit - waiting.length;
	const sql = recordStatement({
		kind: 'next',
		afterRowId: cursor.rowId,
		since: cursor.since,
		limit: Math.max(room, 1),
		...settings.filters,
	});
	const rows = room > 0 ? await readRows.call(this, sql, settings) : [];
	const fresh = newRows.call(this, rows, cursor, room);
	if (fresh.length === 0 && waiting.length === 0) {
		await checkNotBehind.call(this, cursor, settings);
		return null;
	}
	const passed = fresh.length > 0 ? await beforeJump.call(this, fresh, cursor, settings) : [];
	const now = Date.now();
	const candidates = [...waiting, ...passed.map((entry) => ({ row: entry.row, since: now }))];
	const { items, held } = await completeAll.call(this, candidates, settings);
	if (passed.length > 0) writeCursor(data, movedTo(cursor, passed[passed.length - 1]));
	writeHeld(data, held);
	return items.length > 0 ? [items] : null;
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
	const row = rows.find(
		(candidate) =>
			!settings.recordingOnly || recordItem(candidate, settings.zone).recordingExists === true,
	);
	if (!row) {
		const among = settings.recordingOnly ? ` (with a recording, among the latest ${limit})` : '';
		throw new NodeOperationError(this.getNode(), 'No call record matches the filters', {
			description:
				`Fetch Test Event returns the latest call record that passes the filters${among}. ` +
				'Place a call to one of the numbers, or widen the filters, and fetch again.',
		});
	}
	// No hold in a manual run: the record with what exists now.
	const item = await complete.call(
		this,
		{ row, since: Number.NEGATIVE_INFINITY },
		settings,
		Date.now(),
	);
	return [[item!]];
}

export async function pollCallRecords(
	this: IPollFunctions,
): Promise<INodeExecutionData[][] | null> {
	const settings = await readSettings.call(this);
	return this.getMode() === 'manual'
		? await pollLatest.call(this, settings)
		: await pollActive.call(this, settings);
}
