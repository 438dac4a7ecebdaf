import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputChecks, LIMITS } from '../../../shared/checks';
import { smsSenderRequest } from '../../../shared/transport/smsApi';
import type { ItemOperation } from '../../../shared/router';

export const description: INodeProperties[] = [
	{
		displayName: 'Search',
		name: 'search',
		type: 'string',
		default: '',
		placeholder: 'e.g. Shop',
		description: 'Only senders matching this text (digits and Latin letters only)',
		displayOptions: { show: { resource: ['sender'], operation: ['list'] } },
	},
];

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const check = new InputChecks(this.getNode(), itemIndex);
	const search = String(this.getNodeParameter('search', itemIndex, '')).trim();
	if (search) check.pattern('Search', search, LIMITS.senderSearch.pattern, 'may contain digits and Latin letters only');
	const answer = await smsSenderRequest.call(this, 'get_sender_list', search ? { search } : {}, { itemIndex });
	const senders = Array.isArray(answer.senders) ? (answer.senders as IDataObject[]) : [];
	return this.helpers.returnJsonArray(senders);
};
