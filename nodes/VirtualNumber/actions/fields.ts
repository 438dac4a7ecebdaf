/**
 * Fields that operations of more than one resource show. Each operation file adds its resource
 * and operation to them with `updateDisplayOptions`; a field used by one resource only is defined
 * in that resource's folder. The virtual number locator is `virtualnumLocator` of
 * nodes/shared/virtualnums.ts (the trigger shows it too).
 */
import type { INodeProperties } from 'n8n-workflow';

import { callField } from '../../shared/callFields';
import { GET_MANY_LIMIT, type LimitRange } from '../helpers/utils';

const CALL_ID = callField('callId');

/** The ID of one call (the parameter name stays `callUuid`, as saved workflows have it). */
export const callIdField: INodeProperties = {
	displayName: CALL_ID.displayName,
	name: 'callUuid',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 1714557600.123',
	description:
		`The ${CALL_ID.key} of the call, as Query, Create Manual Record and the ` +
		`Virtual Number Trigger output it (the service calls it call_uuid or cdr_uniqueid)`,
};

/** Return All, and Limit while it is off (readLimit reads them). */
export function returnAllFields(range: LimitRange = GET_MANY_LIMIT): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: {
				minValue: range.min,
				...(range.max < Number.MAX_SAFE_INTEGER ? { maxValue: range.max } : {}),
			},
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { returnAll: [false] } },
		},
	];
}

/** Where a downloaded file goes in the output item. */
export const outputBinaryField: INodeProperties = {
	displayName: 'Put Output File in Field',
	name: 'binaryPropertyName',
	type: 'string',
	required: true,
	default: 'data',
	hint: 'The name of the output binary field to put the file in',
};
