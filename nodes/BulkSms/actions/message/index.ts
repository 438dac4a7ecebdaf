import type { INodeProperties } from 'n8n-workflow';

import * as send from './send.operation';
import * as sendAndWait from './sendAndWait.operation';

export { send, sendAndWait };

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
			{
				name: 'Send and Wait for Response',
				value: 'sendAndWait',
				description:
					'Send one SMS with a link to an answer page, and wait until the recipient approves, declines or answers',
				action: 'Send an SMS and wait for response',
			},
		],
		default: 'send',
	},
	...send.description,
	...sendAndWait.description,
];
