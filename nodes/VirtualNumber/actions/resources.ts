/** The node's resources, in the order of the Resource dropdown. */
import type { INodePropertyOptions } from 'n8n-workflow';

import * as account from './account';
import * as call from './call';
import * as cdr from './cdr';
import * as offlineConversion from './offlineConversion';
import * as virtualnum from './virtualnum';

export const resources = { account, virtualnum, call, cdr, offlineConversion };

export const resourceOptions: INodePropertyOptions[] = [
	{ name: 'Account', value: 'account', description: 'Check the connection to the service' },
	{ name: 'Call', value: 'call', description: 'Place click-to-call and two-leg calls' },
	{ name: 'Call Record', value: 'cdr', description: 'Query call records, download recordings, add records' },
	{
		name: 'Offline Conversion',
		value: 'offlineConversion',
		description: 'Read and set the advertising conversion value of a call',
	},
	{ name: 'Virtual Number', value: 'virtualnum', description: 'List, allocate, change, release and restore numbers' },
];
