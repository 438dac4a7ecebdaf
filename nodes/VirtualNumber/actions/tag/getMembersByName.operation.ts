import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation } from '../../../shared/router';
import { readTagName, tagNameLocator } from './fields';
import { runTagOperation } from './request';

const show = { resource: ['tag'], operation: ['getMembersByName'] };

export const description: INodeProperties[] = [tagNameLocator(show)];

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const check = new InputChecks(this.getNode(), itemIndex);
	const tagName = readTagName.call(this, check);
	const output = await runTagOperation.call(this, check, 'get_members_by_tag_name', { tag_name: tagName }, 'list');
	return this.helpers.returnJsonArray(output);
};
