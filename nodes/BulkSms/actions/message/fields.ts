/**
 * The fields of Message → Send (what the editor draws; send.operation.ts reads them through
 * prepare.ts).
 */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { parameterHints } from '../../../shared/builderHints';
import { SMS_LIMITS } from '../../../shared/limits';
import { creditPathOption } from '../../../shared/transport/smsApi';
import { SERVICE_TIME_ZONE_OPTION } from '../../methods/loadOptions';
import { senderField } from '../fields';
import { campaignOptions } from './campaign';

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

/** Send's fields, in the order the editor shows them. */
export const sendProperties: INodeProperties[] = [
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
				hint:
					'Paste the Production URL a Virtual Number Trigger shows with SMS Delivery Status chosen (it ends ' +
					'in /sms/ and a token, never the Secret itself)',
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
	campaignOptions,
];
