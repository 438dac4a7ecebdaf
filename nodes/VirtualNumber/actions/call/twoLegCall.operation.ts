import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import { PHONES_FOR_MODEL, checkPhoneToSend, checkVirtualnum } from '../../../shared/phones';
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
		name: 'virtualnum1',
		displayName: 'Caller ID for First Leg',
		description: 'Virtual number shown to the first destination',
	}),
	{
		displayName: 'First Destination',
		name: 'destination1',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 0501234567',
		description: 'The number the call goes out to first',
	},
	{
		displayName: 'Second Destination',
		name: 'destination2',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 0527654321',
		description: 'The number the first destination is connected to once it answers',
	},
	{
		displayName: 'Custom Parameters',
		name: 'customParameters',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Parameter',
		default: {},
		description: 'Any values to store on the call; they appear in reports and in the pixel',
		options: [
			{
				displayName: 'Parameter',
				name: 'parameter',
				values: [
					{
						displayName: 'Name',
						name: 'name',
						type: 'string',
						default: '',
						placeholder: 'e.g. crm_lead_id',
						description: 'Letters, digits and underscores, starting with a letter',
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
					},
				],
			},
		],
	},
	...waitForRecordFields,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Caller ID for Second Leg',
				name: 'virtualnum2',
				type: 'string',
				default: '',
				placeholder: 'e.g. 97235551234',
				description:
					'Virtual number shown to the second destination. Default: the caller ID of the first leg.',
			},
		],
	},
];

export const option: OperationOption = {
	name: 'Two-Leg Call',
	description: 'Call two numbers and connect them, with custom parameters stored on the call',
	action: 'Place a two leg call',
};

export const toolDescription =
	'Place a real phone call now that rings two phone numbers and connects them. Costs call minutes and ' +
	'rings people, so call only when asked. ' +
	`${PHONES_FOR_MODEL}`;

export const description = updateDisplayOptions(
	{ show: { resource: ['call'], operation: ['twoLegCall'] } },
	properties,
);

export const repeatEffect: RepeatEffect = { what: 'place the two-leg call again' };

/** Names of custom parameters: plain names that cannot shadow the operation's own parameters. */
const CUSTOM_PARAMETER_NAME = {
	pattern: /^[A-Za-z][A-Za-z0-9_]{0,63}$/,
	reserved: [
		'service',
		'format',
		'virtualnum',
		'virtualnum1',
		'virtualnum2',
		'destination1',
		'destination2',
	],
};

/** The Custom Parameters as the service gets them (name → value), each name checked. */
function customParameters(this: IExecuteFunctions, checks: InputChecks): IDataObject {
	const custom = ((this.getNodeParameter('customParameters', checks.itemIndex, {}) as IDataObject)
		.parameter ?? []) as IDataObject[];
	const stored: IDataObject = {};
	for (const [index, entry] of custom.entries()) {
		const field = `Custom Parameters (parameter ${index + 1}): Name`;
		const name = checks.pattern(
			field,
			checks.required(field, entry.name),
			CUSTOM_PARAMETER_NAME.pattern,
			'must be letters, digits and underscores, starting with a letter (at most 64 characters)',
		);
		if (CUSTOM_PARAMETER_NAME.reserved.includes(name.toLowerCase())) {
			checks.fail(field, `cannot be ${name}: the operation uses that name itself`, name);
		}
		// Own keys only: `constructor`, `toString`… are plain names here, not Object's.
		if (Object.prototype.hasOwnProperty.call(stored, name))
			checks.fail(field, 'is used twice', name);
		stored[name] = String(entry.value ?? '');
	}
	return stored;
}

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const virtualnum1 = readVirtualnum.call(this, checks, 'virtualnum1', 'Caller ID for First Leg');
	const destination1 = await checkPhoneToSend.call(
		this,
		VIRTUALNUM_CREDENTIAL,
		checks,
		'First Destination',
		this.getNodeParameter('destination1', itemIndex, ''),
	);
	const destination2 = await checkPhoneToSend.call(
		this,
		VIRTUALNUM_CREDENTIAL,
		checks,
		'Second Destination',
		this.getNodeParameter('destination2', itemIndex, ''),
	);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const params: IDataObject = { virtualnum1, destination1, destination2 };
	if (String(options.virtualnum2 ?? '').trim() !== '') {
		params.virtualnum2 = checkVirtualnum(checks, 'Caller ID for Second Leg', options.virtualnum2);
	}
	const stored = customParameters.call(this, checks);
	const wait = readWaitSettings.call(this, checks);
	const placedAt = DateTime.now();
	const answer = await sendWrite.call(
		this,
		'create_virtualnum_call_v2',
		{ ...stored, ...params },
		itemIndex,
	);
	const placed = placedCallOutput.call(this, resultObject(answer.result), answer);
	if (wait) {
		const call = {
			callId: placedCallId(placed),
			virtualnum: virtualnum1,
			callerNumber: destination1,
		};
		return this.helpers.returnJsonArray(
			await waitForCallRecord.call(this, { ...call, placedAt }, wait, itemIndex),
		);
	}
	return this.helpers.returnJsonArray({
		...placed,
		...params,
		...(Object.keys(stored).length > 0 ? { custom_parameters: stored } : {}),
	});
};
