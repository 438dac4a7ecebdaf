/**
 * The trigger as n8n reads it when the node loads: its parameters, as the editor shows them, and
 * its webhooks.
 *
 * The webhooks: the spec does not show how callbacks are sent, so both methods on the same path.
 * Only the first entry has lifecycle methods (n8n's own nodes name the second `setup`), so n8n
 * registers once. Callbacks are answered with an empty body, as a callback endpoint should; with
 * Respond With a destination from the workflow, n8n waits for the answer (lastNode or
 * responseNode) and callback/routeCall.ts guards it; with the routing rules the trigger answers
 * the call start itself (n8n's onReceived, as for Nothing).
 *
 * n8n reads a webhook's path and response options from these expressions on every request. n8n 2.x
 * (since 2.40) also takes a resolver per field, a function of the parameters giving the same value
 * without its expression engine, used when no parameter holds an expression or a resource locator
 * (Numbers: All Numbers, the default): each field below carries both, from the module of its
 * concept (the response: callback/routeCall.ts; the SMS URL's path: secret.ts). Earlier n8n
 * versions ignore the resolvers and evaluate the expressions.
 */
import type { IDataObject, INodeProperties, IWebhookDescription } from 'n8n-workflow';

import { parameterHints } from '../shared/builderHints';
import { ROUTES, type Route } from '../shared/callRouting';
import { SECRET_PARAM } from '../shared/triggerUrl';
import { virtualnumLocator } from '../shared/virtualnums';
import { TRIGGER_EVENTS } from './callback/events';
import { CALL_RESPONSE } from './callback/routeCall';
import { WEEKDAYS } from './callback/routingRules';
import { SMS_URL_PATH } from './secret';
import { TRIGGER_LIMITS } from './settings';

/** Options shown only when a call event is chosen (they set the numbers' callback URL). */
const CALL_EVENTS = TRIGGER_EVENTS.filter((event) => event.callbackOption).map(({ key }) => key);
/** The Respond With values that route the call (Route Call's options show for both). */
const ROUTE_VALUES = Object.keys(ROUTES);

