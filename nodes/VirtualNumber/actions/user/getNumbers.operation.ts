import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { virtualnumRequest } from '../../../shared/transport/virtualnumApi';
import { resultRows } from '../../../shared/virtualnums';
import { readUserId, userRLC } from './fields';

/** The statuses get_ddi_by_user_id reports per assigned number. */
const STATUSES = ['active', 'inactive', 'release'] as const;

const properties: INodeProperties[] = [
	userRLC,
	{
		displayName: 'Status',
		name: 'numberStatus',
		type: 'multiOptions',
		options: [
			{ name: 'Active', value: 'active', description: 'The number is active' },
			{ name: 'Inactive', value: 'inactive', description: 'The number is suspended' },
			{
				name: 'Released',
				value: 'release',
				description: 'The number was released from the account',
			},
		],
		default: [],
		description: 'Only numbers with these statuses; none selected for all',
	},
];

export const option: OperationOption = {
	name: 'Get Assigned Numbers',
	description: 'Get the virtual numbers assigned to a user, with their status (get_ddi_by_user_id)',
	action: 'Get the numbers of a user',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['getNumbers'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const userId = readUserId.call(this, checks);
	const wanted = (this.getNodeParameter('numberStatus', itemIndex, []) as string[]).map(String);
	for (const status of wanted) checks.oneOf('Status', status, STATUSES);
	const answer = await virtualnumRequest.call(this, {
		service: 'get_ddi_by_user_id',
		params: { user_id: userId },
		itemIndex,
		noResultsAsEmpty: true,
	});
	const numbers = resultRows(answer.result)
		.filter((row) => wanted.length === 0 || wanted.includes(String(row.status ?? '').toLowerCase()))
		.map((row) => ({ user_id: Number(userId), ...row }));
	return this.helpers.returnJsonArray(numbers);
};
