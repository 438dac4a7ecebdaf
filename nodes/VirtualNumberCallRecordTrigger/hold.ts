/**
 * Calls held while what Include asks for may still come: a recording not written yet, or a request
 * for the call that failed in a way that may pass. A held call is kept in the static data by its
 * ids and times only (`heldRecords`, beside the cursor), asked for again after growing pauses, and
 * never holds up the calls after it (poll.ts reads them as they come).
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import type { Settings } from './description';
import { afterHold, askIncluded, type Call, type Included } from './include';
import { ROW_ID, recordItem, rowIdOf } from './statement';

/** A held call: its ids and times (ms) only; its row is read again to emit it. */
export interface Held extends Call, IDataObject {
	/** When to ask for it again. */
	nextTry: number;
}

const HELD = 'heldRecords';

/** Calls held at once, at most (about 100 bytes each in the static data); past it none is held. */
export const HELD_MAX = 5000;

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

export function readHeld(data: IDataObject): Held[] {
	const list = data[HELD];
	if (!Array.isArray(list)) return [];
	return list.map(heldOf).filter((entry): entry is Held => entry !== undefined);
}

export function writeHeld(data: IDataObject, held: Held[]): void {
	if (held.length > 0) data[HELD] = held;
	else if (HELD in data) delete data[HELD];
}

/** The next try: after a pause as long as the call has waited, the last one when the hold ends. */
function nextTryOf(call: { heldSince: number }, now: number, holdMs: number): number {
	const pause = Math.min(Math.max(now - call.heldSince, FIRST_PAUSE_MS), LONGEST_PAUSE_MS);
	return Math.min(now + pause, call.heldSince + holdMs);
}

/** A call held untried (a poll out of time for requests): asked for at the next poll. */
export const untried = (call: Call): Held => ({ ...call, nextTry: 0 });

export const isHeld = (value: Included | Held): value is Held => 'nextTry' in value;

/**
 * What Include asks for the call, or the call held while a part may still come: within Hold Back
 * Up To, and while `room` (never in a manual run, nor past HELD_MAX). Once the hold ended, a
 * recording still not written is `notFound`; without room, `notYet`.
 */
export async function settle(
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
