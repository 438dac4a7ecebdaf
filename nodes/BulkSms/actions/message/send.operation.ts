/**
 * Message → Send. Unlike the other operations this one runs once per execution, not once per
 * item: every recipient of every item is one message, and the messages go to ws_json_bulk.php
 * in batches of Batch Size, never one request per item and never retried (a repeated request
 * sends and charges twice). All input checks run on all items before the first request.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IGetNodeParameterOptions,
	INode,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { InputChecks, LIMITS, normalizeSmsSender, SMS_SENDER_RULES } from '../../../shared/checks';
import { formatSmsSendtime, isValidTimeZone } from '../../../shared/dates';
import { checkPhoneList, phoneTextSource } from '../../../shared/phones';
import { asNodeError, errorItem as buildErrorItem } from '../../../shared/errors';
import type { RepeatEffect } from '../../../shared/router';
import {
	creditBalance,
	isSmsSent,
	sendSmsBatch,
	smsCreditRequest,
	SMS_LABEL,
	type SmsMessage,
	type SmsResult,
} from '../../../shared/transport/smsApi';
import { DEFAULT_CREDIT_PATH, readCreditPath } from '../credit/getBalance.operation';
import { WORKFLOW_TIME_ZONE } from '../../methods/loadOptions';
import { estimateSegments, type SegmentEstimate } from './encoding';

const show = { resource: ['message'], operation: ['send'] };

const RETRY_WARNING =
	'Every message is sent once and never retried. Keep Retry On Fail (node settings) off: a retried run would send, and charge, every message again.';

export const description: INodeProperties[] = [
	{
		displayName: RETRY_WARNING,
		name: 'retryNotice',
		type: 'notice',
		default: '',
		displayOptions: { show },
	},
	{
		displayName: 'Sender',
		name: 'sender',
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		description: 'The approved sender name or verified phone number the message comes from',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a sender...',
				typeOptions: { searchListMethod: 'searchSenders', searchable: true },
			},
			{
				displayName: 'By Name or Number',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. MyShop or 0501234567',
				validation: [
					{
						type: 'regex',
						properties: {
							regex: `^\\s*([A-Za-z][A-Za-z0-9_-]{2,10}|\\*\\d{4}|${phoneTextSource()})\\s*$`,
							errorMessage:
								'A sender name is 3-11 characters (Latin letter first, then a-z A-Z 0-9 _ -); a phone sender is a number or *XXXX',
						},
					},
				],
			},
		],
		displayOptions: { show },
	},
	{
		displayName: 'To',
		name: 'to',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 0501234567, +972-52-765-4321',
		description:
			'One or more phone numbers, separated by commas, semicolons or new lines. Spaces, dashes, dots, brackets and a leading + are removed. Each number is one message and uses its own credit.',
		displayOptions: { show },
	},
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 4 },
		description: 'The text to send',
		hint: 'Up to 160 Latin characters fit in one SMS (153 per part when longer); Hebrew and emoji need UCS-2: 70 (67 per part). Each output item estimates the parts.',
		displayOptions: { show },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Allow Past Time',
				name: 'allowPastTime',
				type: 'boolean',
				default: false,
				description: 'Whether a Send At in the past is accepted (the service then sends at once) instead of failing the item',
			},
			{
				displayName: 'Batch Size',
				name: 'batchSize',
				type: 'number',
				default: 100,
				typeOptions: { minValue: LIMITS.smsBatchSize.min, maxValue: LIMITS.smsBatchSize.max },
				description: `How many messages (one per recipient) go in one request, across all input items. ${LIMITS.smsBatchSize.min}-${LIMITS.smsBatchSize.max}.`,
				hint: 'A batch is sent once and never retried: keep Retry On Fail off, or a retried run sends and charges again',
			},
			{
				displayName: 'Check Credit First',
				name: 'checkCreditFirst',
				type: 'boolean',
				default: false,
				description:
					'Whether to read the credit balance once before sending, and send nothing when it is smaller than the number of recipients',
			},
			{
				displayName: 'Credit Path',
				name: 'creditPath',
				type: 'string',
				default: DEFAULT_CREDIT_PATH,
				description:
					'Used by Check Credit First: path of the balance operation on the SMS Base URL. The service contract names a /credit operation without showing its address; change this only if your provider gave you another one.',
			},
			{
				displayName: 'Delivery Report URL',
				name: 'callbackUrl',
				type: 'string',
				default: '',
				placeholder: 'e.g. https://n8n.example.com/webhook/…',
				description: 'Address that receives the delivery status of each message (the service\'s callback_url)',
				hint: 'Paste the Production URL of a Virtual Number Trigger to start a workflow on each delivery report',
			},
			{
				displayName: 'Send At',
				name: 'sendAt',
				type: 'dateTime',
				default: '',
				description:
					'Schedule the messages instead of sending them now. Accepts a date picked here, ISO text, or a DateTime or Date from an expression.',
			},
			{
				displayName: 'Time Zone Name or ID',
				name: 'timeZone',
				type: 'options',
				typeOptions: { loadOptionsMethod: 'getTimeZones' },
				default: WORKFLOW_TIME_ZONE,
				description:
					'Time zone of Send At when it has no offset, and of the time sent to the service. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
		],
	},
];

interface SendOptions {
	allowPastTime?: boolean;
	batchSize?: number;
	checkCreditFirst?: boolean;
	creditPath?: string;
	callbackUrl?: string;
	sendAt?: unknown;
	timeZone?: string;
}

/** One input item, checked and ready: its messages (one per recipient) and its settings. */
interface PreparedItem {
	itemIndex: number;
	messages: SmsMessage[];
	estimate: SegmentEstimate;
	batchSize: number;
	checkCredit: boolean;
	creditPath: string;
}

