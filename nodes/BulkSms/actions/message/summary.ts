/**
 * Send's Output: Summary: one item for the whole run instead of one per recipient, so that a
 * campaign of 100,000 recipients does not make n8n keep 100,000 output items, nor the node an object
 * per recipient: each recipient's message, entry and result held about 45 MB of n8n's heap at
 * 100,000 recipients until the run ended, for one output item. Here each checked item's messages
 * are folded at once into columns (the number sent, the input item, the settings and text items
 * share); a batch's messages are built just before it is sent and dropped once all were sent,
 * leaving counts and message IDs. A batch with a message not sent keeps its messages: each becomes
 * an error item.
 *
 * Every failure is still its own error item, paired to its input item, before the summary: n8n
 * moves them to the error output under "Continue (using error output)", and under Continue On Fail
 * its Retry On Fail tries again when the first item is an error, as with one item per recipient.
 */
import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';

import { errorItem, type NodeError } from '../../../shared/errors';
import type { SegmentEstimate } from '../../../shared/limits';
import { phoneIdentity } from '../../../shared/phones';
import type { SmsMessage } from '../../../shared/transport/smsApi';
import {
	type Batch,
	batchesOf,
	countSent,
	type Entry,
	entryItem,
	type ItemPlan,
	newEntry,
	NO_ENTRIES,
	noneSent,
	type NotSent,
	type SendOutput,
	type SendRun,
	type SentParts,
} from './output';

/** What the messages of items share: one object for all the items with the same settings and text. */
interface Shared {
	sender: string;
	message: string;
	sendtime?: string;
	callback_url?: string;
	estimate: SegmentEstimate;
	batchSize: number;
}

export class Summary implements SendOutput {
	/** By recipient sent to, in item order: the number, its input item, what it shares with others. */
	private readonly dests: string[] = [];
	private readonly itemOf: number[] = [];
	private readonly shared: Shared[] = [];
	/** The service's message ID of each message sent, by the recipient's position. */
	private readonly messageIds: Array<IDataObject[string]> = [];
	/** The try that sent the messages of a batch dropped once all were sent. */
	private readonly sentIn = new Map<Batch, number>();
	/** The input items that failed their checks, in order. */
	private readonly failedItems: ItemPlan[] = [];
	private itemCount = 0;
	private readonly notSent: Record<NotSent, number> = {
		optedOut: 0,
		sameNumber: 0,
		outsideWindow: 0,
	};
	private readonly sent = noneSent();
	/** The sum of the service's total_charge, when it gives one. */
	private charged?: number;
	private last?: Shared;

	constructor(private readonly countryCode: string) {}

	get count(): number {
		return this.dests.length;
	}

	segments(): number {
		return this.shared.reduce((sum, shared) => sum + shared.estimate.segments, 0);
	}

	/** Counts what is not sent, keeps what is. */
	add(item: ItemPlan): void {
		this.itemCount++;
		if (item.failure) {
			this.failedItems.push(item);
			return;
		}
		for (const entry of item.entries) {
			if (entry.notSent) this.notSent[entry.notSent]++;
			else this.keep(entry);
		}
	}

	private keep(entry: Entry): void {
		const { message, estimate, batchSize } = entry;
		let shared = this.last;
		if (
			!shared ||
			shared.sender !== message.sender ||
			shared.message !== message.message ||
			shared.sendtime !== message.sendtime ||
			shared.callback_url !== message.callback_url ||
			shared.estimate !== estimate ||
			shared.batchSize !== batchSize
		) {
			const { sender, sendtime, callback_url } = message;
			shared = { sender, message: message.message, sendtime, callback_url, estimate, batchSize };
			this.last = shared;
		}
		this.dests.push(message.dest);
		this.itemOf.push(entry.itemIndex);
		this.shared.push(shared);
	}

	batches(): Batch[] {
		return batchesOf(this.count, (index) => this.shared[index].batchSize);
	}

	/** Builds the batch's messages, unless kept from an earlier try. */
	open(batch: Batch): void {
		if (batch.entries.length === 0) batch.entries = this.build(batch);
	}

	/**
	 * A batch whose messages were all sent is counted and dropped. One kept for its messages not
	 * sent keeps of a sent one only what the summary counts: the whole result of 100,000 messages
	 * would stay in n8n's memory until the run ends, for one output item.
	 */
	close(batch: Batch): void {
		let allSent = true;
		for (let index = 0; index < batch.entries.length; index++) {
			const { outcome } = batch.entries[index];
			if (outcome?.kind !== 'sent') {
				allSent = false;
				continue;
			}
			const { message_id, total_charge } = outcome.result;
			this.countSent(batch.entries[index].estimate, total_charge);
			this.messageIds[batch.start + index] = message_id;
			this.sentIn.set(batch, outcome.attempt);
			outcome.result = { message_id, total_charge };
		}
		if (allSent) batch.entries = NO_ENTRIES;
	}

