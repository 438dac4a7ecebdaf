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
	virtualnumLocator({ description: 'The number to add to the tag' }),
	additionalParametersField,
];

export const option: OperationOption = {
	name: 'Add Number',
	description: 'Add a virtual number to a tag (add_member_to_tag)',
	action: 'Add a number to a tag',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['tag'], operation: ['addMember'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const tagId = readTagId.call(this, checks);
	const virtualnum = readVirtualnum.call(this, checks);
	const echo = { tag_id: Number(tagId), virtualnum };
	return this.helpers.returnJsonArray(
		await runTagOperation.call(
			this,
			checks,
			'add_member_to_tag',
			{ tag_id: tagId, virtualnum },
			'write',
			echo,
		),
	);
};
