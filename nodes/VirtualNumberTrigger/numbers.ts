/**
 * Reading and writing the numbers' callbacks on the virtual number service: the records of the
 * numbers the trigger covers, and a number's callback set with every other setting as read.
 * Restores (a rollback, a deactivation) are retried, because a number left on an inactive
 * trigger's URL loses the user's calls; registrations are not (a failed activation rolls back and
 * says why).
 */
import type { IDataObject, IHookFunctions, INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { asNodeError, neverReachedService, serviceCodeOf } from '../shared/errors';
import { NOT_IN_ACCOUNT_CODE } from '../shared/statusCodes';
import { WorkQueue } from '../shared/pool';
import { virtualnumRequest } from '../shared/transport/virtualnumApi';
import { getAllVirtualnums, getVirtualnum, settingsAsRead } from '../shared/virtualnums';
import { text } from './callbackUrl';
import type { Callback } from './types';

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

/**
 * After a failed try of a restore or of a read it needs: the pause before the next attempt, or
 * undefined when it was the last (or the number left the account). Each caller loops itself, so
 * the request stays a few frames from the lifecycle method.
 */
function retryPause(error: unknown, attempt: number): number | undefined {
	return attempt >= RESTORE_ATTEMPTS || isNotInAccount(error)
		? undefined
		: RETRY_PAUSE_MS * attempt;
}

/** Fails for good unless a restore's read is tried again (after its pause). */
async function readAgain(node: INode, error: unknown, restoring: boolean, attempt: number) {
	const pause = restoring ? retryPause(error, attempt) : undefined;
	if (pause === undefined) throw restoring ? asNodeError(node, error) : error;
	await sleep(pause);
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

/**
 * The records of the numbers, or of every number of the account (active and suspended) for 'all'.
 * Restoring, each read is tried again after a failure, a number no longer in the account is left
 * out, and more than a few numbers are read page by page; otherwise a selected number that is not
 * in the account fails the read, naming it.
 */
export async function readRecords(
	this: IHookFunctions,
	numbers: string[] | 'all',
	restoring: boolean,
): Promise<IDataObject[]> {
	if (numbers === 'all' || (restoring && numbers.length > PAGE_INSTEAD_OF_SINGLE)) {
		for (let attempt = 1; ; attempt++) {
			try {
				const active = await getAllVirtualnums.call(this, { status: 'active' });
				const suspended = await getAllVirtualnums.call(this, { status: 'suspended' });
				const all = uniqueNumbers([...active, ...suspended]);
				return numbers === 'all'
					? all
					: all.filter((row) => numbers.includes(text(row.virtualnum)));
			} catch (error) {
				await readAgain(this.getNode(), error, restoring, attempt);
			}
		}
	}
	const found: IDataObject[] = [];
	for (const number of numbers) {
		for (let attempt = 1; ; attempt++) {
			try {
				found.push(await getVirtualnum.call(this, number));
				break;
			} catch (error) {
				if (restoring && isNotInAccount(error)) break;
				await readAgain(this.getNode(), error, restoring, attempt);
			}
		}
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
 * Sets the numbers' callbacks, CONCURRENCY at a time, sending every other settable field as read.
 * Registering starts no change after the first failure (activation rolls back instead);
 * restoring runs every change, each tried again after a failure. Empty fields are left out (an
 * empty dial_timeout_in_sec means the account's default, and the service refuses an empty one),
 * but the callback URL is always sent, also empty when restoring a number that had none.
 */
export async function setCallbacks<T extends CallbackChange>(
	context: IHookFunctions,
	changes: T[],
	restoring: boolean,
): Promise<Outcome<T>> {
	const node = context.getNode();
	const outcome: Outcome<T> = { done: [], failures: [] };
	// The pool's queue with the request in its worker: a request stays a few frames from the lifecycle method.
	const queue = new WorkQueue(changes);
	await queue.workers(CONCURRENCY, async () => {
		for (let index = queue.take(); index !== undefined; index = queue.take()) {
			const change = changes[index];
			// Every setting as read: a service that replaces the whole record on update keeps them all.
			const params: IDataObject = { virtualnum: change.number, ...settingsAsRead(change.record) };
			params.callback_url = change.callback.url;
			params.callback_url_option = String(change.callback.option);
			for (let attempt = 1; ; attempt++) {
				try {
					await virtualnumRequest.call(context, {
						service: 'update_virtualnum',
						method: 'POST',
						sideEffect: true,
						params,
						sendEmpty: ['callback_url'],
					});
					outcome.done.push(change);
					break;
				} catch (error) {
					const pause = restoring ? retryPause(error, attempt) : undefined;
					if (pause !== undefined) {
						await sleep(pause);
						continue;
					}
					outcome.failures.push({ change, error: restoring ? asNodeError(node, error) : error });
					if (!restoring) queue.stop(index);
					break;
				}
			}
		}
	});
	return outcome;
}
