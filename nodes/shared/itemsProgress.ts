/**
 * When one item of several fails without Continue On Fail, n8n drops the output of the items that
 * already ran: a call placed or a number changed by them would be invisible. The error then says
 * which items had run (their output in its data) and which did not run.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { NodeError } from './errors';

/** Output items, and items not run, listed in an error's data at most (the rest are counted). */
const LISTED_IN_ERROR = 100;

export function withItemsProgress<T extends NodeError>(
	error: T,
	itemIndex: number,
	itemCount: number,
	output: INodeExecutionData[],
): T {
	if (itemCount < 2) return error;
	const span = (from: number, to: number) => (from === to ? `Item ${from}` : `Items ${from}–${to}`);
	const lines: string[] = [];
	if (itemIndex > 0)
		lines.push(
			`${span(0, itemIndex - 1)} had already run (their output is in the error's data; what they did stands).`,
		);
	if (itemIndex < itemCount - 1) lines.push(`${span(itemIndex + 1, itemCount - 1)} did not run.`);
	error.description = [error.description, ...lines].filter(Boolean).join(' ');
	const byItem = new Map<number, IDataObject[]>();
	let listed = 0;
	for (const item of output) {
		if (listed === LISTED_IN_ERROR) break;
		const paired = item.pairedItem;
		const index =
			typeof paired === 'number' ? paired : Array.isArray(paired) ? paired[0]?.item : paired?.item;
		if (typeof index !== 'number') continue;
		byItem.set(index, [...(byItem.get(index) ?? []), item.json]);
		listed++;
	}
	const notRun = Array.from(
		{ length: Math.min(itemCount - itemIndex - 1, LISTED_IN_ERROR) },
		(_, i) => itemIndex + 1 + i,
	);
	error.context.data = {
		...((error.context.data as IDataObject | undefined) ?? {}),
		itemsDone: [...byItem.entries()].map(([item, json]) => ({ item, json })),
		...(listed < output.length ? { outputItemsNotListed: output.length - listed } : {}),
		itemsNotRun: notRun,
		...(itemCount - itemIndex - 1 > notRun.length
			? { itemsNotRunNotListed: itemCount - itemIndex - 1 - notRun.length }
			: {}),
	};
	return error;
}
