/**
 * The fields of Message → Send, what the editor draws: the item's fields and options (read by
 * read.ts), then the Campaign options (read by campaign.ts), defined first as Send's fields end
 * with them.
 */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { parameterHints } from '../../../shared/builderHints';
import { SMS_LIMITS } from '../../../shared/limits';
import { creditPathOption } from '../../../shared/transport/smsApi';
import { SERVICE_TIME_ZONE_OPTION } from '../../methods/loadOptions';
import { senderField } from '../fields';

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

// ---- the Campaign options (read and applied by campaign.ts) -----------------------------------

/** The reply keyword people in Israel use to refuse ("remove"), the default of the option. */
export const DEFAULT_OPT_OUT_KEYWORD = 'הסר';

const advertisementOption: INodeProperties = {
	displayName: 'Advertisement',
	name: 'advertisement',
	type: 'fixedCollection',
	default: {},
	placeholder: 'Add Advertiser Details',
	description:
		'Send the message as an advertisement: it goes out starting with "פרסומת", with the advertiser\'s ' +
		'name and contact details and how to refuse, as Israeli law requires. Write only the message.',
	hint: "The recipients' prior consent is yours to have: the node cannot check it",
	options: [
		{
			displayName: 'Advertiser',
			name: 'details',
			values: [
				{
					displayName: 'Advertiser Name',
					name: 'advertiser',
					type: 'string',
					default: '',
					required: true,
					placeholder: 'e.g. Cafe Dizengoff',
					description: 'The name the recipient knows the advertiser by',
				},
				{
					displayName: 'Contact Details',
					name: 'contact',
					type: 'string',
					default: '',
					required: true,
					placeholder: 'e.g. 03-5551234',
					description: 'How the recipient can reach the advertiser: a phone number, an address',
				},
				{
					displayName: 'Opt-Out Reply Keyword',
					name: 'keyword',
					type: 'string',
					default: DEFAULT_OPT_OUT_KEYWORD,
					description:
						'The word the recipient replies with to refuse further messages. Empty: only the link is given.',
				},
				{
					displayName: 'Opt-Out Link',
					name: 'link',
					type: 'string',
					default: '',
					placeholder: 'e.g. https://example.com/remove',
					description: 'A page where the recipient can refuse further messages (optional)',
				},
			],
		},
	],
};

/** The Skip Opted-Out Numbers option's name, which its failures start with. */
export const OPT_OUTS_OPTION = 'Skip Opted-Out Numbers';

/** Numbers From: An Earlier Node's Items: which node, and which field of its items. */
const nodeItemsFields: INodeProperties[] = [
	{
		displayName: 'Node Name',
		name: 'nodeName',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Opt-outs',
		description:
			'The earlier node of this workflow (its name on the canvas) whose items hold the numbers. ' +
			'Read once per run.',
		hint: 'Faster than a List mapping the same items with an expression',
		displayOptions: { show: { from: ['nodeItems'] } },
	},
	{
		displayName: 'Field',
		name: 'field',
		type: 'string',
		default: 'phone',
		description: "The field of that node's items holding the number",
		displayOptions: { show: { from: ['nodeItems'] } },
	},
];

const optOutsOption: INodeProperties = {
	displayName: OPT_OUTS_OPTION,
	name: 'optOuts',
	type: 'fixedCollection',
	default: {},
	placeholder: 'Add Opted-Out Numbers',
	description:
		'Numbers that refused further messages get no message: each gets an item "Not sent: opted out". ' +
		'Matched however the number is written (0541110010, 541110010 and +972-54-111-0010 are one number).',
	hint:
		'A value that cannot be one phone number stops the run before anything is sent, naming its row; ' +
		'an empty cell is skipped',
	options: [
		{
			displayName: 'Opted-Out Numbers',
			name: 'source',
			values: [
				{
					displayName: 'Numbers From',
					name: 'from',
					type: 'options',
					default: 'list',
					// No Data Table choice: n8n serves its Data Tables only to its own nodes. Read one
					// with n8n's Data table node and choose An Earlier Node's Items.
					options: [
						{
							name: 'List',
							value: 'list',
							description: "Numbers typed, or an expression reading an earlier node's items",
						},
						{
							name: "An Earlier Node's Items",
							value: 'nodeItems',
							description:
								"A field of every item an earlier node output (e.g. n8n's Data table node), read without an expression",
						},
					],
				},
				{
					displayName: 'Numbers',
					name: 'numbers',
					type: 'string',
					default: '',
					placeholder: "e.g. {{ $('Get Opt-Outs').all().map(item => item.json.phone) }}",
					description:
						'Numbers separated by commas or new lines, or an array from an expression. Read once per run.',
					hint:
						"For an n8n Data Table, read it with n8n's Data table node (Get, Return All) and " +
						"choose An Earlier Node's Items",
					displayOptions: { show: { from: ['list'] } },
				},
				...nodeItemsFields,
			],
		},
	],
};

