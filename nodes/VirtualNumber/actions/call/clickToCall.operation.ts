import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import { PHONES_FOR_MODEL, checkPhoneToSend } from '../../../shared/phones';
import type { ItemOperation, OperationOption, RepeatEffect } from '../../../shared/router';
import { VIRTUALNUM_CREDENTIAL } from '../../../shared/transport/virtualnumApi';
import { virtualnumLocator } from '../../../shared/virtualnums';
import { DateTime } from 'luxon';

import {
	placedCallId,
	placedCallOutput,
	readVirtualnum,
	resultObject,
	sendWrite,
} from '../../helpers/utils';
import { readWaitSettings, waitForCallRecord, waitForRecordFields } from './waitForRecord';

const properties: INodeProperties[] = [
	virtualnumLocator({
		description:
			'The number the call is placed from; its settings (greetings, recording, destinations) apply',
	}),
	{
		displayName: 'Phone Number to Call',
		name: 'destination',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 0501234567',
		description:
			'The service calls this number and, when it answers, connects it to the virtual number',
	},
	{
		displayName: 'Call the Virtual Number First',
		name: 'callVirtualnumFirst',
		type: 'boolean',
		default: false,
		description:
			'Whether to ring the virtual number (its destination phones) first and ' +
			'call the phone number once they answer. This also swaps the internal greeting ' +
			'and the greeting to the caller.',
	},
	...waitForRecordFields,
];

export const option: OperationOption = {
	name: 'Click to Call',
	description: 'Call a phone number and connect it to a virtual number',
	action: 'Place a click to call call',
};

export const toolDescription =
	'Place a real phone call now: the phone number rings, and when answered it is connected to the virtual ' +
	"number's destination. Costs call minutes and disturbs a person, so call only when asked. " +
	`${PHONES_FOR_MODEL} ` +
	'Returns the call ID of the placed call.';

export const description = updateDisplayOptions(
	{ show: { resource: ['call'], operation: ['clickToCall'] } },
	properties,
);

export const repeatEffect: RepeatEffect = { what: 'place the call again' };

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const virtualnum = readVirtualnum.call(this, checks);
	const destination = await checkPhoneToSend.call(
		this,
		VIRTUALNUM_CREDENTIAL,
		checks,
		'Phone Number to Call',
		this.getNodeParameter('destination', itemIndex, ''),
	);
	const first = this.getNodeParameter('callVirtualnumFirst', itemIndex, false) as boolean;
	const wait = readWaitSettings.call(this, checks);
	const placedAt = DateTime.now();
	const answer = await sendWrite.call(
		this,
		'create_virtualnum_call',
		{ virtualnum, destination, ...(first ? { first_target: 'virtualnum' } : {}) },
		itemIndex,
	);
	const placed = placedCallOutput.call(this, resultObject(answer.result), answer);
	if (!wait) return this.helpers.returnJsonArray({ ...placed, virtualnum, destination });
	const record = await waitForCallRecord.call(
		this,
		{ callId: placedCallId(placed), virtualnum, callerNumber: destination, placedAt },
		wait,
		itemIndex,
	);
	return this.helpers.returnJsonArray(record);
};
