import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { virtualnumRequest } from '../../../shared/transport/virtualnumApi';
import { resultRows, virtualnumLocator } from '../../../shared/virtualnums';
import { readLimit, readVirtualnum } from '../../helpers/utils';
import { returnAllFields } from '../fields';
import { readCallerNumber } from './fields';

const properties: INodeProperties[] = [
	...returnAllFields(),
	{
		displayName: 'Caller Number',
		name: 'callerNumber',
		type: 'string',
		default: '',
		placeholder: 'e.g. 0501234567',
		description:
			'Only entries whose number ends with these digits; empty for the whole ' +
			'list. Without a virtual number, global and number-bound blocks are both ' +
			'returned.',
	},
	{
		displayName: 'Filter by Virtual Number',
		name: 'filterByVirtualnum',
		type: 'boolean',
		default: false,
		description:
			'Whether to return only the blocks bound to one virtual number (needs a Caller Number)',
	},
	{
		...virtualnumLocator({ displayOptions: { show: { filterByVirtualnum: [true] } } }),
		hint:
			'Works only together with a Caller Number: the service ignores it otherwise, ' +
			'so the node refuses to run without one',
	},
];

export const option: OperationOption = {
	name: 'Get Many',
	description: 'Get the blocked callers (get_blacklist)',
	action: 'Get many blacklist entries',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['blacklist'], operation: ['getAll'] } },
	properties,
);

/**
 * The Virtual Number filter, or '' when off. Sent alone it is silently ignored and the whole list
 * comes back: refused.
 */
function virtualnumFilter(
	this: IExecuteFunctions,
	checks: InputChecks,
	callerNumber: string,
): string {
	if (!(this.getNodeParameter('filterByVirtualnum', checks.itemIndex, false) as boolean)) return '';
	const virtualnum = readVirtualnum.call(this, checks);
	if (callerNumber === '') {
		checks.fail(
			'Virtual Number',
			'works only together with a Caller Number (the service ignores it alone ' +
				'and would return the whole list): set a Caller Number, or turn off Filter ' +
				'by Virtual Number',
		);
	}
	return virtualnum;
}

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const limit = readLimit.call(this, checks);
	const callerNumber = readCallerNumber.call(this, checks, false);
	const virtualnum = virtualnumFilter.call(this, checks, callerNumber);
	const answer = await virtualnumRequest.call(this, {
		service: 'get_blacklist',
		params: { caller_number: callerNumber, virtualnum },
		itemIndex,
		noResultsAsEmpty: true,
	});
	return this.helpers.returnJsonArray(resultRows(answer.result).slice(0, limit));
};
