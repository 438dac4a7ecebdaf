import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { smsSenderRequest } from '../../../shared/transport/smsApi';
import { SMS_LIMITS, SMS_SENDER_RULES } from '../../../shared/limits';

const properties: INodeProperties[] = [
	{
		displayName: 'Sender Name',
		name: 'textSender',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. MyShop',
		description:
			'The name recipients see as the sender: 3-11 characters, a Latin letter ' +
			'first, then letters, digits, _ or - (no spaces)',
		hint: 'A text sender can be used for sending once the provider has approved it',
	},
];

export const option: OperationOption = {
	name: 'Add Text Sender',
	description: 'Ask for a sender name (3-11 Latin characters) to be added to the account',
	action: 'Add a text sender',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['sender'], operation: ['addText'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const check = new InputChecks(this.getNode(), itemIndex);
	const sender = check.required('Sender Name', this.getNodeParameter('textSender', itemIndex, ''));
	check.pattern(
		'Sender Name',
		sender,
		SMS_LIMITS.textSender.pattern,
		`is not valid: ${SMS_SENDER_RULES.text}`,
	);
	// Listed as GET in the spec; the account token is added by the transport when set.
	const answer = await smsSenderRequest.call(
		this,
		'add_sender_text',
		{ sender },
		{ method: 'GET', itemIndex },
	);
	return this.helpers.returnJsonArray({ sender, type: 'text', ...answer });
};