interface Entry {
	item: PreparedItem;
	message: SmsMessage;
}

const CALLBACK_URL_PATTERN = /^https?:\/\/[^\s/?#]+[^\s]*$/i;

type ParameterReader = (name: string, itemIndex: number, fallback: unknown, options?: IGetNodeParameterOptions) => unknown;

function hasExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(hasExpression);
	if (value !== null && typeof value === 'object') return Object.values(value).some(hasExpression);
	return false;
}

/**
 * Reads the parameters of many items. A parameter with no expression in it has the same value for
 * every item, so it is read once: getNodeParameter copies and walks the value on every call, which
 * was most of the node's own time in a 10,000-item send (bench/README.md). Values are not mutated.
 */
function parameterReader(context: IExecuteFunctions): ParameterReader {
	const raw = context.getNode().parameters;
	const once = new Map<string, unknown>();
	return (name, itemIndex, fallback, options) => {
		if (hasExpression(raw[name])) return context.getNodeParameter(name, itemIndex, fallback, options);
		if (!once.has(name)) once.set(name, context.getNodeParameter(name, itemIndex, fallback, options));
		return once.get(name);
	};
}

/** The segment estimate of the last text, reused while items send the same text. */
let lastEstimate: { text: string; estimate: SegmentEstimate } | undefined;

function estimateOnce(text: string): SegmentEstimate {
	if (lastEstimate?.text !== text) lastEstimate = { text, estimate: estimateSegments(text) };
	return lastEstimate.estimate;
}

