/**
 * Message → Send, a batch operation: it runs once for all input items. Every recipient of every
 * item is one message, and the messages go to ws_json_bulk.php in batches of Batch Size, never
 * one request per item. In order: every item read and checked before any request (prepare.ts),
 * the credit checked once, the batches sent once each, Batches in Flight at a time (batches.ts),
 * the output (report.ts). Its fields are in fields.ts. Under Retry On Fail a later try sends only
 * the batches that never reached the service (tries.ts).
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { asNodeError, type NodeError } from '../../../shared/errors';
import { addRunHint } from '../../../shared/n8nCompat';
import { PHONES_FOR_MODEL, DEFAULT_NUMBER_STYLE, numberStyleOf } from '../../../shared/phones';
import type { OperationOption, RepeatEffect } from '../../../shared/router';
import {
	creditBalance,
	smsCreditRequest,
	SMS_CREDENTIAL,
	SMS_LABEL,
} from '../../../shared/transport/smsApi';
import { makeBatches, newFlight, sendBatches, type SendRun } from './batches';
import { applyCampaign, type Campaign, readCampaign } from './campaign';
import { type PreparedRun, prepareRun, type RunContext } from './prepare';
import {
	batchFailed,
	creditsHint,
	entryItem,
	outputItems,
	rateLimitHint,
	recipientsFailed,
	sentParts,
	unfinishedRun,
} from './report';
import { sendProperties } from './fields';
import { summaryItems } from './summary';
import { SummaryColumns } from './summaryRun';
import { earlierRun, endTry, keepRun, refuseLostRun } from './tries';

export const option: OperationOption = {
	name: 'Send',
	description:
		'Send an SMS to one or more numbers per item; all items go out together in batches, now or at a scheduled time',
	action: 'Send an SMS',
};

export const toolDescription =
	'Send an SMS text message now. Costs one SMS credit per recipient (more for a text longer than one SMS: ' +
	'160 Latin or 70 Hebrew/emoji characters per part); a sent SMS cannot be recalled, so send only when asked. ' +
	'To: one or more phone numbers separated by commas. ' +
	`${PHONES_FOR_MODEL} ` +
	"Message: up to 600 characters by default. The sender the recipient sees is the one set in the node's " +
	'Sender field, never chosen by the model. Returns one result per recipient: status, recipient, sender, ' +
	'parts; a refused number or text comes back as an error naming the argument to fix.';

export const description = updateDisplayOptions(
	{ show: { resource: ['message'], operation: ['send'] } },
	sendProperties,
);

/**
 * A repeated run would send, and charge, every message again; under Retry On Fail a later try
 * sends only what never reached the service (tries.ts), unless what the earlier tries sent is lost.
 */
export const repeatEffect: RepeatEffect = {
	what: 'send, and charge, every message again',
	whenRetryOnFail: refuseLostRun,
};

export async function executeBatch(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const retry = this.getNode().retryOnFail === true;
	const continueOnFail = this.continueOnFail();
	const earlier = retry ? earlierRun(this) : undefined;
	const run = earlier ?? (await newRun.call(this, continueOnFail, await runContext.call(this)));
	if (earlier) earlier.attempt++;
	if (retry) keepRun(this, run);
	let failed = true;
	try {
		const creditFailure = await checkCredit.call(this, run, continueOnFail);
		if (!creditFailure) {
			const flight = newFlight.call(this, run, !continueOnFail);
			await flight.queue.workers(run.inFlight, () => sendBatches.call(this, flight));
			const failedBatch = flight.queue.stopped;
			if (failedBatch) {
				const failure = failedBatch.entries[0].outcome;
				throw failure?.kind === 'batchFailed'
					? batchFailed(failure.error, withEntries(run), failedBatch, retry)
					: recipientsFailed(this.getNode(), withEntries(run), retry);
			}
			const unfinished =
				retry && !continueOnFail ? unfinishedRun(this.getNode(), withEntries(run)) : undefined;
			if (unfinished) throw unfinished;
		}
		const columns = columnsOf(run);
		const output = columns
			? summaryItems(
					this.getNode(),
					run,
					columns,
					(entry) => entryItem(this.getNode(), entry, retry),
					creditFailure,
				)
			: outputItems(this.getNode(), run, retry, creditFailure);
		failed = output[0]?.json.error !== undefined;
		const parts = columns ? columns.parts : sentParts(run.entries);
		for (const hint of [creditsHint(parts), rateLimitHint(run)])
			if (hint) addRunHint(this, { message: hint, location: 'outputPane' });
		return output;
	} finally {
		if (retry) endTry(this, run, failed);
	}
}

