import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks, LIMITS } from '../../../shared/checks';
import type { ItemOperation } from '../../../shared/router';
import { virtualnumRequest } from '../../../shared/transport/virtualnumApi';
import { resultObject } from '../../../shared/virtualnums';
import { callUuidField } from '../cdr/common';

const properties: INodeProperties[] = [
	{ ...callUuidField, description: `${callUuidField.description}; numeric (digits, optionally with one decimal point)` },
];

export const description = updateDisplayOptions({ show: { resource: ['offlineConversion'], operation: ['get'] } }, properties);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const callUuid = checks.pattern(
		'Call ID',
		checks.required('Call ID', this.getNodeParameter('callUuid', itemIndex, '')),
		LIMITS.callUuidNumeric.pattern,
		'must be numeric (digits, optionally with one decimal point)',
	);
	const answer = await virtualnumRequest.call(this, {
		service: 'get_ads_offline_conversion',
		params: { call_uuid: callUuid },
		itemIndex,
	});
	return this.helpers.returnJsonArray({ call_uuid: callUuid, ...resultObject(answer.result) });
};