/** Reads and checks one item; every failure names the item, the field, the rule and the value. */
function prepareItem(this: IExecuteFunctions, itemIndex: number, node: INode, parameter: ParameterReader): PreparedItem {
	const check: InputChecks = new InputChecks(node, itemIndex);

	const senderText = check.required('Sender', parameter('sender', itemIndex, '', { extractValue: true }));
	const sender = normalizeSmsSender(senderText);
	if (!sender) check.fail('Sender', `is not valid: ${SMS_SENDER_RULES.text}; ${SMS_SENDER_RULES.phone}`, senderText);

	// One message per distinct recipient of an item: a number listed twice is sent (and charged) once.
	const recipients = [...new Set(checkPhoneList(check, 'To', parameter('to', itemIndex, '')))];

	const rawMessage = parameter('message', itemIndex, '');
	check.required('Message', rawMessage);
	const text = String(rawMessage);

	const options = parameter('options', itemIndex, {}) as SendOptions;
	const batchSize = check.integerInRange(
		'Batch Size',
		options.batchSize ?? LIMITS.smsBatchSize.default,
		LIMITS.smsBatchSize.min,
		LIMITS.smsBatchSize.max,
	);

	const zoneOption = String(options.timeZone ?? '').trim();
	const zone = zoneOption === '' || zoneOption === WORKFLOW_TIME_ZONE ? this.getTimezone() : zoneOption;
	if (!isValidTimeZone(zone)) check.fail('Time Zone', 'must be an IANA time zone such as Asia/Jerusalem or UTC', zone);

	let sendtime: string | undefined;
	if ('sendAt' in options) {
		const value = options.sendAt;
		// An added but empty Send At (often an expression whose field is missing) must not send at once.
		if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
			check.fail('Send At', 'is empty: enter a date and time, or remove the option to send at once');
		}
		sendtime = formatSmsSendtime(check, value, zone, options.allowPastTime === true);
	}

	let callbackUrl: string | undefined;
	const rawCallback = String(options.callbackUrl ?? '').trim();
	if (rawCallback !== '') {
		callbackUrl = check.pattern(
			'Delivery Report URL',
			rawCallback,
			CALLBACK_URL_PATTERN,
			'must be a full http:// or https:// address without spaces',
		);
	}

	const checkCredit = options.checkCreditFirst === true;
	const creditPath = checkCredit ? readCreditPath(check, options.creditPath) : DEFAULT_CREDIT_PATH;

	const messages = recipients.map((dest): SmsMessage => {
		const message: SmsMessage = { service: 'send_sms', dest, sender: sender.value, message: text };
		if (sendtime) message.sendtime = sendtime;
		if (callbackUrl) message.callback_url = callbackUrl;
		return message;
	});
	return { itemIndex, messages, estimate: estimateOnce(text), batchSize, checkCredit, creditPath };
}

/** Groups the messages in order; no batch holds more messages than the Batch Size of any of its items. */
export function makeBatches<T extends { item: { batchSize: number } }>(entries: T[]): T[][] {
	const batches: T[][] = [];
	let current: T[] = [];
	let limit = Infinity;
	for (const entry of entries) {
		const cap = Math.min(limit, entry.item.batchSize);
		if (current.length >= cap) {
			batches.push(current);
			current = [];
			limit = entry.item.batchSize;
		} else {
			limit = cap;
		}
		current.push(entry);
	}
	if (current.length > 0) batches.push(current);
	return batches;
}

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
	return records.length > max ? `${shown}; … and ${records.length - max} more (all are in the error's data)` : shown;
}

const showSent = (r: SentRecord) => `${String(r.message_id)} → ${r.dest} (item ${r.inputItem})`;
const showFailed = (r: FailedRecord) =>
	`${r.dest} (item ${r.inputItem}): ${r.status}${r.description ? ` – ${r.description}` : ''}`;

/** What was sent before a failure, and what was not sent because of it, as text and as data. */
function progress(sent: SentRecord[], notSent: Entry[]): { text: string; data: IDataObject } {
	const lines = [
		sent.length > 0
			? `Already sent (${sent.length}, do not send them again), message id → recipient: ${listSome(sent, LISTED_IN_DESCRIPTION, showSent)}.`
			: 'No message of this run was confirmed as sent before this failure.',
		notSent.length > 0
			? `Not sent (${notSent.length}): the messages of the later batches, items ${notSent[0].item.itemIndex}-${notSent[notSent.length - 1].item.itemIndex}.`
			: '',
	];
	return {
		text: lines.filter(Boolean).join('\n'),
		data: {
			sent,
			notSent: notSent.map((entry) => ({ dest: entry.message.dest, inputItem: entry.item.itemIndex })),
		},
	};
}

