import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation } from '../../../shared/router';
import { virtualnumRequest } from '../../../shared/transport/virtualnumApi';
import { readVirtualnum, virtualnumLocator, writeOutput } from './fields';
import { readUserId, userLocator } from './userField';

const show = { resource: ['user'], operation: ['assignNumber'] };

export const description: INodeProperties[] = [
	userLocator(show),
	virtualnumLocator('virtualnum', 'Virtual Number', show, {
		description: 'The number the user may view and manage',
	}),
];

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const check = new InputChecks(this.getNode(), itemIndex);
	const userId = readUserId.call(this, check);
	const virtualnum = readVirtualnum.call(this, 'virtualnum', 'Virtual Number', check);
	// 8006 (already assigned) comes back as an error explaining that the assignment exists.
	const answer = await virtualnumRequest.call(this, {
		service: 'set_ddi_to_user',
		params: { user_id: userId, virtualnum },
		method: 'POST',
		itemIndex,
		sideEffect: true,
	});
	return this.helpers.returnJsonArray(writeOutput(answer, { user_id: Number(userId), virtualnum }));
};
