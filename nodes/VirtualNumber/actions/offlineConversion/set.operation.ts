import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { callIdOutput, readCallId, resultObject, sendWrite } from '../../helpers/utils';
import { callIdField } from '../fields';

const properties: INodeProperties[] = [
	callIdField,
	{
		displayName: 'Conversion Value',
		name: 'conversionValue',
		type: 'number',
		typeOptions: { numberPrecision: 2 },
		required: true,
		default: 0,
		description:
			'Value of the conversion, e.g. the deal amount. Stored on the call (replacing ' +
			'an earlier value) and sent to the advertising platform on its next synchronization.',
	},
];

export const option: OperationOption = {
	name: 'Set',
	description: 'Store the offline conversion value of a call for the advertising platform',
	action: 'Set an offline conversion',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['offlineConversion'], operation: ['set'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const callId = readCallId.call(this, checks);
	const conversionValue = checks.numeric(
		'Conversion Value',
		this.getNodeParameter('conversionValue', itemIndex, ''),
	);
	const answer = await sendWrite.call(
		this,
		'set_ads_offline_conversion',
		{ call_uuid: callId, conversion_value: conversionValue },
		itemIndex,
	);
	return this.helpers.returnJsonArray(
		callIdOutput(callId, { conversion_value: conversionValue, ...resultObject(answer.result) }),
	);
};
