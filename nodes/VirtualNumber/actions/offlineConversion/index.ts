import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as set from './set.operation';

export { get, set };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['offlineConversion'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get the offline conversion value stored on a call',
				action: 'Get an offline conversion',
			},
			{
				name: 'Set',
				value: 'set',
				description: 'Store the offline conversion value of a call for the advertising platform',
				action: 'Set an offline conversion',
			},
		],
		default: 'get',
	},
	...get.description,
	...set.description,
];
