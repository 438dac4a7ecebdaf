/** Fields the blacklist operations share: the caller number and where a block applies. */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { InputChecks } from '../../../shared/checks';
import { checkOptionalPhone, checkPhone } from '../../../shared/phones';
import { virtualnumLocator } from '../../../shared/virtualnums';
import { readVirtualnum } from '../../helpers/utils';

export const callerNumberField: INodeProperties = {
	displayName: 'Caller Number',
	name: 'callerNumber',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 0501234567',
};

/** The caller number as digits (the service's remove refuses formatting: 2011 "not numeric"). */
export function readCallerNumber(
	this: IExecuteFunctions,
	checks: InputChecks,
	required = true,
): string {
	const value = this.getNodeParameter('callerNumber', checks.itemIndex, '');
	return required
		? checkPhone(checks, 'Caller Number', value)
		: checkOptionalPhone(checks, 'Caller Number', value);
}

/** "Global or one virtual number", then the number when it is one. */
export function scopeFields(displayName: string, description: string): INodeProperties[] {
	return [
		{
			displayName,
			name: 'scope',
			type: 'options',
			options: [
				{
					name: 'All Virtual Numbers',
					value: 'global',
					description: 'A global block: the caller cannot reach any number of the account',
				},
				{
					name: 'One Virtual Number',
					value: 'virtualnum',
					description: 'The block applies only when the caller dials this virtual number',
				},
			],
			default: 'global',
			description,
		},
		virtualnumLocator({ displayOptions: { show: { scope: ['virtualnum'] } } }),
	];
}

/** The virtual number of a bound block, or '' for a global one. */
export function readScope(this: IExecuteFunctions, checks: InputChecks): string {
	const scope = String(this.getNodeParameter('scope', checks.itemIndex, 'global'));
	checks.oneOf('Block For', scope, ['global', 'virtualnum']);
	return scope === 'virtualnum' ? readVirtualnum.call(this, checks) : '';
}

/** What a write says about the block it was about. */
export function blockEcho(callerNumber: string, virtualnum: string) {
	return { caller_number: callerNumber, scope: virtualnum ? 'virtualnum' : 'global', virtualnum };
}
