import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { smsSenderRequest } from '../../../shared/transport/smsApi';
import { SMS_LIMITS } from '../../../shared/limits';
import { senderList } from '../../helpers/utils';

const properties: INodeProperties[] = [
	{
		displayName: 'Search',
		name: 'search',
		type: 'string',
		default: '',
		placeholder: 'e.g. Shop',
		description: 'Only senders matching this text (digits and Latin letters only)',
	},
];

export const option: OperationOption = {
	name: 'List',
	description: 'List the approved sender names and numbers of the account',
	action: 'List senders',
};

export const toolDescription =
	'List the approved sender names and verified sender numbers of the SMS account. Free, changes nothing.';

export const description = updateDisplayOptions(
	{ show: { resource: ['sender'], operation: ['list'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const check = new InputChecks(this.getNode(), itemIndex);
	const search = String(this.getNodeParameter('search', itemIndex, '')).trim();
	if (search)
		check.pattern(
			'Search',
			search,
			SMS_LIMITS.senderSearch.pattern,
			'may contain digits and Latin letters only',
		);
	const answer = await smsSenderRequest.call(this, 'get_sender_list', search ? { search } : {}, {
		itemIndex,
	});
	return this.helpers.returnJsonArray(senderList(answer));
};
