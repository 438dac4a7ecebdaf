/** Fields the blacklist operations share: the caller number and where a block applies. */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { InputChecks } from '../../../shared/checks';
import { checkOptionalPhone, checkPhone } from '../../../shared/phones';
import { type Show, readVirtualnum, virtualnumLocator } from '../user/fields';

export function callerNumberField(show: Show, description: string): INodeProperties {
	return {
		displayName: 'Caller Number',
		name: 'callerNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 0501234567',
		description,
		displayOptions: { show },
	};
}

/** The caller number as digits (the service's remove refuses formatting: 2011 "not numeric"). */
export function readCallerNumber(this: IExecuteFunctions, check: InputChecks, required = true): string {
	const value = this.getNodeParameter('callerNumber', check.itemIndex, '');
	return required ? checkPhone(check, 'Caller Number', value) : checkOptionalPhone(check, 'Caller Number', value);
}

/** "Global or one virtual number", then the number when it is one. */
export function scopeFields(show: Show, displayName: string, description: string): INodeProperties[] {
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
			displayOptions: { show },
		},
		virtualnumLocator('virtualnum', 'Virtual Number', { ...show, scope: ['virtualnum'] }),
	];
}

/** The virtual number of a bound block, or '' for a global one. */
export function readScope(this: IExecuteFunctions, check: InputChecks): string {
	const scope = String(this.getNodeParameter('scope', check.itemIndex, 'global'));
	check.oneOf('Block For', scope, ['global', 'virtualnum']);
	return scope === 'virtualnum' ? readVirtualnum.call(this, 'virtualnum', 'Virtual Number', check) : '';
}
