import type { INodeProperties } from 'n8n-workflow';

import * as send from './send.operation';

export { send };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['message'] } },
		options: [
			{
				name: 'Send',
				value: 'send',
				description:
					'Send an SMS to one or more numbers per item; all items go out together in batches, now or at a scheduled time',
				action: 'Send an SMS',
			},
		],
		default: 'send',
	},
	...send.description,
];
