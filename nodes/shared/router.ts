/** What both action nodes' routers share: operation lookup and the per-item loop. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, NodeApiError } from 'n8n-workflow';
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
			if (!this.continueOnFail()) throw withItemsProgress(asNodeError(this.getNode(), error, itemIndex), itemIndex, items.length, returnData);
			returnData.push({ json: errorItemJson(error), pairedItem: { item: itemIndex } });
		}
	}
	return returnData;
}

/** Output items, and items not run, listed in an error's data at most (the rest are counted). */
const LISTED_IN_ERROR = 100;

/**
 * When one item of several fails (without Continue On Fail), n8n drops the output of the items
 * that already ran: a call placed or a number changed by them would be invisible. The error says
 * which items had run (their output in its data) and which did not run.
 */
function withItemsProgress<T extends NodeApiError | NodeOperationError>(
	error: T,
	itemIndex: number,
	itemCount: number,
	output: INodeExecutionData[],
): T {
	if (itemCount < 2) return error;
	const span = (from: number, to: number) => (from === to ? `Item ${from}` : `Items ${from}–${to}`);
	const lines: string[] = [];
	if (itemIndex > 0) lines.push(`${span(0, itemIndex - 1)} had already run (their output is in the error's data; what they did stands).`);
	if (itemIndex < itemCount - 1) lines.push(`${span(itemIndex + 1, itemCount - 1)} did not run.`);
	error.description = [error.description, ...lines].filter(Boolean).join(' ');
	const byItem = new Map<number, IDataObject[]>();
	let listed = 0;
	for (const item of output) {
		if (listed === LISTED_IN_ERROR) break;
		const paired = item.pairedItem;
		const index = typeof paired === 'number' ? paired : Array.isArray(paired) ? paired[0]?.item : paired?.item;
		if (typeof index !== 'number') continue;
		byItem.set(index, [...(byItem.get(index) ?? []), item.json]);
		listed++;
	}
	const notRun = Array.from({ length: Math.min(itemCount - itemIndex - 1, LISTED_IN_ERROR) }, (_, i) => itemIndex + 1 + i);
	error.context.data = {
		...((error.context.data as IDataObject | undefined) ?? {}),
		itemsDone: [...byItem.entries()].map(([item, json]) => ({ item, json })),
		...(listed < output.length ? { outputItemsNotListed: output.length - listed } : {}),
		itemsNotRun: notRun,
		...(itemCount - itemIndex - 1 > notRun.length ? { itemsNotRunNotListed: itemCount - itemIndex - 1 - notRun.length } : {}),
	};
	return error;
}
