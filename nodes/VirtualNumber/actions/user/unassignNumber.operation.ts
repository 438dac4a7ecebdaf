import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/router';
import { virtualnumLocator } from '../../../shared/virtualnums';
import { sendAssignment, userRLC } from './fields';

const properties: INodeProperties[] = [
	userRLC,
	virtualnumLocator({ description: 'The number to take away from the user' }),
];

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
