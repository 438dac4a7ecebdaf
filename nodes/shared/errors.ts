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

import { toErrorOutput } from './n8nCompat';
import { UNAUTHORIZED_CODE } from './statusCodes';

export type NodeError = NodeApiError | NodeOperationError;

/**
 * The one reader of a thrown value's message, whatever was thrown: '' when it carries none. With
 * `description`, an n8n error's description follows (`message — description`), as a log line or
 * another error quotes a failure in full.
 */
export function messageOf(error: unknown, options: { description?: boolean } = {}): string {
	const read = (key: 'message' | 'description'): string => {
		if (key === 'message' && typeof error === 'string') return error;
		try {
			const value = (error as Record<string, unknown> | null | undefined)?.[key];
			return value === undefined || value === null ? '' : String(value);
		} catch {
			return '';
		}
	};
	const message = read('message');
	return options.description ? [message, read('description')].filter(Boolean).join(' — ') : message;
}

/**
 * The status code (virtual number service) or status text (SMS service) the service answered, when
 * the error is a service's refusal: `code` of the error's data, which only service answers set
 * (network failures keep theirs as `networkCode`). The one reader of that field.
 */
export function serviceCodeOf(error: unknown): number | string | undefined {
	const data = (error as { context?: { data?: { code?: unknown } } } | undefined)?.context?.data;
	const code = data?.code;
	if (typeof code === 'number' && Number.isFinite(code)) return code;
	if (typeof code === 'string' && code.trim() !== '')
		return /^\d+$/.test(code.trim()) ? Number(code) : code.trim();
	return undefined;
}

/** Network failures in which the connection was never made (refused, or the host unknown). */
const NEVER_SENT = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'];

/** Whether a network code (as the transport records it in `networkCode`) means no connection was made. */
export function neverConnected(networkCode: unknown): boolean {
	return typeof networkCode === 'string' && NEVER_SENT.includes(networkCode);
}

/**
 * The one list of failures that certainly never reached the service, so that sending the request
 * again cannot do anything twice: the connection was never made, or the service refused the
 * caller (HTTP 401, which both services answer before reading the request). Any other failure may
 * have come after the service took the request.
 */
export function neverReachedService(error: unknown): boolean {
	const failure = error as { httpCode?: unknown; context?: { data?: { networkCode?: unknown } } };
	return (
		neverConnected(failure?.context?.data?.networkCode) ||
		String(failure?.httpCode) === String(UNAUTHORIZED_CODE)
	);
}

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

interface ErrorItemJson extends IDataObject {
	error: string;
	errorDescription?: string;
	errorCode?: number | string;
	errorDetails?: IDataObject;
}

/**
 * The `json` of an error item; `code` and `details` add to what the error itself carries. Also a
 * failure reported inside an item (the Call Record Trigger's `recordingError`).
 */
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
 * The error item of one input item's failure under Continue On Fail, paired to that item, on the
 * error output under "Continue (using error output)" (see toErrorOutput).
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
	toErrorOutput(node, item, nodeError);
	return item;
}

/**
 * When one item of several fails without Continue On Fail, n8n drops the output of the items that
 * already ran: a call placed or a number changed by them would be invisible. The error then says
 * which items had run (their output in its data) and which did not run.
 */
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
