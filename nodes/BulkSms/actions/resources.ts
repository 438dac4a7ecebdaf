/** The node's resources, in the order of the Resource dropdown. */
import type { INodeProperties } from 'n8n-workflow';

import { resourceField } from '../../shared/router';
import * as credit from './credit';
import * as message from './message';
import * as sender from './sender';

export const resources = { credit, message, sender };

export const resourceFields: INodeProperties[] = [
	resourceField(
		[
			{ name: 'Credit', value: 'credit', description: 'The SMS credit balance of the account' },
			{ name: 'Message', value: 'message', description: 'Text messages, sent in batches' },
			{
				name: 'Sender',
				value: 'sender',
				description: 'Sender names and phone numbers messages are sent from',
			},
		],
		'message',
	),
];
