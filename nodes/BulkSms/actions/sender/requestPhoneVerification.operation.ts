import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation, OperationOption, RepeatEffect } from '../../../shared/router';
import { smsSenderRequest } from '../../../shared/transport/smsApi';
import { SMS_LIMITS } from '../../../shared/limits';
import { phoneSenderField } from '../fields';
import { readPhoneSender } from '../../helpers/utils';

const properties: INodeProperties[] = [
	phoneSenderField(
		'The phone number to send from, or a speed dial *XXXX. Spaces, dashes, dots, brackets and a leading + are removed.',
		'The service sends a 6-digit code to this number; enter it in a Verify Phone Sender step',
	),
	{
		displayName: 'Send Code By',
		name: 'otpType',
		type: 'options',
		default: 'sms',
		description: 'How the service delivers the verification code',
		options: [
			{ name: 'Phone Call', value: 'call', description: 'A voice call reads the code out' },
			{
				name: 'Distributor',
				value: 'distributor',
				description: "The code goes to the account's distributor",
			},
			{ name: 'SMS', value: 'sms', description: 'A text message to the number' },
		],
	},
];

export const option: OperationOption = {
	name: 'Request Phone Verification',
	description: 'Step 1 of adding a phone sender: the service sends a 6-digit code to the number',
	action: 'Request phone sender verification',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['sender'], operation: ['requestPhoneVerification'] } },
	properties,
);

export const repeatEffect: RepeatEffect = {
	what: 'send another verification code (an SMS or a call)',
};

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const check = new InputChecks(this.getNode(), itemIndex);
	const sender = readPhoneSender(
		check,
		'Phone Number',
		this.getNodeParameter('phoneSender', itemIndex, ''),
	);
	const otpType = check.oneOf(
		'Send Code By',
		String(this.getNodeParameter('otpType', itemIndex, 'sms')).trim(),
		SMS_LIMITS.otpTypes,
	);
	const answer = await smsSenderRequest.call(
		this,
		'add_sender_phone_step1',
		{ sender, otp_type: otpType },
		{ method: 'POST', itemIndex },
	);
	return this.helpers.returnJsonArray({ sender, otp_type: otpType, ...answer });
};
