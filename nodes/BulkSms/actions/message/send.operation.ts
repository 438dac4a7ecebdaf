/**
 * Message → Send, a batch operation: it runs once for all input items. Every recipient of every
 * item is one message, and the messages go to ws_json_bulk.php in batches of Batch Size, never
 * one request per item. In order: every item read and checked before any request (prepare.ts),
 * the credit checked once, the batches sent once each (batches.ts), the output (report.ts).
 * Under Retry On Fail a later try sends only the batches that never reached the service (batches.ts).
 */
import type {
	IDisplayOptions,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { parameterHints } from '../../../shared/builderHints';
import { asNodeError, type NodeError } from '../../../shared/errors';
import { SMS_LIMITS } from '../../../shared/limits';
import { addRunHint } from '../../../shared/n8nCompat';
import { PHONES_FOR_MODEL, DEFAULT_NUMBER_STYLE, numberStyleOf } from '../../../shared/phones';
import type { OperationOption, RepeatEffect } from '../../../shared/router';
import {
	creditBalance,
	creditPathOption,
	smsCreditRequest,
	SMS_CREDENTIAL,
	SMS_LABEL,
} from '../../../shared/transport/smsApi';
import { SERVICE_TIME_ZONE_OPTION } from '../../methods/loadOptions';
import {
	earlierRun,
	endTry,
	keepRun,
	makeBatches,
	refuseLostRun,
	sendBatches,
	type SendRun,
} from './batches';
import { prepareRun, type RunContext } from './prepare';
import {
	batchFailed,
	creditsHint,
	outputItems,
	rateLimitHint,
	recipientsFailed,
	unfinishedRun,
} from './report';
import { senderField } from '../descriptions';

const RETRY_NOTICE =
	'Every message is sent once. With Retry On Fail on (node Settings), a retry ' +
	'sends only the batches that never reached the service (refused before ' +
	'it read them, or the connection never made); a batch that may have reached ' +
	'it is never sent again, and each output item says in which try it was ' +
	'sent.';

function messageProperty(show: IDisplayOptions['show']): INodeProperties {
	return {
		displayName: 'Message',
		name: 'message',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 4 },
		description: 'The text to send',
		hint:
			'Up to 160 Latin characters fit in one SMS (153 per part when longer); ' +
			'Hebrew and emoji need UCS-2: 70 (67 per part). Each output item estimates ' +
			'the parts.',
		builderHint: parameterHints.smsMessage,
		displayOptions: { show },
	};
}

