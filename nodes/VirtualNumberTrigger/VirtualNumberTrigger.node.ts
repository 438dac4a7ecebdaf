import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { builderHints } from '../shared/builderHints';
import { virtualnumApiTest, virtualnumN8nApiTest } from '../shared/credentialTests';
import { searchVirtualnums } from '../shared/virtualnums';
import { receiveCallback } from './callback/receive';
import { properties, TRIGGER_WEBHOOKS } from './description';
import {
	checkRegistration,
	createRegistration,
	deleteRegistration,
} from './lifecycle/registration';

/**
 * The one instruction for delivery reports: the URL ending in /sms/<token>, which carries a token
 * made from the Secret and never the Secret itself (it travels with every message to the SMS
 * provider). The panel shows it while an SMS event is chosen.
 */
const DELIVERY_REPORTS =
	'set Options → Secret, choose SMS Delivery Status, and paste the Production URL the panel then shows ' +
	"(it ends in /sms/ and a token made from the Secret, never the Secret itself) into the Bulk SMS node's " +
	'Delivery Report URL.';

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
		// one call vocabulary from every callback template (settings.ts, callback/normalize.ts).
		// 1.2: SMS Received and call items carry conversationKey (the sender's or caller's phone identity).
		version: [1, 1.1, 1.2],
		defaultVersion: 1.2,
		subtitle: '={{$parameter["events"].join(", ")}}',
		description:
			'Starts the workflow when a call starts or ends on your virtual numbers, when they receive an SMS, ' +
			'or when an SMS delivery status arrives',
		defaults: { name: 'Virtual Number Trigger' },
		builderHint: builderHints.webhookTrigger,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'virtualnumApi', required: true, testedBy: 'virtualnumApiTest' },
			{
				// SMS Received's look-ups (replies to waiting runs, opted-out senders) in n8n Data Tables.
				name: 'virtualnumN8nApi',
				required: true,
				testedBy: 'virtualnumN8nApiTest',
				displayOptions: {
					show: { events: ['smsReceived'], dataTables: ['waitingRuns', 'optedOut'] },
				},
			},
		],
		eventTriggerDescription: 'Waiting for a call to one of the numbers',
		activationMessage:
			"The chosen virtual numbers now report their calls to this workflow; each number's previous callback URL " +
			'is kept and put back when the workflow is deactivated. SMS delivery statuses register nothing: ' +
			DELIVERY_REPORTS,
		triggerPanel: {
			header: '',
			executionsHelp: {
				inactive:
					"<b>While building your workflow</b>, click 'Listen for test event', then call one of the numbers: " +
					'for up to two minutes the chosen numbers report their calls to the test URL. Numbers an active ' +
					"workflow uses are refused, so listening never takes calls away from it.<br /><br /><b>Once you're " +
					"happy with your workflow</b>, activate it: the chosen numbers' callback URL then points at this " +
					'workflow, and deactivating puts back the URL each number had. <b>SMS Delivery Status</b> registers ' +
					`nothing: ${DELIVERY_REPORTS}`,
				active:
					'The workflow is active: the chosen numbers report their calls to its production URL, and its runs ' +
					"appear in the <a data-key='executions'>executions list</a>. Listening for a test event is refused " +
					"on the numbers it uses (only one URL can receive a number's calls): to test, choose other numbers, " +
					'or deactivate the workflow first. <b>SMS Delivery Status</b> registers nothing: ' +
					DELIVERY_REPORTS,
			},
			activationHint:
				"Activate the workflow to point the numbers' callback URL at it; deactivating puts back each number's " +
				'previous callback URL.',
		},
		webhooks: TRIGGER_WEBHOOKS,
		properties,
	};

	methods = {
		credentialTest: { virtualnumApiTest, virtualnumN8nApiTest },
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
