import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { findOperation, runPerItem } from '../../shared/router';
import { executeAll as sendMessages } from './message/send.operation';
import { resources } from './resources';

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	// Sending batches the recipients of all items into shared requests, so it is not run per item.
	if (resource === 'message' && operation === 'send') return [await sendMessages.call(this)];
	const { execute } = findOperation.call(this, resources, resource, operation);
	return [await runPerItem.call(this, execute)];
}
