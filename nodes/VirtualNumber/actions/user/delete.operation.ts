import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { sendWrite, writeOutput } from '../../helpers/utils';
import { readUserId, userRLC } from './fields';

const properties: INodeProperties[] = [
	{
		displayName:
			'Deleting a user is irreversible: its permissions, profile and number assignments ' +
			'are removed, and every access token of the user stops working — including ' +
			"this credential's token if it belongs to that user",
		name: 'deleteNotice',
		type: 'notice',
		default: '',
	},
	userRLC,
];

export const option: OperationOption = {
	name: 'Delete',
	description: "Delete a user for good; the user's access tokens stop working (delete_user)",
	action: 'Delete a user',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['delete'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const userId = readUserId.call(this, checks);
	const answer = await sendWrite.call(this, 'delete_user', { user_id: userId }, itemIndex);
	return this.helpers.returnJsonArray({
		...writeOutput(answer, { user_id: Number(userId) }),
		deleted: true,
	});
};
