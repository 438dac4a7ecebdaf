import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { virtualnumLocator } from '../../../shared/virtualnums';
import { readVirtualnum } from '../../helpers/utils';
import { additionalParametersField } from './fields';
import { runTagOperation } from './request';

const properties: INodeProperties[] = [
	virtualnumLocator({ description: 'The number whose tags to get' }),
	additionalParametersField,
];

export const option: OperationOption = {
	name: 'Get Tags of Number',
	description: 'Get the tags a virtual number belongs to (view_tags_by_virtualnum)',
	action: 'Get the tags of a number',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['tag'], operation: ['getForNumber'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const virtualnum = readVirtualnum.call(this, checks);
	return this.helpers.returnJsonArray(
		await runTagOperation.call(this, checks, 'view_tags_by_virtualnum', { virtualnum }, 'list'),
	);
};
