/** The node's resources, in the order of the Resource dropdown. */
import type { INodePropertyOptions } from 'n8n-workflow';

import * as sender from './sender';

export const resources = { sender };

export const resourceOptions: INodePropertyOptions[] = [
	{ name: 'Sender', value: 'sender', description: 'Sender names and phone numbers messages are sent from' },
];
