import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { readLimit } from '../../helpers/utils';
import { returnAllFields } from '../fields';
import { additionalParametersField } from './fields';
import { runTagOperation } from './request';

const properties: INodeProperties[] = [
	...returnAllFields(),
	{
		displayName: 'Name Contains',
		name: 'nameFilter',
		type: 'string',
		default: '',
		placeholder: 'e.g. Google',
		description: 'Only tags whose name contains this text; empty for all tags',
	},
	additionalParametersField,
];

export const option: OperationOption = {
	name: 'Get Many',
	description: 'Get many tags, optionally filtered by name (view_tags)',
	action: 'Get many tags',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['tag'], operation: ['getAll'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const limit = readLimit.call(this, checks);
	const name = String(this.getNodeParameter('nameFilter', itemIndex, '')).trim();
	const rows = await runTagOperation.call(
		this,
		checks,
		'view_tags',
		name ? { tag_name: name } : {},
		'list',
	);
	return this.helpers.returnJsonArray(rows.slice(0, limit));
};
