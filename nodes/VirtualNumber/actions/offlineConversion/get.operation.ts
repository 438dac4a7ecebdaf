import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { virtualnumRequest } from '../../../shared/transport/virtualnumApi';
import { callIdOutput, readCallId, resultObject } from '../../helpers/utils';
import { callIdField } from '../fields';

/**
 * get_ads_offline_conversion refuses a call ID that is not numeric (1116): digits, optionally with
 * one decimal point.
 */
const NUMERIC_CALL_ID = /^\d+(\.\d+)?$/;

const properties: INodeProperties[] = [
	{
		...callIdField,
		description: `${callIdField.description}; numeric (digits, optionally with one decimal point)`,
	},
];

export const option: OperationOption = {
	name: 'Get',
	description: 'Get the offline conversion value stored on a call',
	action: 'Get an offline conversion',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['offlineConversion'], operation: ['get'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const callId = checks.pattern(
		'Call ID',
		readCallId.call(this, checks),
		NUMERIC_CALL_ID,
		'must be numeric (digits, optionally with one decimal point)',
	);
	const answer = await virtualnumRequest.call(this, {
		service: 'get_ads_offline_conversion',
		params: { call_uuid: callId },
		itemIndex,
	});
	return this.helpers.returnJsonArray(callIdOutput(callId, resultObject(answer.result)));
};
