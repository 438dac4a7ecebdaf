import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation } from '../../../shared/router';
import { runTagOperation } from './request';

const show = { resource: ['tag'], operation: ['getByName'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Google',
		description: 'Tags whose name contains this text',
		displayOptions: { show },
	},
];

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const check = new InputChecks(this.getNode(), itemIndex);
	const name = check.required('Name', this.getNodeParameter('name', itemIndex, ''));
	const output = await runTagOperation.call(this, check, 'view_tag_by_name', { tag_name: name }, 'list');
	return this.helpers.returnJsonArray(output);
};