export const properties: INodeProperties[] = [
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		default: ['callStarted', 'callEnded'],
		description: 'What starts the workflow',
		builderHint: parameterHints.triggerEvents,
		options: TRIGGER_EVENTS.map(({ option }) => option).sort((a, b) =>
			a.name.localeCompare(b.name),
		),
	},
	{
		displayName:
			'For SMS delivery statuses, set Options → Secret, then copy the Production URL shown above (it ends in ' +
			"/sms/ and a token made from the Secret) into the Bulk SMS node's Delivery Report URL. A status without " +
			'the secret is refused (401). The SMS service sends each status to the URL that travels with its ' +
			'message, so nothing is registered on the service.',
		name: 'smsNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { events: ['smsDelivery'] } },
	},
	{
		displayName:
			'For received SMS, set Options → Secret, then copy the Production URL shown above (it ends in /sms/ and ' +
			"a token made from the Secret) to where the service sets the URL a number's incoming messages are sent " +
			'to. A message without the secret is refused (401) and starts nothing, so nobody who learns the call ' +
			'URL can opt your customers out.',
		name: 'smsReceivedNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { events: ['smsReceived'] } },
	},
	{
		displayName: 'Look Up in Data Tables',
		name: 'dataTables',
		type: 'multiOptions',
		default: [],
		description:
			"What SMS Received looks up, through n8n's public API (the n8n API credential below: an API key " +
			'with the Data Table scopes), before the workflow starts',
		options: [
			{
				name: 'Runs Waiting for This Reply',
				value: 'waitingRuns',
				description:
					'A reply to a Bulk SMS Send and Wait for Response (Answer By: SMS Reply) resumes the run that ' +
					'asked; it starts this workflow only when it is an opt-out, or when no run waits for it',
			},
			{
				name: 'Senders Who Opted Out',
				value: 'optedOut',
				description:
					'Adds optedOut: true when the sender is in the table of opted-out numbers (Options), in any spelling',
			},
		],
		builderHint: parameterHints.triggerDataTables,
		displayOptions: { show: { events: ['smsReceived'] } },
	},
	{
		displayName: 'Numbers',
		name: 'numbers',
		type: 'options',
		default: 'all',
		description:
			"Which virtual numbers report their calls to this trigger. On activation the trigger sets each number's " +
			'callback URL to its own, keeping the previous one inside it, and puts the previous one back on ' +
			"deactivation. A number has one callback URL: a number another active workflow's trigger uses is refused.",
		options: [
			{
				name: 'All Numbers of the Account',
				value: 'all',
				description:
					'Every number of the account, active or suspended, at the time the workflow is activated',
			},
			{
				name: 'Selected Numbers',
				value: 'selected',
				description: 'Only the numbers listed below',
			},
		],
		displayOptions: { show: { events: CALL_EVENTS } },
	},
	{
		displayName: 'Virtual Numbers',
		name: 'virtualnums',
		type: 'fixedCollection',
		placeholder: 'Add Number',
		typeOptions: { multipleValues: true },
		default: {},
		description: 'The numbers whose calls start the workflow',
		displayOptions: { show: { events: CALL_EVENTS, numbers: ['selected'] } },
		options: [
			{
				name: 'number',
				displayName: 'Number',
				values: [
					// The number's locator of both nodes: typed numbers follow the phone module's rule, as readSettings reads them.
					virtualnumLocator({
						description: 'A number of the account, picked from the list or typed',
					}),
				],
			},
		],
	},
	{
		displayName: 'If a Number Already Has a Callback URL',
		name: 'existingCallback',
		type: 'options',
		default: 'replace',
		description: "What to do when a number's callback URL points somewhere else",
		options: [
			{
				name: 'Replace It and Restore It on Deactivation',
				value: 'replace',
				description:
					'The previous URL and option are kept (inside the URL the trigger registers) and put back when the ' +
					'workflow is deactivated',
			},
			{
				name: 'Fail Activation',
				value: 'fail',
				description:
					'Activation stops, naming the numbers and their current callback URLs; nothing is changed',
			},
		],
		displayOptions: { show: { events: CALL_EVENTS } },
	},
	{
		displayName:
			'Listen for test event points the chosen numbers at the test URL for up to two minutes. Numbers an ' +
			'active workflow uses (this one or another) are refused, so testing never takes calls away from it: ' +
			'while this workflow is active, test with other numbers.',
		name: 'testNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { events: CALL_EVENTS } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'After-Hours Destination',
				name: 'afterHoursDestination',
				type: 'string',
				default: '',
				placeholder: 'e.g. 0722000199',
				description:
					'Where a call outside the Opening Hours goes when no routing rule takes it (e.g. a voicemail or ' +
					"on-call line). Empty: the number's own routing.",
				displayOptions: { show: { '/events': ['callStarted'], respondWith: ['rules'] } },
			},
			{
				displayName: 'Allowed Destinations',
				name: 'allowedDestinations',
				type: 'options',
				default: 'israel', // node version 1 without this option answers any number (callback/routeCall.ts)
				description:
					'Which numbers Route Call may send a call to (the account pays for it). Anything else gets the ' +
					"number's own routing and a log line naming the caller and the refused value.",
				options: [
					{
						name: 'Israeli Mobile and Landline Numbers',
						value: 'israel',
						description:
							'05X, 0A and 07X numbers; never 1-800, 1-700 or premium-rate 1-900 numbers, nor international ones',
					},
					{
						name: 'Israeli and International Numbers',
						value: 'international',
						description:
							'Also numbers of other countries (not +1 900 / +1 976); Israeli special-service numbers stay refused',
					},
					{
						name: 'Any Phone Number',
						value: 'any',
						description: 'Every phone number the workflow gives (what node version 1 did)',
					},
				],
				displayOptions: { show: { '/events': ['callStarted'], respondWith: ROUTE_VALUES } },
			},
			{
				displayName: 'Allowed IPs',
				name: 'allowedIps',
				type: 'string',
				default: '',
				placeholder: 'e.g. 203.0.113.10, 198.51.100.0/24',
				description:
					'Addresses or CIDR ranges (IPv4 or IPv6, comma-separated) the service calls from. Requests from any ' +
					"other address are answered 401 and start nothing. Behind a reverse proxy, set n8n's N8N_PROXY_HOPS " +
					"so n8n sees the caller's address.",
			},
			{
				displayName: 'Also Allowed Prefixes',
				name: 'allowedPrefixes',
				type: 'string',
				default: '',
				placeholder: 'e.g. 1800, 44',
				description:
					'Comma-separated digit prefixes Route Call also answers, whatever Allowed Destinations says: compared ' +
					'with the number as the workflow wrote it and in its 972… form (1800 for Israeli toll-free numbers, ' +
					'44 for the United Kingdom). A virtual number of the account is never answered (the call would loop ' +
					'and every leg is billed) unless it is listed here whole.',
				displayOptions: { show: { '/events': ['callStarted'], respondWith: ROUTE_VALUES } },
			},
			{
				displayName: 'Call Started Once per Call',
				name: 'onceCallStarted',
				type: 'boolean',
				default: false,
				description:
					'Whether only the first Call Started of each call ID starts the workflow (the service may send a ' +
					"call's start more than once). The call IDs seen in the last hour are kept in the workflow's static " +
					'data; two copies arriving at the same instant (or at two webhook processes in queue mode) can both ' +
					"pass — for a strict guarantee, add n8n's Remove Duplicates node on the callId field.",
				displayOptions: { show: { '/events': ['callStarted'] } },
			},
			{
				displayName: 'Deadline (Seconds)',
				name: 'routeDeadlineSec',
				type: 'number',
				default: 3, // TRIGGER_LIMITS.routeDeadlineSec.default (the lint wants a literal here)
				typeOptions: {
					minValue: TRIGGER_LIMITS.routeDeadlineSec.min,
					maxValue: TRIGGER_LIMITS.routeDeadlineSec.max,
					numberPrecision: 1,
				},
				description:
					'How long the call waits for the destination (the caller hears ringing meanwhile). Past it, or ' +
					"when the run fails, the answer is empty: the number's own routing, and a log line.",
				displayOptions: { show: { '/events': ['callStarted'], respondWith: ROUTE_VALUES } },
			},
			{
				displayName: 'Destination Field',
				name: 'destinationField',
				type: 'string',
				default: 'destination',
				placeholder: 'e.g. destination',
				description:
					"The field of the last node's first item that holds the phone number to route the call to " +
					'(e.g. customer.phone for a nested one). It is checked as a phone number before it is answered.',
				displayOptions: { show: { '/events': ['callStarted'], respondWith: ['destination'] } },
			},
			{
				displayName: 'Keywords',
				name: 'keywords',
				type: 'string',
				default: '',
				placeholder: 'e.g. INFO, JOIN',
				description:
					'Comma-separated. Only received SMS that start with one of them start the workflow (opt-outs always ' +
					'do). Case, punctuation, invisible characters and Hebrew points do not matter. Leave empty for every ' +
					'message.',
				displayOptions: { show: { '/events': ['smsReceived'] } },
			},
			{
				displayName: 'Max Body Size (KB)',
				name: 'maxBodyKb',
				type: 'number',
				default: 64, // TRIGGER_LIMITS.maxBodyKb.default (the lint wants a literal here)
				typeOptions: {
					minValue: TRIGGER_LIMITS.maxBodyKb.min,
					maxValue: TRIGGER_LIMITS.maxBodyKb.max,
				},
				description:
					'Larger requests are answered 413 and start nothing. Callbacks are a few hundred bytes.',
			},
			{
				displayName: 'Opening Hours',
				name: 'openingHours',
				type: 'fixedCollection',
				placeholder: 'Add Opening Hours',
				typeOptions: { multipleValues: true },
				default: {},
				description:
					"When the business is open, in the credential's Service Time Zone (wall-clock time: summer time " +
					'changes nothing). None: always open.',
				displayOptions: { show: { '/events': ['callStarted'], respondWith: ['rules'] } },
				options: [
					{
						name: 'period',
						displayName: 'Period',
						values: [
							{
								displayName: 'Days',
								name: 'days',
								type: 'multiOptions',
								default: ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday'],
								options: Object.keys(WEEKDAYS).map((day) => ({
									name: day[0].toUpperCase() + day.slice(1),
									value: day,
								})),
							},
							{
								displayName: 'Opens',
								name: 'opens',
								type: 'string',
								default: '08:00',
								placeholder: 'e.g. 08:00',
								description: '24-hour clock, HH:MM',
							},
							{
								displayName: 'Closes',
								name: 'closes',
								type: 'string',
								default: '17:00',
								placeholder: 'e.g. 17:00',
								description:
									'24-hour clock, HH:MM (24:00 for midnight); the minute it closes is closed',
							},
						],
					},
				],
			},
			{
				displayName: 'Opt-Out Keywords',
				name: 'optOutKeywords',
				type: 'string',
				// OPT_OUT_DEFAULT in shared/replies.ts (the lint wants a literal here)
				default:
					'STOP, STOPALL, UNSUBSCRIBE, OPT OUT, OPTOUT, REMOVE ME, הסר, הסרה, להסרה, הסירו, תסירו',
				description:
					'Comma-separated words or phrases read as refusals besides the ones the trigger always recognises ' +
					'(Hebrew, Arabic, Russian and English: הסר, STOP, לא מעוניין…). A refusal comes out with optOut: true, ' +
					'so the workflow can add the sender to a do-not-send list; a message that may be one, with ' +
					'optOutReview: true and optOutReason',
				displayOptions: { show: { '/events': ['smsReceived'] } },
			},
			{
				displayName: 'Opted-Out Numbers Column',
				name: 'optOutColumn',
				type: 'string',
				default: 'phone',
				description:
					'The column of the opted-out numbers table that holds the numbers (any spelling: 054…, 97254…)',
				displayOptions: { show: { '/dataTables': ['optedOut'] } },
			},
			{
				displayName: 'Opted-Out Numbers Table',
				name: 'optOutTable',
				type: 'string',
				default: 'SMS opt-outs', // OPT_OUTS_TABLE (the lint wants a literal here)
				description:
					"The n8n Data Table the workflow keeps opt-outs in (the SMS opt-outs example's), by its name",
				displayOptions: { show: { '/dataTables': ['optedOut'] } },
			},
			{
				displayName: 'Respond With',
				name: 'respondWith',
				type: 'options',
				default: 'nothing',
				description:
					'What n8n answers to the call-start callback. The service routes the call to a phone number ' +
					"answered as plain text; an empty answer leaves the number's own routing.",
				options: [
					{
						name: 'Nothing',
						value: 'nothing',
						description: "An empty answer at once: the number's own routing",
					},
					{
						name: 'A Destination From the Workflow',
						value: 'destination' satisfies Route,
						description:
							"The phone number in the last node's Destination Field, once the workflow has run (within " +
							'the Deadline)',
					},
					{
						name: "Using a 'Route Incoming Call' Node",
						value: 'routeNode' satisfies Route,
						description:
							'The number a Virtual Number → Call → Route Incoming Call node answers, as soon as it runs ' +
							'(within the Deadline): for lookups that need a run (a Data Table, a CRM)',
					},
					{
						name: 'Using Routing Rules',
						value: 'rules' satisfies Route,
						description:
							'The destination of the first Routing Rule the call fits (its caller, the number dialled, the ' +
							'Opening Hours), answered at once, before the workflow runs; the run gets the call and what ' +
							'was answered (routedTo)',
					},
				],
				displayOptions: { show: { '/events': ['callStarted'] } },
			},
			{
				displayName: 'Routing Rules',
				name: 'routingRules',
				type: 'fixedCollection',
				placeholder: 'Add Rule',
				typeOptions: { multipleValues: true, sortable: true },
				default: {},
				description:
					'Checked in order: the first rule the call fits gives its destination. A call no rule takes keeps ' +
					"the number's own routing (outside the Opening Hours: the After-Hours Destination).",
				displayOptions: { show: { '/events': ['callStarted'], respondWith: ['rules'] } },
				options: [
					{
						name: 'rule',
						displayName: 'Rule',
						values: [
							{
								displayName: 'Callers',
								name: 'callers',
								type: 'string',
								default: '',
								placeholder: 'e.g. 0501234567, 054777*',
								description:
									'Comma-separated numbers, or the start of numbers followed by * (054777*, +44*), in any ' +
									'spelling (0501234567 and +972 50-123-4567 are one number). Empty: every caller.',
							},
							{
								displayName: 'Virtual Number',
								name: 'virtualnum',
								type: 'string',
								default: '',
								placeholder: 'e.g. 0722000100',
								description:
									'Only calls to this number of the account. Empty: calls to any of them.',
							},
							{
								displayName: 'When',
								name: 'when',
								type: 'options',
								default: 'always',
								options: [
									{ name: 'Always', value: 'always' },
									{ name: 'During Opening Hours', value: 'open' },
									{ name: 'Outside Opening Hours', value: 'closed' },
								],
							},
							{
								displayName: 'Destination',
								name: 'destination',
								type: 'string',
								default: '',
								placeholder: 'e.g. 0509998888',
								description:
									"The phone number to route the call to. Empty: the number's own routing. Allowed " +
									'Destinations still apply.',
							},
						],
					},
				],
			},
			{
				displayName: 'Secret',
				name: 'secret',
				type: 'string',
				typeOptions: { password: true },
				default: '',
				description:
					`Added as ?${SECRET_PARAM}=… to the callback URL the trigger registers; requests without ` +
					'it are answered 401 and start nothing. Without it the trigger puts a secret of its own on the URLs ' +
					'it registers; SMS events need this one (their URL, shown above, carries a token made from it). ' +
					'Never shown in the output.',
			},
			{
				displayName: 'Unanswered Calls Only',
				name: 'unansweredOnly',
				type: 'boolean',
				default: false,
				description:
					'Whether Call Ended starts the workflow only for calls nobody answered: No Answer, Busy, Caller ' +
					'Cancelled and Outside Working Hours (never Answered, Blacklisted or Number Not Active, nor a ' +
					'call without a status)',
				displayOptions: { show: { '/events': ['callEnded'] } },
			},
			{
				displayName: 'Waiting Replies Table',
				name: 'replyWaitsTable',
				type: 'string',
				default: 'Virtual Number SMS Reply Waits', // REPLY_WAITS_TABLE (the lint wants a literal here)
				description:
					'The n8n Data Table of the runs waiting for an SMS reply: the one the Bulk SMS Send and Wait ' +
					'nodes name (their default unless changed there)',
				displayOptions: { show: { '/dataTables': ['waitingRuns'] } },
			},
		],
	},
];

