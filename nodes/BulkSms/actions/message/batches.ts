/**
 * Send, then: the messages of the run go to ws_json_bulk.php in batches, each sent once. A
 * batch the service may have received (it answered, or its answer was lost) is settled: it is
 * never sent again, not even by a retry of the node (Retry On Fail, see tries.ts).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { asNodeError, neverReachedService, type NodeError } from '../../../shared/errors';
import { retryOnFailTries } from '../../../shared/n8nCompat';
import { digitsOf, phoneIdentity } from '../../../shared/phones';
import { inPool } from '../../../shared/pool';
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
}

/** A run of Send: its messages in batches, and the try of n8n's Retry On Fail it is in (1 without it). */
export interface SendRun extends PreparedRun {
	batches: Batch[];
	attempt: number;
	/** The waits for the rate limit (HTTP 429) of the whole run, across the tries of Retry On Fail. */
	rateLimit: { waits: number; waitedSec: number; refusedSec?: number };
}

/** Groups the messages in order; no batch holds more messages than the Batch Size of any of its entries. */
export function makeBatches<T extends { batchSize: number }>(entries: T[]): T[][] {
	const batches: T[][] = [];
	let current: T[] = [];
	let limit = Infinity;
	for (const entry of entries) {
		const cap = Math.min(limit, entry.batchSize);
		if (current.length >= cap) {
			batches.push(current);
			current = [];
			limit = entry.batchSize;
		} else {
			limit = cap;
		}
		current.push(entry);
	}
	if (current.length > 0) batches.push(current);
	return batches;
}

/**
 * Sends the batches not settled yet, in order, `inFlight` at a time (1: one after the other).
 * With `stopAtFailure`, no batch starts after one failed or had a refused recipient; the batches
 * already in flight finish, and the first failed batch (in order) is returned.
 */
export async function sendBatches(
	this: IExecuteFunctions,
	run: SendRun,
	options: { inFlight: number; stopAtFailure: boolean },
): Promise<Batch | undefined> {
	const pending = run.batches.filter((batch) => !batch.settled);
	let credentials: Promise<SmsCredentials> | undefined;
	const credentialsOf = () => (credentials ??= smsCredentials.call(this));
	const failed = await inPool(pending, options.inFlight, async (batch) => {
		const sent = await sendBatch.call(this, batch, run, credentialsOf);
		return sent || !options.stopAtFailure;
	});
	return failed;
}

/**
 * Sends one batch and records what became of each message; false when any was not sent. A batch
 * refused with HTTP 429 was not taken: it is sent again after Retry-After, within the run's cap.
 */
async function sendBatch(
	this: IExecuteFunctions,
	batch: Batch,
	run: SendRun,
	credentialsOf: () => Promise<SmsCredentials>,
): Promise<boolean> {
	const { attempt } = run;
	for (;;) {
		let results: SmsResult[];
		let requested = false;
		try {
			const credentials = await credentialsOf();
			requested = true;
			results = await sendSmsBatch.call(
				this,
				batch.entries.map((entry) => entry.message),
				{ credentials },
			);
			checkDests(this, batch, results, run.countryCode);
		} catch (caught) {
			const error = asNodeError(this.getNode(), caught);
			const wait = batchRetryAfterSec(error);
			if (wait !== undefined && takeWait(run, wait)) {
				batch.waitedSec = (batch.waitedSec ?? 0) + wait;
				await sleep(wait * 1000);
				continue;
			}
			if (wait !== undefined) notWaited(error, run, wait);
			const reached = requested && wait === undefined && !neverReachedService(error);
			recordFailure(batch, error, reached, attempt);
			return false;
		}
		return recordResults(batch, results, attempt);
	}
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

/** Each message's result; false when the service refused any of them. */
function recordResults(batch: Batch, results: SmsResult[], attempt: number): boolean {
	batch.settled = true;
	let allSent = true;
	for (let index = 0; index < results.length; index++) {
		const result = results[index];
		const entry = batch.entries[index];
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

// ---- Retry On Fail: the run kept between the tries ------------------------------------------

/**
 * Send under n8n's Retry On Fail. n8n runs a failed node again, up to Max Tries, within the same
 * run of the node (WorkflowExecute's retry loop, n8n 1.x and 2.x): it does so after an error, and
 * under Continue On Fail whenever the first output item is an error item. Each try gets a new
 * context; what lasts between the tries is the execution's data. So the run of Send (its messages,
 * its batches and what became of each) is kept in the node's context of the execution
 * (`getContext('node')`), under the node's run index: a later try sends only the batches that
 * never reached the service, and outputs what every try did.
 *
 * Only a small marker is kept as data ({ runIndex, tries }); the run itself is held beside it, not
 * enumerable, so it is never saved with the execution. A later try that finds the marker but not
 * the run (the data was copied between tries) refuses to send anything (`lostRun`).
 */
const KEY = 'bulkSmsSend';

interface Marker {
	runIndex: number;
	tries: number;
	run?: SendRun;
}

function store(context: IExecuteFunctions): IDataObject {
	return context.getContext('node') as IDataObject;
}

function runIndexOf(context: IExecuteFunctions): number {
	return Number(context.getWorkflowDataProxy(0).$runIndex ?? 0);
}

/** The marker of this run of the node, left by an earlier try. */
function markerOf(context: IExecuteFunctions): Marker | undefined {
	const marker = store(context)[KEY] as Marker | undefined;
	return marker && marker.runIndex === runIndexOf(context) ? marker : undefined;
}

/** The run an earlier try of this run of the node left, if any. */
export function earlierRun(context: IExecuteFunctions): SendRun | undefined {
	return markerOf(context)?.run;
}

/** Refuses a try that follows one which may have sent messages, when what it sent is not known any more. */
export function refuseLostRun(this: IExecuteFunctions): void {
	const marker = markerOf(this);
	if (!marker || marker.run) return;
	throw new NodeOperationError(
		this.getNode(),
		`This is try ${marker.tries + 1} of Retry On Fail, and what the earlier ` +
			`tries sent is no longer known: nothing was sent`,
		{
			description:
				'An earlier try of this run may have sent messages, so this one sends none ' +
				'rather than risk sending them twice. Check the notifications report for ' +
				'what was sent.',
		},
	);
}

/** Keeps the run for the next try (the run's `attempt` is this try's number). */
export function keepRun(context: IExecuteFunctions, run: SendRun): void {
	const marker: Marker = { runIndex: runIndexOf(context), tries: run.attempt };
	Object.defineProperty(marker, 'run', {
		value: run,
		enumerable: false,
		writable: true,
		configurable: true,
	});
	store(context)[KEY] = marker as unknown as IDataObject;
}

/**
 * After a try: n8n tries again after an error, or after output whose first item is an error item,
 * until Max Tries. When it will not, the run is dropped (the marker stays after a failed last try,
 * so that a try beyond it could never send again).
 */
export function endTry(context: IExecuteFunctions, run: SendRun, failed: boolean): void {
	const last = run.attempt >= retryOnFailTries(context.getNode());
	const data = store(context);
	if (!failed) delete data[KEY];
	else if (last) (data[KEY] as unknown as Marker).run = undefined;
}
