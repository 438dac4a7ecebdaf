import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/router';
import { virtualnumRequest } from '../../../shared/transport/virtualnumApi';
import { applyLimit, resultRows, returnAllFields } from '../user/fields';

const show = { resource: ['prompt'], operation: ['getAll'] };

export const description: INodeProperties[] = [...returnAllFields(show)];

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const answer = await virtualnumRequest.call(this, { service: 'get_prompts_list', itemIndex, noResultsAsEmpty: true });
	return this.helpers.returnJsonArray(applyLimit.call(this, resultRows(answer.result), itemIndex));
};
