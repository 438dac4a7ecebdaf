import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import {
	getVirtualnum,
	settingsAsRead,
	updateVirtualnum,
	virtualnumLocator,
} from '../../../shared/virtualnums';
import { readVirtualnum } from '../../helpers/utils';
import { settingsToParams, updateSettingFields } from './settings';

const properties: INodeProperties[] = [
	virtualnumLocator({ description: 'The number to change' }),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description:
			'Only the fields added here change. The node reads the number first and sends every ' +
			'other setting back as read, so none is lost whether the service changes only the ' +
			'values sent or replaces the whole record.',
		options: updateSettingFields,
	},
];

export const option: OperationOption = {
	name: 'Update',
	description: 'Change settings of a number; only the fields you set change',
	action: 'Update a virtual number',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['virtualnum'], operation: ['update'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const virtualnum = readVirtualnum.call(this, checks);
	const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const changes = settingsToParams(fields, checks);
	if (Object.keys(changes).length === 0) {
		checks.fail('Update Fields', 'has nothing to change: add at least one field with a value');
	}
	const current = await getVirtualnum.call(this, virtualnum, itemIndex);
	const params = { ...settingsAsRead(current), ...changes };
	return this.helpers.returnJsonArray(
		await updateVirtualnum.call(this, virtualnum, params, { itemIndex, current }),
	);
};
