import type { INodeProperties } from 'n8n-workflow';

import * as test from './test.operation';

export { test };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['account'] } },
		options: [
			{
				name: 'Test Connection',
				value: 'test',
				description: 'Check that the access token and the IP of this n8n server are accepted',
				action: 'Test the connection',
			},
		],
		default: 'test',
	},
	...test.description,
];
