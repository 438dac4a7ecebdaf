import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import { checkOptionalPhone } from '../../../shared/phones';
import type { ItemOperation, OperationOption, RepeatEffect } from '../../../shared/router';
import { VN_LIMITS } from '../../../shared/limits';
import { EMAIL_PATTERN } from './fields';
import { checkPassword, sendUserWrite } from './secret';

const properties: INodeProperties[] = [
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		required: true,
		default: '',
		description:
			`The user's email address (at most ${VN_LIMITS.userEmail.maxLength} characters). ` +
			`The service also creates a personal tag named #&lt;email&gt;.`,
	},
	{
		displayName: 'Password',
		name: 'password',
		type: 'string',
		typeOptions: { password: true },
		required: true,
		default: '',
		description:
			`At least ${VN_LIMITS.userPassword.minLength} characters, meeting the service's ` +
			`password policy. Never shown in the output.`,
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Login Name',
				name: 'user_login',
				type: 'string',
				default: '',
				description: 'When empty, the service uses the part of the email before the @',
			},
			{
				displayName: 'Phone',
				name: 'user_phone',
				type: 'string',
				default: '',
				placeholder: 'e.g. 0501234567',
				description: 'The service converts it to international format',
			},
			{
				displayName: 'SMS Phone',
				name: 'user_phone_sms',
				type: 'string',
				default: '',
				placeholder: 'e.g. 0501234567',
				description: 'Phone for SMS; the service converts it to international format',
			},
		],
	},
];

export const option: OperationOption = {
	name: 'Create',
	description: 'Create a user (set_user)',
	action: 'Create a user',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['create'] } },
	properties,
);

/**
 * Retry On Fail would repeat it, and the spec does not say that the service refuses a second user
 * with the same email (7003 is only "user creation failed"): a duplicated user would get its own
 * login, permissions and personal tag. The router refuses to run while it is on.
 */
export const repeatEffect: RepeatEffect = {
	what: 'create the users again (the service may not refuse a second user with the same email)',
};

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const email = checks.required('Email', this.getNodeParameter('email', itemIndex, ''));
	checks.maxLength('Email', email, VN_LIMITS.userEmail.maxLength);
	checks.pattern('Email', email, EMAIL_PATTERN, 'must be an email address, e.g. name@email.com');
	const password = checkPassword(
		checks,
		String(this.getNodeParameter('password', itemIndex, '')),
		'is required and cannot be empty',
	);
	const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const params: IDataObject = {
		email,
		password,
		user_login: String(fields.user_login ?? '').trim(),
		user_phone: checkOptionalPhone(checks, 'Phone', fields.user_phone),
		user_phone_sms: checkOptionalPhone(checks, 'SMS Phone', fields.user_phone_sms),
	};
	const echo = { email, ...(params.user_login ? { user_login: params.user_login } : {}) };
	return this.helpers.returnJsonArray(
		await sendUserWrite.call(this, itemIndex, { service: 'set_user', params, echo }),
	);
};
