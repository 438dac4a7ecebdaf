import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation } from '../../../shared/router';
import { virtualnumRequest } from '../../../shared/transport/virtualnumApi';
import { applyLimit, readVirtualnum, resultRows, returnAllFields, virtualnumLocator } from '../user/fields';
import { readCallerNumber } from './fields';

const show = { resource: ['blacklist'], operation: ['getAll'] };

export const description: INodeProperties[] = [
	...returnAllFields(show),
	{
		displayName: 'Caller Number',
		name: 'callerNumber',
		type: 'string',
		default: '',
		placeholder: 'e.g. 0501234567',
		description:
			'Only entries whose number ends with these digits; empty for the whole list. Without a virtual number, global and number-bound blocks are both returned.',
		displayOptions: { show },
	},
	{
		displayName: 'Filter by Virtual Number',
		name: 'filterByVirtualnum',
		type: 'boolean',
		default: false,
		description: 'Whether to return only the blocks bound to one virtual number (needs a Caller Number)',
		displayOptions: { show },
	},
	virtualnumLocator(
		'virtualnum',
		'Virtual Number',
		{ ...show, filterByVirtualnum: [true] },
		{
			hint: 'Works only together with a Caller Number: the service ignores it otherwise, so the node refuses to run without one',
		},
	),
];

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const check = new InputChecks(this.getNode(), itemIndex);
	const callerNumber = readCallerNumber.call(this, check, false);
	let virtualnum = '';
	if (this.getNodeParameter('filterByVirtualnum', itemIndex, false) as boolean) {
		virtualnum = readVirtualnum.call(this, 'virtualnum', 'Virtual Number', check);
		// Sent alone it is silently ignored and the whole list comes back: refuse rather than mislead.
		if (callerNumber === '') {
			check.fail(
				'Virtual Number',
				'works only together with a Caller Number (the service ignores it alone and would return the whole list): set a Caller Number, or turn off Filter by Virtual Number',
			);
		}
	}
	const answer = await virtualnumRequest.call(this, {
		service: 'get_blacklist',
		params: { caller_number: callerNumber, virtualnum },
		itemIndex,
		noResultsAsEmpty: true,
	});
	return this.helpers.returnJsonArray(applyLimit.call(this, resultRows(answer.result), itemIndex));
};
