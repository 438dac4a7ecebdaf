import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { additionalParametersField, readTagId, tagRLC } from './fields';
import { runTagOperation } from './request';

const properties: INodeProperties[] = [tagRLC, additionalParametersField];

export const option: OperationOption = {
	name: 'Delete',
	description: 'Delete a tag (delete_tag)',
	action: 'Delete a tag',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['tag'], operation: ['delete'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const tagId = readTagId.call(this, checks);
	const echo = { tag_id: Number(tagId), deleted: true };
	return this.helpers.returnJsonArray(
		await runTagOperation.call(this, checks, 'delete_tag', { tag_id: tagId }, 'write', echo),
	);
};
