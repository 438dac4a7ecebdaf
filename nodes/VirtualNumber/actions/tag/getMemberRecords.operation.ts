import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ItemOperation, OperationOption } from '../../../shared/router';
import { recordAsShown } from '../../../shared/virtualnums';
import { additionalParametersField, tagRLC } from './fields';
import { viewTagById } from './request';

const properties: INodeProperties[] = [tagRLC, additionalParametersField];

export const option: OperationOption = {
	name: 'Get Member Records',
	description:
		'Get the full records (settings included) of the virtual numbers in a tag (view_virtualnum_members_by_tag_id)',
	action: 'Get the number records of a tag',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['tag'], operation: ['getMemberRecords'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const records = await viewTagById.call(this, itemIndex, 'view_virtualnum_members_by_tag_id');
	return this.helpers.returnJsonArray(records.map(recordAsShown));
};
