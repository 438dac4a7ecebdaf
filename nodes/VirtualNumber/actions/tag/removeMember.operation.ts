import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { virtualnumLocator } from '../../../shared/virtualnums';
import { readVirtualnum } from '../../helpers/utils';
import { additionalParametersField, readTagId, tagRLC } from './fields';
import { runTagOperation } from './request';

const properties: INodeProperties[] = [
	tagRLC,
	virtualnumLocator({ description: 'The number to remove from the tag' }),
	additionalParametersField,
];

export const option: OperationOption = {
	name: 'Remove Number',
	description: 'Remove a virtual number from a tag chosen by ID (remove_member_from_tag_id)',
	action: 'Remove a number from a tag',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['tag'], operation: ['removeMember'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const tagId = readTagId.call(this, checks);
	const virtualnum = readVirtualnum.call(this, checks);
	const params = { tag_id: tagId, virtualnum };
	const echo = { tag_id: Number(tagId), virtualnum };
	return this.helpers.returnJsonArray(
		await runTagOperation.call(this, checks, 'remove_member_from_tag_id', params, 'write', echo),
	);
};
