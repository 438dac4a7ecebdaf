/** Fields the blacklist operations share: the caller number and where a block applies. */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { PHONE_INPUT_PATTERN, type InputChecks } from '../../../shared/checks';
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

export function readCallerNumber(this: IExecuteFunctions, check: InputChecks, required = true): string {
	const text = String(this.getNodeParameter('callerNumber', check.itemIndex, '')).trim();
	if (text === '' && !required) return '';
	check.required('Caller Number', text);
	return check.pattern(
		'Caller Number',
		text,
		PHONE_INPUT_PATTERN,
		'must be a phone number (digits, optionally with +, spaces, dashes or brackets)',
	);
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
