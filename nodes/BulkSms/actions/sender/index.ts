import type { INodeProperties } from 'n8n-workflow';

import * as list from './list.operation';

export { list };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['sender'] } },
		options: [
			{
				name: 'List',
				value: 'list',
				description: 'List the approved sender names and numbers of the account',
				action: 'List senders',
			},
		],
		default: 'list',
	},
	...list.description,
];
