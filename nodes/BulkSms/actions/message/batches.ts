/**
 * Send, phase 2: the messages of the run go to ws_json_bulk.php in batches, each sent once. A
 * batch the service may have received (it answered, or its answer was lost) is settled: it is
 * never sent again, not even by a retry of the node (Retry On Fail, see tries.ts).
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asNodeError, type NodeError } from '../../../shared/errors';
import {
	batchNeverReachedService,
	isSmsSent,
	sendSmsBatch,
	smsCredentials,
	SMS_LABEL,
	type SmsCredentials,
	type SmsResult,
} from '../../../shared/transport/smsApi';
import type { Entry, PreparedRun } from './prepare';

export interface Batch {
	entries: Entry[];
	/** The service may have received it: it is never sent again. */
	settled: boolean;
}

/** A run of Send: its messages in batches, and the try of n8n's Retry On Fail it is in (1 without it). */
export interface SendRun extends PreparedRun {
	batches: Batch[];
	attempt: number;
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
	let next = 0;
	let failed: number | undefined;
	const worker = async () => {
		while (next < pending.length && failed === undefined) {
			const index = next++;
			const sent = await sendBatch.call(this, pending[index], run.attempt, credentialsOf);
			if (!sent && options.stopAtFailure && (failed === undefined || index < failed))
				failed = index;
		}
	};
	await Promise.all(Array.from({ length: Math.min(options.inFlight, pending.length) }, worker));
	return failed === undefined ? undefined : pending[failed];
}

/** Sends one batch and records what became of each message; false when any was not sent. */
async function sendBatch(
	this: IExecuteFunctions,
	batch: Batch,
	attempt: number,
	credentialsOf: () => Promise<SmsCredentials>,
): Promise<boolean> {
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
		checkDests(this, batch, results);
	} catch (caught) {
		const error = asNodeError(this.getNode(), caught);
		recordFailure(batch, error, requested && !batchNeverReachedService(error), attempt);
		return false;
	}
	return recordResults(batch, results, attempt);
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
		if (isSmsSent(result)) {
			// The result object was just parsed for this run: extended in place, not copied.
			result.inputItem = entry.itemIndex;
			result.segments = entry.estimate.segments;
			result.encoding = entry.estimate.encoding;
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
function checkDests(context: IExecuteFunctions, batch: Batch, results: SmsResult[]): void {
	const wrong = results.findIndex((result, index) => {
		const answered = String(result.dest ?? '').replace(/\D/g, '');
		return answered !== '' && answered !== batch.entries[index].message.dest;
	});
	if (wrong < 0) return;
	const size = batch.entries.length;
	throw new NodeOperationError(
		context.getNode(),
		`The ${SMS_LABEL} service answered result ${wrong + 1} of a batch of ${size} for ${String(results[wrong].dest)} instead of ${batch.entries[wrong].message.dest}`,
		{
			description: `All ${size} messages of this batch were sent to the service and may have been delivered; the results are not in request order, so none is reported. Check the notifications report before sending again.`,
		},
	);
}
