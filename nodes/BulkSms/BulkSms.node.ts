import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { builderHints } from '../shared/builderHints';
import { virtualnumSmsApiTest } from '../shared/credentialTests';
import { operationProperties, resourceProperties, routeOperation } from '../shared/router';
import * as getBalance from './actions/credit/getBalance.operation';
import * as send from './actions/message/send.operation';
import * as sendAndWait from './actions/message/sendAndWait.operation';
import * as addText from './actions/sender/addText.operation';
import * as list from './actions/sender/list.operation';
import * as requestPhoneVerification from './actions/sender/requestPhoneVerification.operation';
import * as verifyPhone from './actions/sender/verifyPhone.operation';
import { searchSenders } from './methods/listSearch';
import { getTimeZones } from './methods/loadOptions';

/** The node's resources and their operations (by Operation value): the dropdowns are derived from them. */
const operations = {
	credit: { getBalance },
	message: { send, sendAndWait },
	sender: { addText, list, requestPhoneVerification, verifyPhone },
};

const resources = {
	credit: {
		operations: operations.credit,
		description: operationProperties('credit', 'getBalance', operations.credit),
	},
	message: {
		operations: operations.message,
		description: operationProperties('message', 'send', operations.message),
	},
	sender: {
		operations: operations.sender,
		description: operationProperties('sender', 'list', operations.sender),
	},
};

export class BulkSms implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Bulk SMS',
		name: 'bulkSms',
		icon: { light: 'file:../../icons/sms.svg', dark: 'file:../../icons/sms.dark.svg' },
		group: ['transform'],
		// 1.1 refuses a message over 600 characters (Maximum Message Length); version 1 checks no length
		// unless the option is set, as before.
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Send SMS campaigns in batches, schedule messages, manage sender names and check credit',
		defaults: { name: 'Bulk SMS' },
		usableAsTool: true,
		builderHint: builderHints.bulkSms,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		webhooks: sendAndWait.answerWebhooks,
		waitingNodeTooltip: sendAndWait.WAITING_TOOLTIP,
		credentials: [{ name: 'virtualnumSmsApi', required: true, testedBy: 'virtualnumSmsApiTest' }],
		properties: resourceProperties(
			[
				{ name: 'Credit', value: 'credit', description: 'The SMS credit balance of the account' },
				{ name: 'Message', value: 'message', description: 'Text messages, sent in batches' },
				{
					name: 'Sender',
					value: 'sender',
					description: 'Sender names and phone numbers messages are sent from',
				},
			],
			'message',
			resources,
		),
	};

	methods = {
		credentialTest: { virtualnumSmsApiTest },
		listSearch: { searchSenders },
		loadOptions: { getTimeZones },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await routeOperation.call(this, resources);
	}

	/** The answer page of Message → Send and Wait for Response. */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await sendAndWait.answerWebhook.call(this);
	}
}
