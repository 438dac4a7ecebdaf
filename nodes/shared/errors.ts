import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/** Keeps n8n errors as they are (with their HTTP context) and wraps anything else, naming the item. */
export function asNodeError(node: INode, error: unknown, itemIndex?: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error instanceof Error ? error : String(error), { itemIndex });
}

/** The fields of an error item under Continue On Fail. */
export function errorItemJson(error: unknown): { error: string; errorDescription?: string } {
	const { message, description } = error as { message?: string; description?: string | null };
	return {
		error: message ?? String(error),
		...(description ? { errorDescription: description } : {}),
	};
}
