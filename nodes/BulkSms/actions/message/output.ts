/**
 * Send, last: the run's messages and what became of each, kept the way the node outputs them. One
 * interface, `SendOutput`, two implementations: One Item per Recipient (here) and Output: Summary
 * (summary.ts, which keeps no object per recipient). The read step hands each checked item to the
 * output (`add`), the delivery asks it for each batch's messages (`open`) and hands each batch back
 * once answered (`close`), and the node's items come from it (`items`); none of them asks which
 * output it is. Also here: what Send says when it stops (the errors listing what was sent).
 */
import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { errorItem, type NodeError } from '../../../shared/errors';
import type { SegmentEstimate } from '../../../shared/limits';
import type { SmsMessage } from '../../../shared/transport/smsApi';

/** Why a message of the run is not sent (campaign.ts decides): never sent, never charged. */
export type NotSent = 'sameNumber' | 'optedOut' | 'outsideWindow';

/** One message: one recipient of one input item, and what became of it. */
export interface Entry {
	itemIndex: number;
	message: SmsMessage;
	estimate: SegmentEstimate;
	/** The number however it was written (phones.ts): one message per number of an item. */
	identity: string;
	/** The Batch Size of its item: no batch holding it is larger. */
	batchSize: number;
	notSent?: NotSent;
	/** Send Once per Number: the input item whose message to the same number is sent. */
	sentWithItem?: number;
	/** Outside the sending window (Do Not Send): when it opens next, ISO 8601. */
	nextOpening?: string;
	outcome?: Outcome;
}

/** What became of a message, and in which attempt of the node's run (1 without Retry On Fail). */
type Outcome =
	| { kind: 'sent'; result: IDataObject; attempt: number }
	| { kind: 'refused'; status: string; description: string; attempt: number }
	/** The whole batch failed; `reached`: the service may have received it (it is never sent again). */
	| { kind: 'batchFailed'; error: NodeError; reached: boolean; attempt: number };

/** An input item once read and checked: its failure, or its messages. */
export interface ItemPlan {
	itemIndex: number;
	failure?: NodeError;
	entries: Entry[];
}

export interface Batch {
	/** Its messages' positions among the run's messages to send: from `start`, until `end` (exclusive). */
	start: number;
	end: number;
	/** Its messages, while the output holds them (`open`). */
	entries: Entry[];
	/** The service may have received it: it is never sent again. */
	settled: boolean;
	/** Seconds this batch waited for the service's rate limit (HTTP 429) before it was sent. */
	waitedSec?: number;
}

/** A run of Send, one model whichever the output; it lasts across the tries of Retry On Fail. */
export interface SendRun {
	output: SendOutput;
	batches: Batch[];
	/** Batches sent at the same time: the smallest Batches in Flight of the items. */
	inFlight: number;
	/** The country of local numbers, for reading the numbers the service answers. */
	countryCode: string;
	/** Set when an item asks for Check Credit First: read once, by the first such item. */
	credit?: { itemIndex: number; path: string };
	/** The Campaign ID, when the Campaign options are set: in every output item. */
	campaignId?: string;
	/** The try of n8n's Retry On Fail this is (1 without it). */
	attempt: number;
	/** The waits for the rate limit (HTTP 429) of the whole run, across the tries of Retry On Fail. */
	rateLimit: { waits: number; waitedSec: number; refusedSec?: number };
}

/** Where the run's messages are kept, and how they become the node's output. */
export interface SendOutput {
	/** An input item once read and checked: its failure, or its messages (those not sent say why). */
	add(item: ItemPlan): void;
	/** The messages to send. */
	readonly count: number;
	/** The SMS parts of all the messages to send. */
	segments(): number;
	/** The run's batches in order, by the Batch Size of each message; none sent yet. */
	batches(): Batch[];
	/** Just before a batch is sent: its messages in `entries`. */
	open(batch: Batch): void;
	/** Once the batch was answered, or failed: keeps what the output needs of it. */
	close(batch: Batch): void;
	/** Every message to send, with what became of it: for the error of a run that stops. */
	entries(batches: Batch[]): Entry[];
	/** The messages sent and their SMS parts. */
	parts(): SentParts;
	/** The node's output items, each paired to its input item. */
	items(node: INode, run: SendRun, retry: boolean, creditFailure?: NodeError): INodeExecutionData[];
}

