import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation, OperationOption, RepeatEffect } from '../../../shared/router';
import { recordAsShown, virtualnumLocator } from '../../../shared/virtualnums';
import { readVirtualnum, resultObject, sendWrite } from '../../helpers/utils';
import { VN_LIMITS } from '../../../shared/limits';
import {
	createSettingFields,
	destinationList,
	requiredDescriptionField,
	requiredDestinationField,
	settingsToParams,
} from './numberSettings';

const properties: INodeProperties[] = [
	requiredDescriptionField,
	requiredDestinationField,
	{
		displayName: 'Number',
		name: 'allocation',
		type: 'options',
		options: [
			{
				name: 'Next Available',
				value: 'auto',
				description: 'The service picks a free number, optionally by prefix',
			},
			{
				name: 'Specific Number',
				value: 'specific',
				description: 'A number from the pool of available numbers',
			},
		],
		default: 'auto',
		description: 'Which number to allocate. Allocation may change the rates of the account.',
	},
	{
		displayName: 'Prefix',
		name: 'prefix',
		type: 'string',
		default: '',
		placeholder: 'e.g. 9723',
		description: 'Only a number starting with these digits; empty for any number',
		displayOptions: { show: { allocation: ['auto'] } },
	},
	virtualnumLocator({
		displayName: 'Available Number',
		description: 'The number to allocate, from the pool of available numbers',
		searchListMethod: 'searchAvailableVirtualnums',
		displayOptions: { show: { allocation: ['specific'] } },
	}),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: createSettingFields,
	},
];

export const option: OperationOption = {
	name: 'Create',
	description: 'Allocate a number from the pool with its settings',
	action: 'Create a virtual number',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['virtualnum'], operation: ['create'] } },
	properties,
);

export const repeatEffect: RepeatEffect = {
	what: 'allocate another number (and the account may be charged for it)',
};

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const descriptionText = checks.maxLength(
		'Description',
		checks.required('Description', this.getNodeParameter('description', itemIndex, '')),
		VN_LIMITS.description.maxLength,
	);
	const destinations = destinationList(
		checks,
		'Destination Phones',
		this.getNodeParameter('callDestinationPhone', itemIndex, ''),
	);
	const params: IDataObject = {
		description: descriptionText,
		call_destination_phone: destinations,
		...settingsToParams(
			this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject,
			checks,
		),
	};
	const allocation = this.getNodeParameter('allocation', itemIndex, 'auto') as string;
	if (allocation === 'specific') {
		params.virtualnum = readVirtualnum.call(this, checks, 'virtualnum', 'Available Number');
	} else {
		const prefix = String(this.getNodeParameter('prefix', itemIndex, '')).trim();
		if (prefix !== '') params.prefix = checks.digits('Prefix', prefix);
	}
	const answer = await sendWrite.call(this, 'create_virtualnum', params, itemIndex);
	return this.helpers.returnJsonArray(recordAsShown(resultObject(answer.result)));
};