function recipientsFailed(
	this: IExecuteFunctions,
	failed: FailedRecord[],
	sent: SentRecord[],
	notSent: Entry[],
	total: number,
): NodeOperationError {
	const done = progress(sent, notSent);
	const tokenHint = failed.some((f) => /\btoken\b/i.test(f.description))
		? "The service reports a missing token: check the credential's Access Token.\n"
		: '';
	const error = new NodeOperationError(
		this.getNode(),
		`${failed.length} of ${total} SMS messages failed: ${listSome(failed, LISTED_IN_MESSAGE, showFailed)}`,
		{
			itemIndex: failed[0].inputItem,
			description: [
				`Failed (${failed.length}): ${listSome(failed, LISTED_IN_DESCRIPTION, showFailed)}.`,
				tokenHint + done.text,
				'Turn on Continue On Fail (Settings → On Error) to get the failed recipients as error items beside the sent ones.',
			].join('\n'),
		},
	);
	error.context.data = { failed, ...done.data };
	return error;
}

/**
 * A failure of a whole batch (HTTP error, wrong number of results…), told with what was sent
 * before it, the messages of the failed batch itself, and what was not sent.
 */
function batchFailed(error: unknown, sent: SentRecord[], batch: Entry[], notSent: Entry[]): Error {
	const done = progress(sent, notSent);
	const nodeError = error as { description?: string | null; context?: IDataObject; httpCode?: string | null };
	// A 401 is answered before anything is sent; any other batch failure may come after the service took the batch.
	const refused = nodeError?.httpCode === '401';
	const inBatch = `${refused ? 'Not sent' : 'In the failed batch, possibly sent (check the notifications report before sending them again)'} (${batch.length}): the messages of items ${batch[0].item.itemIndex}-${batch[batch.length - 1].item.itemIndex}.`;
	if (nodeError && typeof nodeError === 'object') {
		nodeError.description = [nodeError.description, done.text, inBatch].filter(Boolean).join('\n');
		if (nodeError.context) {
			const before = (nodeError.context.data ?? {}) as IDataObject;
			nodeError.context.data = {
				...before,
				...done.data,
				failedBatch: batch.map((entry) => ({ dest: entry.message.dest, inputItem: entry.item.itemIndex })),
			};
		}
	}
	return error as Error;
}

/** Matches results to messages: same count (checked by the transport) and, when given, the same dest. */
function mismatchedDest(batch: Entry[], results: SmsResult[]): number {
	return results.findIndex((result, index) => {
		const answered = String(result.dest ?? '').replace(/\D/g, '');
		return answered !== '' && answered !== batch[index].message.dest;
	});
}

/** A repeated run sends, and charges, every message again (the later Bulk SMS work adds a safe retry here). */
export const repeatEffect: RepeatEffect = { what: 'send, and charge, every message again' };

/** The error of one recipient the service refused, in the package's error item shape. */
function recipientRefused(node: INode, record: FailedRecord): NodeOperationError {
	return new NodeOperationError(node, `The message to ${record.dest} was not sent: ${record.status || 'no status'}`, {
		itemIndex: record.inputItem,
		description: [
			record.description ? `The service said: "${record.description}".` : '',
			'The other recipients are not affected. Fix the number or the sender, then send to this recipient again.',
		]
			.filter(Boolean)
			.join(' '),
	});
}

