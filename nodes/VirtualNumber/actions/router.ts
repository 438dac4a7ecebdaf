import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { routeOperation } from '../../shared/router';
import { resources } from './resources';

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await routeOperation.call(this, resources);
}
