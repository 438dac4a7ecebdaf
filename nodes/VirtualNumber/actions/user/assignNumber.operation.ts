import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ItemOperation, OperationOption } from '../../../shared/router';
import { virtualnumLocator } from '../../../shared/virtualnums';
import { sendAssignment, userRLC } from './fields';

const properties: INodeProperties[] = [
	userRLC,
	virtualnumLocator({ description: 'The number the user may view and manage' }),
];

export const option: OperationOption = {
	name: 'Assign Number',
	description: 'Let a user view and manage a virtual number (set_ddi_to_user)',
	action: 'Assign a number to a user',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['assignNumber'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	// 8006 (already assigned) comes back as an error explaining that the assignment exists.
	return this.helpers.returnJsonArray(
		await sendAssignment.call(this, itemIndex, 'set_ddi_to_user'),
	);
};
