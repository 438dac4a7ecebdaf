import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { additionalParametersField, readTagId, tagRLC } from './fields';
import { runTagOperation } from './request';

const properties: INodeProperties[] = [
	tagRLC,
	{
		displayName: 'New Name',
		name: 'newName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Google Ads 2025',
		description: 'The new name; it must not be taken by another tag',
	},
	additionalParametersField,
];

export const option: OperationOption = {
	name: 'Rename',
	description: 'Give a tag a new name (update_tag)',
	action: 'Rename a tag',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['tag'], operation: ['rename'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const tagId = readTagId.call(this, checks);
	const name = checks.required('New Name', this.getNodeParameter('newName', itemIndex, ''));
	const params = { tag_id: tagId, tag_name: name };
	const output = await runTagOperation.call(this, checks, 'update_tag', params, 'write', {
		tag_id: Number(tagId),
		tag_name: name,
	});
	return this.helpers.returnJsonArray(output);
};
