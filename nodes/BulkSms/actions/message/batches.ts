/**
 * Send, then: the messages of the run go to ws_json_bulk.php in batches, each sent once, Batches
 * in Flight at a time. A batch the service may have received (it answered, or its answer was lost)
 * is settled: it is never sent again, not even by a retry of the node (Retry On Fail, tries.ts).
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { asNodeError, neverReachedService, type NodeError } from '../../../shared/errors';
import { digitsOf, phoneIdentity } from '../../../shared/phones';
import { WorkQueue } from '../../../shared/pool';
import {
	batchRetryAfterSec,
	isSmsSent,
	sendSmsBatch,
	smsCredentials,
	SMS_LABEL,
	type SmsCredentials,
	type SmsMessage,
	type SmsResult,
} from '../../../shared/transport/smsApi';
import { SMS_RATE_LIMIT } from '../../../shared/limits';
import type { Entry, PreparedRun } from './prepare';

export interface Batch {
	entries: Entry[];
	/** The service may have received it: it is never sent again. */
	settled: boolean;
	/** Seconds this batch waited for the service's rate limit (HTTP 429) before it was sent. */
	waitedSec?: number;
	/** Output: Summary: the batch's messages in the run's columns, built only while it is sent. */
	span?: { start: number; end: number; sentIn?: number };
}

/**
 * Where the messages of a batch are kept when not in `entries` (Output: Summary, summaryRun.ts):
 * built just before the batch is sent (`open`), dropped once answered (`close`).
 */
export interface BatchStore {
	open(batch: Batch): void;
	close(batch: Batch): void;
}

/** A run of Send: its messages in batches, and the try of n8n's Retry On Fail it is in (1 without it). */
export interface SendRun extends PreparedRun {
	batches: Batch[];
	attempt: number;
	/** The waits for the rate limit (HTTP 429) of the whole run, across the tries of Retry On Fail. */
	rateLimit: { waits: number; waitedSec: number; refusedSec?: number };
	store?: BatchStore;
}

/** Groups the messages in order; no batch holds more messages than the Batch Size of any of its entries. */
export function makeBatches<T extends { batchSize: number }>(entries: T[]): T[][] {
	return batchSpans(entries.length, (index) => entries[index].batchSize).map(([start, end]) =>
		entries.slice(start, end),
	);
}

/** The batches of `count` messages in order, as [start, end) positions, by the Batch Size of each. */
export function batchSpans(
	count: number,
	batchSizeAt: (index: number) => number,
): Array<[number, number]> {
	const spans: Array<[number, number]> = [];
	let start = 0;
	let limit = Infinity;
	for (let index = 0; index < count; index++) {
		const size = batchSizeAt(index);
		const cap = Math.min(limit, size);
		if (index - start >= cap) {
			spans.push([start, index]);
			start = index;
			limit = size;
		} else {
			limit = cap;
		}
	}
	if (count > start) spans.push([start, count]);
	return spans;
}

/**
 * What the Batches in Flight of one try share: the batches not settled yet, handed out in order,
 * and the credential, read once for all of them. With `stopAtFailure`, no batch starts after one
 * failed or had a refused recipient; those already in flight finish, and `queue.stopped` is the
 * first failed batch (in order).
 */
interface Flight {
	run: SendRun;
	queue: WorkQueue<Batch>;
	stopAtFailure: boolean;
	credentials: () => Promise<SmsCredentials>;
}

export function newFlight(this: IExecuteFunctions, run: SendRun, stopAtFailure: boolean): Flight {
	let credentials: Promise<SmsCredentials> | undefined;
	return {
		run,
		queue: new WorkQueue(run.batches.filter((batch) => !batch.settled)),
		stopAtFailure,
		credentials: () => (credentials ??= smsCredentials.call(this)),
	};
}

/**
 * One of the Batches in Flight: sends the flight's next batch until none is left, and records
 * what became of each message. A batch refused with HTTP 429 was not taken: it is sent again
 * after Retry-After, within the run's cap.
 */
export async function sendBatches(this: IExecuteFunctions, flight: Flight): Promise<void> {
	const { run, queue } = flight;
	for (let index = queue.take(); index !== undefined; index = queue.take()) {
		const batch = queue.items[index];
		run.store?.open(batch);
		for (;;) {
			let results: SmsResult[];
			let requested = false;
			try {
				const credentials = await flight.credentials();
				requested = true;
				const messages = batch.entries.map((entry) => entry.message);
				results = await sendSmsBatch.call(this, messages, { credentials });
				checkDests(this, batch, results, run.countryCode);
			} catch (caught) {
				const error = asNodeError(this.getNode(), caught);
				if (await waitedForRateLimit(run, batch, error)) continue;
				const reached =
					requested && batchRetryAfterSec(error) === undefined && !neverReachedService(error);
				recordFailure(batch, error, reached, run.attempt);
				if (flight.stopAtFailure) queue.stop(index);
				break;
			}
			const summary = run.campaign?.summary === true;
			if (!recordResults(batch, results, run.attempt, summary) && flight.stopAtFailure)
				queue.stop(index);
			break;
		}
		run.store?.close(batch);
	}
}

