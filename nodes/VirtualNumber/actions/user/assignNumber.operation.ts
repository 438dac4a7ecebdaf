import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation } from '../../../shared/router';
import { virtualnumRequest } from '../../../shared/transport/virtualnumApi';
import { virtualnumLocator } from '../../../shared/virtualnums';
import { readVirtualnum, writeOutput } from '../../helpers/utils';
import { readUserId, userRLC } from './fields';

const properties: INodeProperties[] = [userRLC, virtualnumLocator({ description: 'The number the user may view and manage' })];

export const description = updateDisplayOptions({ show: { resource: ['user'], operation: ['assignNumber'] } }, properties);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const userId = readUserId.call(this, checks);
	const virtualnum = readVirtualnum.call(this, checks);
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
