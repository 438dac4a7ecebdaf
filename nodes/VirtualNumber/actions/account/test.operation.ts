import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { virtualnumRequest } from '../../../shared/transport/virtualnumApi';
import type { ItemOperation } from '../../../shared/router';

export const description: INodeProperties[] = [];

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const answer = await virtualnumRequest.call(this, { service: 'test', itemIndex });
	return this.helpers.returnJsonArray({
		connected: true,
		code: answer.status.code,
		description: answer.status.description,
	});
};
