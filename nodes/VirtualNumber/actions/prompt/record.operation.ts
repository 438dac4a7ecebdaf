import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import { checkPhoneToSend } from '../../../shared/phones';
import type { ItemOperation, OperationOption, RepeatEffect } from '../../../shared/router';
import { VIRTUALNUM_CREDENTIAL } from '../../../shared/transport/virtualnumApi';
import { sendWrite, writeOutput } from '../../helpers/utils';

const properties: INodeProperties[] = [
	{
		displayName: 'Phone Number',
		name: 'destination',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 0501234567',
		description:
			'The service calls this number, guides the person who answers through the recording, and saves it as a new prompt',
	},
];

export const option: OperationOption = {
	name: 'Record by Phone',
	description: 'Call a phone to record a new prompt (recording_studio)',
	action: 'Record a voice prompt by phone',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['prompt'], operation: ['record'] } },
	properties,
);

export const repeatEffect: RepeatEffect = { what: 'place the recording call again' };

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const destination = await checkPhoneToSend.call(
		this,
		VIRTUALNUM_CREDENTIAL,
		checks,
		'Phone Number',
		this.getNodeParameter('destination', itemIndex, ''),
	);
	const answer = await sendWrite.call(this, 'recording_studio', { destination }, itemIndex);
	return this.helpers.returnJsonArray(writeOutput(answer, { destination }));
};
