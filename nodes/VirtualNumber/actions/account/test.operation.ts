import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ItemOperation, OperationOption } from '../../../shared/router';
import { virtualnumRequest } from '../../../shared/transport/virtualnumApi';
import { STATUS_DESCRIPTION } from '../../helpers/utils';

const properties: INodeProperties[] = [];

export const option: OperationOption = {
	name: 'Test Connection',
	description: 'Check that the access token and the IP of this n8n server are accepted',
	action: 'Test the connection',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['account'], operation: ['test'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const answer = await virtualnumRequest.call(this, { service: 'test', itemIndex });
	return this.helpers.returnJsonArray({
		connected: true,
		statusCode: answer.status.code,
		[STATUS_DESCRIPTION]: answer.status.description,
	});
};
