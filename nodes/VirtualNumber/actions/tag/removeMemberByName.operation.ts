import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { virtualnumLocator } from '../../../shared/virtualnums';
import { readVirtualnum } from '../../helpers/utils';
import { additionalParametersField, readTagName, tagNameRLC } from './fields';
import { runTagOperation } from './request';

const properties: INodeProperties[] = [
	tagNameRLC,
	virtualnumLocator({ description: 'The number to remove from the tag' }),
	additionalParametersField,
];

export const option: OperationOption = {
	name: 'Remove Number by Tag Name',
	description: 'Remove a virtual number from a tag chosen by name (remove_member_from_tag_name)',
	action: 'Remove a number from a tag by tag name',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['tag'], operation: ['removeMemberByName'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const tagName = readTagName.call(this, checks);
	const virtualnum = readVirtualnum.call(this, checks);
	const params = { tag_name: tagName, virtualnum };
	return this.helpers.returnJsonArray(
		await runTagOperation.call(
			this,
			checks,
			'remove_member_from_tag_name',
			params,
			'write',
			params,
		),
	);
};
