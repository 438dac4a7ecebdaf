/**
 * Message → Send, a batch operation: it runs once for all input items. Every recipient of every
 * item is one message, and the messages go to ws_json_bulk.php in batches of Batch Size, never
 * one request per item. A pipeline, each step in its file: read (every item read and checked
 * before any request, read.ts) → checks (why a recipient is not sent: Send Once per Number and the
 * Campaign options, campaign.ts) → deliver (the credit checked once, the batches sent once each,
 * Batches in Flight at a time, 429, Retry On Fail's tries, deliver.ts) → output (one item per
 * recipient, output.ts, or Output: Summary, summary.ts). Its fields are in fields.ts.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { addRunHint } from '../../../shared/n8nCompat';
import { PHONES_FOR_MODEL } from '../../../shared/phones';
import type { OperationOption, RepeatEffect } from '../../../shared/router';
import { checkCredit, deliver, earlierRun, endTry, keepRun, refuseLostRun } from './deliver';
import { sendProperties } from './fields';
import type { SendRun, SentParts } from './output';
import { readRun } from './read';

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
 * sends only what never reached the service (deliver.ts), unless what the earlier tries sent is lost.
 */
export const repeatEffect: RepeatEffect = {
	what: 'send, and charge, every message again',
	whenRetryOnFail: refuseLostRun,
};

export async function executeBatch(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const retry = this.getNode().retryOnFail === true;
	const continueOnFail = this.continueOnFail();
	const earlier = retry ? earlierRun(this) : undefined;
	const run = earlier ?? (await readRun.call(this, continueOnFail));
	if (earlier) earlier.attempt++;
	if (retry) keepRun(this, run);
	let failed = true;
	try {
		const creditFailure = await checkCredit.call(this, run, continueOnFail);
		if (!creditFailure) await deliver.call(this, run, retry, continueOnFail);
		const output = run.output.items(this.getNode(), run, retry, creditFailure);
		failed = output[0]?.json.error !== undefined;
		for (const hint of [creditsHint(run.output.parts()), rateLimitHint(run)])
			if (hint) addRunHint(this, { message: hint, location: 'outputPane' });
		return output;
	} finally {
		if (retry) endTry(this, run, failed);
	}
}

/**
 * The run's hint when messages of more than one SMS part were sent: how many, and the credits the
 * whole run is expected to cost (one per part), so that a long text is never charged unnoticed.
 */
function creditsHint({ sent, credits, multipart, mostParts }: SentParts): string | undefined {
	if (multipart === 0) return undefined;
	return (
		`${multipart} of the ${sent} messages sent take more than one SMS part (up to ${mostParts}): ` +
		`an estimated ${credits} credits for this run, one per part. Shorten the text to use fewer.`
	);
}

/** The run's hint when the service's rate limit (HTTP 429) made it wait. */
function rateLimitHint(run: SendRun): string | undefined {
	const { waits, waitedSec } = run.rateLimit;
	if (waits === 0) return undefined;
	return (
		`The SMS service answered HTTP 429 (too many requests) ${waits} time${waits > 1 ? 's' : ''}: ` +
		`the refused batches were sent again after waiting ${waitedSec} s in all, as it asked. ` +
		'No message was sent twice.'
	);
}
