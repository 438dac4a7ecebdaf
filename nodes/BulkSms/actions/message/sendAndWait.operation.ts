/**
 * Message → Send and Wait for Response: one SMS to one number, carrying ONE link to an answer page
 * that n8n serves (the node's own webhook, answerPage.ts), then the execution waits as n8n's own
 * Send and Wait nodes make it wait (`putExecutionToWait`), until the recipient answers or the
 * limit passes. One link, not one per answer: a signed resume URL is about 160 characters, and an
 * SMS preview (which opens links by itself) then only ever opens the page, never an answer.
 *
 * Answer By: SMS Reply sends the question alone and the recipient answers by texting back: the
 * reply reaches this run through the trigger's SMS Received (replyWait.ts, replyAnswer.ts).
 *
 * Like n8n's own nodes (Telegram, Slack), it sends for the first input item only: one execution
 * waits for one answer.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { parameterHints } from '../../../shared/builderHints';
import { InputChecks } from '../../../shared/checks';
import { toDateTime } from '../../../shared/dates';
import { asNodeError, errorItem } from '../../../shared/errors';
import { maskSecrets } from '../../../shared/masking';
import { PHONES_FOR_MODEL, checkPhone } from '../../../shared/phones';
import { splitPhoneList } from '../../../shared/phoneLists';
import { addRunHint } from '../../../shared/n8nCompat';
import type { OperationOption, RepeatEffect } from '../../../shared/router';
import { isSmsSent, sendSmsBatch, SMS_LABEL } from '../../../shared/transport/smsApi';
import { normalizeSmsSender, SMS_LIMITS, SMS_SENDER_RULES } from '../../../shared/limits';
import { pageWebhook, RECIPIENT_QUERY } from './answerPage';
import { answerReply, isReplyUrl } from './replyAnswer';
import {
	checkReplySender,
	dropReplyWait,
	openReplyWait,
	replyFields,
	replyOptions,
	supersedeOlderWaits,
	type ReplyAsk,
} from './replyWait';
import { senderField } from '../fields';

// The answer page and the relayed reply are this operation's: the node class serves them as its webhook.
export { answerWebhooks, WAITING_TOOLTIP } from './answerPage';

/** The node's webhook: a reply relayed by SMS Received, or the answer page of a link. */
export async function answerWebhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const query = (this.getRequestObject().query ?? {}) as IDataObject;
	return isReplyUrl(query) ? await answerReply.call(this) : await pageWebhook.call(this);
}

const DEFAULT_LINK_LABEL = 'Answer here:';
/** n8n-workflow's WAIT_INDEFINITELY (not exported by n8n 1.x, which this package also supports). */
const WAIT_INDEFINITELY = new Date('3000-01-01T00:00:00.000Z');

const limitWaitTime: INodeProperties = {
	displayName: 'Limit Wait Time',
	name: 'limitWaitTime',
	type: 'fixedCollection',
	description:
		'Whether to stop waiting after a time: the run then goes on with the input item unchanged, ' +
		"as in n8n's own Send and Wait nodes",
	default: { values: { limitType: 'afterTimeInterval', resumeAmount: 45, resumeUnit: 'minutes' } },
	options: [
		{
			displayName: 'Values',
			name: 'values',
			values: [
				{
					displayName: 'Limit Type',
					name: 'limitType',
					type: 'options',
					default: 'afterTimeInterval',
					options: [
						{
							name: 'After Time Interval',
							value: 'afterTimeInterval',
							description: 'Waits for a certain amount of time',
						},
						{
							name: 'At Specified Time',
							value: 'atSpecifiedTime',
							description: 'Waits until the set date and time',
						},
					],
				},
				{
					displayName: 'Amount',
					name: 'resumeAmount',
					type: 'number',
					default: 1,
					typeOptions: { minValue: 0, numberPrecision: 2 },
					displayOptions: { show: { limitType: ['afterTimeInterval'] } },
				},
				{
					displayName: 'Unit',
					name: 'resumeUnit',
					type: 'options',
					default: 'hours',
					options: [
						{ name: 'Minutes', value: 'minutes' },
						{ name: 'Hours', value: 'hours' },
						{ name: 'Days', value: 'days' },
					],
					displayOptions: { show: { limitType: ['afterTimeInterval'] } },
				},
				{
					displayName: 'Max Date and Time',
					name: 'maxDateAndTime',
					type: 'dateTime',
					default: '',
					description:
						"Stop waiting at this time (read in the workflow's time zone unless it carries an offset)",
					displayOptions: { show: { limitType: ['atSpecifiedTime'] } },
				},
			],
		},
	],
};

