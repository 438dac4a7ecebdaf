import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputChecks, LIMITS } from '../../../shared/checks';
import { checkPhone } from '../../../shared/phones';
import type { ItemOperation } from '../../../shared/router';
import { virtualnumRequest } from '../../../shared/transport/virtualnumApi';
import { writeOutput } from './fields';
import { withoutSecret } from './secret';
import { readUserId, userLocator } from './userField';

const show = { resource: ['user'], operation: ['update'] };

export const description: INodeProperties[] = [
	userLocator(show),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'Only the fields added here are sent; the others keep their values',
		displayOptions: { show },
		options: [
			{
				displayName: 'Login Name',
				name: 'user_login',
				type: 'string',
				default: '',
			},
			{
				displayName: 'Password',
				name: 'password',
				type: 'string',
				typeOptions: { password: true },
				default: '',
				description: `New password: at least ${LIMITS.userPassword.minLength} characters, meeting the service's password policy. Never shown in the output.`,
			},
			{
				displayName: 'Phone',
				name: 'user_phone',
				type: 'string',
				default: '',
				placeholder: 'e.g. 0501234567',
				description: `At least ${LIMITS.userPhone.minLength} digits`,
			},
			{
				displayName: 'SMS Phone',
				name: 'user_phone_sms',
				type: 'string',
				default: '',
				placeholder: 'e.g. 0501234567',
			},
			{
				displayName: 'Status',
				name: 'user_status',
				type: 'options',
				options: [
					{ name: 'Active', value: 1 },
					{ name: 'Inactive', value: 0 },
				],
				default: 1,
				description: 'An inactive user cannot log in',
			},
		],
	},
];

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const check = new InputChecks(this.getNode(), itemIndex);
	const userId = readUserId.call(this, check);
	const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const params: IDataObject = { user_id: userId };
	if (fields.user_login !== undefined) params.user_login = check.required('Login Name', fields.user_login);
	const password = fields.password === undefined ? '' : String(fields.password);
	if (fields.password !== undefined) {
		// The value is never quoted in these failures.
		if (password.trim() === '') check.fail('Password', 'is empty: remove the field to keep the current password');
		if (password.length < LIMITS.userPassword.minLength) {
			check.fail('Password', `must be at least ${LIMITS.userPassword.minLength} characters`);
		}
		params.password = password;
	}
	if (fields.user_phone !== undefined) {
		params.user_phone = checkPhone(check, 'Phone', fields.user_phone, { minDigits: LIMITS.userPhone.minLength });
	}
	if (fields.user_phone_sms !== undefined) {
		params.user_phone_sms = checkPhone(check, 'SMS Phone', fields.user_phone_sms);
	}
	if (fields.user_status !== undefined) params.user_status = check.integerInRange('Status', fields.user_status, 0, 1);
	const changed = Object.keys(params).filter((key) => key !== 'user_id');
	if (changed.length === 0) check.fail('Update Fields', 'add at least one field to update');
	try {
		const answer = await virtualnumRequest.call(this, {
			service: 'update_user',
			params,
			method: 'POST',
			itemIndex,
			sideEffect: true,
		});
		const output = writeOutput(answer, {
			user_id: Number(userId),
			updated_fields: changed.map((key) => (key === 'password' ? 'password (not shown)' : key)),
		});
		delete output.password;
		return this.helpers.returnJsonArray(output);
	} catch (error) {
		throw withoutSecret(error, password, this.getNode(), itemIndex);
	}
};
