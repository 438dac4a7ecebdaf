import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callField, simplifyCallRow, simplifyManualParams } from '../../../shared/callFields';
import { InputChecks } from '../../../shared/checks';
import { checkPhone } from '../../../shared/phones';
import {
	addCallTimesWithOffset,
	savedServiceZone,
	serviceZone,
	usableZone,
	formatVirtualnumDate,
} from '../../../shared/dates';
import type { ItemOperation, OperationOption, RepeatEffect } from '../../../shared/router';
import { VIRTUALNUM_CREDENTIAL } from '../../../shared/transport/virtualnumApi';
import { virtualnumLocator } from '../../../shared/virtualnums';
import { readVirtualnum, resultObject, sendWrite } from '../../helpers/utils';
import { VN_LIMITS } from '../../../shared/limits';
import { simplifyField, simplifyOn } from './callOutput';

// The parameter names stay as saved workflows have them; display names and output follow the vocabulary.
const START = callField('startTime');
const CALLER = callField('callerNumber');
const DESTINATION = callField('destinationPhone');
const DURATION = callField('durationSec');
const METADATA = callField('marketingMetadata');

const properties: INodeProperties[] = [
	{
		displayName:
			'The record counts as a real call: the end-of-call automation rules and the pixel run for it.',
		name: 'manualNotice',
		type: 'notice',
		default: '',
	},
	virtualnumLocator({
		description: 'The number the call was made to (virtualNumber); it must be in the account',
	}),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: START.displayName,
				name: 'startTime',
				type: 'dateTime',
				default: '',
				description:
					"When the call started, on the service's clock (the credential's Service Time Zone) " +
					'unless it has an offset. Default: now.',
			},
			{
				displayName: CALLER.displayName,
				name: 'callerNumber',
				type: 'string',
				default: '',
				placeholder: 'e.g. 0501234567',
				description: 'The number that called; the service accepts valid Israeli numbers only',
			},
			{
				displayName: DESTINATION.displayName,
				name: 'destination',
				type: 'string',
				default: '',
				placeholder: 'e.g. 0527654321',
				description:
					'The phone that took the call (not the virtual number that was dialled); ' +
					'the service accepts valid Israeli numbers only',
			},
			{
				displayName: DURATION.displayName,
				name: 'duration',
				type: 'number',
				typeOptions: { minValue: VN_LIMITS.cdrTotacSec.min, maxValue: VN_LIMITS.cdrTotacSec.max },
				default: 60,
				description:
					`${VN_LIMITS.cdrTotacSec.min}-${VN_LIMITS.cdrTotacSec.max} seconds; the ` +
					`end time is calculated from it. Without it the duration is 0.`,
			},
			{
				displayName: `${METADATA.displayName} (JSON)`,
				name: 'metadata',
				type: 'json',
				default: '{}',
				description: 'Stored as the marketing (pixel) metadata of the call; must be valid JSON',
			},
		],
	},
	{
		...simplifyField,
		description:
			`Whether to output the record as the Virtual Number Trigger names a call ` +
			`(callId, virtualNumber, startTime, durationSec, callerNumber, destinationPhone, ` +
			`marketingMetadata) instead of the service's answer with the parameters ` +
			`sent (cdr_uniqueid, cdr_ddi, …)`,
	},
];

export const option: OperationOption = {
	name: 'Create Manual Record',
	description: 'Add a call record, e.g. from an external IVR or an import',
	action: 'Create a manual call record',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['cdr'], operation: ['createManual'] } },
	properties,
);

/**
 * Retry On Fail would repeat it: the service would add the record again, and run the end-of-call
 * automation rules and the pixel for it again. The router refuses to run while it is on.
 */
export const repeatEffect: RepeatEffect = {
	what: 'add the call records again (and run the automation rules and the pixel for them again)',
};

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const virtualnum = readVirtualnum.call(this, checks);
	const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const params: IDataObject = { cdr_ddi: virtualnum };
	const savedZone = await savedServiceZone(this, VIRTUALNUM_CREDENTIAL);
	if (fields.startTime !== undefined && String(fields.startTime).trim() !== '') {
		params.cdr_start_call = formatVirtualnumDate(
			fields.startTime,
			serviceZone(checks, savedZone),
			'Call Start',
			checks,
		);
	}
	if (fields.duration !== undefined && String(fields.duration).trim() !== '') {
		params.cdr_totac_sec = checks.integerInRange(
			'Duration (Seconds)',
			fields.duration,
			VN_LIMITS.cdrTotacSec.min,
			VN_LIMITS.cdrTotacSec.max,
		);
	}
	if (fields.callerNumber !== undefined && String(fields.callerNumber).trim() !== '') {
		params.cdr_ani = checkPhone(checks, 'Caller Number', fields.callerNumber);
	}
	if (fields.destination !== undefined && String(fields.destination).trim() !== '') {
		params.cdr_destination = checkPhone(checks, 'Destination', fields.destination);
	}
	if (fields.metadata !== undefined) {
		const metadata =
			typeof fields.metadata === 'string'
				? fields.metadata.trim()
				: JSON.stringify(fields.metadata);
		if (metadata !== '')
			params.cdr_metadata = checks.json(`${METADATA.displayName} (JSON)`, metadata);
	}
	const answer = await sendWrite.call(this, 'create_virtualnum_cdr', params, itemIndex);
	const raw: IDataObject = { ...resultObject(answer.result), ...params };
	if (!simplifyOn(this.getNodeParameter('simplify', itemIndex, true)))
		return this.helpers.returnJsonArray(raw);
	// callId first (from the answer's cdr_uniqueid), then what was sent, under the same names.
	const item = {
		...simplifyCallRow(resultObject(answer.result)),
		...simplifyManualParams(params),
	};
	return this.helpers.returnJsonArray(addCallTimesWithOffset(item, usableZone(savedZone)));
};