export async function executeBatch(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const items = this.getInputData();
	const continueOnFail = this.continueOnFail();
	const node = this.getNode();
	const outputs: INodeExecutionData[][] = items.map(() => []);
	const errorItem = (itemIndex: number, error: unknown, extra?: Parameters<typeof buildErrorItem>[3]) =>
		outputs[itemIndex].push(buildErrorItem(node, error, itemIndex, extra));

	// 1. Every check of every item, before any request.
	const prepared: PreparedItem[] = [];
	const parameter = parameterReader(this);
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			prepared.push(prepareItem.call(this, itemIndex, node, parameter));
		} catch (error) {
			if (!continueOnFail) throw asNodeError(node, error, itemIndex);
			errorItem(itemIndex, error);
		}
	}
	const entries: Entry[] = prepared.flatMap((item) => item.messages.map((message) => ({ item, message })));
	if (entries.length === 0) return outputs.flat();

	// 2. Credit, read once per execution, before anything is sent.
	const creditItem = prepared.find((item) => item.checkCredit);
	if (creditItem) {
		try {
			await checkCredit.call(this, creditItem, entries);
		} catch (error) {
			if (!continueOnFail) throw asNodeError(node, error, creditItem.itemIndex);
			for (const item of prepared) errorItem(item.itemIndex, error);
			return outputs.flat();
		}
	}

	// 3. The batches, each sent once.
	const batches = makeBatches(entries);
	const sent: SentRecord[] = [];
	for (let b = 0; b < batches.length; b++) {
		const batch = batches[b];
		let results: SmsResult[];
		try {
			results = await sendSmsBatch.call(
				this,
				batch.map((entry) => entry.message),
			);
			const wrong = mismatchedDest(batch, results);
			if (wrong >= 0) {
				throw new NodeOperationError(
					node,
					`The ${SMS_LABEL} service answered result ${wrong + 1} of a batch of ${batch.length} for ${String(results[wrong].dest)} instead of ${batch[wrong].message.dest}`,
					{
						description: `All ${batch.length} messages of this batch were sent to the service and may have been delivered; the results are not in request order, so none is reported. Check the notifications report before sending again.`,
					},
				);
			}
		} catch (error) {
			const later = batches.slice(b + 1).flat();
			if (!continueOnFail) throw batchFailed(error, sent, batch, later);
			for (const entry of batch) {
				errorItem(entry.item.itemIndex, error, { details: { recipient: entry.message.dest, sender: entry.message.sender } });
			}
			continue;
		}

		const failed: FailedRecord[] = [];
		results.forEach((result, index) => {
			const { item, message } = batch[index];
			if (isSmsSent(result)) {
				// The result object was just parsed for this run: extended in place, not copied (10,000 copies
				// were a noticeable part of a large send, bench/README.md).
				result.inputItem = item.itemIndex;
				result.segments = item.estimate.segments;
				result.encoding = item.estimate.encoding;
				outputs[item.itemIndex].push({ json: result, pairedItem: { item: item.itemIndex } });
				sent.push({ dest: message.dest, message_id: result.message_id as number, inputItem: item.itemIndex });
				return;
			}
			const record: FailedRecord = {
				dest: message.dest,
				status: String(result.status ?? ''),
				description: String(result.description ?? ''),
				inputItem: item.itemIndex,
			};
			failed.push(record);
			if (continueOnFail) errorItem(item.itemIndex, recipientRefused(node, record), { code: record.status || undefined, details: { recipient: record.dest, sender: message.sender } });
		});
		// Without Continue On Fail the run stops at the first batch with a failed recipient.
		if (failed.length > 0 && !continueOnFail) {
			throw recipientsFailed.call(this, failed, sent, batches.slice(b + 1).flat(), entries.length);
		}
	}
	return outputs.flat();
}

async function checkCredit(this: IExecuteFunctions, creditItem: PreparedItem, entries: Entry[]): Promise<void> {
	const answer = await smsCreditRequest.call(this, creditItem.creditPath, creditItem.itemIndex);
	const balance = creditBalance(answer);
	if (balance === undefined) {
		// The answer's shape is not in the spec: without a number there is nothing to compare.
		this.logger.warn(
			`${SMS_LABEL}: Check Credit First found no numeric balance in the answer of ${creditItem.creditPath}; sending without a credit check`,
		);
		return;
	}
	if (balance >= entries.length) return;
	const segments = entries.reduce((sum, entry) => sum + entry.item.estimate.segments, 0);
	throw new NodeOperationError(
		this.getNode(),
		`Not enough SMS credit: the balance is ${balance}, and this run has ${entries.length} recipients`,
		{
			itemIndex: creditItem.itemIndex,
			description: `Nothing was sent. Every recipient uses at least one credit${segments > entries.length ? ` (the messages take an estimated ${segments} SMS parts in all)` : ''}. Top up the account or send to fewer recipients.`,
		},
	);
}
