import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { VN_LIMITS } from '../../../shared/limits';
import { getAvailableVirtualnums } from './available';

const properties: INodeProperties[] = [
	{
		displayName: 'Search By',
		name: 'searchBy',
		type: 'options',
		options: [
			{ name: 'Any Number', value: 'none' },
			{ name: 'Part of Number', value: 'part', description: 'Numbers containing these digits' },
			{ name: 'Prefix', value: 'prefix', description: 'Numbers starting with these digits' },
		],
		default: 'none',
	},
	{
		displayName: 'Prefix',
		name: 'prefix',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 9723',
		description: 'Digits the number starts with',
		displayOptions: { show: { searchBy: ['prefix'] } },
	},
	{
		displayName: 'Part of Number',
		name: 'part',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 5555',
		description: 'Digits the number contains',
		displayOptions: { show: { searchBy: ['part'] } },
	},
	{
		displayName: 'Amount',
		name: 'amount',
		type: 'number',
		typeOptions: {
			minValue: VN_LIMITS.availableAmount.min,
			maxValue: VN_LIMITS.availableAmount.max,
		},
		default: 5, // the service's default (VN_LIMITS.availableAmount)
		description:
			`How many available numbers to return, ${VN_LIMITS.availableAmount.min}-${VN_LIMITS.availableAmount.max}. ` +
			`Nothing is allocated: use Create to take one.`,
	},
];

export const option: OperationOption = {
	name: 'Get Available',
	description: 'List numbers of the pool that can be allocated',
	action: 'Get available virtual numbers',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['virtualnum'], operation: ['getAvailable'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const searchBy = this.getNodeParameter('searchBy', itemIndex, 'none') as string;
	const amount = checks.integerInRange(
		'Amount',
		this.getNodeParameter('amount', itemIndex, VN_LIMITS.availableAmount.default),
		VN_LIMITS.availableAmount.min,
		VN_LIMITS.availableAmount.max,
	);
	const params: { amount: number; prefix?: string; virtualnum?: string } = { amount };
	if (searchBy === 'prefix')
		params.prefix = checks.digits('Prefix', this.getNodeParameter('prefix', itemIndex, ''));
	if (searchBy === 'part')
		params.virtualnum = checks.digits(
			'Part of Number',
			this.getNodeParameter('part', itemIndex, ''),
		);
	// No available number (with that prefix or part): no items.
	return this.helpers.returnJsonArray(await getAvailableVirtualnums.call(this, params, itemIndex));
};
