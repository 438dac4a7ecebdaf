/**
 * Send's Output: Summary: one item for the whole run instead of one per recipient, so that a
 * campaign of 100,000 recipients does not make n8n keep 100,000 output items. Every failure is
 * still its own error item, paired to its input item, before the summary: n8n moves them to the
 * error output under "Continue (using error output)", and under Continue On Fail its Retry On
 * Fail tries again when the first item is an error, as with one item per recipient.
 */
import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';

import { errorItem, type NodeError } from '../../../shared/errors';
import type { SendRun } from './batches';
import type { Entry } from './prepare';

interface Tally {
	recipients: number;
	sent: number;
	optedOut: number;
	sameNumber: number;
	outsideWindow: number;
	failed: number;
	smsParts: number;
	charged?: number;
	firstMessageId?: unknown;
	lastMessageId?: unknown;
}

function count(tally: Tally, entry: Entry): void {
	tally.recipients++;
	const { outcome } = entry;
	if (entry.duplicateOf !== undefined) tally.sameNumber++;
	else if (entry.notSent === 'optedOut') tally.optedOut++;
	else if (entry.notSent === 'outsideWindow') tally.outsideWindow++;
	else if (outcome?.kind === 'sent') {
		tally.sent++;
		tally.smsParts += entry.estimate.segments;
		const charge = Number(outcome.result.total_charge);
		if (Number.isFinite(charge) && outcome.result.total_charge !== undefined)
			tally.charged = (tally.charged ?? 0) + charge;
		tally.firstMessageId ??= outcome.result.message_id;
		tally.lastMessageId = outcome.result.message_id;
	} else tally.failed++;
}

/** An error item for each input item or recipient that failed, then the summary item. */
export function summaryItems(
	node: INode,
	run: SendRun,
	campaignId: string,
	errorItemOf: (entry: Entry) => INodeExecutionData,
	creditFailure?: NodeError,
): INodeExecutionData[] {
	const tally: Tally = {
		recipients: 0,
		sent: 0,
		optedOut: 0,
		sameNumber: 0,
		outsideWindow: 0,
		failed: 0,
		smsParts: 0,
	};
	const errors: INodeExecutionData[] = [];
	let failedItems = 0;
	for (const item of run.items) {
		const failure = item.failure ?? creditFailure;
		if (failure) {
			failedItems++;
			errors.push(errorItem(node, failure, item.itemIndex));
			continue;
		}
		for (const entry of item.entries) {
			const failedBefore = tally.failed;
			count(tally, entry);
			if (tally.failed > failedBefore) errors.push(errorItemOf(entry));
		}
	}
	const json: IDataObject = {
		campaignId,
		recipients: tally.recipients,
		sent: tally.sent,
		notSent: {
			optedOut: tally.optedOut,
			sameNumber: tally.sameNumber,
			outsideWindow: tally.outsideWindow,
		},
		failed: tally.failed,
		failedItems,
		smsParts: tally.smsParts,
		// One credit per SMS part (the provider's pricing); chargedCredits: the service's total_charge.
		estimatedCredits: tally.smsParts,
		chargedCredits: tally.charged ?? null,
		firstMessageId: tally.firstMessageId ?? null,
		lastMessageId: tally.lastMessageId ?? null,
		tries: run.attempt,
	};
	const pairedItem = run.items.map((item) => ({ item: item.itemIndex }));
	errors.push({ json, pairedItem });
	return errors;
}
