import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/router';
import { virtualnumRequest } from '../../../shared/transport/virtualnumApi';
import { applyLimit, resultRows, returnAllFields } from './fields';
import { withoutPassword } from './get.operation';

const show = { resource: ['user'], operation: ['getAll'] };

export const description: INodeProperties[] = [...returnAllFields(show)];

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const answer = await virtualnumRequest.call(this, { service: 'get_users', itemIndex, noResultsAsEmpty: true });
	const users = resultRows(answer.result).map(withoutPassword);
	return this.helpers.returnJsonArray(applyLimit.call(this, users, itemIndex));
};
