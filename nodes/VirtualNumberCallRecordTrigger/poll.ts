/**
 * One poll, and what it keeps between polls in the node's static data.
 *
 * Active: the call records after the cursor, oldest first, at most one page, each emitted once it
 * is complete (Include, include.ts). A call whose recording is not written yet, or whose request
 * failed in a way that may pass, is held by its ids and asked for again after growing pauses
 * (below); it never holds up the calls after it, which are read and emitted as they come.
 * Manual ("Fetch Test Event"): the latest record that passes the filters, with what exists now;
 * nothing is kept.
 *
 * What is kept survives a failed poll and a restart (read in n8n 2.40.7: n8n-core's PollContext
 * and PollTriggerExecutor, n8n's TriggerExecutionContextFactory and WorkflowStaticDataService):
 * - Flat keys on the node's static data (`rowId`, `startTime`, `endTime`, `since`, `startFrom`,
 *   `heldRecords`): n8n notices a key set on that object, not a change inside a value set later,
 *   so each write replaces a whole key.
 * - A poll writes nothing until it has read everything it emits (only a new start, a first
 *   activation or a changed Start From, is written at once): the cursor and the held calls are
 *   written together at its end. A poll that fails leaves them as they were, which matters: n8n's
 *   default poller keeps one static data object in memory for the active workflow, so a change
 *   made before a failure would stay (its durable poller throws a failed poll's copy away).
 * - n8n saves the static data to its database when a poll emits, right before it starts the
 *   execution with the items, and after an activation's first poll. The records a poll emits leave
 *   the held list, and the cursor passes them, in the very save that starts their execution: after
 *   a restart none comes again and none is lost.
 * - What a poll that emits nothing changes (a call newly held, a held call's next try) stays in
 *   memory until that save (the durable poller commits it at once). After a restart the saved copy
 *   is read: a call held since is read again from the saved cursor and held again, from then, and a
 *   call held before it is asked for when the pause saved with it ends (at worst early).
 */
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readSettings, type Settings } from './description';
import {
	afterHold,
	askIncluded,
	callOf,
	includesAny,
	itemOf,
	nothingAsked,
	type Call,
	type Included,
} from './include';
import {
	beforeJump,
	checkNotBehind,
	compareRowIds,
	currentCursor,
	movedTo,
	newRows,
	readRows,
	ROW_ID,
	recordItem,
	recordStatement,
	rowIdOf,
	rowOfIds,
	rowsStatements,
	writeCursor,
	type PlacedRow,
} from './statement';

// ---- held calls: kept in the static data by their ids and times --------------------------

/** A held call: its ids and times (ms) only; its row is read again to emit it. */
interface Held extends Call, IDataObject {
	/** When to ask for it again. */
	nextTry: number;
}

const HELD = 'heldRecords';

/** Calls held at once, at most (about 100 bytes each in the static data); past it none is held. */
const HELD_MAX = 5000;

/** The pause before asking again: as long as the call has been held, from 30 s up to 15 minutes. */
const FIRST_PAUSE_MS = 30_000;
const LONGEST_PAUSE_MS = 15 * 60_000;

const isObject = (value: unknown): value is IDataObject =>
	value !== null && typeof value === 'object' && !Array.isArray(value);

function heldOf(value: unknown): Held | undefined {
	if (!isObject(value)) return undefined;
	const { row, since, rowId, callId, heldSince, nextTry, answered } = value;
	// Kept whole by an earlier build (only for its recording): its ids, asked for again at once.
	if (isObject(row) && typeof since === 'number') {
		const id = rowIdOf(row);
		const call = recordItem(row, 'UTC').callId;
		return id && call
			? { rowId: id, callId: String(call), heldSince: since, nextTry: 0 }
			: undefined;
	}
	if (
		typeof rowId !== 'string' ||
		!ROW_ID.test(rowId) ||
		typeof callId !== 'string' ||
		typeof heldSince !== 'number' ||
		typeof nextTry !== 'number'
	)
		return undefined;
	const held: Held = { rowId, callId, heldSince, nextTry };
	return answered === false ? { ...held, answered } : held;
}