	private countSent(estimate: SegmentEstimate, totalCharge: unknown): void {
		countSent(this.sent, estimate.segments);
		const charge = Number(totalCharge);
		if (Number.isFinite(charge) && totalCharge !== undefined)
			this.charged = (this.charged ?? 0) + charge;
	}

	parts(): SentParts {
		return this.sent;
	}

	/**
	 * Every message of the run with what became of it, as one item per recipient holds them: for
	 * the errors of a run that stops, which list every message sent.
	 */
	entries(batches: Batch[]): Entry[] {
		const all: Entry[] = [];
		for (const batch of batches) {
			if (batch.entries.length > 0) {
				all.push(...batch.entries);
				continue;
			}
			const sentIn = this.sentIn.get(batch);
			const built = this.build(batch);
			built.forEach((entry, index) => {
				if (sentIn === undefined) return;
				const result: IDataObject = { message_id: this.messageIds[batch.start + index] };
				entry.outcome = { kind: 'sent', result, attempt: sentIn };
			});
			all.push(...built);
		}
		return all;
	}

	/** The messages of a batch not all sent: those kept, or built again (never sent). */
	private unsent(batch: Batch): Entry[] {
		if (batch.entries.length > 0 || this.sentIn.has(batch)) return batch.entries;
		return this.build(batch);
	}

	private build({ start, end }: Batch): Entry[] {
		const entries = new Array<Entry>(end - start);
		for (let index = start; index < end; index++) {
			const shared = this.shared[index];
			const dest = this.dests[index];
			const message: SmsMessage = {
				service: 'send_sms',
				dest,
				sender: shared.sender,
				message: shared.message,
			};
			if (shared.sendtime) message.sendtime = shared.sendtime;
			if (shared.callback_url) message.callback_url = shared.callback_url;
			const identity = phoneIdentity(dest, this.countryCode);
			const { estimate, batchSize } = shared;
			entries[index - start] = newEntry(this.itemOf[index], message, estimate, identity, batchSize);
		}
		return entries;
	}

	/** An error item for each input item or recipient that failed, then the summary item. */
	items(
		node: INode,
		run: SendRun,
		retry: boolean,
		creditFailure?: NodeError,
	): INodeExecutionData[] {
		const output: INodeExecutionData[] = [];
		const failed = creditFailure
			? this.creditErrorItems(node, creditFailure, output)
			: this.errorItems(node, run, retry, output);
		const sending = creditFailure === undefined;
		const { sent, credits } = this.sent;
		const { first, last } = this.messageIdRange();
		const notSent = sending ? this.notSent : { optedOut: 0, sameNumber: 0, outsideWindow: 0 };
		const json: IDataObject = {
			campaignId: run.campaignId,
			recipients: sending
				? this.count + notSent.optedOut + notSent.sameNumber + notSent.outsideWindow
				: 0,
			sent,
			notSent: { ...notSent },
			failed,
			failedItems: sending ? this.failedItems.length : this.itemCount,
			smsParts: credits,
			// One credit per SMS part (the provider's pricing); chargedCredits: the service's total_charge.
			estimatedCredits: credits,
			chargedCredits: this.charged ?? null,
			firstMessageId: first ?? null,
			lastMessageId: last ?? null,
			tries: run.attempt,
		};
		const pairedItem = Array.from({ length: this.itemCount }, (_, item) => ({ item }));
		output.push({ json, pairedItem });
		return output;
	}

	/** The credit check failed: every input item is an error item (its own failure, or the credit's). */
	private creditErrorItems(node: INode, failure: NodeError, errors: INodeExecutionData[]): number {
		const failures = new Map(this.failedItems.map((item) => [item.itemIndex, item.failure]));
		for (let index = 0; index < this.itemCount; index++)
			errors.push(errorItem(node, failures.get(index) ?? failure, index));
		return 0;
	}

	/**
	 * The error items, in input order: an input item that failed its checks, or each of its
	 * recipients whose message was not sent. Returns the count of those recipients.
	 */
	private errorItems(
		node: INode,
		run: SendRun,
		retry: boolean,
		errors: INodeExecutionData[],
	): number {
		const failedItems = this.failedItems;
		let next = 0;
		const itemsBefore = (itemIndex: number) => {
			for (; next < failedItems.length && failedItems[next].itemIndex < itemIndex; next++) {
				const { failure, itemIndex: index } = failedItems[next];
				if (failure) errors.push(errorItem(node, failure, index));
			}
		};
		let failed = 0;
		for (const batch of run.batches) {
			for (const entry of this.unsent(batch)) {
				if (entry.outcome?.kind === 'sent') continue;
				itemsBefore(entry.itemIndex);
				failed++;
				errors.push(entryItem(node, entry, retry));
			}
		}
		itemsBefore(Infinity);
		return failed;
	}

	/** The first and the last message ID sent, in the order of the recipients. */
	private messageIdRange(): { first: unknown; last: unknown } {
		const ids = this.messageIds;
		let first: unknown;
		let last: unknown;
		for (let index = 0; index < ids.length; index++) {
			if (ids[index] === undefined) continue;
			first ??= ids[index];
			last = ids[index];
		}
		return { first, last };
	}
}
