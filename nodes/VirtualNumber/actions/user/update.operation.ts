import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import { checkPhone } from '../../../shared/phones';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { VN_LIMITS } from '../../../shared/limits';
import { readUserId, userRLC } from './fields';
import { checkPassword, sendUserWrite } from './secret';

const properties: INodeProperties[] = [
	userRLC,
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'Only the fields added here are sent; the others keep their values',
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
				description:
					`New password: at least ${VN_LIMITS.userPassword.minLength} characters, ` +
					`meeting the service's password policy. Never shown in the output.`,
			},
			{
				displayName: 'Phone',
				name: 'user_phone',
				type: 'string',
				default: '',
				placeholder: 'e.g. 0501234567',
				description: `At least ${VN_LIMITS.userPhone.minLength} digits`,
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

export const option: OperationOption = {
	name: 'Update',
	description: 'Change a user; only the fields set are sent (update_user)',
	action: 'Update a user',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['update'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const userId = readUserId.call(this, checks);
	const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const params: IDataObject = { user_id: userId };
	if (fields.user_login !== undefined)
		params.user_login = checks.required('Login Name', fields.user_login);
	if (fields.password !== undefined) {
		params.password = checkPassword(
			checks,
			String(fields.password),
			'is empty: remove the field to keep the current password',
		);
	}
	if (fields.user_phone !== undefined) {
		params.user_phone = checkPhone(checks, 'Phone', fields.user_phone, {
			minDigits: VN_LIMITS.userPhone.minLength,
		});
	}
	if (fields.user_phone_sms !== undefined) {
		params.user_phone_sms = checkPhone(checks, 'SMS Phone', fields.user_phone_sms);
	}
	if (fields.user_status !== undefined)
		params.user_status = checks.integerInRange('Status', fields.user_status, 0, 1);
	const changed = Object.keys(params).filter((key) => key !== 'user_id');
	if (changed.length === 0) checks.fail('Update Fields', 'add at least one field to update');
	const echo = {
		user_id: Number(userId),
		updated_fields: changed.map((key) => (key === 'password' ? 'password (not shown)' : key)),
	};
	return this.helpers.returnJsonArray(
		await sendUserWrite.call(this, itemIndex, { service: 'update_user', params, echo }),
	);
};
