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
import { virtualnumN8nApiTest, virtualnumSmsApiTest } from '../shared/credentialTests';
import { resourceProperties, routeOperation } from '../shared/router';
import { resourceFields, resources } from './actions/resources';
import * as sendAndWait from './actions/message/sendAndWait.operation';
import { searchSenders } from './methods/listSearch';
import { getTimeZones } from './methods/loadOptions';

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
		credentials: [
			{ name: 'virtualnumSmsApi', required: true, testedBy: 'virtualnumSmsApiTest' },
			{
				// Send and Wait for Response, Answer By: SMS Reply keeps its waiting runs in an n8n Data Table.
				name: 'virtualnumN8nApi',
				required: true,
				testedBy: 'virtualnumN8nApiTest',
				displayOptions: {
					show: { resource: ['message'], operation: ['sendAndWait'], answerBy: ['smsReply'] },
				},
			},
		],
		properties: resourceProperties(resourceFields, resources),
	};

	methods = {
		credentialTest: { virtualnumSmsApiTest, virtualnumN8nApiTest },
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
