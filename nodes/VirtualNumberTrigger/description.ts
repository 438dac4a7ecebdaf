/** The trigger's parameters, as the editor shows them. */
import type { INodeProperties } from 'n8n-workflow';

import { parameterHints } from '../shared/builderHints';
import { virtualnumLocator } from '../shared/virtualnums';
import { TRIGGER_EVENTS } from './events';
import { TRIGGER_LIMITS } from './settings';

/** Options shown only when a call event is chosen (they set the numbers' callback URL). */
const CALL_EVENTS = TRIGGER_EVENTS.filter((event) => event.callbackOption).map(({ key }) => key);

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
			"For SMS delivery statuses, paste this trigger's Production URL into the Bulk SMS node's Delivery Report " +
			"URL field (with ?secret=… added when you set a Secret below): the SMS service sends each message's " +
			'status to the URL that travels with that message, so nothing is registered on the service.',
		name: 'smsNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { events: ['smsDelivery'] } },
	},
	{
		displayName:
			"For received SMS, paste this trigger's Production URL (with ?secret=… added when you set a Secret below) " +
			"where the service sets the URL a number's incoming messages are sent to: the service calls it with " +
			'from, to, msg and time, so nothing is registered on the service.',
		name: 'smsReceivedNotice',
		type: 'notice',
		default: '',
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
				displayOptions: { show: { '/events': ['callStarted'], respondWith: ['destination'] } },
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
					'Comma-separated. Only received SMS whose first word is one of them start the workflow (opt-outs ' +
					'always do). Leave empty for every message.',
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
				displayName: 'Opt-Out Keywords',
				name: 'optOutKeywords',
				type: 'string',
				default: 'STOP, הסר, הסרה', // OPT_OUT_DEFAULT in events/smsReceived.ts (the lint wants a literal here)
				description:
					'Comma-separated. A received SMS whose first word is one of them comes out with optOut: true, so the ' +
					'workflow can add the sender to a do-not-send list',
				displayOptions: { show: { '/events': ['smsReceived'] } },
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
						value: 'destination',
						description:
							"The phone number in the last node's Destination Field, once the workflow has run (within " +
							'the Deadline)',
					},
				],
				displayOptions: { show: { '/events': ['callStarted'] } },
			},
			{
				displayName: 'Secret',
				name: 'secret',
				type: 'string',
				typeOptions: { password: true },
				default: '',
				description:
					`Added as ?${TRIGGER_LIMITS.secretParam}=… to the callback URL the trigger registers; requests without ` +
					`it are answered 401 and start nothing. Never shown in the output.`,
			},
		],
	},
];
