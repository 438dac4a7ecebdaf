import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation } from '../../../shared/router';
import { readVirtualnum, virtualnumLocator } from '../user/fields';
import { readTagName, tagNameLocator } from './fields';
import { runTagOperation } from './request';

const show = { resource: ['tag'], operation: ['removeMemberByName'] };

export const description: INodeProperties[] = [
	tagNameLocator(show),
	virtualnumLocator('virtualnum', 'Virtual Number', show, { description: 'The number to remove from the tag' }),
];

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const check = new InputChecks(this.getNode(), itemIndex);
	const tagName = readTagName.call(this, check);
	const virtualnum = readVirtualnum.call(this, 'virtualnum', 'Virtual Number', check);
	const output = await runTagOperation.call(
		this,
		check,
		'remove_member_from_tag_name',
		{ tag_name: tagName, virtualnum },
		'write',
		{ tag_name: tagName, virtualnum },
	);
	return this.helpers.returnJsonArray(output);
};
