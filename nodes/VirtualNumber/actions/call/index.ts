import type { INodeProperties } from 'n8n-workflow';

import * as clickToCall from './clickToCall.operation';
import * as createLink from './createLink.operation';
import * as twoLegCall from './twoLegCall.operation';

export { clickToCall, createLink, twoLegCall };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['call'] } },
		options: [
			{
				name: 'Click to Call',
				value: 'clickToCall',
				description: 'Call a phone number and connect it to a virtual number',
				action: 'Place a click to call call',
			},
			{
				name: 'Create Click-to-Call Link',
				value: 'createLink',
				description: 'Create a signed public link (opening it currently places no call)',
				action: 'Create a click to call link',
			},
			{
				name: 'Two-Leg Call',
				value: 'twoLegCall',
				description: 'Call two numbers and connect them, with custom parameters stored on the call',
				action: 'Place a two leg call',
			},
		],
		default: 'clickToCall',
	},
	...clickToCall.description,
	...createLink.description,
	...twoLegCall.description,
];
