/**
 * The one shape of an error item, for both action nodes and every operation (docs/errors.md):
 *
 *   { json: { error, errorDescription?, errorCode?, errorDetails? }, error?, pairedItem: { item } }
 *
 * `error` is the message, `errorDescription` what to do, `errorCode` the service's status code (or
 * status text) when it gave one, `errorDetails` what the failure was about (the field of an input
 * check, the recipient and sender of an SMS, …).
 */
import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { serviceCodeOf } from './transport/http';

export type NodeError = NodeApiError | NodeOperationError;

/** Keeps n8n errors as they are (with their HTTP context) and wraps anything else, naming the item. */
export function asNodeError(node: INode, error: unknown, itemIndex?: number): NodeError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error instanceof Error ? error : String(error), {
		itemIndex,
	});
}

/** Where an error keeps what its failure was about, until it becomes an error item's `errorDetails`. */
const DETAILS_KEY = 'errorDetails';

/** Records what a failure was about (e.g. `{ field: 'Phone Number' }`), shown as the item's `errorDetails`. */
export function withErrorDetails<T extends NodeError>(error: T, details: IDataObject): T {
	const before = (error.context[DETAILS_KEY] as IDataObject | undefined) ?? {};
	error.context[DETAILS_KEY] = { ...before, ...details };
	return error;
}

export interface ErrorItemJson extends IDataObject {
	error: string;
	errorDescription?: string;
	errorCode?: number | string;
	errorDetails?: IDataObject;
}

/** The `json` of an error item; `code` and `details` add to what the error itself carries. */
export function errorItemJson(
	error: unknown,
	extra: { code?: number | string; details?: IDataObject } = {},
): ErrorItemJson {
	const { message, description } = error as { message?: string; description?: string | null };
	const code = extra.code ?? serviceCodeOf(error);
	const carried = (error as { context?: IDataObject }).context?.[DETAILS_KEY] as
		| IDataObject
		| undefined;
	const details = { ...(carried ?? {}), ...(extra.details ?? {}) };
	return {
		error: message ?? String(error),
		...(description ? { errorDescription: description } : {}),
		...(code !== undefined && code !== '' ? { errorCode: code } : {}),
		...(Object.keys(details).length > 0 ? { errorDetails: details } : {}),
	};
}

/**
 * The error item of one input item's failure under Continue On Fail, paired to that item.
 *
 * Under "Continue (using error output)" n8n sends an item to the error output when it carries
 * `error` (WorkflowExecute.handleNodeErrorOutput), then copies it with the input item's json
 * merged in. But n8n also replaces the json of every output item that still carries `error` by
 * `{ error: message }` (WorkflowExecute.normalizeNodeErrors, n8n 1.x and 2.x), which would drop
 * the description, the code, the details and the merged input. So `error` is set only under that
 * setting, and not enumerable: n8n sees it when it routes the item, and its copy (a spread, which
 * skips non-enumerable properties) keeps the whole json. Under "Continue (using regular output)"
 * the item carries no `error` and comes out of the success output as it always did.
 */
export function errorItem(
	node: INode,
	error: unknown,
	itemIndex: number,
	extra: { code?: number | string; details?: IDataObject } = {},
): INodeExecutionData {
	const nodeError = asNodeError(node, error, itemIndex);
	const item: INodeExecutionData = {
		json: errorItemJson(nodeError, extra),
		pairedItem: { item: itemIndex },
	};
	if (node.onError === 'continueErrorOutput') {
		Object.defineProperty(item, 'error', {
			value: nodeError,
			enumerable: false,
			writable: true,
			configurable: true,
		});
	}
	return item;
}
