import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/router';
import { virtualnumLocator } from '../../../shared/virtualnums';
import { sendAssignment, userRLC } from './fields';

const properties: INodeProperties[] = [
	userRLC,
	virtualnumLocator({ description: 'The number the user may view and manage' }),
];

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
