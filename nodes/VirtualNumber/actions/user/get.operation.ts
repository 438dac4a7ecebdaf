import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation } from '../../../shared/router';
import { virtualnumRequest } from '../../../shared/transport/virtualnumApi';
import { resultRows } from './fields';
import { readUserId, userLocator } from './userField';

const show = { resource: ['user'], operation: ['get'] };

export const description: INodeProperties[] = [userLocator(show)];

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const check = new InputChecks(this.getNode(), itemIndex);
	const userId = readUserId.call(this, check);
	const answer = await virtualnumRequest.call(this, { service: 'get_user_by_id', params: { user_id: userId }, itemIndex });
	return this.helpers.returnJsonArray(resultRows(answer.result).map(withoutPassword));
};

/** Passwords are never returned by the service; dropped anyway should one ever be. */
export function withoutPassword(user: IDataObject): IDataObject {
	const rest = { ...user };
	delete rest.password;
	return rest;
}
