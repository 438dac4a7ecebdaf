/**
 * The package's workarounds for how n8n itself behaves, in one place: each says what n8n does, why
 * the package works around it, and which n8n versions need it. The package supports n8n 1.x
 * (n8n-workflow 1.83 and later) and 2.x; where a workaround reads n8n's code, the name of the n8n
 * function is given so a reader can check it against a newer n8n.
 *
 * Three rules answer how n8n behaves but are the code they live in, so they stay there and say so:
 * the router refuses an operation that repeats an effect under Retry On Fail (router.ts, n8n reruns
 * the whole node); Send keeps its run between the tries in the node's execution context
 * (BulkSms/actions/message/deliver.ts, WorkflowExecute's retry loop); dates read texts with luxon,
 * not n8n's `tryToParseDateTime` (dates.ts, n8n-workflow 1.83 reads texts in the server's zone).
 */
import type { IExecuteFunctions, INode, INodeExecutionData, NodeExecutionHint } from 'n8n-workflow';
import * as workflow from 'n8n-workflow';

/**
 * Output keys n8n refuses in expressions (`$json.caller` fails with "Cannot access "caller" due to
 * security concerns"): n8n-workflow's own `isSafeObjectProperty` decides (n8n 1.8x and 2.x).
 * n8n-workflow 1.83 has no such check, and its expressions refuse none of these names.
 */
export const n8nAcceptsKey: (key: string) => boolean =
	typeof (workflow as { isSafeObjectProperty?: unknown }).isSafeObjectProperty === 'function'
		? (workflow as unknown as { isSafeObjectProperty: (key: string) => boolean })
				.isSafeObjectProperty
		: () => true;

/**
 * The network code of a failed request, whatever shape n8n's HTTP helper gives the error: Node and
 * axios keep it in `code` or `cause.code` (n8n 2.x), n8n-workflow 1.x's NodeApiError in `httpCode`.
 */
export function networkCodeOf(error: unknown): string {
	const shape = error as
		| { code?: unknown; httpCode?: unknown; cause?: { code?: unknown } }
		| undefined;
	for (const candidate of [shape?.code, shape?.cause?.code, shape?.httpCode]) {
		if (typeof candidate === 'string' && /^E[A-Z_]+$/.test(candidate)) return candidate;
	}
	return '';
}

/**
 * How many tries n8n's Retry On Fail makes: Max Tries, held to 2-5 (WorkflowExecute's retry loop,
 * the same in n8n 1.x and 2.x).
 */
export function retryOnFailTries(node: INode): number {
	return Math.min(5, Math.max(2, node.maxTries || 3));
}

/**
 * Routes an error item to the error output without n8n flattening it. Under "Continue (using error
 * output)" n8n sends an item to the error output when it carries `error`
 * (WorkflowExecute.handleNodeErrorOutput), then copies it with the input item's json merged in. But
 * n8n also replaces the json of every output item that still carries `error` by
 * `{ error: message }` (WorkflowExecute.normalizeNodeErrors, n8n 1.x and 2.x), which would drop the
 * description, the code, the details and the merged input. So `error` is set only under that
 * setting, and not enumerable: n8n sees it when it routes the item, and its copy (a spread, which
 * skips non-enumerable properties) keeps the whole json. Under "Continue (using regular output)"
 * the item carries no `error` and comes out of the success output as it always did.
 */
export function toErrorOutput(node: INode, item: INodeExecutionData, error: Error): void {
	if (node.onError !== 'continueErrorOutput') return;
	Object.defineProperty(item, 'error', {
		value: error,
		enumerable: false,
		writable: true,
		configurable: true,
	});
}

/**
 * Adds a hint to the run: n8n shows it above the node's output. `addExecutionHints` is absent
 * before n8n 1.79 and, in n8n 1.x, when the node runs as an AI agent's tool; then the output alone
 * tells (false is returned).
 */
export function addRunHint(context: IExecuteFunctions, hint: NodeExecutionHint): boolean {
	const add = (context as Partial<Pick<IExecuteFunctions, 'addExecutionHints'>>).addExecutionHints;
	if (typeof add !== 'function') return false;
	add.call(context, hint);
	return true;
}
