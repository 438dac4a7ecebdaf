/**
 * One poll, and what it keeps between polls in the node's static data.
 *
 * Active: the call records after the cursor, oldest first, at most one page, each emitted once it
 * is complete (Include). A call whose recording is not written yet, or whose download failed in a
 * way that may pass, is held by its ids and asked for again after growing pauses; it never holds
 * up the calls after it, which are read and emitted as they come. Manual ("Fetch Test Event"):
 * the latest record that passes the filters, with what exists now; nothing is kept.
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
import type {
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asNodeError, errorItemJson, serviceCodeOf, type NodeError } from '../shared/errors';
import { recordingBinary } from '../shared/recordings';
import {
	INTERNAL_ERROR_CODE,
	NO_METADATA_CODE,
	NO_RECORDING_CODE,
	RATE_LIMITED_CODE,
	SUCCESS_CODE,
	UNAUTHORIZED_CODE,
} from '../shared/statusCodes';
import { SPEECH_SECTION, transcriptText, transcriptTurns } from '../shared/transcript';
import type { RequestContext } from '../shared/transport/http';
import { virtualnumRequest } from '../shared/transport/virtualnumApi';
import { virtualnumDownload } from '../shared/transport/virtualnumDownload';
import { readSettings, type Settings } from './description';
import {
	NOT_MOVED,
	ROW_ID,
	beforeJump,
	checkNotBehind,
	compareRowIds,
	currentCursor,
	movedTo,
	newRows,
	readRows,
	recordItem,
	recordStatement,
	rowIdOf,
	rowOfIds,
	rowsStatements,
	writeCursor,
	type PlacedRow,
} from './statement';

// ---- calls held for their recording -------------------------------------------------------

/** A call held for its recording: its ids and times (ms) only; its row is read again to emit it. */
interface Held extends IDataObject {
	rowId: string;
	callId: string;
	/** When the trigger first read the call. */
	heldSince: number;
	/** When to ask for its recording again. */
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
	const { row, since, rowId, callId, heldSince, nextTry } = value;
	// Kept whole by an earlier build: its ids, asked for again at once.
	if (isObject(row) && typeof since === 'number') {
		const id = rowIdOf(row);
		const call = recordItem(row, 'UTC').callId;
		return id && call
			? { rowId: id, callId: String(call), heldSince: since, nextTry: 0 }
			: undefined;
	}
	return typeof rowId === 'string' &&
		ROW_ID.test(rowId) &&
		typeof callId === 'string' &&
		typeof heldSince === 'number' &&
		typeof nextTry === 'number'
		? { rowId, callId, heldSince, nextTry }
		: undefined;
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

// ---- Include: recording, transcript, metadata ---------------------------------------------

/**
 * What came of a record's recording (docs/call-record-trigger.md has the table): `included`;
 * `none` (a call not answered has none); `notYet` (not written when the record was emitted
 * without a hold); `notFound` (still not written when Hold Back Up To ended); `tooLarge`,
 * `notAudio`, `unavailable` (the service's answer in `error`).
 */
type RecordingStatus =
	| 'included'
	| 'none'
	| 'notYet'
	| 'notFound'
	| 'tooLarge'
	| 'notAudio'
	| 'unavailable';

interface Recording {
	status: RecordingStatus;
	binary?: IBinaryData;
	error?: NodeError;
	/** With tooLarge: the size the answer announced, null when it announced none. */
	bytes?: number | null;
}

/** One request's answer; `mayPass`: not written yet (3002), or a failure that asking again may cure. */
type Answer = Recording & { mayPass?: boolean };

/**
 * A failed request for one call's recording, by whether asking again can help. A refusal of the
 * credential or of n8n's IP (401) is no call's: it fails the poll, which reads the same records again.
 */
function failedAnswer(node: INode, thrown: unknown): Answer {
	const error = asNodeError(node, thrown);
	const code = serviceCodeOf(error);
	const http = Number((error as { httpCode?: string | null }).httpCode) || undefined;
	const data = (error.context.data ?? {}) as IDataObject;
	if (code === NO_RECORDING_CODE) return { status: 'notYet', mayPass: true };
	if (http === UNAUTHORIZED_CODE) {
		error.description = `${error.description ?? ''} ${NOT_MOVED}`.trim();
		throw error;
	}
	if (data.maxBytes !== undefined) {
		const bytes = typeof data.announcedBytes === 'number' ? data.announcedBytes : null;
		return { status: 'tooLarge', error, bytes };
	}
	if (
		data.networkCode !== undefined ||
		http === RATE_LIMITED_CODE ||
		(http !== undefined && http >= 500) ||
		code === INTERNAL_ERROR_CODE
	)
		return { status: 'unavailable', error, mayPass: true };
	// The service refused this call's recording (a status, an HTTP error), or answered it whole
	// with something that is not audio (an HTML page, a text, nothing): asking again gives the same.
	const refused = (code !== undefined && code !== SUCCESS_CODE) || http !== undefined;
	return { status: refused ? 'unavailable' : 'notAudio', error };
}

async function askRecording(
	this: IPollFunctions,
	callId: string,
	settings: Settings,
): Promise<Answer> {
	try {
		const file = await virtualnumDownload.call(this as unknown as IExecuteFunctions, {
			service: 'get_record_by_call_uuid',
			params: { call_uuid: callId, type: settings.include.recording?.format ?? 'wav' },
			timeoutMs: settings.timeoutMs,
			credentials: settings.credentials,
		});
		const { binary } = await recordingBinary.call(this, file, callId);
		return { status: 'included', binary };
	} catch (error) {
		return failedAnswer(this.getNode(), error);
	}
}

/**
 * An answered call's recording, or the call held while it may still come: within Hold Back Up To,
 * and while `room` (never in a manual run, nor past HELD_MAX). Not held: the answer, `notFound`
 * for "not written" once the hold ended.
 */
async function settle(
	this: IPollFunctions,
	call: { rowId: string; callId: string; heldSince: number },
	settings: Settings,
	room: boolean,
): Promise<Recording | Held> {
	const holdMs = settings.include.recording?.holdMs ?? 0;
	const { mayPass, ...recording } = await askRecording.call(this, call.callId, settings);
	const now = Date.now();
	if (!mayPass) return recording;
	if (room && now - call.heldSince < holdMs)
		return { ...call, nextTry: nextTryOf(call, now, holdMs) };
	return room && recording.status === 'notYet' ? { status: 'notFound' } : recording;
}

/** The metadata sections Include → Metadata passes on (speech_recognition goes to the transcript). */
const METADATA_SECTIONS = ['pixel_data', 'ads_data', 'ads_call_extension_data'];

/** The call's metadata sections; none when the service has no metadata for it (1015). */
async function metadataOf(
	this: IPollFunctions,
	callId: string,
	settings: Settings,
): Promise<IDataObject> {
	try {
		const answer = await virtualnumRequest.call(this as unknown as RequestContext, {
			service: 'get_cdr_metadata_by_call_uuid',
			params: { call_uuid: callId },
			timeoutMs: settings.timeoutMs,
			credentials: settings.credentials,
		});
		const result = Array.isArray(answer.result) ? answer.result[0] : answer.result;
		return isObject(result) ? result : {};
	} catch (error) {
		if (serviceCodeOf(error) === NO_METADATA_CODE) return {};
		throw asNodeError(this.getNode(), error);
	}
}

/** `transcript` (text) and `transcriptTurns`, `metadata` (pixel and ads sections): null when none. */
async function addSections(this: IPollFunctions, json: IDataObject, settings: Settings) {
	const { transcript, metadata } = settings.include;
	if (!transcript && !metadata) return;
	const sections = await metadataOf.call(this, String(json.callId), settings);
	if (transcript) {
		const section = sections[SPEECH_SECTION];
		json.transcript = transcriptText(section) ?? null;
		json.transcriptTurns = section === undefined ? null : transcriptTurns(section);
	}
	if (metadata) {
		const present = METADATA_SECTIONS.filter((name) => sections[name] !== undefined);
		json.metadata =
			present.length === 0 ? null : Object.fromEntries(present.map((n) => [n, sections[n]]));
	}
}

/**
 * The record as an item: `recordingStatus` and the file as binary `data` (Include → Recording),
 * `recordingError` (the service's answer, in the shape of an error item), `recordingBytes` (with
 * tooLarge), `recordingHeldSec` (when it was held); then the transcript and metadata.
 */
async function emitted(
	this: IPollFunctions,
	json: IDataObject,
	settings: Settings,
	recording?: Recording,
	heldMs?: number,
): Promise<INodeExecutionData> {
	const item: INodeExecutionData = { json };
	if (recording) {
		json.recordingStatus = recording.status;
		if (recording.binary) item.binary = { data: recording.binary };
		if (recording.status === 'tooLarge') json.recordingBytes = recording.bytes ?? null;
		if (recording.error) json.recordingError = errorItemJson(recording.error);
		if (heldMs !== undefined) json.recordingHeldSec = Math.round(heldMs / 1000);
	}
	await addSections.call(this, json, settings);
	return item;
}

/** Whether the service may have a recording of the call: answered, and with a call ID to ask by. */
const mayHaveRecording = (json: IDataObject) =>
	json.callStatus === 'ANSWER' && json.callId !== null;

/** A record's recording as Include asks: none when not asked, or for a call not answered. */
async function recordingOf(
	this: IPollFunctions,
	json: IDataObject,
	settings: Settings,
	room: boolean,
): Promise<Recording | Held | undefined> {
	if (!settings.include.recording) return undefined;
	if (!mayHaveRecording(json)) return { status: 'none' };
	const call = { rowId: String(json.rowId), callId: String(json.callId), heldSince: Date.now() };
	return await settle.call(this, call, settings, room);
}

// ---- the active poll ----------------------------------------------------------------------

/** An item on its way out, with its row id (the order of emission). */
interface Out {
	id: string;
	item: INodeExecutionData;
}

/** Until when a poll starts downloads, and the mark that says it is still at work. */
interface Pace {
	until: number;
	alive: () => void;
}

const isHeld = (value: Recording | Held | undefined): value is Held =>
	value !== undefined && 'nextTry' in value;

/** The new rows as items; an answered call whose recording may still come is held instead. */
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
		// Out of time for downloads: held untried, asked for at the next poll.
		if (settings.include.recording && mayHaveRecording(json) && Date.now() >= pace.until) {
			held.push({ rowId: id, callId: String(json.callId), heldSince: Date.now(), nextTry: 0 });
			continue;
		}
		pace.alive();
		const recording = await recordingOf.call(
			this,
			json,
			settings,
			heldBefore + held.length < HELD_MAX,
		);
		if (isHeld(recording)) held.push({ ...recording, rowId: id });
		else out.push({ id, item: await emitted.call(this, json, settings, recording) });
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
 * once its recording came, its hold ended, or asking again cannot help, else held again. Without
 * Include → Recording any more, every held call is emitted.
 */
async function completeHeld(
	this: IPollFunctions,
	held: Held[],
	settings: Settings,
	pace: Pace,
): Promise<{ out: Out[]; held: Held[] }> {
	const now = Date.now();
	const recordings = Boolean(settings.include.recording);
	const due = recordings
		? held
				.filter((call) => call.nextTry <= now)
				.sort((a, b) => a.nextTry - b.nextTry)
				.slice(0, settings.limit)
		: held;
	const asked = new Set(due);
	const kept = held.filter((call) => !asked.has(call));
	const done: Array<{ call: Held; recording?: Recording }> = [];
	for (const call of due) {
		if (!recordings) done.push({ call });
		else if (Date.now() >= pace.until) kept.push(call);
		else {
			pace.alive();
			const recording = await settle.call(this, call, settings, true);
			if (isHeld(recording)) kept.push(recording);
			else done.push({ call, recording });
		}
	}
	const rows = await rowsById.call(
		this,
		done.map(({ call }) => call.rowId),
		settings,
	);
	const out: Out[] = [];
	for (const { call, recording } of done) {
		const json = recordItem(
			rows.get(call.rowId) ?? rowOfIds(call.rowId, call.callId),
			settings.zone,
		);
		const item = await emitted.call(this, json, settings, recording, Date.now() - call.heldSince);
		out.push({ id: call.rowId, item });
	}
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
 * (it renews the mark before each download). Downloads start within half of n8n's budget for a
 * poll (n8n 2.40+; its durable scheduler abandons a poll past the whole budget).
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
	const recording = (await recordingOf.call(this, json, settings, false)) as Recording | undefined;
	return [[await emitted.call(this, json, settings, recording)]];
}

export async function pollCallRecords(
	this: IPollFunctions,
): Promise<INodeExecutionData[][] | null> {
	const settings = await readSettings.call(this);
	return this.getMode() === 'manual'
		? await pollLatest.call(this, settings)
		: await pollActive.call(this, settings);
}
