import type { INodeProperties } from 'n8n-workflow';

import * as add from './add.operation';
import * as getAll from './getAll.operation';
import * as remove from './remove.operation';

export { add, getAll, remove };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['blacklist'] } },
		options: [
			{
				name: 'Add',
				value: 'add',
				description:
					'Block a caller on all numbers or on one virtual number (add_number_to_blacklist)',
				action: 'Add a number to the blacklist',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'Get the blocked callers (get_blacklist)',
				action: 'Get many blacklist entries',
			},
			{
				name: 'Remove',
				value: 'remove',
				description: 'Unblock a caller (remove_number_from_blacklist)',
				action: 'Remove a number from the blacklist',
			},
		],
		default: 'getAll',
	},
	...add.description,
	...getAll.description,
	...remove.description,
];
