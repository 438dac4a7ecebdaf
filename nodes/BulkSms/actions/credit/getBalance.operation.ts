import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import {
	creditPathOption,
	readCreditPath,
	smsCreditRequest,
} from '../../../shared/transport/smsApi';

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

export const option: OperationOption = {
	name: 'Get Balance',
	description: 'Read the SMS credit left on the account (every recipient of a message uses credit)',
	action: 'Get the credit balance',
};

export const toolDescription =
	'Get the SMS credit left on the account. Free. Every recipient of a sent SMS uses one credit per part.';

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
