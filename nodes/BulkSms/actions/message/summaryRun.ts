/**
 * Send with Output: Summary keeps no object per recipient for the whole run. Each recipient's
 * message, entry and result (prepare.ts, batches.ts) held about 45 MB of n8n's heap at 100,000
 * recipients until the run ended, for one output item. Here the items are checked first, as
 * always (prepare.ts), but each item's messages are folded at once into columns (the number sent,
 * the input item, the settings and text items share); a batch's messages are built just before it
 * is sent and dropped once all were sent, leaving counts and message IDs. A batch with a message
 * not sent keeps its messages: each becomes an error item.
 */
import type { IDataObject } from 'n8n-workflow';

import type { SegmentEstimate } from '../../../shared/limits';
import { phoneIdentity } from '../../../shared/phones';
import type { SmsMessage } from '../../../shared/transport/smsApi';
import { type Batch, type BatchStore, batchSpans } from './batches';
import { applyCampaign, type Campaign } from './campaign';
import { type Entry, type ItemPlan, newEntry } from './prepare';
import { countSent, noneSent, type SentParts } from './report';

/** What the messages of items share: one object for all the items with the same settings and text. */
interface Shared {
	sender: string;
	message: string;
	sendtime?: string;
	callback_url?: string;
	estimate: SegmentEstimate;
	batchSize: number;
}

export class SummaryColumns implements BatchStore {
	/** By recipient sent to, in item order: the number, its input item, what it shares with others. */
	private readonly dests: string[] = [];
	private readonly items: number[] = [];
	private readonly shared: Shared[] = [];
	/** The service's message ID of each message sent, by the recipient's position. */
	private readonly messageIds: Array<IDataObject[string]> = [];
	/** The input items that failed their checks, in order. */
	readonly failedItems: ItemPlan[] = [];
	itemCount = 0;
	readonly notSent = { optedOut: 0, sameNumber: 0, outsideWindow: 0 };
	readonly parts: SentParts = noneSent();
	/** The sum of the service's total_charge, when it gives one. */
	charged?: number;
	private last?: Shared;

	constructor(
		private readonly campaign: Campaign,
		private readonly countryCode: string,
		private readonly now = Date.now(),
	) {}

	/** The recipients to send to. */
	get count(): number {
		return this.dests.length;
	}

	/** The SMS parts of all the messages to send. */
	segments(): number {
		return this.shared.reduce((sum, shared) => sum + shared.estimate.segments, 0);
	}

	/** An item once checked (prepareRun's `fold`): counts what is not sent, keeps what is. */
	fold(item: ItemPlan): void {
		this.itemCount++;
		if (item.failure) {
			this.failedItems.push(item);
			return;
		}
		const { entries } = item;
		const candidates = entries.some((entry) => entry.duplicateOf !== undefined)
			? entries.filter((entry) => entry.duplicateOf === undefined)
			: entries;
		this.notSent.sameNumber += entries.length - candidates.length;
		applyCampaign({ entries: candidates }, this.campaign, this.now);
		for (const entry of candidates) {
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
		this.items.push(entry.itemIndex);
		this.shared.push(shared);
	}

	/** The run's batches, by the Batch Size of each message, none built yet. */
	batches(): Batch[] {
		const spans = batchSpans(this.count, (index) => this.shared[index].batchSize);
		return spans.map(([start, end]) => ({
			entries: NO_ENTRIES,
			settled: false,
			span: { start, end },
		}));
	}

	/** Builds the batch's messages, unless kept from an earlier try. */
	open(batch: Batch): void {
		if (batch.entries.length === 0 && batch.span) batch.entries = this.build(batch.span);
	}

	/** Once answered: a batch whose messages were all sent is counted and dropped. */
	close(batch: Batch): void {
		const { span } = batch;
		if (!span) return;
		let allSent = true;
		for (let index = 0; index < batch.entries.length; index++) {
			const entry = batch.entries[index];
			const { outcome } = entry;
			if (outcome?.kind !== 'sent') {
				allSent = false;
				continue;
			}
			this.countSent(entry.estimate, outcome.result.total_charge);
			this.messageIds[span.start + index] = outcome.result.message_id;
			span.sentIn = outcome.attempt;
		}
		if (allSent) batch.entries = NO_ENTRIES;
	}

	private countSent(estimate: SegmentEstimate, totalCharge: unknown): void {
		countSent(this.parts, estimate.segments);
		const charge = Number(totalCharge);
		if (Number.isFinite(charge) && totalCharge !== undefined)
			this.charged = (this.charged ?? 0) + charge;
	}

	/** The first and the last message ID sent, in the order of the recipients. */
	messageIdRange(): { first: unknown; last: unknown } {
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

	/** The messages of a batch not all sent: those kept, or built again (never sent). */
	unsent(batch: Batch): Entry[] {
		if (batch.entries.length > 0 || !batch.span || batch.span.sentIn !== undefined)
			return batch.entries;
		return this.build(batch.span);
	}

	/**
	 * Every message of the run with what became of it, as prepare.ts holds them: for the reports of
	 * a run that fails (report.ts), which list every message sent.
	 */
	entries(batches: Batch[]): Entry[] {
		const all: Entry[] = [];
		for (const batch of batches) {
			if (batch.entries.length > 0 || !batch.span) {
				all.push(...batch.entries);
				continue;
			}
			const { start, sentIn } = batch.span;
			const built = this.build(batch.span);
			built.forEach((entry, index) => {
				if (sentIn === undefined) return;
				const result: IDataObject = { message_id: this.messageIds[start + index] };
				entry.outcome = { kind: 'sent', result, attempt: sentIn };
			});
			all.push(...built);
		}
		return all;
	}

	private build({ start, end }: { start: number; end: number }): Entry[] {
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
			entries[index - start] = newEntry(this.items[index], message, estimate, identity, batchSize);
		}
		return entries;
	}
}

const NO_ENTRIES: Entry[] = [];
