import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { virtualnumRequest } from '../../../shared/transport/virtualnumApi';
import { resultRows } from '../../../shared/virtualnums';
import { readLimit } from '../../helpers/utils';
import { returnAllFields } from '../fields';

const properties: INodeProperties[] = returnAllFields();

export const option: OperationOption = {
	name: 'Get Many',
	description: 'Get the prompts of the account (get_prompts_list)',
	action: 'Get many voice prompts',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['prompt'], operation: ['getAll'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const limit = readLimit.call(this, new InputChecks(this.getNode(), itemIndex));
	const answer = await virtualnumRequest.call(this, {
		service: 'get_prompts_list',
		itemIndex,
		noResultsAsEmpty: true,
	});
	return this.helpers.returnJsonArray(resultRows(answer.result).slice(0, limit));
};
