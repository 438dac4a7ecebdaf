/**
 * What Send says when it stops: which messages were sent (message id → recipient, and in which
 * try), which the service refused, which may have been sent (their batch's answer was lost), and
 * which were not sent. As text in the error's description and as lists in its data.
 */
import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { errorItem, type NodeError } from '../../../shared/errors';
import type { Batch, SendRun } from './batches';
import type { Entry } from './prepare';

interface SentRecord extends IDataObject {
	dest: string;
	message_id: number | string;
	inputItem: number;
}

interface FailedRecord extends IDataObject {
	dest: string;
	status: string;
	description: string;
	inputItem: number;
}

const LISTED_IN_MESSAGE = 10;
const LISTED_IN_DESCRIPTION = 200;

function listSome<T>(records: T[], max: number, format: (record: T) => string): string {
	const shown = records.slice(0, max).map(format).join('; ');
	return records.length > max
		? `${shown}; … and ${records.length - max} more (all are in the error's data)`
		: shown;
}

const showSent = (r: SentRecord) =>
	`${String(r.message_id)} → ${r.dest} (item ${r.inputItem}${r.attempt ? `, try ${String(r.attempt)}` : ''})`;
const showFailed = (r: FailedRecord) =>
	`${r.dest} (item ${r.inputItem}): ${r.status}${r.description ? ` – ${r.description}` : ''}`;
const recipient = (entry: Entry) => ({ dest: entry.message.dest, inputItem: entry.itemIndex });
const itemSpan = (entries: Entry[]) =>
	`items ${entries[0].itemIndex}-${entries[entries.length - 1].itemIndex}`;

/**
 * The messages of a run by what became of them, `except` the batch that just failed (told apart);
 * `retry`: each sent one says in which try. `later`: every message not sent comes after all others.
 */
function tally(run: SendRun, retry: boolean, except?: Batch) {
	const skip = new Set(except?.entries);
	const sent: SentRecord[] = [];
	const refused: FailedRecord[] = [];
	const maybeSent: Entry[] = [];
	const notSent: Entry[] = [];
	let later = true;
	for (const entry of run.entries) {
		const outcome = skip.has(entry) ? undefined : entry.outcome;
		if (outcome?.kind === 'sent') {
			const record: SentRecord = {
				dest: entry.message.dest,
				message_id: outcome.result.message_id as number,
				inputItem: entry.itemIndex,
			};
			if (retry) record.attempt = outcome.attempt;
			sent.push(record);
		} else if (outcome?.kind === 'refused') {
			refused.push({
				dest: entry.message.dest,
				status: outcome.status,
				description: outcome.description,
				inputItem: entry.itemIndex,
			});
		} else if (outcome?.kind === 'batchFailed' && outcome.reached) {
			maybeSent.push(entry);
		} else if (!skip.has(entry)) {
			notSent.push(entry);
			continue;
		}
		if (notSent.length > 0) later = false;
	}
	return { sent, refused, maybeSent, notSent, later };
}

/** What was sent, what may have been, and what was not, as text and as data. */
function progress(
	run: SendRun,
	retry: boolean,
	except?: Batch,
): { text: string; data: IDataObject; refused: FailedRecord[] } {
	const { sent, refused, maybeSent, notSent, later } = tally(run, retry, except);
	const lines = [
		sent.length > 0
			? `Already sent (${sent.length}, do not send them again), message id → recipient: ` +
				`${listSome(sent, LISTED_IN_DESCRIPTION, showSent)}.`
			: 'No message of this run was confirmed as sent before this failure.',
		maybeSent.length > 0
			? `Possibly sent (${maybeSent.length}), never sent again: the messages of ` +
				`a batch whose answer was lost, ${itemSpan(maybeSent)}; check the notifications ` +
				`report before sending them again.`
			: '',
		notSent.length > 0
			? `Not sent (${notSent.length}): the messages of ${later ? 'the later batches, ' : ''}${itemSpan(notSent)}.`
			: '',
	];
	const data: IDataObject = { sent, notSent: notSent.map(recipient) };
	if (maybeSent.length > 0) data.possiblySent = maybeSent.map(recipient);
	return { text: lines.filter(Boolean).join('\n'), data, refused };
}