const DAY_NAMES: Record<string, string> = {
	sun: 'Sunday',
	mon: 'Monday',
	tue: 'Tuesday',
	wed: 'Wednesday',
	thu: 'Thursday',
	fri: 'Friday',
	sat: 'Saturday',
};

const sendingWindowOptions: INodeProperties[] = [
	{
		displayName: 'Sending Window',
		name: 'sendingWindow',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Opening Hours',
		description:
			"The days and hours messages may go out, on the service's clock (the credential's Service Time Zone)",
		hint: 'No law sets these hours in Israel; 08:00-21:00 Sunday to Thursday and Friday until 14:00 is common practice',
		options: [
			{
				displayName: 'Opening Hours',
				name: 'hours',
				values: [
					{
						displayName: 'Days',
						name: 'days',
						type: 'multiOptions',
						default: ['sun', 'mon', 'tue', 'wed', 'thu'],
						options: Object.entries(DAY_NAMES).map(([value, name]) => ({ name, value })),
					},
					{
						displayName: 'From',
						name: 'from',
						type: 'string',
						default: '08:00',
						placeholder: 'e.g. 08:00',
						description: 'Opening time, HH:mm (24-hour clock)',
					},
					{
						displayName: 'Until',
						name: 'until',
						type: 'string',
						default: '21:00',
						placeholder: 'e.g. 21:00',
						description:
							'Closing time, HH:mm; no message goes out at or after it (24:00: midnight)',
					},
				],
			},
		],
	},
	{
		displayName: 'Outside the Sending Window',
		name: 'outsideWindow',
		type: 'options',
		default: 'schedule',
		options: [
			{
				name: 'Schedule for the Next Opening',
				value: 'schedule',
				description: 'The messages are sent with Send At set to the next opening',
			},
			{
				name: 'Do Not Send',
				value: 'skip',
				description: 'Each recipient gets an item "Not sent: outside the sending window"',
			},
		],
	},
];

const campaignOptions: INodeProperties = {
	displayName: 'Campaign',
	name: 'campaign',
	type: 'collection',
	placeholder: 'Add campaign option',
	default: {},
	description: 'Options of the whole run: read once, from the first item',
	options: [
		advertisementOption,
		{
			displayName: 'Campaign ID',
			name: 'campaignId',
			type: 'string',
			default: '={{ $execution.id }}',
			description:
				'Tags every message of the run: in each output item, and in the Delivery Report URL ' +
				'(campaignId=…), so that SMS Delivery Status reports it. Default: the execution ID.',
		},
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			default: 'perRecipient',
			options: [
				{
					name: 'One Item per Recipient',
					value: 'perRecipient',
					description: 'The result of each message, paired to its input item',
				},
				{
					name: 'Summary',
					value: 'summary',
					description:
						'One item for the whole run (counts, credits, first and last message ID); ' +
						'each failed recipient still gets its error item',
				},
			],
		},
		optOutsOption,
		...sendingWindowOptions,
	],
};

/** Send's fields, in the order the editor shows them. */
export const sendProperties: INodeProperties[] = [
	{ displayName: RETRY_NOTICE, name: 'retryNotice', type: 'notice', default: '' },
	{
		displayName: 'Send From',
		name: 'sendFrom',
		type: 'options',
		noDataExpression: true,
		default: 'sender',
		builderHint: parameterHints.sendFrom,
		options: [
			{
				name: 'Sender',
				value: 'sender',
				description: 'The sender name or phone number chosen below',
			},
			{
				name: 'Reply From: the Number Texted',
				value: 'numberTexted',
				description:
					"The account's number the person texted: the to of the Virtual Number Trigger's SMS Received item " +
					'each item comes from (after an AI Agent too); the number must be a verified phone sender',
			},
		],
	},
	{
		...senderField('The approved sender name or verified phone number the message comes from'),
		displayOptions: { show: { sendFrom: ['sender'] } },
	},
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
