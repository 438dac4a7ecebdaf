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
import type { SummaryColumns } from './summaryRun';

/**
 * The error items, in input order: an input item that failed its checks (every item when the
 * credit check failed), or each of its recipients whose message was not sent. Returns the count
 * of those recipients.
 */
function errorItems(
	node: INode,
	run: SendRun,
	columns: SummaryColumns,
	errorItemOf: (entry: Entry) => INodeExecutionData,
	errors: INodeExecutionData[],
	creditFailure?: NodeError,
): number {
	if (creditFailure) {
		const failures = new Map(columns.failedItems.map((item) => [item.itemIndex, item.failure]));
		for (let index = 0; index < columns.itemCount; index++)
			errors.push(errorItem(node, failures.get(index) ?? creditFailure, index));
		return 0;
	}
	// The items that failed their checks and the recipients not sent, merged in input order.
	const failedItems = columns.failedItems;
	let next = 0;
	const itemsBefore = (itemIndex: number) => {
		for (; next < failedItems.length && failedItems[next].itemIndex < itemIndex; next++) {
			const { failure, itemIndex: index } = failedItems[next];
			if (failure) errors.push(errorItem(node, failure, index));
		}
	};
	let failed = 0;
	for (const batch of run.batches) {
		for (const entry of columns.unsent(batch)) {
			if (entry.outcome?.kind === 'sent') continue;
			itemsBefore(entry.itemIndex);
			failed++;
			errors.push(errorItemOf(entry));
		}
	}
	itemsBefore(Infinity);
	return failed;
}

/** An error item for each input item or recipient that failed, then the summary item. */
export function summaryItems(
	node: INode,
	run: SendRun,
	columns: SummaryColumns,
	errorItemOf: (entry: Entry) => INodeExecutionData,
	creditFailure?: NodeError,
): INodeExecutionData[] {
	const output: INodeExecutionData[] = [];
	const failed = errorItems(node, run, columns, errorItemOf, output, creditFailure);
	const sending = creditFailure === undefined;
	const { sent, credits } = columns.parts;
	const { first, last } = columns.messageIdRange();
	const notSent = sending ? columns.notSent : { optedOut: 0, sameNumber: 0, outsideWindow: 0 };
	const json: IDataObject = {
		campaignId: run.campaign?.id,
		recipients: sending
			? columns.count + notSent.optedOut + notSent.sameNumber + notSent.outsideWindow
			: 0,
		sent,
		notSent: { ...notSent },
		failed,
		failedItems: sending ? columns.failedItems.length : columns.itemCount,
		smsParts: credits,
		// One credit per SMS part (the provider's pricing); chargedCredits: the service's total_charge.
		estimatedCredits: credits,
		chargedCredits: columns.charged ?? null,
		firstMessageId: first ?? null,
		lastMessageId: last ?? null,
		tries: run.attempt,
	};
	const pairedItem = Array.from({ length: columns.itemCount }, (_, item) => ({ item }));
	output.push({ json, pairedItem });
	return output;
}