const properties: INodeProperties[] = [
	{ displayName: RETRY_NOTICE, name: 'retryNotice', type: 'notice', default: '' },
	senderField('The approved sender name or verified phone number the message comes from'),
	{
		displayName: 'Recipients From',
		name: 'recipientSource',
		type: 'options',
		noDataExpression: true,
		default: 'toField',
		options: [
			{
				name: 'To Field',
				value: 'toField',
				description:
					'Type the numbers in To, or map them there with an expression evaluated for each item',
			},
			{
				name: 'Input Fields',
				value: 'inputFields',
				description:
					"Name the input fields that hold each item's number (and message): no expression " +
					'per item, the fastest way to send large lists',
			},
		],
	},
	{
		displayName: 'To',
		name: 'to',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 0501234567, +972-52-765-4321',
		description:
			'One or more phone numbers, separated by commas, semicolons or new lines. ' +
			'Spaces, dashes, dots, brackets and a leading + are removed; a number listed ' +
			'twice, in any form, is sent once. Each number is one message and uses its own credit.',
		hint:
			"For lists of thousands, Recipients From: Input Fields reads each item's " +
			'number without evaluating an expression per item',
		builderHint: parameterHints.smsTo,
		displayOptions: { show: { recipientSource: ['toField'] } },
	},
	{
		displayName: 'Phone Number Field',
		name: 'phoneField',
		type: 'string',
		required: true,
		noDataExpression: true,
		default: 'phone',
		placeholder: 'e.g. phone',
		description:
			'Name of the input field holding the phone number (or several, separated ' +
			'by commas, semicolons or new lines, or an array). A dotted name such as ' +
			'contact.phone reads a nested field.',
		displayOptions: { show: { recipientSource: ['inputFields'] } },
	},
	{
		displayName: 'Message From',
		name: 'messageFrom',
		type: 'options',
		noDataExpression: true,
		default: 'text',
		options: [
			{
				name: 'Message Below',
				value: 'text',
				description: 'The same text for every item (or an expression)',
			},
			{
				name: 'Input Field',
				value: 'field',
				description: "Each item's own text, from one of its fields",
			},
		],
		displayOptions: { show: { recipientSource: ['inputFields'] } },
	},
	{
		displayName: 'Message Field',
		name: 'messageField',
		type: 'string',
		required: true,
		noDataExpression: true,
		default: 'message',
		placeholder: 'e.g. message',
		description: 'Name of the input field holding the text to send',
		displayOptions: { show: { recipientSource: ['inputFields'], messageFrom: ['field'] } },
	},
	// Shown for To Field, and for Input Fields with Message From: Message Below (one value, two conditions).
	messageProperty({ recipientSource: ['toField'] }),
	messageProperty({ recipientSource: ['inputFields'], messageFrom: ['text'] }),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Allow Past Time',
				name: 'allowPastTime',
				type: 'boolean',
				default: false,
				description:
					'Whether a Send At in the past is accepted (the service then sends at once) instead of failing the item',
			},
			{
				displayName: 'Batch Size',
				name: 'batchSize',
				type: 'number',
				default: 100, // SMS_LIMITS.batchSize.default (the lint rule wants a literal)
				typeOptions: { minValue: SMS_LIMITS.batchSize.min, maxValue: SMS_LIMITS.batchSize.max },
				description:
					`How many messages (one per recipient) go in one request, across all input ` +
					`items. ${SMS_LIMITS.batchSize.min}-${SMS_LIMITS.batchSize.max}.`,
				hint: 'A batch that may have reached the service is never sent again, not even by Retry On Fail',
			},
			{
				displayName: 'Batches in Flight',
				name: 'batchesInFlight',
				type: 'number',
				default: 1,
				typeOptions: {
					minValue: SMS_LIMITS.batchesInFlight.min,
					maxValue: SMS_LIMITS.batchesInFlight.max,
				},
				description:
					`How many batches are sent at the same time. 1 sends one after the other. ` +
					`${SMS_LIMITS.batchesInFlight.min}-${SMS_LIMITS.batchesInFlight.max}.`,
				hint:
					'For lists of thousands, 4 sends several times faster. Without Continue ' +
					'On Fail, no batch starts after a failure; those already in flight finish ' +
					'and are reported',
			},
			{
				displayName: 'Check Credit First',
				name: 'checkCreditFirst',
				type: 'boolean',
				default: false,
				description:
					'Whether to read the credit balance once before sending, and send nothing ' +
					'when it is smaller than the number of recipients',
			},
			creditPathOption('Check Credit First'),
			{
				displayName: 'Delivery Report URL',
				name: 'callbackUrl',
				type: 'string',
				default: '',
				placeholder: 'e.g. https://n8n.example.com/webhook/…',
				description:
					"Address that receives the delivery status of each message (the service's callback_url)",
				hint: 'Paste the Production URL of a Virtual Number Trigger to start a workflow on each delivery report',
			},
			{
				displayName: 'Maximum Message Length',
				name: 'maxMessageLength',
				type: 'number',
				default: 600, // SMS_LIMITS.messageLength.default (the lint rule wants a literal)
				typeOptions: { minValue: 1, maxValue: SMS_LIMITS.messageLength.max },
				description:
					'A longer message fails its item before anything is sent (the others are sent). The ' +
					"provider's limit is 600 characters; set your account's own limit if it differs.",
			},
			{
				displayName: 'Send At',
				name: 'sendAt',
				type: 'dateTime',
				default: '',
				description:
					'Schedule the messages instead of sending them now. Accepts a date picked ' +
					'here, ISO text, or a DateTime or Date from an expression. A time in the past is refused.',
				hint: "Sent on the service's clock: the credential's Service Time Zone (Asia/Jerusalem by default)",
			},
			{
				displayName: 'Send Once per Number',
				name: 'sendOncePerNumber',
				type: 'boolean',
				default: false,
				description:
					'Whether a number already sent to by an earlier item of the run is skipped, ' +
					'however it is written (0501234567 and +972-50-123-4567 are one number). Within ' +
					'one item a number is always sent once.',
			},
			{
				displayName: 'Time Zone Name or ID',
				name: 'timeZone',
				type: 'options',
				typeOptions: { loadOptionsMethod: 'getTimeZones' },
				default: SERVICE_TIME_ZONE_OPTION,
				// (A backslash at the end of a template literal's line adds nothing to the text.)
				description: `Zone of a Send At without an offset; what is sent is in the credential's Service Time Zone. \
Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
			},
		],
	},
];

/** The Operation dropdown's entry; its value is the operation's key in its resource's operations. */
export const option: OperationOption = {
	name: 'Send',
	description:
		'Send an SMS to one or more numbers per item; all items go out together in batches, now or at a scheduled time',
	action: 'Send an SMS',
};

/** What the model is told when the node is an AI agent's tool. */
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
	properties,
);

/**
 * A repeated run would send, and charge, every message again; under Retry On Fail a later try
 * sends only what never reached the service (batches.ts), unless what the earlier tries sent is lost.
 */
export const repeatEffect: RepeatEffect = {
	what: 'send, and charge, every message again',
	whenRetryOnFail: refuseLostRun,
};

export async function executeBatch(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const retry = this.getNode().retryOnFail === true;
	const continueOnFail = this.continueOnFail();
	const earlier = retry ? earlierRun(this) : undefined;
	const run = earlier ?? newRun.call(this, continueOnFail, await runContext.call(this));
	if (earlier) earlier.attempt++;
	if (retry) keepRun(this, run);
	let failed = true;
	try {
		const creditFailure = await checkCredit.call(this, run, continueOnFail);
		if (!creditFailure) {
			const failedBatch = await sendBatches.call(this, run, {
				inFlight: run.inFlight,
				stopAtFailure: !continueOnFail,
			});
			if (failedBatch) {
				const failure = failedBatch.entries[0].outcome;
				throw failure?.kind === 'batchFailed'
					? batchFailed(failure.error, run, failedBatch, retry)
					: recipientsFailed(this.getNode(), run, retry);
			}
			const unfinished = retry && !continueOnFail ? unfinishedRun(this.getNode(), run) : undefined;
			if (unfinished) throw unfinished;
		}
		const output = outputItems(this.getNode(), run, retry, creditFailure);
		failed = output[0]?.json.error !== undefined;
		for (const hint of [creditsHint(run), rateLimitHint(run)])
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

function newRun(this: IExecuteFunctions, continueOnFail: boolean, context: RunContext): SendRun {
	const prepared = prepareRun.call(this, continueOnFail, context);
	return {
		...prepared,
		batches: makeBatches(prepared.entries).map((entries) => ({ entries, settled: false })),
		attempt: 1,
		rateLimit: { waits: 0, waitedSec: 0 },
	};
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
	if (!run.credit || run.entries.length === 0 || run.batches.some((batch) => batch.settled))
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
		} else if (balance < run.entries.length) {
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
	const recipients = run.entries.length;
	const segments = run.entries.reduce((sum, entry) => sum + entry.estimate.segments, 0);
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
