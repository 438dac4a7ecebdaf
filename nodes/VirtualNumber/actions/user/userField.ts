/** The user resource locator (list from get_users, or an ID) and its value. */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { InputChecks } from '../../../shared/checks';
import { type Show, locatorValue } from './fields';

export function userLocator(show: Show, extra: Partial<INodeProperties> = {}): INodeProperties {
	return {
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
				validation: [{ type: 'regex', properties: { regex: '^\\d+$', errorMessage: 'A user ID is a whole number' } }],
			},
		],
		displayOptions: { show },
		...extra,
	};
}

/** The user ID of a locator: a whole number (the service's codes x011/x021/x031 answer a missing one). */
export function readUserId(this: IExecuteFunctions, check: InputChecks, name = 'userId', required = true): string {
	const value = locatorValue.call(this, name, check.itemIndex);
	if (value === '' && !required) return '';
	check.required('User', value);
	return check.pattern('User', value, /^\d+$/, 'must be a user ID (a whole number): pick the user from the list');
}

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
