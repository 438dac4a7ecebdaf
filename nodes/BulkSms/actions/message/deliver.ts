/**
 * Send, third: the run's messages go to ws_json_bulk.php in batches, each sent once, Batches in
 * Flight at a time, after Check Credit First. A batch the service may have received (it answered,
 * or its answer was lost) is settled: it is never sent again, not even by a retry of the node.
 *
 * Under n8n's Retry On Fail. n8n runs a failed node again, up to Max Tries, within the same run of
 * the node (WorkflowExecute's retry loop, n8n 1.x and 2.x): it does so after an error, and under
 * Continue On Fail whenever the first output item is an error item. Each try gets a new context;
 * what lasts between the tries is the execution's data. So the run (its messages, its batches and
 * what became of each) is kept in the node's context of the execution (`getContext('node')`),
 * under the node's run index: a later try sends only the batches that never reached the service,
 * and outputs what every try did. Only a small marker is kept as data ({ runIndex, tries }); the
 * run itself is held beside it, not enumerable, so it is never saved with the execution. A later
 * try that finds the marker but not the run (the data was copied between tries) refuses to send
 * anything (`refuseLostRun`).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { asNodeError, neverReachedService, type NodeError } from '../../../shared/errors';
import { SMS_RATE_LIMIT } from '../../../shared/limits';
import { retryOnFailTries } from '../../../shared/n8nCompat';
import { digitsOf, phoneIdentity } from '../../../shared/phones';
import {
	batchRetryAfterSec,
	creditBalance,
	isSmsSent,
	sendSmsBatch,
	smsCreditRequest,
	smsCredentials,
	SMS_LABEL,
	type SmsCredentials,
	type SmsResult,
} from '../../../shared/transport/smsApi';
import { type Batch, batchFailed, recipientsFailed, type SendRun, unfinishedRun } from './output';

/**
 * Check Credit First: the balance read once, before anything of the run is sent (a later try that
 * only resends batches the service never received does not read it again). Returns the failure
 * under Continue On Fail; throws it otherwise.
 */
export async function checkCredit(
	this: IExecuteFunctions,
	run: SendRun,
	continueOnFail: boolean,
): Promise<NodeError | undefined> {
	const recipients = run.output.count;
	if (!run.credit || recipients === 0 || run.batches.some((batch) => batch.settled))
		return undefined;
	try {
		const answer = await smsCreditRequest.call(this, run.credit.path, run.credit.itemIndex);
		const balance = creditBalance(answer);
		if (balance === undefined) {
			// The answer's shape is not in the spec: without a number there is nothing to compare.
			this.logger.warn(
				`${SMS_LABEL}: Check Credit First found no numeric balance in the answer ` +
					`of ${run.credit.path}; sending without a credit check`,
			);
		} else if (balance < recipients) {
			throw notEnoughCredit(this, run, balance);
		}
		return undefined;
	} catch (error) {
		const failure = asNodeError(this.getNode(), error, run.credit.itemIndex);
		if (!continueOnFail) throw failure;
		return failure;
	}
}

function notEnoughCredit(
	context: IExecuteFunctions,
	run: SendRun,
	balance: number,
): NodeOperationError {
	const recipients = run.output.count;
	const segments = run.output.segments();
	return new NodeOperationError(
		context.getNode(),
		`Not enough SMS credit: the balance is ${balance}, and this run has ${recipients} recipients`,
		{
			itemIndex: run.credit?.itemIndex,
			description:
				'Nothing was sent. Every recipient uses at least one credit' +
				(segments > recipients
					? ` (the messages take an estimated ${segments} SMS parts in all)`
					: '') +
				'. Top up the account or send to fewer recipients.',
		},
	);
}

/**
 * Sends the batches not settled yet, in order, a batch starting when fewer than Batches in Flight
 * are out; the credential is read once for all of them. Without Continue On Fail no batch starts
 * after one failed or had a refused recipient: those already out finish, and the node fails with
 * the first failed batch (in order), listing what was sent. Under Retry On Fail without Continue
 * On Fail, it also fails when messages of earlier tries were refused or may have been sent, so
 * that nothing passes on as sent that was not.
 */
export async function deliver(
	this: IExecuteFunctions,
	run: SendRun,
	retry: boolean,
	continueOnFail: boolean,
): Promise<void> {
	let reading: Promise<SmsCredentials> | undefined;
	const credentials = () => (reading ??= smsCredentials.call(this));
	const out = new Set<Promise<void>>();
	let failed: number | undefined;
	for (let index = 0; index < run.batches.length; index++) {
		if (run.batches[index].settled) continue;
		while (out.size >= run.inFlight) await Promise.race(out);
		if (failed !== undefined && !continueOnFail) break;
		const sending = sendBatch.call(this, run, run.batches[index], credentials).then((sent) => {
			if (!sent && (failed === undefined || index < failed)) failed = index;
			out.delete(sending);
		});
		out.add(sending);
	}
	await Promise.all(out);
	const entries = () => run.output.entries(run.batches);
	if (failed !== undefined && !continueOnFail) {
		const batch = run.batches[failed];
		const failure = batch.entries[0].outcome;
		throw failure?.kind === 'batchFailed'
			? batchFailed(failure.error, entries(), batch, retry)
			: recipientsFailed(this.getNode(), entries(), retry);
	}
	const unfinished =
		retry && !continueOnFail ? unfinishedRun(this.getNode(), entries()) : undefined;
	if (unfinished) throw unfinished;
}

/**
 * One batch, and what became of each of its messages; false when it failed or the service refused
 * any of them. A batch refused with HTTP 429 was not taken: it is sent again after Retry-After,
 * within the run's cap.
 */
async function sendBatch(
	this: IExecuteFunctions,
	run: SendRun,
	batch: Batch,
	credentials: () => Promise<SmsCredentials>,
): Promise<boolean> {
	run.output.open(batch);
	try {
		for (;;) {
			let results: SmsResult[];
			let requested = false;
			try {
				const read = await credentials();
				requested = true;
				const messages = batch.entries.map((entry) => entry.message);
				results = await sendSmsBatch.call(this, messages, { credentials: read });
				checkDests(this, batch, results, run.countryCode);
			} catch (caught) {
				const error = asNodeError(this.getNode(), caught);
				if (await waitedForRateLimit(run, batch, error)) continue;
				const reached =
					requested && batchRetryAfterSec(error) === undefined && !neverReachedService(error);
				recordFailure(batch, error, reached, run.attempt);
				return false;
			}
			return recordResults(batch, results, run.attempt);
		}
	} finally {
		run.output.close(batch);
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

/** Each message's result (the output keeps what it needs of it); false when the service refused any. */
function recordResults(batch: Batch, results: SmsResult[], attempt: number): boolean {
	batch.settled = true;
	let allSent = true;
	for (let index = 0; index < results.length; index++) {
		const result = results[index];
		const entry = batch.entries[index];
		if (isSmsSent(result)) {
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

// ---- what lasts between the tries of Retry On Fail ---------------------------------------------

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
