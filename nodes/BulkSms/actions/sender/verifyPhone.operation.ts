import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { smsSenderRequest } from '../../../shared/transport/smsApi';
import { SMS_LIMITS } from '../../../shared/limits';
import { phoneSenderField } from '../fields';
import { readPhoneSender } from '../../helpers/utils';

const properties: INodeProperties[] = [
	phoneSenderField('The same phone number (or speed dial *XXXX) as in Request Phone Verification'),
	{
		displayName: 'Verification Code',
		name: 'otpCode',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 123456',
		description: 'The 6-digit code the service sent to the number',
	},
	{
		displayName: 'Description',
		name: 'senderDescription',
		type: 'string',
		default: '',
		placeholder: 'e.g. Office mobile',
		description: 'Optional description of the sender, in English and/or Hebrew',
	},
];

export const option: OperationOption = {
	name: 'Verify Phone Sender',
	description: 'Step 2 of adding a phone sender: enter the 6-digit code the number received',
	action: 'Verify a phone sender',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['sender'], operation: ['verifyPhone'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const check = new InputChecks(this.getNode(), itemIndex);
	const sender = readPhoneSender(
		check,
		'Phone Number',
		this.getNodeParameter('phoneSender', itemIndex, ''),
	);
	const code = check.required('Verification Code', this.getNodeParameter('otpCode', itemIndex, ''));
	check.pattern('Verification Code', code, SMS_LIMITS.otpCode.pattern, 'must be exactly 6 digits');
	const senderDescription = String(
		this.getNodeParameter('senderDescription', itemIndex, '') ?? '',
	).trim();
	const params: IDataObject = { sender, otp_key: code };
	if (senderDescription) params.sender_description = senderDescription;
	const answer = await smsSenderRequest.call(this, 'add_sender_phone_step2', params, {
		method: 'POST',
		itemIndex,
	});
	return this.helpers.returnJsonArray({ sender, ...answer });
};
