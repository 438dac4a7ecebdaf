import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ItemOperation, OperationOption } from '../../../shared/router';
import { virtualnumLocator } from '../../../shared/virtualnums';
import { sendAssignment, userRLC } from './fields';

const properties: INodeProperties[] = [
	userRLC,
	virtualnumLocator({ description: 'The number to take away from the user' }),
];

export const option: OperationOption = {
	name: 'Unassign Number',
	description: 'Take a virtual number away from a user (delete_ddi_from_user_id)',
	action: 'Unassign a number from a user',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['unassignNumber'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	return this.helpers.returnJsonArray({
		...(await sendAssignment.call(this, itemIndex, 'delete_ddi_from_user_id')),
		unassigned: true,
	});
};