const RETRY_LINE =
	'Retry On Fail is on: a retry sends only the messages that never reached ' +
	'the service; none that may have reached it is sent again.';

/** The node's error when recipients were refused (without Continue On Fail). */
export function recipientsFailed(node: INode, run: SendRun, retry: boolean): NodeOperationError {
	const done = progress(run, retry);
	const failed = done.refused;
	const tokenHint = failed.some((f) => /\btoken\b/i.test(f.description))
		? "The service reports a missing token: check the credential's Access Token.\n"
		: '';
	const error = new NodeOperationError(
		node,
		`${failed.length} of ${run.entries.length} SMS messages failed: ${listSome(failed, LISTED_IN_MESSAGE, showFailed)}`,
		{
			itemIndex: failed[0]?.inputItem,
			description: [
				`Failed (${failed.length}): ${listSome(failed, LISTED_IN_DESCRIPTION, showFailed)}.`,
				tokenHint + done.text,
				retry ? RETRY_LINE : '',
				'Turn on Continue On Fail (Settings → On Error) to get the failed recipients as error items beside the sent ones.',
			]
				.filter(Boolean)
				.join('\n'),
		},
	);
	error.context.data = { failed, ...done.data };
	return error;
}

/**
 * A failure of a whole batch (HTTP error, wrong number of results…), told with what was sent
 * before it, the messages of the failed batch itself, and what was not sent.
 */
export function batchFailed(
	error: NodeError,
	run: SendRun,
	batch: Batch,
	retry: boolean,
): NodeError {
	const done = progress(run, retry, batch);
	const outcome = batch.entries[0].outcome;
	const reached = outcome?.kind !== 'batchFailed' || outcome.reached;
	const fate = reached
		? 'In the failed batch, possibly sent (check the notifications report before sending them again)'
		: 'Not sent';
	const inBatch =
		`${fate} ` + `(${batch.entries.length}): the messages of ${itemSpan(batch.entries)}.`;
	error.description = [error.description, done.text, inBatch, retry ? RETRY_LINE : '']
		.filter(Boolean)
		.join('\n');
	const before = (error.context.data ?? {}) as IDataObject;
	error.context.data = { ...before, ...done.data, failedBatch: batch.entries.map(recipient) };
	return error;
}

/**
 * Under Retry On Fail without Continue On Fail: the end of a try whose own batches all went out,
 * while messages of earlier tries were refused or may have been sent. The node still fails, so
 * that nothing passes on as sent that was not.
 */
export function unfinishedRun(node: INode, run: SendRun): NodeOperationError | undefined {
	const done = progress(run, true);
	if (done.refused.length > 0) return recipientsFailed(node, run, true);
	const maybe = (done.data.possiblySent as IDataObject[] | undefined)?.length ?? 0;
	if (maybe === 0) return undefined;
	const error = new NodeOperationError(
		node,
		`${maybe} of ${run.entries.length} SMS messages may have been sent: the ` +
			`answer to their batch was lost, and they were not sent again`,
		{
			description: [done.text, RETRY_LINE].join('\n'),
		},
	);
	error.context.data = done.data;
	return error;
}

/** The error of one recipient the service refused, in the package's error item shape. */
function recipientRefused(
	node: INode,
	entry: Entry,
	status: string,
	description: string,
): NodeOperationError {
	return new NodeOperationError(
		node,
		`The message to ${entry.message.dest} was not sent: ${status || 'no status'}`,
		{
			itemIndex: entry.itemIndex,
			description: [
				description ? `The service said: "${description}".` : '',
				'The other recipients are not affected. Fix the number or the sender, then send to this recipient again.',
			]
				.filter(Boolean)
				.join(' '),
		},
	);
}

// ---- the output items -----------------------------------------------------------------------

/**
 * The output of Send, one item per recipient in input order, each paired to its input
 * item: the service's result for a sent message, an error item (Continue On Fail) for a message
 * that was not sent or may not have been, one error item for an input item that failed its checks.
 */
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
		for (const entry of item.entries) output.push(entryItem(node, entry, retry, run.campaign?.id));
	}
	return output;
}

