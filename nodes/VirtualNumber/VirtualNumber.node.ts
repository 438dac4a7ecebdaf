import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { virtualnumApiTest } from '../shared/credentialTests';
import { resourceOptions, resources } from './actions/resources';
import { listSearch } from './methods';
import { router } from './actions/router';

export class VirtualNumber implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Virtual Number',
		name: 'virtualNumber',
		icon: { light: 'file:../../icons/virtualnum.svg', dark: 'file:../../icons/virtualnum.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Manage virtual numbers, place click-to-call calls, query call records, download recordings and manage users, tags, blacklist and voice prompts',
		defaults: { name: 'Virtual Number' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'virtualnumApi', required: true, testedBy: 'virtualnumApiTest' }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: resourceOptions,
				default: 'account',
			},
			...Object.values(resources).flatMap((resource) => resource.description),
		],
	};

	methods = {
		credentialTest: { virtualnumApiTest },
		listSearch,
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
