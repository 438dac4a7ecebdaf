/** The node's resources, in the order of the Resource dropdown. */
import type { INodePropertyOptions } from 'n8n-workflow';

import * as account from './account';

export const resources = { account };

export const resourceOptions: INodePropertyOptions[] = [
	{ name: 'Account', value: 'account', description: 'Check the connection to the service' },
];
