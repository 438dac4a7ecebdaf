import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getAvailable from './getAvailable.operation';
import * as release from './release.operation';
import * as restore from './restore.operation';
import * as update from './update.operation';

export { create, get, getAll, getAvailable, release, restore, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['virtualnum'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Allocate a number from the pool with its settings',
				action: 'Create a virtual number',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get the settings of one number',
				action: 'Get a virtual number',
			},
			{
				name: 'Get Available',
				value: 'getAvailable',
				description: 'List numbers of the pool that can be allocated',
				action: 'Get available virtual numbers',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List the numbers of the account',
				action: 'Get many virtual numbers',
			},
			{
				name: 'Release',
				value: 'release',
				description: 'Return a number to the pool',
				action: 'Release a virtual number',
			},
			{
				name: 'Restore',
				value: 'restore',
				description: 'Take back a released number',
				action: 'Restore a virtual number',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Change settings of a number; only the fields you set change',
				action: 'Update a virtual number',
			},
		],
		default: 'getAll',
	},
	...create.description,
	...get.description,
	...getAll.description,
	...getAvailable.description,
	...release.description,
	...restore.description,
	...update.description,
];
