import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation } from '../../../shared/router';
import { smsCreditRequest } from '../../../shared/transport/smsApi';
import { creditPathOption, readCreditPath } from '../common';

const properties: INodeProperties[] = [
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [creditPathOption()],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['credit'], operation: ['getBalance'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const check = new InputChecks(this.getNode(), itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as { creditPath?: string };
	const path = readCreditPath(check, options.creditPath);
	// The answer is returned as the service gave it (its shape is not in the spec).
	const answer = await smsCreditRequest.call(this, path, itemIndex);
	return this.helpers.returnJsonArray(answer);
};
