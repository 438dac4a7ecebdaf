import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation } from '../../../shared/router';
import { virtualnumRequest } from '../../../shared/transport/virtualnumApi';
import { writeOutput } from './fields';
import { readUserId, userLocator } from './userField';

const show = { resource: ['user'], operation: ['delete'] };

export const description: INodeProperties[] = [
	{
		displayName:
			"Deleting a user is irreversible: its permissions, profile and number assignments are removed, and every access token of the user stops working — including this credential's token if it belongs to that user",
		name: 'deleteNotice',
		type: 'notice',
		default: '',
		displayOptions: { show },
	},
	userLocator(show),
];

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const check = new InputChecks(this.getNode(), itemIndex);
	const userId = readUserId.call(this, check);
	const answer = await virtualnumRequest.call(this, {
		service: 'delete_user',
		params: { user_id: userId },
		method: 'POST',
		itemIndex,
		sideEffect: true,
	});
	return this.helpers.returnJsonArray({ ...writeOutput(answer, { user_id: Number(userId) }), deleted: true });
};
