import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputChecks, LIMITS } from '../../../shared/checks';
import { checkOptionalPhone } from '../../../shared/phones';
import type { ItemOperation } from '../../../shared/router';
import { virtualnumRequest } from '../../../shared/transport/virtualnumApi';
import { writeOutput } from './fields';
import { withoutSecret } from './secret';
import { EMAIL_PATTERN } from './userField';

const show = { resource: ['user'], operation: ['create'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		required: true,
		default: '',
		description: `The user's email address (at most ${LIMITS.userEmail.maxLength} characters). The service also creates a personal tag named #&lt;email&gt;.`,
		displayOptions: { show },
	},
	{
		displayName: 'Password',
		name: 'password',
		type: 'string',
		typeOptions: { password: true },
		required: true,
		default: '',
		description: `At least ${LIMITS.userPassword.minLength} characters, meeting the service's password policy. Never shown in the output.`,
		displayOptions: { show },
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show },
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

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const check = new InputChecks(this.getNode(), itemIndex);
	const email = check.required('Email', this.getNodeParameter('email', itemIndex, ''));
	check.maxLength('Email', email, LIMITS.userEmail.maxLength);
	check.pattern('Email', email, EMAIL_PATTERN, 'must be an email address, e.g. name@email.com');
	const password = String(this.getNodeParameter('password', itemIndex, ''));
	// The value is never quoted in these failures.
	if (password.trim() === '') check.fail('Password', 'is required and cannot be empty');
	if (password.length < LIMITS.userPassword.minLength) {
		check.fail('Password', `must be at least ${LIMITS.userPassword.minLength} characters`);
	}
	const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const params: IDataObject = {
		email,
		password,
		user_login: String(fields.user_login ?? '').trim(),
		user_phone: checkOptionalPhone(check, 'Phone', fields.user_phone),
		user_phone_sms: checkOptionalPhone(check, 'SMS Phone', fields.user_phone_sms),
	};
	try {
		const answer = await virtualnumRequest.call(this, {
			service: 'set_user',
			params,
			method: 'POST',
			itemIndex,
			sideEffect: true,
		});
		const output = writeOutput(answer, { email, ...(params.user_login ? { user_login: params.user_login } : {}) });
		delete output.password;
		return this.helpers.returnJsonArray(output);
	} catch (error) {
		throw withoutSecret(error, password, this.getNode(), itemIndex);
	}
};