function readHeld(data: IDataObject): Held[] {
	const list = data[HELD];
	if (!Array.isArray(list)) return [];
	return list.map(heldOf).filter((entry): entry is Held => entry !== undefined);
}

function writeHeld(data: IDataObject, held: Held[]): void {
	if (held.length > 0) data[HELD] = held;
	else if (HELD in data) delete data[HELD];
}

/** The next try: after a pause as long as the call has waited, the last one when the hold ends. */
function nextTryOf(call: { heldSince: number }, now: number, holdMs: number): number {
	const pause = Math.min(Math.max(now - call.heldSince, FIRST_PAUSE_MS), LONGEST_PAUSE_MS);
	return Math.min(now + pause, call.heldSince + holdMs);
}

/** A call held untried (a poll out of time for requests): asked for at the next poll. */
const untried = (call: Call): Held => ({ ...call, nextTry: 0 });

const isHeld = (value: Included | Held): value is Held => 'nextTry' in value;

/**
 * What Include asks for the call, or the call held while a part may still come: within Hold Back
 * Up To, and while `room` (never in a manual run, nor past HELD_MAX). Once the hold ended, a
 * recording still not written is `notFound`; without room, `notYet`.
 */
async function settle(
	this: IPollFunctions,
	call: Call,
	settings: Settings,
	room: boolean,
): Promise<Included | Held> {
	const { holdMs } = settings.include;
	const hold = ({ mayPass }: { mayPass?: boolean }): Held | undefined => {
		const now = Date.now();
		return mayPass && room && now - call.heldSince < holdMs
			? { ...call, nextTry: nextTryOf(call, now, holdMs) }
			: undefined;
	};
	const ask = askIncluded<Held>;
	const answer = await ask.call(this, call, settings, hold);
	if (isHeld(answer)) return answer;
	return room ? afterHold(answer) : answer;
}

// ---- the active poll ----------------------------------------------------------------------

/** An item on its way out, with its row id (the order of emission). */
interface Out {
	id: string;
	item: INodeExecutionData;
}

/** Until when a poll starts requests for Include, and the mark that says it is still at work. */
interface Pace {
	until: number;
	alive: () => void;
}

/** The new rows as items; a call whose Include may still come is held instead. */
async function completeNew(
	this: IPollFunctions,
	rows: PlacedRow[],
	heldBefore: number,
	settings: Settings,
	pace: Pace,
): Promise<{ out: Out[]; held: Held[] }> {
	const out: Out[] = [];
	const held: Held[] = [];
	for (const { row, id } of rows) {
		const json = recordItem(row, settings.zone);
		const call = callOf(json, id, settings);
		if (!call) {
			out.push({ id, item: itemOf(json, settings, nothingAsked(settings)) });
			continue;
		}
		// Out of time for requests: held untried, asked for at the next poll.
		if (Date.now() >= pace.until) {
			held.push(untried(call));
			continue;
		}
		pace.alive();
		const room = heldBefore + held.length < HELD_MAX;
		const included = await settle.call(this, call, settings, room);
		if (isHeld(included)) held.push(included);
		else out.push({ id, item: itemOf(json, settings, included) });
	}
	return { out, held };
}

/** The rows of these ids, read again (a row the service no longer has: only its ids are known). */
async function rowsById(this: IPollFunctions, ids: string[], settings: Settings) {
	const rows = new Map<string, IDataObject>();
	for (const sql of rowsStatements(ids))
		for (const row of await readRows.call(this, sql, settings)) {
			const id = rowIdOf(row);
			if (id !== undefined) rows.set(id, row);
		}
	return rows;
}

/**
 * The held calls whose pause has ended (the longest waiting first, at most a page): each emitted
 * once what Include asks for came, its hold ended, or asking again cannot help, else held again.
 * When Include asks nothing any more, every held call is emitted.
 */
