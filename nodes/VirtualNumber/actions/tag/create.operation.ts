import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { additionalParametersField, nameField } from './fields';
import { runTagOperation } from './request';

const properties: INodeProperties[] = [
	nameField('Name of the new tag; it must not be taken by another tag', 'e.g. Google Ads'),
	additionalParametersField,
];

export const option: OperationOption = {
	name: 'Create',
	description: 'Create a tag (create_tag)',
	action: 'Create a tag',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['tag'], operation: ['create'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const name = checks.required('Name', this.getNodeParameter('name', itemIndex, ''));
	const output = await runTagOperation.call(
		this,
		checks,
		'create_tag',
		{ tag_name: name },
		'write',
		{ tag_name: name },
	);
	return this.helpers.returnJsonArray(output);
};