/** After a 429: waits Retry-After when the run's cap allows (true), or says on the error why not. */
async function waitedForRateLimit(run: SendRun, batch: Batch, error: NodeError): Promise<boolean> {
	const wait = batchRetryAfterSec(error);
	if (wait === undefined) return false;
	if (!takeWait(run, wait)) {
		notWaited(error, run, wait);
		return false;
	}
	batch.waitedSec = (batch.waitedSec ?? 0) + wait;
	await sleep(wait * 1000);
	return true;
}

/** Whether the run may wait `seconds` more for the rate limit (SMS_RATE_LIMIT); counts the wait. */
function takeWait(run: SendRun, seconds: number): boolean {
	const { maxWaitSec, maxTotalWaitSec } = SMS_RATE_LIMIT;
	if (seconds > maxWaitSec || run.rateLimit.waitedSec + seconds > maxTotalWaitSec) {
		run.rateLimit.refusedSec = seconds;
		return false;
	}
	run.rateLimit.waits++;
	run.rateLimit.waitedSec += seconds;
	return true;
}

/** The 429 failure of a batch that was not sent again: says which cap stopped it. */
function notWaited(error: NodeError, run: SendRun, seconds: number): void {
	const { maxWaitSec, maxTotalWaitSec } = SMS_RATE_LIMIT;
	error.description = [
		error.description,
		seconds > maxWaitSec
			? `A wait of more than ${maxWaitSec} s is not made within a run.`
			: `This run already waited ${run.rateLimit.waitedSec} s for the rate limit, and waits at ` +
				`most ${maxTotalWaitSec} s in all.`,
		'These messages were not sent: under Retry On Fail, a later try sends them.',
	]
		.filter(Boolean)
		.join(' ');
}

function recordFailure(batch: Batch, error: NodeError, reached: boolean, attempt: number): void {
	batch.settled = reached;
	for (const entry of batch.entries)
		entry.outcome = { kind: 'batchFailed', error, reached, attempt };
}

/**
 * Each message's result; false when the service refused any of them. For Output: Summary a sent
 * message keeps only what the summary counts: the whole result of 100,000 messages would stay in
 * n8n's memory until the run ends, for one output item.
 */
function recordResults(
	batch: Batch,
	results: SmsResult[],
	attempt: number,
	summary: boolean,
): boolean {
	batch.settled = true;
	let allSent = true;
	for (let index = 0; index < results.length; index++) {
		const result = results[index];
		const entry = batch.entries[index];
		if (summary && isSmsSent(result)) {
			const { message_id, total_charge } = result;
			entry.outcome = { kind: 'sent', result: { message_id, total_charge }, attempt };
			continue;
		}
		shareEchoedText(result, entry.message, results[index - 1]);
		if (isSmsSent(result)) {
			// The result object was just parsed for this run: extended in place, not copied.
			result.inputItem = entry.itemIndex;
			result.segments = entry.estimate.segments;
			result.encoding = entry.estimate.encoding;
			// One credit per SMS part (the provider's pricing); the service's total_charge, when given, is the fact.
			result.estimatedCredits = entry.estimate.segments;
			if (batch.waitedSec) result.rateLimitWaitSec = batch.waitedSec;
			entry.outcome = { kind: 'sent', result, attempt };
		} else {
			allSent = false;
			entry.outcome = {
				kind: 'refused',
				status: String(result.status ?? ''),
				description: String(result.description ?? ''),
				attempt,
			};
		}
	}
	return allSent;
}

/**
 * The service echoes the text, the sender and the batch's send time in every result, each parsed
 * into a string of its own: where equal, the result holds the one already kept (the message's, or
 * the previous result's), so that 100,000 results do not hold 100,000 copies of the same text.
 */
function shareEchoedText(result: SmsResult, message: SmsMessage, previous?: SmsResult): void {
	if (result === null || typeof result !== 'object') return;
	if (result.message === message.message) result.message = message.message;
	if (result.sender === message.sender) result.sender = message.sender;
	if (result.dest === message.dest) result.dest = message.dest;
	if (previous === undefined || previous === null || typeof previous !== 'object') return;
	for (const key of ECHOED_ALIKE)
		if (result[key] === previous[key] && typeof previous[key] === 'string')
			result[key] = previous[key];
}

/** Fields whose value is usually the same in every result of a batch. */
const ECHOED_ALIKE = ['service', 'status', 'sendtime'] as const;

/** Results match messages by position (the count is checked by the transport) and, when given, by dest. */
function checkDests(
	context: IExecuteFunctions,
	batch: Batch,
	results: SmsResult[],
	countryCode: string,
): void {
	const wrong = results.findIndex((result, index) => {
		// Most answers echo the number as sent: no need to read it again.
		if (result.dest === batch.entries[index].message.dest) return false;
		// The service may answer a number in another form than it was sent (0… for 972…).
		const answered = digitsOf(result.dest);
		return (
			answered !== '' && phoneIdentity(answered, countryCode) !== batch.entries[index].identity
		);
	});
	if (wrong < 0) return;
	const size = batch.entries.length;
	throw new NodeOperationError(
		context.getNode(),
		`The ${SMS_LABEL} service answered result ${wrong + 1} of a batch of ${size} ` +
			`for ${String(results[wrong].dest)} instead of ${batch.entries[wrong].message.dest}`,
		{
			description:
				`All ${size} messages of this batch were sent to the service and may have ` +
				`been delivered; the results are not in request order, so none is reported. ` +
				`Check the notifications report before sending again.`,
		},
	);
}
