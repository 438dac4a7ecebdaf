import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks, LIMITS } from '../../../shared/checks';
import type { ItemOperation } from '../../../shared/router';
import { virtualnumRequest } from '../../../shared/transport/virtualnumApi';
import { availableRows } from '../../../shared/virtualnums';

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
		typeOptions: { minValue: LIMITS.availableAmount.min, maxValue: LIMITS.availableAmount.max },
		default: 5, // the service's default (LIMITS.availableAmount)
		description: `How many available numbers to return, ${LIMITS.availableAmount.min}-${LIMITS.availableAmount.max}. Nothing is allocated: use Create to take one.`,
	},
];

export const description = updateDisplayOptions({ show: { resource: ['virtualnum'], operation: ['getAvailable'] } }, properties);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const searchBy = this.getNodeParameter('searchBy', itemIndex, 'none') as string;
	const amount = checks.integerInRange('Amount', this.getNodeParameter('amount', itemIndex, LIMITS.availableAmount.default), LIMITS.availableAmount.min, LIMITS.availableAmount.max);
	const params: Record<string, string | number> = { amount };
	if (searchBy === 'prefix') params.prefix = checks.digits('Prefix', this.getNodeParameter('prefix', itemIndex, ''));
	if (searchBy === 'part') params.virtualnum = checks.digits('Part of Number', this.getNodeParameter('part', itemIndex, ''));
	// No available number (with that prefix or part): no items.
	const answer = await virtualnumRequest.call(this, { service: 'get_available_virtualnum', params, itemIndex, noResultsAsEmpty: true });
	return this.helpers.returnJsonArray(availableRows(answer.result));
};
