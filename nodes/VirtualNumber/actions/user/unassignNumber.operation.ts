import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation } from '../../../shared/router';
import { virtualnumRequest } from '../../../shared/transport/virtualnumApi';
import { readVirtualnum, virtualnumLocator, writeOutput } from './fields';
import { readUserId, userLocator } from './userField';

const show = { resource: ['user'], operation: ['unassignNumber'] };

export const description: INodeProperties[] = [
	userLocator(show),
	virtualnumLocator('virtualnum', 'Virtual Number', show, {
		description: 'The number to take away from the user',
	}),
];

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const check = new InputChecks(this.getNode(), itemIndex);
	const userId = readUserId.call(this, check);
	const virtualnum = readVirtualnum.call(this, 'virtualnum', 'Virtual Number', check);
	const answer = await virtualnumRequest.call(this, {
		service: 'delete_ddi_from_user_id',
		params: { user_id: userId, virtualnum },
		method: 'POST',
		itemIndex,
		sideEffect: true,
	});
	return this.helpers.returnJsonArray({ ...writeOutput(answer, { user_id: Number(userId), virtualnum }), unassigned: true });
};
