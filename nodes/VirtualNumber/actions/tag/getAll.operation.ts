import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation } from '../../../shared/router';
import { applyLimit, returnAllFields } from '../user/fields';
import { runTagOperation } from './request';

const show = { resource: ['tag'], operation: ['getAll'] };

export const description: INodeProperties[] = [
	...returnAllFields(show),
	{
		displayName: 'Name Contains',
		name: 'nameFilter',
		type: 'string',
		default: '',
		placeholder: 'e.g. Google',
		description: 'Only tags whose name contains this text; empty for all tags',
		displayOptions: { show },
	},
];

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const check = new InputChecks(this.getNode(), itemIndex);
	const name = String(this.getNodeParameter('nameFilter', itemIndex, '')).trim();
	const rows = await runTagOperation.call(this, check, 'view_tags', name ? { tag_name: name } : {}, 'list');
	return this.helpers.returnJsonArray(applyLimit.call(this, rows, itemIndex));
};
