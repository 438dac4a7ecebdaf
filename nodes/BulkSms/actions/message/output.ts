/**
 * Send, phase 3: the output, one item per recipient in input order, each paired to its input
 * item: the service's result for a sent message, an error item (Continue On Fail) for a message
 * that was not sent or may not have been, one error item for an input item that failed its checks.
 */
import type { INode, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { errorItem, type NodeError } from '../../../shared/errors';
import type { SendRun } from './batches';
import type { Entry } from './prepare';
import { recipientRefused } from './report';

/** `retry`: Retry On Fail is on, and each item says in which try its message was sent (`attempt`). */
export function outputItems(
	node: INode,
	run: SendRun,
	retry: boolean,
	creditFailure?: NodeError,
): INodeExecutionData[] {
	const output: INodeExecutionData[] = [];
	for (const item of run.items) {
		const failure = item.failure ?? creditFailure;
		if (failure) {
			output.push(errorItem(node, failure, item.itemIndex));
			continue;
		}
		for (const entry of item.entries) output.push(entryItem(node, entry, retry));
	}
	return output;
}

function entryItem(node: INode, entry: Entry, retry: boolean): INodeExecutionData {
	const { outcome, itemIndex, message } = entry;
	if (outcome?.kind === 'sent') {
		if (retry) outcome.result.attempt = outcome.attempt;
		return { json: outcome.result, pairedItem: { item: itemIndex } };
	}
	const details = {
		recipient: message.dest,
		sender: message.sender,
		...(retry && outcome ? { attempt: outcome.attempt } : {}),
	};
	if (outcome?.kind === 'refused') {
		return errorItem(
			node,
			recipientRefused(node, entry, outcome.status, outcome.description),
			itemIndex,
			{
				code: outcome.status || undefined,
				details,
			},
		);
	}
	return errorItem(node, outcome?.error ?? notSent(node, entry), itemIndex, { details });
}

function notSent(node: INode, entry: Entry): NodeOperationError {
	return new NodeOperationError(node, `The message to ${entry.message.dest} was not sent`, {
		itemIndex: entry.itemIndex,
	});
}