/**
 * The credential's Send Numbers As and Service Time Zone. A credential that cannot be read here fails the run where it
 * always did (the first request), after the items are checked.
 */
async function runContext(this: IExecuteFunctions): Promise<RunContext> {
	const typeVersion = this.getNode().typeVersion;
	try {
		const credentials = await this.getCredentials(SMS_CREDENTIAL);
		const serviceZone = credentials.serviceTimeZone;
		return { style: numberStyleOf(credentials), typeVersion, serviceZone };
	} catch {
		return { style: DEFAULT_NUMBER_STYLE, typeVersion, serviceZone: undefined };
	}
}

async function newRun(
	this: IExecuteFunctions,
	continueOnFail: boolean,
	context: RunContext,
): Promise<SendRun> {
	// The campaign's options and tables are read before any item, so a bad one sends nothing.
	let campaign: Campaign | undefined;
	let refused: NodeError | undefined;
	try {
		campaign = await readCampaign(this, context.style.countryCode, context.serviceZone);
	} catch (error) {
		refused = asNodeError(this.getNode(), error, 0);
		if (!continueOnFail) throw refused;
	}
	const runContext = { ...context, campaign };
	if (campaign?.summary) return summaryRun.call(this, continueOnFail, runContext, campaign);
	const prepared = prepareRun.call(this, continueOnFail, runContext);
	if (refused) failEveryItem(prepared, refused);
	else if (campaign) applyCampaign(prepared, campaign);
	return {
		...prepared,
		batches: makeBatches(prepared.entries).map((entries) => ({ entries, settled: false })),
		attempt: 1,
		rateLimit: { waits: 0, waitedSec: 0 },
	};
}

/** Output: Summary: the messages kept in columns, each batch built only while it is sent (summaryRun.ts). */
function summaryRun(
	this: IExecuteFunctions,
	continueOnFail: boolean,
	context: RunContext,
	campaign: Campaign,
): SendRun {
	const columns = new SummaryColumns(campaign, context.style.countryCode);
	const prepared = prepareRun.call(this, continueOnFail, context, (item) => columns.fold(item));
	return {
		...prepared,
		batches: columns.batches(),
		attempt: 1,
		rateLimit: { waits: 0, waitedSec: 0 },
		store: columns,
	};
}

const columnsOf = (run: SendRun) => (run.store instanceof SummaryColumns ? run.store : undefined);

/** The run with every message in `entries`, for the reports of a failure (report.ts). */
function withEntries(run: SendRun): SendRun {
	const columns = columnsOf(run);
	return columns ? { ...run, entries: columns.entries(run.batches) } : run;
}

/** Under Continue On Fail, Campaign options that cannot be used fail every item: nothing is sent. */
function failEveryItem(run: PreparedRun, failure: NodeError): void {
	for (const item of run.items) {
		item.failure ??= failure;
		item.entries = [];
	}
	run.entries = [];
}

/**
 * Check Credit First: the balance read once, before anything of the run is sent (a later try that
 * only resends batches the service never received does not read it again). Returns the failure
 * under Continue On Fail; throws it otherwise.
 */
async function checkCredit(
	this: IExecuteFunctions,
	run: SendRun,
	continueOnFail: boolean,
): Promise<NodeError | undefined> {
	const recipients = columnsOf(run)?.count ?? run.entries.length;
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
	const columns = columnsOf(run);
	const recipients = columns ? columns.count : run.entries.length;
	const segments = columns
		? columns.segments()
		: run.entries.reduce((sum, entry) => sum + entry.estimate.segments, 0);
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
