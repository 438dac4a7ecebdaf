import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { virtualnumLocator } from '../../../shared/virtualnums';
import { readVirtualnum, resultObject, sendWrite } from '../../helpers/utils';

const properties: INodeProperties[] = [
	{
		displayName:
			'Releasing returns the number to the pool: calls to it stop, its per-number ' +
			'blacklist entries usually go, and rates may change. Restore brings it ' +
			'back while nobody else has taken it.',
		name: 'releaseNotice',
		type: 'notice',
		default: '',
	},
	virtualnumLocator({ description: 'The number to release' }),
];

export const option: OperationOption = {
	name: 'Release',
	description: 'Return a number to the pool',
	action: 'Release a virtual number',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['virtualnum'], operation: ['release'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const virtualnum = readVirtualnum.call(this, checks);
	const answer = await sendWrite.call(this, 'release_virtualnum', { virtualnum }, itemIndex);
	const result = resultObject(answer.result);
	return this.helpers.returnJsonArray({ virtualnum, released: true, ...result });
};
