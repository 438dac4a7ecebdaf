import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputChecks, LIMITS } from '../../../shared/checks';
import { DATE_FORMATS, checkDateOrder, toOptionalDateTime } from '../../../shared/dates';
import type { ItemOperation } from '../../../shared/router';
import { virtualnumRequest } from '../../../shared/transport/virtualnumApi';
import { resultRows } from './fields';
import { readUserId, userLocator } from './userField';

const show = { resource: ['user'], operation: ['getAccessLog'] };

export const description: INodeProperties[] = [
	{
		displayName: `The service returns at most ${LIMITS.accessLogRows.max} rows, newest first: narrow the time range to reach older ones`,
		name: 'accessLogNotice',
		type: 'notice',
		default: '',
		displayOptions: { show },
	},
	userLocator(show, {
		name: 'logUserId',
		required: false,
		description: 'Only the log of this user; empty for all users',
	}),
	{
		displayName: 'Start Time',
		name: 'startTime',
		type: 'dateTime',
		default: '',
		description: 'Log rows from this time (in the workflow time zone); empty for no lower bound',
		hint: `At most ${LIMITS.accessLogRows.max} rows come back, newest first`,
		displayOptions: { show },
	},
	{
		displayName: 'End Time',
		name: 'endTime',
		type: 'dateTime',
		default: '',
		description: 'Log rows up to this time; empty for now',
		displayOptions: { show },
	},
];

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const check = new InputChecks(this.getNode(), itemIndex);
	const userId = readUserId.call(this, check, 'logUserId', false);
	const timezone = this.getTimezone();
	const start = toOptionalDateTime(this.getNodeParameter('startTime', itemIndex, ''), timezone, 'Start Time', check);
	const end = toOptionalDateTime(this.getNodeParameter('endTime', itemIndex, ''), timezone, 'End Time', check);
	checkDateOrder(check, { start, end, startField: 'Start Time', endField: 'End Time' });
	const answer = await virtualnumRequest.call(this, {
		service: 'get_users_access_log',
		params: { user_id: userId, start_time: start?.toFormat(DATE_FORMATS.virtualnum), end_time: end?.toFormat(DATE_FORMATS.virtualnum) },
		itemIndex,
		noResultsAsEmpty: true,
	});
	return this.helpers.returnJsonArray(resultRows(answer.result));
};