const properties: INodeProperties[] = [
	senderField('The approved sender name or verified phone number the SMS comes from'),
	{
		displayName: 'To',
		name: 'to',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 0501234567',
		description: 'The one phone number that receives the SMS and answers it',
		builderHint: parameterHints.approverPhone,
	},
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 4 },
		description:
			'The question; with Answer By: Link the link to the answer page is added after it, with ' +
			'SMS Reply it is sent alone (say how to answer, e.g. "Reply 1 to approve, 2 to decline")',
		hint:
			"A link adds about 145 characters plus your n8n address (n8n's signed resume URL); " +
			'message and link must fit the 600-character limit',
		builderHint: parameterHints.approvalQuestion,
	},
	{
		displayName: 'Answer By',
		name: 'answerBy',
		type: 'options',
		default: 'link',
		options: [
			{
				name: 'Link',
				value: 'link',
				description: 'The SMS carries a link to an answer page n8n serves',
			},
			{
				name: 'SMS Reply',
				value: 'smsReply',
				description:
					"The recipient texts back; the Virtual Number Trigger's SMS Received (Look Up in Data Tables: " +
					'Runs Waiting for This Reply) brings the reply to this run. The Sender must be a number that ' +
					'receives SMS.',
			},
		],
		builderHint: parameterHints.answerBy,
	},
	{
		displayName: 'Response Type',
		name: 'responseType',
		type: 'options',
		default: 'approval',
		options: [
			{
				name: 'Approval',
				value: 'approval',
				description: 'The page shows Approve (and Decline) buttons',
			},
			{
				name: 'Free Text',
				value: 'freeText',
				description: 'The page shows a small form to write an answer',
			},
		],
	},
	{
		displayName: 'Approval Options',
		name: 'approvalOptions',
		type: 'fixedCollection',
		placeholder: 'Add option',
		default: {},
		displayOptions: { show: { responseType: ['approval'], answerBy: ['link'] } },
		options: [
			{
				displayName: 'Values',
				name: 'values',
				values: [
					{
						displayName: 'Type of Approval',
						name: 'approvalType',
						type: 'options',
						default: 'double',
						options: [
							{ name: 'Approve Only', value: 'single' },
							{ name: 'Approve and Decline', value: 'double' },
						],
					},
					{
						displayName: 'Approve Button Label',
						name: 'approveLabel',
						type: 'string',
						default: 'Approve',
					},
					{
						displayName: 'Decline Button Label',
						name: 'disapproveLabel',
						type: 'string',
						default: 'Decline',
						displayOptions: { show: { approvalType: ['double'] } },
					},
				],
			},
		],
	},
	...replyFields,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			...replyOptions,
			{
				displayName: 'Link Label',
				name: 'linkLabel',
				type: 'string',
				default: DEFAULT_LINK_LABEL,
				description: 'Text before the link in the SMS',
				displayOptions: { show: { '/answerBy': ['link'] } },
			},
			limitWaitTime,
			{
				displayName: 'Maximum Message Length',
				name: 'maxLength',
				type: 'number',
				default: 600,
				typeOptions: { minValue: 1, maxValue: SMS_LIMITS.messageLength.max },
				description:
					'The longest SMS, link included, the node sends (the provider states 600 characters); ' +
					'raise it only if your account allows more',
			},
			{
				displayName: 'Page Title',
				name: 'pageTitle',
				type: 'string',
				default: 'Your answer', // ANSWER_PAGE_DEFAULTS.title (the lint rule wants a literal)
				description: 'Heading of the answer page the link opens',
				displayOptions: { show: { '/answerBy': ['link'] } },
			},
		],
	},
];

export const option: OperationOption = {
	name: 'Send and Wait for Response',
	description:
		'Send one SMS and wait until the recipient approves, declines or answers, on an answer page or by SMS reply',
	action: 'Send an SMS and wait for response',
};

export const toolDescription =
	'Send one SMS and wait until the recipient answers, on an answer page or by SMS reply (costs one SMS credit). ' +
	`${PHONES_FOR_MODEL} ` +
	"The sender is the one set in the node's Sender field.";

export const description = updateDisplayOptions(
	{ show: { resource: ['message'], operation: ['sendAndWait'] } },
	properties,
);

/** A repeated run sends, and charges, the SMS again (and would wait for a second answer). */
export const repeatEffect: RepeatEffect = { what: 'send, and charge, the SMS again' };

interface WaitRequest {
	dest: string;
	sender: string;
	message: string;
	linkLabel: string;
	maxLength: number;
	/** Answer By: SMS Reply. */
	byReply: boolean;
}

function readRequest(this: IExecuteFunctions, check: InputChecks): WaitRequest {
	const recipients = splitPhoneList(this.getNodeParameter('to', 0, ''));
	if (recipients.length > 1)
		check.fail(
			'To',
			'must be one phone number: one SMS waits for one answer',
			recipients.join(', '),
		);
	const dest = checkPhone(check, 'To', recipients[0] ?? '');
	const senderText = check.required(
		'Sender',
		this.getNodeParameter('sender', 0, '', { extractValue: true }),
	);
	const sender = normalizeSmsSender(senderText);
	if (!sender)
		check.fail(
			'Sender',
			`is not valid: ${SMS_SENDER_RULES.text}; ${SMS_SENDER_RULES.phone}`,
			senderText,
		);
	const byReply = this.getNodeParameter('answerBy', 0, 'link') === 'smsReply';
	if (byReply) checkReplySender(check, senderText);
	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	return {
		byReply,
		dest,
		sender: sender.value,
		message: check.required('Message', this.getNodeParameter('message', 0, '')),
		linkLabel: String(options.linkLabel ?? DEFAULT_LINK_LABEL).trim(),
		maxLength: check.integerInRange(
			'Maximum Message Length',
			options.maxLength ?? SMS_LIMITS.messageLength.default,
			1,
			SMS_LIMITS.messageLength.max,
		),
	};
}

