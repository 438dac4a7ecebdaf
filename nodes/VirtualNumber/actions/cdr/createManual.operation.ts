import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks, LIMITS } from '../../../shared/checks';
import { checkPhone } from '../../../shared/phones';
import { formatVirtualnumDate } from '../../../shared/dates';
import type { ItemOperation } from '../../../shared/router';
import { virtualnumRequest } from '../../../shared/transport/virtualnumApi';
import { readVirtualnumLocator, resultObject, virtualnumLocator } from '../../../shared/virtualnums';

const properties: INodeProperties[] = [
	{
		displayName:
			'The record counts as a real call: the end-of-call automation rules and the pixel run for it.',
		name: 'manualNotice',
		type: 'notice',
		default: '',
	},
	virtualnumLocator({ description: 'The number the call was made to; it must be in the account' }),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Call Start',
				name: 'startTime',
				type: 'dateTime',
				default: '',
				description: 'When the call started (workflow time zone). Default: now.',
			},
			{
				displayName: 'Caller Number',
				name: 'callerNumber',
				type: 'string',
				default: '',
				placeholder: 'e.g. 0501234567',
				description: 'The service accepts valid Israeli numbers only',
			},
			{
				displayName: 'Destination',
				name: 'destination',
				type: 'string',
				default: '',
				placeholder: 'e.g. 0527654321',
				description: 'The number that took the call; the service accepts valid Israeli numbers only',
			},
			{
				displayName: 'Duration (Seconds)',
				name: 'duration',
				type: 'number',
				typeOptions: { minValue: LIMITS.cdrTotacSec.min, maxValue: LIMITS.cdrTotacSec.max },
				default: 60,
				description: `${LIMITS.cdrTotacSec.min}-${LIMITS.cdrTotacSec.max} seconds; the end time is calculated from it. Without it the duration is 0.`,
			},
			{
				displayName: 'Metadata (JSON)',
				name: 'metadata',
				type: 'json',
				default: '{}',
				description: 'Stored as the metadata of the call; must be valid JSON',
			},
		],
	},
];

export const description = updateDisplayOptions({ show: { resource: ['cdr'], operation: ['createManual'] } }, properties);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const virtualnum = readVirtualnumLocator.call(this, 'virtualnum', itemIndex, checks, 'Virtual Number');
	const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const params: IDataObject = { cdr_ddi: virtualnum };
	if (fields.startTime !== undefined && String(fields.startTime).trim() !== '') {
		params.cdr_start_call = formatVirtualnumDate(fields.startTime, this.getTimezone(), 'Call Start', checks);
	}
	if (fields.duration !== undefined && String(fields.duration).trim() !== '') {
		params.cdr_totac_sec = checks.integerInRange('Duration (Seconds)', fields.duration, LIMITS.cdrTotacSec.min, LIMITS.cdrTotacSec.max);
	}
	if (fields.callerNumber !== undefined && String(fields.callerNumber).trim() !== '') {
		params.cdr_ani = checkPhone(checks, 'Caller Number', fields.callerNumber);
	}
	if (fields.destination !== undefined && String(fields.destination).trim() !== '') {
		params.cdr_destination = checkPhone(checks, 'Destination', fields.destination);
	}
	if (fields.metadata !== undefined) {
		const metadata = typeof fields.metadata === 'string' ? fields.metadata.trim() : JSON.stringify(fields.metadata);
		if (metadata !== '') params.cdr_metadata = checks.json('Metadata (JSON)', metadata);
	}
	const answer = await virtualnumRequest.call(this, {
		service: 'create_virtualnum_cdr',
		params,
		method: 'POST',
		itemIndex,
		sideEffect: true,
	});
	return this.helpers.returnJsonArray({ ...resultObject(answer.result), ...params });
};
