import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation } from '../../../shared/router';
import { readVirtualnum, virtualnumLocator } from '../user/fields';
import { runTagOperation } from './request';

const show = { resource: ['tag'], operation: ['getForNumber'] };

export const description: INodeProperties[] = [
	virtualnumLocator('virtualnum', 'Virtual Number', show, { description: 'The number whose tags to get' }),
];

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const check = new InputChecks(this.getNode(), itemIndex);
	const virtualnum = readVirtualnum.call(this, 'virtualnum', 'Virtual Number', check);
	const output = await runTagOperation.call(this, check, 'view_tags_by_virtualnum', { virtualnum }, 'list');
	return this.helpers.returnJsonArray(output);
};