/** Characters as a phone counts them: code points, so an emoji is one. */
const characters = (text: string) => [...text].length;

/** The SMS: the message, then the label and the link on their own line (the message alone by SMS reply). */
function smsText(this: IExecuteFunctions, request: WaitRequest, check: InputChecks): string {
	if (request.byReply) {
		const length = characters(request.message);
		if (length > request.maxLength)
			check.fail(
				'Message',
				`is ${length} characters, over the limit of ${request.maxLength}: nothing was sent`,
				`shorten the message by ${length - request.maxLength} characters`,
			);
		return request.message;
	}
	const link = this.getSignedResumeUrl({ [RECIPIENT_QUERY]: request.dest });
	const text = `${request.message}\n${request.linkLabel ? `${request.linkLabel} ` : ''}${link}`;
	const length = characters(text);
	if (length > request.maxLength) {
		const over = length - request.maxLength;
		check.fail(
			'Message',
			`the SMS with its answer link is ${length} characters, over the limit of ${request.maxLength} ` +
				`(message ${characters(request.message)}, link ${characters(link)}): nothing was sent`,
			`shorten the message by ${over} characters`,
		);
	}
	return text;
}

const UNIT_MS: IDataObject = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 };

/** When waiting stops: n8n's WAIT_INDEFINITELY unless Limit Wait Time is set. */
function waitLimit(this: IExecuteFunctions, check: InputChecks): Date {
	const limit = this.getNodeParameter('options.limitWaitTime.values', 0, {}) as IDataObject;
	if (Object.keys(limit).length === 0) return WAIT_INDEFINITELY;
	if (limit.limitType === 'atSpecifiedTime') {
		const date = toDateTime(limit.maxDateAndTime, this.getTimezone(), 'Max Date and Time', check);
		if (date.toMillis() <= Date.now())
			check.fail('Max Date and Time', 'must be in the future', date.toISO());
		return date.toJSDate();
	}
	const amount = Number(limit.resumeAmount ?? 1);
	const unit = (UNIT_MS[String(limit.resumeUnit ?? 'hours')] as number | undefined) ?? 3_600_000;
	if (!Number.isFinite(amount) || amount <= 0)
		check.fail('Limit Wait Time → Amount', 'must be a number above 0', limit.resumeAmount);
	return new Date(Date.now() + amount * unit);
}

/** Sends the SMS; fails, with nothing waiting, when the service refuses it. */
async function send(this: IExecuteFunctions, request: WaitRequest, text: string): Promise<void> {
	const [result] = await sendSmsBatch.call(this, [
		{ service: 'send_sms', dest: request.dest, sender: request.sender, message: text },
	]);
	if (isSmsSent(result)) return;
	// The service may quote the message back, and with it the answer link's signature.
	const why = maskSecrets(String(result.description ?? result.status));
	throw new NodeOperationError(
		this.getNode(),
		`${SMS_LABEL} refused the SMS to ${request.dest}: ${why}`,
		{
			itemIndex: 0,
			description: 'Nothing waits for an answer. Check the sender and the number.',
		},
	);
}

async function sendQuestion(this: IExecuteFunctions): Promise<Date> {
	const check = new InputChecks(this.getNode(), 0);
	const request = readRequest.call(this, check);
	const text = smsText.call(this, request, check);
	// Read before sending: a wrong limit must not leave an SMS out without a waiting execution.
	const waitTill = waitLimit.call(this, check);
	if (!request.byReply) {
		await send.call(this, request, text);
		return waitTill;
	}
	const ask: ReplyAsk = {
		dest: request.dest,
		sender: request.sender,
		waitTill,
		indefinitely: waitTill.getTime() === WAIT_INDEFINITELY.getTime(),
	};
	// Written before the SMS goes out, so that the fastest reply finds the run.
	const wait = await openReplyWait.call(this, ask);
	try {
		await send.call(this, request, text);
	} catch (error) {
		await dropReplyWait.call(this, wait);
		throw asNodeError(this.getNode(), error, 0);
	}
	await supersedeOlderWaits.call(this, wait);
	return waitTill;
}

export async function executeBatch(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const node = this.getNode();
	try {
		const waitTill = await sendQuestion.call(this);
		await this.putExecutionToWait(waitTill);
	} catch (error) {
		if (!this.continueOnFail()) throw asNodeError(node, error, 0);
		return [errorItem(node, error, 0)];
	}
	const items = this.getInputData();
	if (items.length > 1)
		addRunHint(this, {
			message: `One SMS was sent, for the first of ${items.length} input items: one execution waits for one answer`,
			location: 'outputPane',
		});
	// What n8n's own Send and Wait nodes return: the answer replaces it when the execution resumes.
	return items.map((item, index) => ({ ...item, pairedItem: { item: index } }));
}
