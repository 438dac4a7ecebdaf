/** What both action nodes' routers share: operation lookup and the per-item loop. */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asNodeError, errorItemJson } from './errors';

/** An operation that runs once per input item. */
export type ItemOperation = (this: IExecuteFunctions, itemIndex: number) => Promise<INodeExecutionData[]>;

/** Every operation module exports its fields and `execute`. */
export interface OperationModule {
	description: INodeProperties[];
	execute: ItemOperation;
}

export function findOperation(
	this: IExecuteFunctions,
	resources: Record<string, object>,
	resource: string,
	operation: string,
): OperationModule {
	const group = resources[resource] as Record<string, unknown> | undefined;
	const module = group?.[operation] as OperationModule | undefined;
	if (typeof module?.execute !== 'function') {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not supported`);
	}
	return module;
}

/** Runs `execute` for every item: output paired to its item, Continue On Fail turning failures into error items. */
export async function runPerItem(this: IExecuteFunctions, execute: ItemOperation): Promise<INodeExecutionData[]> {
	const items = this.getInputData();
	const returnData: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const output = await execute.call(this, itemIndex);
			returnData.push(...this.helpers.constructExecutionMetaData(output, { itemData: { item: itemIndex } }));
		} catch (error) {
			if (!this.continueOnFail()) throw asNodeError(this.getNode(), error, itemIndex);
			returnData.push({ json: errorItemJson(error), pairedItem: { item: itemIndex } });
		}
	}
	return returnData;
}
