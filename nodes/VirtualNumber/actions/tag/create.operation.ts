import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation } from '../../../shared/router';
import { runTagOperation } from './request';

const show = { resource: ['tag'], operation: ['create'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Google Ads',
		description: 'Name of the new tag; it must not be taken by another tag',
		displayOptions: { show },
	},
];

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const check = new InputChecks(this.getNode(), itemIndex);
	const name = check.required('Name', this.getNodeParameter('name', itemIndex, ''));
	const output = await runTagOperation.call(this, check, 'create_tag', { tag_name: name }, 'write', { tag_name: name });
	return this.helpers.returnJsonArray(output);
};