async function completeHeld(
	this: IPollFunctions,
	held: Held[],
	settings: Settings,
	pace: Pace,
): Promise<{ out: Out[]; held: Held[] }> {
	const now = Date.now();
	const asking = includesAny(settings);
	const due = asking
		? held
				.filter((call) => call.nextTry <= now)
				.sort((a, b) => a.nextTry - b.nextTry)
				.slice(0, settings.limit)
		: held;
	const asked = new Set(due);
	const kept = held.filter((call) => !asked.has(call));
	const done: Array<{ call: Held; included: Included }> = [];
	for (const call of due) {
		if (!asking) done.push({ call, included: {} });
		else if (Date.now() >= pace.until) kept.push(call);
		else {
			pace.alive();
			const included = await settle.call(this, call, settings, true);
			if (isHeld(included)) kept.push(included);
			else done.push({ call, included });
		}
	}
	const rows = await rowsById.call(
		this,
		done.map(({ call }) => call.rowId),
		settings,
	);
	const out = done.map(({ call, included }) => {
		const row = rows.get(call.rowId) ?? rowOfIds(call.rowId, call.callId);
		const json = recordItem(row, settings.zone);
		return { id: call.rowId, item: itemOf(json, settings, included, Date.now() - call.heldSince) };
	});
	return { out, held: kept };
}

/** Whether the record passes With Recording Only: by its recording, once Include read it. */
function passes(item: INodeExecutionData, settings: Settings): boolean {
	if (!settings.recordingOnly) return true;
	return settings.include.recording
		? item.json.recordingStatus === 'included'
		: item.json.recordingExists === true;
}

/**
 * The next page after the cursor, then the held calls that are due. Items go out in row order
 * within an execution: a held call comes in a later execution than calls written after it.
 */
async function readNext(
	this: IPollFunctions,
	data: IDataObject,
	settings: Settings,
	pace: Pace,
): Promise<INodeExecutionData[][] | null> {
	const { cursor, startedOver } = await currentCursor.call(this, data, settings);
	// Calls held for the old position are read again from the new one.
	if (startedOver) writeHeld(data, []);
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
	if (fresh.length === 0) await checkNotBehind.call(this, cursor, settings);
	const passed = fresh.length > 0 ? await beforeJump.call(this, fresh, cursor, settings) : [];
	const held = readHeld(data);
	const later = await completeNew.call(this, passed, held.length, settings, pace);
	const earlier = await completeHeld.call(this, held, settings, pace);
	// Together, once everything this poll emits was read (see the top of this file).
	if (passed.length > 0) writeCursor(data, movedTo(cursor, passed[passed.length - 1]));
	writeHeld(data, [...earlier.held, ...later.held]);
	const items = [...earlier.out, ...later.out]
		.filter(({ item }) => passes(item, settings))
		.sort((a, b) => compareRowIds(a.id, b.id))
		.map(({ item }) => item);
	return items.length > 0 ? [items] : null;
}

/** Kept in the static data while a poll is at work; the minute a stuck one may keep it past its timeout. */
const READING = 'readingSince';
const STUCK_MARGIN_MS = 60_000;

/**
 * n8n starts the next poll even when the last one has not finished (a slow service): both would
 * read the same page. The later poll passes while an earlier one of the same workflow is at work
 * (it renews the mark before each call's requests for Include). Those start within half of n8n's
 * budget for a poll (n8n 2.40+; its durable scheduler abandons a poll past the whole budget).
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
	const budget = typeof this.getPollBudgetMs === 'function' ? this.getPollBudgetMs() : Infinity;
	const pace = { until: Date.now() + budget / 2, alive: () => (data[READING] = Date.now()) };
	try {
		return await readNext.call(this, data, settings, pace);
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
	const json = recordItem(row, settings.zone);
	const call = callOf(json, String(rowIdOf(row)), settings);
	const included = call
		? ((await settle.call(this, call, settings, false)) as Included)
		: nothingAsked(settings);
	return [[itemOf(json, settings, included)]];
}

export async function pollCallRecords(
	this: IPollFunctions,
): Promise<INodeExecutionData[][] | null> {
	const settings = await readSettings.call(this);
	return this.getMode() === 'manual'
		? await pollLatest.call(this, settings)
		: await pollActive.call(this, settings);
}
