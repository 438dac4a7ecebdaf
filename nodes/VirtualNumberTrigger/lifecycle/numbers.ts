/**
 * Reading and writing the numbers' callbacks on the virtual number service: the records of the
 * numbers the trigger covers, and a number's callback set with every other setting as read.
 * Restores (a rollback, a deactivation) are retried, because a number left on an inactive
 * trigger's URL loses the user's calls; registrations are not (a failed activation rolls back and
 * says why).
 */
import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { asNodeError, neverReachedService, serviceCodeOf } from '../../shared/errors';
import { NOT_IN_ACCOUNT_CODE } from '../../shared/statusCodes';
import { WorkQueue } from '../../shared/pool';
import { virtualnumRequest } from '../../shared/transport/virtualnumApi';
import { callbackUpdate, getAllVirtualnums, getVirtualnum } from '../../shared/virtualnums';
import { text, type Callback } from '../../shared/triggerUrl';

/** Updates in flight at once: fast enough for thousands of numbers, gentle on the service. */
const CONCURRENCY = 4;
/** Above this many numbers, they are read page by page instead of one request each. */
const PAGE_INSTEAD_OF_SINGLE = 20;
/** Attempts of a restore (and of the reads it needs), and the pause before the second one. */
const RESTORE_ATTEMPTS = 3;
const RETRY_PAUSE_MS = 250;

/** The number is not in the account: update_virtualnum's code, or getVirtualnum's own error (it found no record). */
export function isNotInAccount(error: unknown): boolean {
	if (error instanceof NodeApiError) return serviceCodeOf(error) === NOT_IN_ACCOUNT_CODE;
	return error instanceof NodeOperationError && /is not in this account/.test(error.message);
}

/**
 * Whether an update that failed may still have been applied: its answer was lost or unreadable
 * (timeout, reset connection, HTTP 5xx, an HTML, empty, cut-off or XML answer, code 999). A status
 * code the service answered, a 4xx or a connection never made mean it was not.
 */
export function mayHaveBeenApplied(error: unknown): boolean {
	if (!(error instanceof NodeApiError)) return false;
	// 200: the service reported success in an answer that could not be read (XML).
	const code = serviceCodeOf(error);
	if (code !== undefined) return code === 200 || code === 999;
	if (neverReachedService(error)) return false;
	const http = Number(error.httpCode);
	return !(Number.isFinite(http) && http >= 400 && http < 500);
}

/** A request's value, or its last failure. */
type Tried<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * Runs a request once; restoring, up to RESTORE_ATTEMPTS times, with a longer pause after each
 * failure, unless the number left the account (trying again cannot bring it back).
 */
async function tried<T>(restoring: boolean, request: () => Promise<T>): Promise<Tried<T>> {
	for (let attempt = 1; ; attempt++) {
		try {
			return { ok: true, value: await request() };
		} catch (error) {
			if (!restoring || attempt >= RESTORE_ATTEMPTS || isNotInAccount(error))
				return { ok: false, error };
			await sleep(RETRY_PAUSE_MS * attempt);
		}
	}
}

function uniqueNumbers(records: IDataObject[]): IDataObject[] {
	const seen = new Set<string>();
	return records.filter((record) => {
		const number = text(record.virtualnum);
		if (number === '' || seen.has(number)) return false;
		seen.add(number);
		return true;
	});
}

/** Every number of the account, active and suspended, page by page. */
async function allRecords(this: IHookFunctions): Promise<IDataObject[]> {
	const active = await getAllVirtualnums.call(this, { status: 'active' });
	const suspended = await getAllVirtualnums.call(this, { status: 'suspended' });
	return uniqueNumbers([...active, ...suspended]);
}

/**
 * The records of the numbers, or of every number of the account (active and suspended) for 'all'.
 * Restoring, each read is tried again after a failure, a number no longer in the account is left
 * out, more than a few numbers are read page by page, and a failure is an n8n error; otherwise a
 * selected number that is not in the account fails the read, naming it.
 */
export async function readRecords(
	this: IHookFunctions,
	numbers: string[] | 'all',
	restoring: boolean,
): Promise<IDataObject[]> {
	const failure = (error: unknown) => (restoring ? asNodeError(this.getNode(), error) : error);
	if (numbers === 'all' || (restoring && numbers.length > PAGE_INSTEAD_OF_SINGLE)) {
		const all = await tried(restoring, async () => await allRecords.call(this));
		if (!all.ok) throw failure(all.error);
		return numbers === 'all'
			? all.value
			: all.value.filter((row) => numbers.includes(text(row.virtualnum)));
	}
	const found: IDataObject[] = [];
	for (const number of numbers) {
		const record = await tried(restoring, async () => await getVirtualnum.call(this, number));
		if (record.ok) found.push(record.value);
		else if (!(restoring && isNotInAccount(record.error))) throw failure(record.error);
	}
	return found;
}

/** One number's callback to set. */
export interface CallbackChange {
	record: IDataObject;
	number: string;
	callback: Callback;
}

/** What setting the callbacks did, in the order it happened. */
interface Outcome<T> {
	done: T[];
	failures: Array<{ change: T; error: unknown }>;
}

/**
 * Sets one number's callback, sending every other settable field as read (callbackUpdate: a
 * service that replaces the whole record on update keeps them all); a restore is tried again.
 */
async function setCallback(
	context: IHookFunctions,
	change: CallbackChange,
	restoring: boolean,
): Promise<Tried<unknown>> {
	const request = callbackUpdate(change.record, change.callback);
	return await tried(restoring, async () => await virtualnumRequest.call(context, request));
}

/**
 * Sets the numbers' callbacks, CONCURRENCY at a time. Registering starts no change after the first
 * failure (activation rolls back instead); restoring runs every change.
 */
export async function setCallbacks<T extends CallbackChange>(
	context: IHookFunctions,
	changes: T[],
	restoring: boolean,
): Promise<Outcome<T>> {
	const outcome: Outcome<T> = { done: [], failures: [] };
	const queue = new WorkQueue(changes);
	await queue.workers(CONCURRENCY, async () => {
		for (let index = queue.take(); index !== undefined; index = queue.take()) {
			const change = changes[index];
			const set = await setCallback(context, change, restoring);
			if (set.ok) {
				outcome.done.push(change);
				continue;
			}
			const error = restoring ? asNodeError(context.getNode(), set.error) : set.error;
			outcome.failures.push({ change, error });
			if (!restoring) queue.stop(index);
		}
	});
	return outcome;
}