/** Every field of an entry set at once, so that none is added later (no extra property store per entry). */
export function newEntry(
	itemIndex: number,
	message: SmsMessage,
	estimate: SegmentEstimate,
	identity: string,
	batchSize: number,
): Entry {
	return {
		itemIndex,
		message,
		estimate,
		identity,
		batchSize,
		notSent: undefined,
		sentWithItem: undefined,
		nextOpening: undefined,
		outcome: undefined,
	};
}

/** The batches of `count` messages in order; no batch holds more messages than the Batch Size of any of them. */
export function batchesOf(count: number, batchSizeAt: (index: number) => number): Batch[] {
	const batches: Batch[] = [];
	const add = (start: number, end: number) =>
		batches.push({ start, end, entries: NO_ENTRIES, settled: false, waitedSec: undefined });
	let start = 0;
	let limit = Infinity;
	for (let index = 0; index < count; index++) {
		const size = batchSizeAt(index);
		const cap = Math.min(limit, size);
		if (index - start >= cap) {
			add(start, index);
			start = index;
			limit = size;
		} else {
			limit = cap;
		}
	}
	if (count > start) add(start, count);
	return batches;
}

/**
 * The entries of an item without messages (yet). Each item's entries are built at their size: every
 * object of the run lives until the node's output is saved, so 100,000 items with a list grown
 * by `push` from empty would hold 100,000 backing stores of 16 slots.
 */
export const NO_ENTRIES: Entry[] = [];

// ---- One Item per Recipient ---------------------------------------------------------------------

/**
 * The output of Send, one item per recipient in input order, each paired to its input item: the
 * service's result for a sent message, an error item (Continue On Fail) for a message that was not
 * sent or may not have been, one error item for an input item that failed its checks.
 */
export class PerRecipient implements SendOutput {
	private readonly plans: ItemPlan[] = [];
	/** The messages to send, in item order. */
	private readonly toSend: Entry[] = [];

	add(item: ItemPlan): void {
		this.plans.push(item);
		for (const entry of item.entries) if (entry.notSent === undefined) this.toSend.push(entry);
	}

	get count(): number {
		return this.toSend.length;
	}

	segments(): number {
		return this.toSend.reduce((sum, entry) => sum + entry.estimate.segments, 0);
	}

	batches(): Batch[] {
		return batchesOf(this.toSend.length, (index) => this.toSend[index].batchSize);
	}

	open(batch: Batch): void {
		if (batch.entries.length === 0) batch.entries = this.toSend.slice(batch.start, batch.end);
	}

	/** A sent message's item is the service's result, which says what was estimated for it. */
	close(batch: Batch): void {
		let previous: IDataObject | undefined;
		for (const entry of batch.entries) {
			const { outcome } = entry;
			if (outcome?.kind !== 'sent') continue;
			const result = outcome.result;
			shareEchoedText(result, entry.message, previous);
			previous = result;
			// The result object was just parsed for this run: extended in place, not copied.
			result.inputItem = entry.itemIndex;
			result.segments = entry.estimate.segments;
			result.encoding = entry.estimate.encoding;
			// One credit per SMS part (the provider's pricing); the service's total_charge, when given, is the fact.
			result.estimatedCredits = entry.estimate.segments;
			if (batch.waitedSec) result.rateLimitWaitSec = batch.waitedSec;
		}
	}

	entries(): Entry[] {
		return this.toSend;
	}

	parts(): SentParts {
		const parts = noneSent();
		for (const entry of this.toSend)
			if (entry.outcome?.kind === 'sent') countSent(parts, entry.estimate.segments);
		return parts;
	}

	/** `retry`: Retry On Fail is on, and each item says in which try its message was sent (`attempt`). */
	items(
		node: INode,
		run: SendRun,
		retry: boolean,
		creditFailure?: NodeError,
	): INodeExecutionData[] {
		const output: INodeExecutionData[] = [];
		for (const item of this.plans) {
			const failure = item.failure ?? creditFailure;
			if (failure) {
				output.push(errorItem(node, failure, item.itemIndex));
				continue;
			}
			for (const entry of item.entries) output.push(entryItem(node, entry, retry, run.campaignId));
		}
		return output;
	}
}

/**
 * The service echoes the text, the sender and the batch's send time in every result, each parsed
 * into a string of its own: where equal, the result holds the one already kept (the message's, or
 * the previous result's), so that 100,000 results do not hold 100,000 copies of the same text.
 */
function shareEchoedText(result: IDataObject, message: SmsMessage, previous?: IDataObject): void {
	if (result.message === message.message) result.message = message.message;
	if (result.sender === message.sender) result.sender = message.sender;
	if (result.dest === message.dest) result.dest = message.dest;
	if (previous === undefined) return;
	for (const key of ECHOED_ALIKE)
		if (result[key] === previous[key] && typeof previous[key] === 'string')
			result[key] = previous[key];
}

