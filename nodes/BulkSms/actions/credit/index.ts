import type { INodeProperties } from 'n8n-workflow';

import * as getBalance from './getBalance.operation';

export { getBalance };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['credit'] } },
		options: [
			{
				name: 'Get Balance',
				value: 'getBalance',
				description:
					'Read the SMS credit left on the account (every recipient of a message uses credit)',
				action: 'Get the credit balance',
			},
		],
		default: 'getBalance',
	},
	...getBalance.description,
];
