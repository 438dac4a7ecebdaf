import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import { checkVirtualnum } from '../../../shared/phones';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { resultObject, sendWrite } from '../../helpers/utils';

const properties: INodeProperties[] = [
	{
		displayName: 'Number to Restore',
		name: 'numberToRestore',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 97235551234',
		description:
			'A number released from this account that nobody has taken since. Restoring ' +
			'a number that is already active fails with code 4043 ("already active").',
	},
];

export const option: OperationOption = {
	name: 'Restore',
	description: 'Take back a released number',
	action: 'Restore a virtual number',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['virtualnum'], operation: ['restore'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const virtualnum = checkVirtualnum(
		checks,
		'Number to Restore',
		this.getNodeParameter('numberToRestore', itemIndex, ''),
	);
	const answer = await sendWrite.call(this, 'restore_virtualnum', { virtualnum }, itemIndex);
	const result = resultObject(answer.result);
	return this.helpers.returnJsonArray({ virtualnum, restored: true, ...result });
};
