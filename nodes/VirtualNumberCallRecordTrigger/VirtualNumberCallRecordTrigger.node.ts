import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { builderHints } from '../shared/builderHints';
import { virtualnumApiTest } from '../shared/credentialTests';
import { properties } from './description';
import { pollCallRecords } from './poll';

export class VirtualNumberCallRecordTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Virtual Number Call Record Trigger',
		name: 'virtualNumberCallRecordTrigger',
		icon: {
			light: 'file:../../icons/virtualnum.svg',
			dark: 'file:../../icons/virtualnum.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		description:
			'Starts the workflow for each new call record of your virtual numbers, read on a schedule (no public URL needed)',
		subtitle: 'New call records',
		defaults: { name: 'Virtual Number Call Record Trigger' },
		polling: true,
		builderHint: builderHints.callRecordTrigger,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'virtualnumApi', required: true, testedBy: 'virtualnumApiTest' }],
		properties,
	};

	methods = { credentialTest: { virtualnumApiTest } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollCallRecords.call(this);
	}
}
