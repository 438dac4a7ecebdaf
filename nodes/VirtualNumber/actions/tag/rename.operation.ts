import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation } from '../../../shared/router';
import { readTagId, tagIdLocator } from './fields';
import { runTagOperation } from './request';

const show = { resource: ['tag'], operation: ['rename'] };

export const description: INodeProperties[] = [
	tagIdLocator(show),
	{
		displayName: 'New Name',
		name: 'newName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Google Ads 2025',
		description: 'The new name; it must not be taken by another tag',
		displayOptions: { show },
	},
];

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const check = new InputChecks(this.getNode(), itemIndex);
	const tagId = readTagId.call(this, check);
	const name = check.required('New Name', this.getNodeParameter('newName', itemIndex, ''));
	const output = await runTagOperation.call(this, check, 'update_tag', { tag_id: tagId, tag_name: name }, 'write', {
		tag_id: Number(tagId),
		tag_name: name,
	});
	return this.helpers.returnJsonArray(output);
};