/** Fields whose value is usually the same in every result of a batch. */
const ECHOED_ALIKE = ['service', 'status', 'sendtime'] as const;

/** The output item of one recipient; `campaignId`: the run's (Campaign options), in every item. */
export function entryItem(
	node: INode,
	entry: Entry,
	retry: boolean,
	campaignId?: string,
): INodeExecutionData {
	const { outcome, itemIndex, message } = entry;
	if (entry.notSent) return notSentItem(entry, entry.notSent, campaignId);
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

function notSent(node: INode, entry: Entry): NodeOperationError {
	return new NodeOperationError(node, `The message to ${entry.message.dest} was not sent`, {
		itemIndex: entry.itemIndex,
	});
}

const NOT_SENT_STATUS: Record<NotSent, string> = {
	sameNumber: 'Not sent: same number as an earlier item',
	optedOut: 'Not sent: opted out',
	outsideWindow: 'Not sent: outside the sending window',
};

/** A recipient the run did not send to (campaign.ts says why): not an error; nothing sent, nothing charged. */
function notSentItem(entry: Entry, why: NotSent, campaignId?: string): INodeExecutionData {
	const json: IDataObject = {
		status: NOT_SENT_STATUS[why],
		dest: entry.message.dest,
		inputItem: entry.itemIndex,
	};
	if (entry.sentWithItem !== undefined) json.sentWithItem = entry.sentWithItem;
	json.estimatedCredits = 0;
	if (entry.nextOpening) json.nextOpening = entry.nextOpening;
	if (campaignId !== undefined) json.campaignId = campaignId;
	return { json, pairedItem: { item: entry.itemIndex } };
}

// ---- what Send says when it stops --------------------------------------------------------------

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
function tally(entries: Entry[], retry: boolean, except?: Batch) {
	const skip = new Set(except?.entries);
	const sent: SentRecord[] = [];
	const refused: FailedRecord[] = [];
	const maybeSent: Entry[] = [];
	const notSent: Entry[] = [];
	let later = true;
	for (const entry of entries) {
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
	entries: Entry[],
	retry: boolean,
	except?: Batch,
): { text: string; data: IDataObject; refused: FailedRecord[] } {
	const { sent, refused, maybeSent, notSent, later } = tally(entries, retry, except);
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

/**
 * The node's error when recipients were refused (without Continue On Fail); `entries`: every
 * message to send, with what became of it (`SendOutput.entries`).
 */
export function recipientsFailed(
	node: INode,
	entries: Entry[],
	retry: boolean,
): NodeOperationError {
	const done = progress(entries, retry);
	const failed = done.refused;
	const tokenHint = failed.some((f) => /\btoken\b/i.test(f.description))
		? "The service reports a missing token: check the credential's Access Token.\n"
		: '';
	const error = new NodeOperationError(
		node,
		`${failed.length} of ${entries.length} SMS messages failed: ${listSome(failed, LISTED_IN_MESSAGE, showFailed)}`,
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
	entries: Entry[],
	batch: Batch,
	retry: boolean,
): NodeError {
	const done = progress(entries, retry, batch);
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
export function unfinishedRun(node: INode, entries: Entry[]): NodeOperationError | undefined {
	const done = progress(entries, true);
	if (done.refused.length > 0) return recipientsFailed(node, entries, true);
	const maybe = (done.data.possiblySent as IDataObject[] | undefined)?.length ?? 0;
	if (maybe === 0) return undefined;
	const error = new NodeOperationError(
		node,
		`${maybe} of ${entries.length} SMS messages may have been sent: the ` +
			`answer to their batch was lost, and they were not sent again`,
		{
			description: [done.text, RETRY_LINE].join('\n'),
		},
	);
	error.context.data = done.data;
	return error;
}

/** The messages sent and their SMS parts: how many, how many parts in all, how many had more than one, the most. */
export interface SentParts {
	sent: number;
	credits: number;
	multipart: number;
	mostParts: number;
}

export const noneSent = (): SentParts => ({ sent: 0, credits: 0, multipart: 0, mostParts: 1 });

/** Counts a message sent, of `segments` SMS parts. */
export function countSent(parts: SentParts, segments: number): void {
	parts.sent++;
	parts.credits += segments;
	if (segments > 1) parts.multipart++;
	if (segments > parts.mostParts) parts.mostParts = segments;
}
