import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputChecks, LIMITS } from '../../../shared/checks';
import { smsSenderRequest } from '../../../shared/transport/smsApi';
import type { ItemOperation } from '../../../shared/router';
import { readPhoneSender } from './requestPhoneVerification.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Phone Number',
		name: 'phoneSender',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 0501234567',
		description: 'The same phone number (or speed dial *XXXX) as in Request Phone Verification',
		displayOptions: { show: { resource: ['sender'], operation: ['verifyPhone'] } },
	},
	{
		displayName: 'Verification Code',
		name: 'otpCode',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 123456',
		description: 'The 6-digit code the service sent to the number',
		displayOptions: { show: { resource: ['sender'], operation: ['verifyPhone'] } },
	},
	{
		displayName: 'Description',
		name: 'senderDescription',
		type: 'string',
		default: '',
		placeholder: 'e.g. Office mobile',
		description: 'Optional description of the sender, in English and/or Hebrew',
		displayOptions: { show: { resource: ['sender'], operation: ['verifyPhone'] } },
	},
];

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const check = new InputChecks(this.getNode(), itemIndex);
	const sender = readPhoneSender(check, 'Phone Number', this.getNodeParameter('phoneSender', itemIndex, ''));
	const code = check.required('Verification Code', this.getNodeParameter('otpCode', itemIndex, ''));
	check.pattern('Verification Code', code, LIMITS.otpCode.pattern, 'must be exactly 6 digits');
	const description = String(this.getNodeParameter('senderDescription', itemIndex, '') ?? '').trim();
	const params: IDataObject = { sender, otp_key: code };
	if (description) params.sender_description = description;
	const answer = await smsSenderRequest.call(this, 'add_sender_phone_step2', params, { method: 'POST', itemIndex });
	return this.helpers.returnJsonArray({ sender, ...answer });
};