/** The output item of one recipient; `campaignId`: the run's (Campaign options), in every item. */
export function entryItem(
	node: INode,
	entry: Entry,
	retry: boolean,
	campaignId?: string,
): INodeExecutionData {
	const { outcome, itemIndex, message } = entry;
	if (entry.duplicateOf !== undefined) return duplicateItem(entry, entry.duplicateOf, campaignId);
	if (entry.notSent) return campaignNotSentItem(entry, campaignId);
	if (outcome?.kind === 'sent') {
		if (retry) outcome.result.attempt = outcome.attempt;
		if (campaignId !== undefined) {
			// The exact text sent (an advertisement adds to the message), whatever the service echoes.
			outcome.result.message = message.message;
			outcome.result.campaignId = campaignId;
		}
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

/** Send Once per Number: a number an earlier item was sent to; nothing sent, nothing charged. */
function duplicateItem(entry: Entry, sentWith: number, campaignId?: string): INodeExecutionData {
	return {
		json: {
			status: 'Not sent: same number as an earlier item',
			dest: entry.message.dest,
			inputItem: entry.itemIndex,
			sentWithItem: sentWith,
			estimatedCredits: 0,
			...(campaignId !== undefined ? { campaignId } : {}),
		},
		pairedItem: { item: entry.itemIndex },
	};
}

const CAMPAIGN_STATUS = {
	optedOut: 'Not sent: opted out',
	outsideWindow: 'Not sent: outside the sending window',
} as const;

/** A recipient the campaign did not send to (opted out, outside the window): not an error. */
function campaignNotSentItem(entry: Entry, campaignId?: string): INodeExecutionData {
	const json: IDataObject = {
		status: CAMPAIGN_STATUS[entry.notSent ?? 'optedOut'],
		dest: entry.message.dest,
		inputItem: entry.itemIndex,
		estimatedCredits: 0,
	};
	if (entry.nextOpening) json.nextOpening = entry.nextOpening;
	if (campaignId !== undefined) json.campaignId = campaignId;
	return { json, pairedItem: { item: entry.itemIndex } };
}

/** The messages sent and their SMS parts: how many, how many parts in all, how many had more than one, the most. */
export interface SentParts {
	sent: number;
	credits: number;
	multipart: number;
	mostParts: number;
}

/** The SMS parts of the messages of a run that were sent. */
export function sentParts(entries: Entry[]): SentParts {
	const parts = noneSent();
	for (const entry of entries)
		if (entry.outcome?.kind === 'sent') countSent(parts, entry.estimate.segments);
	return parts;
}

export const noneSent = (): SentParts => ({ sent: 0, credits: 0, multipart: 0, mostParts: 1 });

/** Counts a message sent, of `segments` SMS parts. */
export function countSent(parts: SentParts, segments: number): void {
	parts.sent++;
	parts.credits += segments;
	if (segments > 1) parts.multipart++;
	if (segments > parts.mostParts) parts.mostParts = segments;
}

/**
 * The run's hint when messages of more than one SMS part were sent: how many, and the credits the
 * whole run is expected to cost (one per part), so that a long text is never charged unnoticed.
 */
export function creditsHint({
	sent,
	credits,
	multipart,
	mostParts,
}: SentParts): string | undefined {
	if (multipart === 0) return undefined;
	return (
		`${multipart} of the ${sent} messages sent take more than one SMS part (up to ${mostParts}): ` +
		`an estimated ${credits} credits for this run, one per part. Shorten the text to use fewer.`
	);
}

/** The run's hint when the service's rate limit (HTTP 429) made it wait. */
export function rateLimitHint(run: SendRun): string | undefined {
	const { waits, waitedSec } = run.rateLimit;
	if (waits === 0) return undefined;
	return (
		`The SMS service answered HTTP 429 (too many requests) ${waits} time${waits > 1 ? 's' : ''}: ` +
		`the refused batches were sent again after waiting ${waitedSec} s in all, as it asked. ` +
		'No message was sent twice.'
	);
}
