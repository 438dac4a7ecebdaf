import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { virtualnumRequest } from '../../../shared/transport/virtualnumApi';
import { resultRows } from '../../../shared/virtualnums';
import { readUserId, userRLC, withoutPassword } from './fields';

const properties: INodeProperties[] = [userRLC];

export const option: OperationOption = {
	name: 'Get',
	description: 'Get a user with permissions and assigned numbers (get_user_by_id)',
	action: 'Get a user',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['get'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const userId = readUserId.call(this, checks);
	const answer = await virtualnumRequest.call(this, {
		service: 'get_user_by_id',
		params: { user_id: userId },
		itemIndex,
	});
	return this.helpers.returnJsonArray(resultRows(answer.result).map(withoutPassword));
};
