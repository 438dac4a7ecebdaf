import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ItemOperation, OperationOption } from '../../../shared/router';
import { additionalParametersField, tagRLC } from './fields';
import { viewTagById } from './request';

const properties: INodeProperties[] = [tagRLC, additionalParametersField];

export const option: OperationOption = {
	name: 'Get Members',
	description: 'Get the virtual numbers in a tag, chosen by ID (get_members_by_tag_id)',
	action: 'Get the numbers in a tag',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['tag'], operation: ['getMembers'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	return this.helpers.returnJsonArray(
		await viewTagById.call(this, itemIndex, 'get_members_by_tag_id'),
	);
};
