import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation } from '../../../shared/router';
import { readTagId, tagIdLocator } from './fields';
import { runTagOperation } from './request';

const show = { resource: ['tag'], operation: ['delete'] };

export const description: INodeProperties[] = [tagIdLocator(show)];

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const check = new InputChecks(this.getNode(), itemIndex);
	const tagId = readTagId.call(this, check);
	const output = await runTagOperation.call(this, check, 'delete_tag', { tag_id: tagId }, 'write', {
		tag_id: Number(tagId),
		deleted: true,
	});
	return this.helpers.returnJsonArray(output);
};
