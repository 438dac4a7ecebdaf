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
 * Sends the batches not settled yet, in order. After a batch that failed or has a refused
 * recipient, `onFailure` decides whether the run stops (it throws) or goes on.
 */
export async function sendBatches(this: IExecuteFunctions, run: SendRun, onFailure: (batch: Batch) => void): Promise<void> {
	let credentials: SmsCredentials | undefined;
	for (const batch of run.batches) {
		if (batch.settled) continue;
		let results: SmsResult[];
		let requested = false;
		try {
			credentials ??= await smsCredentials.call(this);
			requested = true;
			results = await sendSmsBatch.call(this, batch.entries.map((entry) => entry.message), { credentials });
			checkDests(this, batch, results);
		} catch (caught) {
			const error = asNodeError(this.getNode(), caught);
			recordFailure(batch, error, requested && !batchNeverReachedService(error), run.attempt);
			onFailure(batch);
			continue;
		}
		if (!recordResults(batch, results, run.attempt)) onFailure(batch);
	}
}

function recordFailure(batch: Batch, error: NodeError, reached: boolean, attempt: number): void {
	batch.settled = reached;
	for (const entry of batch.entries) entry.outcome = { kind: 'batchFailed', error, reached, attempt };
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
			entry.outcome = { kind: 'refused', status: String(result.status ?? ''), description: String(result.description ?? ''), attempt };
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
