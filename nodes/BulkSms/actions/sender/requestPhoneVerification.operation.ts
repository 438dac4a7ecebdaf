import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputChecks, LIMITS, normalizeSmsSender, SMS_SENDER_RULES } from '../../../shared/checks';
import { smsSenderRequest } from '../../../shared/transport/smsApi';
import type { ItemOperation, RepeatEffect } from '../../../shared/router';

export const description: INodeProperties[] = [
	{
		displayName: 'Phone Number',
		name: 'phoneSender',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 0501234567',
		description:
			'The phone number to send from, or a speed dial *XXXX. Spaces, dashes, dots, brackets and a leading + are removed.',
		hint: 'The service sends a 6-digit code to this number; enter it in a Verify Phone Sender step',
		displayOptions: { show: { resource: ['sender'], operation: ['requestPhoneVerification'] } },
	},
	{
		displayName: 'Send Code By',
		name: 'otpType',
		type: 'options',
		default: 'sms',
		description: 'How the service delivers the verification code',
		options: [
			{ name: 'Phone Call', value: 'call', description: 'A voice call reads the code out' },
			{ name: 'Distributor', value: 'distributor', description: 'The code goes to the account\'s distributor' },
			{ name: 'SMS', value: 'sms', description: 'A text message to the number' },
		],
		displayOptions: { show: { resource: ['sender'], operation: ['requestPhoneVerification'] } },
	},
];

/** A phone sender (digits or *XXXX) from a field, or the item's error. */
export function readPhoneSender(check: InputChecks, field: string, value: unknown): string {
	const text = check.required(field, value);
	const sender = normalizeSmsSender(text);
	if (!sender || sender.kind === 'text') check.fail(field, `is not valid: ${SMS_SENDER_RULES.phone}`, text);
	return sender.value;
}

/** Retry On Fail would repeat it: the router refuses to run while it is on. */
export const repeatEffect: RepeatEffect = { what: 'send another verification code (an SMS or a call)' };

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const check = new InputChecks(this.getNode(), itemIndex);
	const sender = readPhoneSender(check, 'Phone Number', this.getNodeParameter('phoneSender', itemIndex, ''));
	const otpType = check.oneOf(
		'Send Code By',
		String(this.getNodeParameter('otpType', itemIndex, 'sms')).trim(),
		LIMITS.otpTypes,
	);
	const answer = await smsSenderRequest.call(
		this,
		'add_sender_phone_step1',
		{ sender, otp_type: otpType },
		{ method: 'POST', itemIndex },
	);
	return this.helpers.returnJsonArray({ sender, otp_type: otpType, ...answer });
};
