import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { additionalParametersField, readTagName, tagNameRLC } from './fields';
import { runTagOperation } from './request';

const properties: INodeProperties[] = [tagNameRLC, additionalParametersField];

export const option: OperationOption = {
	name: 'Get Members by Tag Name',
	description: 'Get the virtual numbers in a tag, chosen by name (get_members_by_tag_name)',
	action: 'Get the numbers in a tag by tag name',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['tag'], operation: ['getMembersByName'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const tagName = readTagName.call(this, checks);
	return this.helpers.returnJsonArray(
		await runTagOperation.call(
			this,
			checks,
			'get_members_by_tag_name',
			{ tag_name: tagName },
			'list',
		),
	);
};
