import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { getVirtualnum, recordAsShown, virtualnumLocator } from '../../../shared/virtualnums';
import { readVirtualnum } from '../../helpers/utils';

const properties: INodeProperties[] = [
	virtualnumLocator({ description: 'The number to read (active or suspended)' }),
];

export const option: OperationOption = {
	name: 'Get',
	description: 'Get the settings of one number',
	action: 'Get a virtual number',
};

export const toolDescription =
	'Get one virtual number of the account by its number (active or suspended). Free, changes nothing. ' +
	'Returns virtualnum, description, active_status (1 active, 0 suspended), call_destination_phone (where ' +
	'calls ring), email, extenstion, create_time.';

export { toolOutput } from './toolOutput';

export const description = updateDisplayOptions(
	{ show: { resource: ['virtualnum'], operation: ['get'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const virtualnum = readVirtualnum.call(this, checks);
	const record = await getVirtualnum.call(this, virtualnum, itemIndex);
	return this.helpers.returnJsonArray(recordAsShown(record));
};
