import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { builderHints } from '../shared/builderHints';
import { virtualnumApiTest } from '../shared/credentialTests';
import { resourceProperties, routeOperation } from '../shared/router';
import { resourceFields, resources } from './actions/resources';
import { listSearch } from './methods';

export class VirtualNumber implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Virtual Number',
		name: 'virtualNumber',
		icon: {
			light: 'file:../../icons/virtualnum.svg',
			dark: 'file:../../icons/virtualnum.dark.svg',
		},
		group: ['transform'],
		// 1.1 opens on Call Record → Query; version 1 keeps Account → Test Connection (see resourceFields).
		// 1.2: Virtual Number → Update outputs the number as read after the update, with unexpectedChanges;
		// Download Recording waits up to 60 s for a recording not written yet (recordingWait.ts).
		// 1.3: Call Record → Query matches every form of a number (0501234567, 972501234567); Restore
		// Callback URLs' Dry Run also lists the trigger-like URLs it leaves alone, with why.
		version: [1, 1.1, 1.2, 1.3],
		defaultVersion: 1.3,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Manage virtual numbers, place click-to-call calls, query call records, ' +
			'download recordings and manage users, tags, blacklist and voice prompts',
		defaults: { name: 'Virtual Number' },
		usableAsTool: true,
		builderHint: builderHints.virtualNumber,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'virtualnumApi',
				required: true,
				testedBy: 'virtualnumApiTest',
				// Route Incoming Call answers n8n's waiting request: it sends nothing to the service.
				displayOptions: { hide: { operation: ['routeIncomingCall'] } },
			},
		],
		properties: resourceProperties(resourceFields, resources),
	};

	methods = {
		credentialTest: { virtualnumApiTest },
		listSearch,
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await routeOperation.call(this, resources);
	}
}
