/**
 * The trigger's requests to the virtual number service: reading the numbers it covers, setting a
 * number's callback, and running updates a few at a time. Restores (a rollback, a deactivation)
 * are retried, because a number left on an inactive trigger's URL loses the user's calls;
 * registrations are not (a failed activation rolls back and says why).
 */
import type { IDataObject, IHookFunctions, INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { asNodeError } from '../shared/errors';
import { networkCodeOfFailure, serviceCodeOf } from '../shared/transport/http';
import { virtualnumRequest } from '../shared/transport/virtualnumApi';
import { getAllVirtualnums, getVirtualnum, updateVirtualnum } from '../shared/virtualnums';
import { DEFAULT_OPTION, type Callback } from './callbackUrl';
import type { TriggerSettings } from './settings';

/** The service's code for "number not in the account" on update_virtualnum. */
const NOT_IN_ACCOUNT = 4019;
/** Updates in flight at once: fast enough for thousands of numbers, gentle on the service. */
const CONCURRENCY = 4;
/** Above this many numbers, they are read page by page instead of one request each. */
const PAGE_INSTEAD_OF_SINGLE = 20;
/** Attempts of a restore (and of the reads it needs), and the pause before the second one. */
const RESTORE_ATTEMPTS = 3;
const RETRY_PAUSE_MS = 250;

export function text(value: unknown): string {
	return value === undefined || value === null ? '' : String(value).trim();
}

export function callbackOf(record: IDataObject): Callback {
	const option = Number(record.callback_url_option);
	return {
		url: text(record.callback_url),
		option: Number.isInteger(option) && option >= 1 && option <= 3 ? option : DEFAULT_OPTION,
	};
}

/** The number is not in the account: update_virtualnum's code, or getVirtualnum's own error (it found no record). */
export function isNotInAccount(error: unknown): boolean {
	if (error instanceof NodeApiError) return serviceCodeOf(error) === NOT_IN_ACCOUNT;
	return error instanceof NodeOperationError && /is not in this account/.test(error.message);
}

/** Network failures in which the request never reached the service. */
const NOT_SENT = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'];

/**
 * Whether an update that failed may still have been applied: its answer was lost or unreadable
 * (timeout, reset connection, HTTP 5xx, an HTML, empty, cut-off or XML answer, code 999). A status
 * code the service answered, a 401 or a connection refused mean it was not.
 */
export function mayHaveBeenApplied(error: unknown): boolean {
	if (!(error instanceof NodeApiError)) return false;
	// 200: the service reported success in an answer that could not be read (XML).
	const code = serviceCodeOf(error);
	if (code !== undefined) return code === 200 || code === 999;
	if (NOT_SENT.includes(networkCodeOfFailure(error) ?? '')) return false;
	const http = Number(error.httpCode);
	return !(Number.isFinite(http) && http >= 400 && http < 500);
}

/** Runs `work` again after a failure (not when the number left the account), a few times. */
export async function withRetries<T>(node: INode, work: () => Promise<T>): Promise<T> {
	for (let attempt = 1; ; attempt++) {
		try {
			return await work();
		} catch (error) {
			if (attempt >= RESTORE_ATTEMPTS || isNotInAccount(error)) throw asNodeError(node, error);
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

/** Every number of the account, active and suspended. */
async function allRecords(this: IHookFunctions): Promise<IDataObject[]> {
	const active = await getAllVirtualnums.call(this, { status: 'active' });
	const suspended = await getAllVirtualnums.call(this, { status: 'suspended' });
	return uniqueNumbers([...active, ...suspended]);
}

/** The records of the numbers the trigger covers; fails naming a selected number that is not in the account. */
export async function chosenRecords(
	this: IHookFunctions,
	settings: TriggerSettings,
): Promise<IDataObject[]> {
	if (settings.scope === 'all') return await allRecords.call(this);
	const records: IDataObject[] = [];
	for (const number of settings.selected) records.push(await getVirtualnum.call(this, number));
	return records;
}

/**
 * The current records of the numbers (all of the account when `numbers` is undefined), each read
 * with retries; a number missing from the result is no longer in the account.
 */
export async function currentRecords(
	this: IHookFunctions,
	numbers?: string[],
): Promise<IDataObject[]> {
	if (numbers === undefined || numbers.length > PAGE_INSTEAD_OF_SINGLE) {
		const all = await withRetries(this.getNode(), async () => await allRecords.call(this));
		return numbers === undefined
			? all
			: all.filter((record) => numbers.includes(text(record.virtualnum)));
	}
	const found: IDataObject[] = [];
	for (const number of numbers) {
		try {
			found.push(
				await withRetries(this.getNode(), async () => await getVirtualnum.call(this, number)),
			);
		} catch (error) {
			if (!isNotInAccount(error)) throw asNodeError(this.getNode(), error);
		}
	}
	return found;
}

/**
 * Sets a number's callback URL and option. update_virtualnum is sent through the shared helper,
 * which re-sends description and call_destination_phone; an empty URL (restoring a number that
 * had none) is sent explicitly, because the transport leaves empty parameters out and the
 * service only changes the fields it receives.
 */
export async function setCallback(
	this: IHookFunctions,
	record: IDataObject,
	callback: Callback,
): Promise<void> {
	const virtualnum = text(record.virtualnum);
	if (callback.url !== '') {
		await updateVirtualnum.call(
			this,
			virtualnum,
			{ callback_url: callback.url, callback_url_option: callback.option },
			{ current: record },
		);
		return;
	}
	const params: Record<string, string> = {
		virtualnum,
		description: text(record.description),
		call_destination_phone: text(record.call_destination_phone),
		callback_url: '',
		callback_url_option: String(callback.option),
	};
	await virtualnumRequest.call(this, {
		service: 'update_virtualnum',
		method: 'POST',
		sideEffect: true,
		requestOptions: {
			body: new URLSearchParams(params).toString(),
			headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
		},
	});
}

/**
 * Runs `work` over the items, a few at a time. With `stopOnFailure`, no new item starts after the
 * first failure (activation rolls back instead); otherwise every item runs and failures are listed.
 */
export async function forEachLimited<T>(
	items: T[],
	work: (item: T) => Promise<void>,
	stopOnFailure: boolean,
): Promise<{ done: T[]; failures: Array<{ item: T; error: unknown }> }> {
	const done: T[] = [];
	const failures: Array<{ item: T; error: unknown }> = [];
	let next = 0;
	const worker = async () => {
		while (next < items.length && !(stopOnFailure && failures.length > 0)) {
			const item = items[next++];
			try {
				await work(item);
				done.push(item);
			} catch (error) {
				failures.push({ item, error });
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
	return { done, failures };
}

export function describe(error: unknown): string {
	const { message, description } = error as { message?: string; description?: string | null };
	return [message ?? String(error), description].filter(Boolean).join(' — ');
}
