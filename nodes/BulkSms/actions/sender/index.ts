import type { INodeProperties } from 'n8n-workflow';

import * as addText from './addText.operation';
import * as list from './list.operation';
import * as requestPhoneVerification from './requestPhoneVerification.operation';
import * as verifyPhone from './verifyPhone.operation';

export { addText, list, requestPhoneVerification, verifyPhone };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['sender'] } },
		options: [
			{
				name: 'Add Text Sender',
				value: 'addText',
				description: 'Ask for a sender name (3-11 Latin characters) to be added to the account',
				action: 'Add a text sender',
			},
			{
				name: 'List',
				value: 'list',
				description: 'List the approved sender names and numbers of the account',
				action: 'List senders',
			},
			{
				name: 'Request Phone Verification',
				value: 'requestPhoneVerification',
				description:
					'Step 1 of adding a phone sender: the service sends a 6-digit code to the number',
				action: 'Request phone sender verification',
			},
			{
				name: 'Verify Phone Sender',
				value: 'verifyPhone',
				description: 'Step 2 of adding a phone sender: enter the 6-digit code the number received',
				action: 'Verify a phone sender',
			},
		],
		default: 'list',
	},
	...list.description,
	...addText.description,
	...requestPhoneVerification.description,
	...verifyPhone.description,
];
