/**
 * The user resource's own fields and rules: the user locator (list from get_users, or an ID), its
 * value, the email rule, and the number assignments.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import { locatorValue, readVirtualnum, sendWrite, writeOutput } from '../../helpers/utils';

export const userRLC: INodeProperties = {
	displayName: 'User',
	name: 'userId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The user, chosen from the list or by ID',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a user...',
			typeOptions: { searchListMethod: 'searchUsers', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 2',
			validation: [
				{
					type: 'regex',
					properties: { regex: '^\\d+$', errorMessage: 'A user ID is a whole number' },
				},
			],
		},
	],
};

/** The user ID of a locator: a whole number (the service's codes x011/x021/x031 answer a missing one). */
export function readUserId(
	this: IExecuteFunctions,
	checks: InputChecks,
	name = 'userId',
	required = true,
): string {
	const value = locatorValue.call(this, name, checks.itemIndex);
	if (value === '' && !required) return '';
	checks.required('User', value);
	return checks.pattern(
		'User',
		value,
		/^\d+$/,
		'must be a user ID (a whole number): pick the user from the list',
	);
}

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Passwords are never returned by the service; dropped anyway should one ever be. */
export function withoutPassword(user: IDataObject): IDataObject {
	const rest = { ...user };
	delete rest.password;
	return rest;
}

/** Assign Number and Unassign Number: the user and the number, sent to set_ddi_to_user or delete_ddi_from_user_id. */
export async function sendAssignment(
	this: IExecuteFunctions,
	itemIndex: number,
	service: 'set_ddi_to_user' | 'delete_ddi_from_user_id',
): Promise<IDataObject> {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const userId = readUserId.call(this, checks);
	const virtualnum = readVirtualnum.call(this, checks);
	const answer = await sendWrite.call(this, service, { user_id: userId, virtualnum }, itemIndex);
	return writeOutput(answer, { user_id: Number(userId), virtualnum });
}
