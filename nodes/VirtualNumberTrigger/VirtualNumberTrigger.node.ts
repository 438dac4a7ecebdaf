import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { builderHints } from '../shared/builderHints';
import { virtualnumApiTest } from '../shared/credentialTests';
import { SMS_PATH_EXPRESSION } from '../shared/triggerUrl';
import { searchVirtualnums } from '../shared/virtualnums';
import { properties } from './description';
import { receiveCallback } from './receive';
import { checkRegistration, createRegistration, deleteRegistration } from './registration';

/** n8n evaluates these per request, as for its Webhook node's Respond parameter. */
// The same conditions as readSettings' route: Call Started chosen and Respond With a way to route.
const RESPONDS = (value: string) =>
	`$parameter["events"].includes("callStarted") && $parameter["options"]["respondWith"] === "${value}"`;
// A destination from the last node: n8n answers once the run ended (lastNode). A Route Incoming Call
// node: n8n answers when that node calls sendResponse, from inside the run (responseNode).
const RESPONSE_MODE =
	`={{ ${RESPONDS('destination')} ? "lastNode" : ` +
	`${RESPONDS('routeNode')} ? "responseNode" : "onReceived" }}`;
const RESPONSE_DATA = `={{ ${RESPONDS('destination')} ? "firstEntryJson" : "noData" }}`;
/** The editor shows the SMS URL (the one to paste) while an SMS event is chosen, else the call URL. */
const SMS_CHOSEN = '["smsReceived", "smsDelivery"].some((e) => $parameter["events"].includes(e))';
const SMS_ONLY_URLS = `={{ ${SMS_CHOSEN} }}`;
const CALL_ONLY_URLS = `={{ !(${SMS_CHOSEN}) }}`;

export class VirtualNumberTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Virtual Number Trigger',
		name: 'virtualNumberTrigger',
		icon: {
			light: 'file:../../icons/virtualnum.svg',
			dark: 'file:../../icons/virtualnum.dark.svg',
		},
		group: ['trigger'],
		// 1.1: every callback needs a secret (SMS events the Secret pasted with their URL), and Route
		// Call answers only Israeli mobile and landline numbers unless Allowed Destinations says more;
		// one call vocabulary from every callback template (settings.ts, normalize.ts).
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: '={{$parameter["events"].join(", ")}}',
		description:
			'Starts the workflow when a call starts or ends on your virtual numbers, when they receive an SMS, ' +
			'or when an SMS delivery status arrives',
		defaults: { name: 'Virtual Number Trigger' },
		builderHint: builderHints.webhookTrigger,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'virtualnumApi', required: true, testedBy: 'virtualnumApiTest' }],
		eventTriggerDescription: 'Waiting for a call to one of the numbers',
		activationMessage:
			"The chosen virtual numbers now report their calls to this workflow; each number's previous callback URL " +
			'is kept and put back when the workflow is deactivated. SMS delivery statuses register nothing: paste ' +
			"the Production URL followed by ?secret= and your Secret into the Bulk SMS node's Delivery Report URL.",
		triggerPanel: {
			header: '',
			executionsHelp: {
				inactive:
					"<b>While building your workflow</b>, click 'Listen for test event', then call one of the numbers: " +
					'for up to two minutes the chosen numbers report their calls to the test URL. Numbers an active ' +
					"workflow uses are refused, so listening never takes calls away from it.<br /><br /><b>Once you're " +
					"happy with your workflow</b>, activate it: the chosen numbers' callback URL then points at this " +
					'workflow, and deactivating puts back the URL each number had. <b>SMS Delivery Status</b> registers ' +
					"nothing: paste the Production URL followed by ?secret= and your Secret into the Bulk SMS node's " +
					'Delivery Report URL.',
				active:
					'The workflow is active: the chosen numbers report their calls to its production URL, and its runs ' +
					"appear in the <a data-key='executions'>executions list</a>. Listening for a test event is refused " +
					"on the numbers it uses (only one URL can receive a number's calls): to test, choose other numbers, " +
					'or deactivate the workflow first. <b>SMS Delivery Status</b> registers nothing: paste the ' +
					"Production URL followed by ?secret= and your Secret into the Bulk SMS node's Delivery Report URL.",
			},
			activationHint:
				"Activate the workflow to point the numbers' callback URL at it; deactivating puts back each number's " +
				'previous callback URL.',
		},
		// The spec does not show how callbacks are sent: both methods on the same path. Only the first
		// entry has lifecycle methods (n8n's own nodes name the second `setup`), so n8n registers once.
		// Callbacks are answered with an empty body, as a callback endpoint should; with Respond With
		// a destination, n8n waits for the answer (lastNode or responseNode) and routeCall.ts guards it.
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: RESPONSE_MODE,
				responseData: RESPONSE_DATA,
				path: 'webhook',
				ndvHideUrl: SMS_ONLY_URLS,
			},
			{
				name: 'setup',
				httpMethod: 'GET',
				responseMode: RESPONSE_MODE,
				responseData: RESPONSE_DATA,
				path: 'webhook',
				ndvHideUrl: SMS_ONLY_URLS,
			},
			// The URL pasted by hand for SMS events, its secret in the path (shared/triggerUrl.ts), so
			// that the panel shows it whole. Callbacks of calls are refused there (receive.ts). Named
			// `setup` (n8n knows two names, and only `default` has lifecycle methods to run).
			{
				name: 'setup',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				responseData: 'noData',
				path: SMS_PATH_EXPRESSION,
				ndvHideUrl: CALL_ONLY_URLS,
			},
			{
				name: 'setup',
				httpMethod: 'GET',
				responseMode: 'onReceived',
				responseData: 'noData',
				path: SMS_PATH_EXPRESSION,
				ndvHideUrl: CALL_ONLY_URLS,
			},
		],
		properties,
	};

	methods = {
		credentialTest: { virtualnumApiTest },
		listSearch: { searchVirtualnums },
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await checkRegistration.call(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await createRegistration.call(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await deleteRegistration.call(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveCallback.call(this);
	}
}
