import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { additionalParametersField, nameField } from './fields';
import { runTagOperation } from './request';

const properties: INodeProperties[] = [
	nameField('Tags whose name contains this text', 'e.g. Google'),
	additionalParametersField,
];

export const option: OperationOption = {
	name: 'Get by Name',
	description: 'Get the tags whose name contains a text (view_tag_by_name)',
	action: 'Get tags by name',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['tag'], operation: ['getByName'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const name = checks.required('Name', this.getNodeParameter('name', itemIndex, ''));
	return this.helpers.returnJsonArray(
		await runTagOperation.call(this, checks, 'view_tag_by_name', { tag_name: name }, 'list'),
	);
};
