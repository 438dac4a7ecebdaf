import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { simplifyCallRows } from '../../../shared/callFields';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import {
	DATE_FORMATS,
	checkDateOrder,
	credentialServiceZone,
	toDateTime,
} from '../../../shared/dates';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { VIRTUALNUM_CREDENTIAL, virtualnumRequest } from '../../../shared/transport/virtualnumApi';
import { resultRows } from '../../../shared/virtualnums';
import { VN_LIMITS } from '../../../shared/limits';
import { simplifyField, simplifyOn } from './callOutput';
import { timeoutMs, timeoutOptions } from './fields';

const properties: INodeProperties[] = [
	{
		displayName: 'Start Time',
		name: 'startTime',
		type: 'dateTime',
		required: true,
		default: '',
		description:
			"Start of the period, on the service's clock (the credential's Service Time Zone) unless " +
			'it has an offset; any date from an earlier node works too',
	},
	{
		displayName: 'End Time',
		name: 'endTime',
		type: 'dateTime',
		required: true,
		default: '',
		description:
			"End of the period, on the service's clock (the credential's Service Time Zone) unless " +
			'it has an offset',
	},
	{
		...simplifyField,
		description:
			'Whether to name the caller callerNumber, as the Virtual Number Trigger ' +
			"does, instead of the service's cdr_ani (the other fields stay as the service " +
			'names them)',
	},
	timeoutOptions,
];

export const option: OperationOption = {
	name: 'Get Unique Callers Report',
	description: 'Answered calls of a period per unique caller, with the number of calls',
	action: 'Get the unique callers report',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['cdr'], operation: ['getUniqueCallers'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const timezone = await credentialServiceZone(this, VIRTUALNUM_CREDENTIAL, checks);
	const start = toDateTime(
		this.getNodeParameter('startTime', itemIndex, ''),
		timezone,
		'Start Time',
		checks,
	);
	const end = toDateTime(
		this.getNodeParameter('endTime', itemIndex, ''),
		timezone,
		'End Time',
		checks,
	);
	checkDateOrder(checks, { start, end, startField: 'Start Time', endField: 'End Time' });
	const startTime = start.toFormat(DATE_FORMATS.virtualnum);
	const endTime = end.toFormat(DATE_FORMATS.virtualnum);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const answer = await virtualnumRequest.call(this, {
		service: 'cdr_subunique_query',
		params: { start_time: startTime, end_time: endTime },
		itemIndex,
		timeoutMs: timeoutMs(options, checks),
		noResultsAsEmpty: true,
	});
	// The service returns at most VN_LIMITS.cdrSubuniqueRows rows (spec).
	const rows = resultRows(answer.result).slice(0, VN_LIMITS.cdrSubuniqueRows.max);
	const simplify = simplifyOn(this.getNodeParameter('simplify', itemIndex, true));
	return this.helpers.returnJsonArray(simplify ? simplifyCallRows(rows) : rows);
};