// ---- Webhooks -------------------------------------------------------------------------------

/** The key n8n 2.x reads the resolvers from (n8n-workflow's WEBHOOK_RESOLVERS, a registered symbol). */
const WEBHOOK_RESOLVERS = Symbol.for('n8n.webhookDescriptionResolvers');

type Resolver = { template: string; resolve: (parameters: IDataObject) => unknown };

/** A description's fields, each as its expression, with the resolvers n8n 2.x reads beside. */
function withResolvers(
	description: IWebhookDescription,
	fields: Record<string, Resolver>,
): IWebhookDescription {
	const templates = Object.fromEntries(
		Object.entries(fields).map(([field, { template }]) => [field, template]),
	);
	return { ...description, ...templates, [WEBHOOK_RESOLVERS]: fields } as IWebhookDescription;
}

/** The editor shows the SMS URL (the one to paste) while an SMS event is chosen, else the call URL. */
const SMS_CHOSEN = '["smsReceived", "smsDelivery"].some((e) => $parameter["events"].includes(e))';
const SMS_ONLY_URLS = `={{ ${SMS_CHOSEN} }}`;
const CALL_ONLY_URLS = `={{ !(${SMS_CHOSEN}) }}`;

export const TRIGGER_WEBHOOKS: IWebhookDescription[] = [
	withResolvers(
		{ name: 'default', httpMethod: 'POST', path: 'webhook', ndvHideUrl: SMS_ONLY_URLS },
		CALL_RESPONSE,
	),
	withResolvers(
		{ name: 'setup', httpMethod: 'GET', path: 'webhook', ndvHideUrl: SMS_ONLY_URLS },
		CALL_RESPONSE,
	),
	// The URL pasted by hand for SMS events, its secret in the path (secret.ts), so that the panel
	// shows it whole. Callbacks of calls are refused there (callback/receive.ts). Named `setup` (n8n
	// knows two names, and only `default` has lifecycle methods to run).
	...(['POST', 'GET'] as const).map((httpMethod) =>
		withResolvers(
			{
				name: 'setup',
				httpMethod,
				responseMode: 'onReceived',
				responseData: 'noData',
				ndvHideUrl: CALL_ONLY_URLS,
			} as IWebhookDescription,
			{ path: SMS_URL_PATH },
		),
	),
];
