import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ItemOperation, OperationOption } from '../../../shared/router';
import { additionalParametersField, tagRLC } from './fields';
import { viewTagById } from './request';

const properties: INodeProperties[] = [tagRLC, additionalParametersField];

export const option: OperationOption = {
	name: 'Get',
	description: 'Get a tag by its ID (view_tag_by_id)',
	action: 'Get a tag',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['tag'], operation: ['get'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	// A missing tag is an error (5003), not an empty list.
	return this.helpers.returnJsonArray(await viewTagById.call(this, itemIndex, 'view_tag_by_id'));
};
