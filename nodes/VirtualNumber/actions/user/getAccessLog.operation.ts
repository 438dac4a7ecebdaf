import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import {
	DATE_FORMATS,
	checkDateOrder,
	credentialServiceZone,
	isEmptyDate,
	toOptionalDateTime,
} from '../../../shared/dates';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { VIRTUALNUM_CREDENTIAL, virtualnumRequest } from '../../../shared/transport/virtualnumApi';
import { resultRows } from '../../../shared/virtualnums';
import { VN_LIMITS } from '../../../shared/limits';
import { readUserId, userRLC } from './fields';

const properties: INodeProperties[] = [
	{
		displayName:
			`The service returns at most ${VN_LIMITS.accessLogRows.max} rows, newest ` +
			`first: narrow the time range to reach older ones`,
		name: 'accessLogNotice',
		type: 'notice',
		default: '',
	},
	{
		...userRLC,
		name: 'logUserId',
		required: false,
		description: 'Only the log of this user; empty for all users',
	},
	{
		displayName: 'Start Time',
		name: 'startTime',
		type: 'dateTime',
		default: '',
		description:
			"Log rows from this time, on the service's clock (the credential's Service Time Zone) " +
			'unless it has an offset; empty for no lower bound',
		hint: `At most ${VN_LIMITS.accessLogRows.max} rows come back, newest first`,
	},
	{
		displayName: 'End Time',
		name: 'endTime',
		type: 'dateTime',
		default: '',
		description: 'Log rows up to this time; empty for now',
	},
];

export const option: OperationOption = {
	name: 'Get Access Log',
	description:
		'Get the log-ins of the users, newest first, at most 1000 rows (get_users_access_log)',
	action: 'Get the users access log',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['getAccessLog'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const userId = readUserId.call(this, checks, 'logUserId', false);
	const startValue = this.getNodeParameter('startTime', itemIndex, '');
	const endValue = this.getNodeParameter('endTime', itemIndex, '');
	// The zone is read only when a date is sent: a log without bounds does not need it.
	const timezone =
		isEmptyDate(startValue) && isEmptyDate(endValue)
			? ''
			: await credentialServiceZone(this, VIRTUALNUM_CREDENTIAL, checks);
	const start = toOptionalDateTime(startValue, timezone, 'Start Time', checks);
	const end = toOptionalDateTime(endValue, timezone, 'End Time', checks);
	checkDateOrder(checks, { start, end, startField: 'Start Time', endField: 'End Time' });
	const answer = await virtualnumRequest.call(this, {
		service: 'get_users_access_log',
		params: {
			user_id: userId,
			start_time: start?.toFormat(DATE_FORMATS.virtualnum),
			end_time: end?.toFormat(DATE_FORMATS.virtualnum),
		},
		itemIndex,
		noResultsAsEmpty: true,
	});
	return this.helpers.returnJsonArray(resultRows(answer.result));
};
