import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { virtualnumApiTest } from '../shared/credentialTests';
import { searchVirtualnums } from '../shared/virtualnums';
import { triggerProperties } from './description';
import { receiveCallback } from './receive';
import {
	checkRegistration,
	createRegistration,
	deleteRegistration,
	secretForms,
	withoutTriggerSecret,
} from './registration';

export class VirtualNumberTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Virtual Number Trigger',
		name: 'virtualNumberTrigger',
		icon: { light: 'file:../../icons/virtualnum.svg', dark: 'file:../../icons/virtualnum.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"].join(", ")}}',
		description: 'Starts the workflow when a call starts or ends on your virtual numbers, or when an SMS delivery status arrives',
		defaults: { name: 'Virtual Number Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'virtualnumApi', required: true, testedBy: 'virtualnumApiTest' }],
		// The spec does not show how callbacks are sent: both methods on the same path. n8n calls the
		// lifecycle methods once per entry; they are idempotent (checkExists is true after the first create).
		webhooks: [
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
			{ name: 'default', httpMethod: 'GET', responseMode: 'onReceived', path: 'webhook' },
		],
		properties: triggerProperties,
	};

	methods = {
		credentialTest: { virtualnumApiTest },
		listSearch: { searchVirtualnums },
	};

	webhookMethods = {
		// The service may quote a number's record (the registered URL, secret included) in an answer
		// that then appears in an error: the secret is masked in every error of the lifecycle.
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				try {
					return await checkRegistration.call(this);
				} catch (error) {
					throw withoutTriggerSecret(error, secretForms.call(this));
				}
			},
			async create(this: IHookFunctions): Promise<boolean> {
				try {
					return await createRegistration.call(this);
				} catch (error) {
					throw withoutTriggerSecret(error, secretForms.call(this));
				}
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				try {
					return await deleteRegistration.call(this);
				} catch (error) {
					throw withoutTriggerSecret(error, secretForms.call(this));
				}
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveCallback.call(this);
	}
}
