import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { virtualnumSmsApiTest } from '../shared/credentialTests';
import { resourceProperties } from '../shared/router';
import { answerWebhook, answerWebhooks, WAITING_TOOLTIP } from './actions/message/answerPage';
import { resourceOptions, resources } from './actions/resources';
import { router } from './actions/router';
import { searchSenders } from './methods/listSearch';
import { getTimeZones } from './methods/loadOptions';

export class BulkSms implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Bulk SMS',
		name: 'bulkSms',
		icon: { light: 'file:../../icons/sms.svg', dark: 'file:../../icons/sms.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Send SMS campaigns in batches, schedule messages, manage sender names and check credit',
		defaults: { name: 'Bulk SMS' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		webhooks: answerWebhooks,
		waitingNodeTooltip: WAITING_TOOLTIP,
		credentials: [{ name: 'virtualnumSmsApi', required: true, testedBy: 'virtualnumSmsApiTest' }],
		properties: resourceProperties(resourceOptions, 'message', resources),
	};

	methods = {
		credentialTest: { virtualnumSmsApiTest },
		listSearch: { searchSenders },
		loadOptions: { getTimeZones },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}

	/** The answer page of Message → Send and Wait for Response. */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await answerWebhook.call(this);
	}
}
