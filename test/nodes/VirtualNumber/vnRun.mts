/** Shared by the Virtual Number tests: one node against the sandbox (dev/harness/nodeTest.mts), named VN. */
import type { IDataObject, INodeExecutionData, INodeListSearchResult } from 'n8n-workflow';

import type { RunResult } from '../../../dev/harness/engine.mts';
import { callNodeMethod } from '../../../dev/harness/methods.mts';
import * as nodeTest from '../../../dev/harness/nodeTest.mts';
import type { Sandbox } from '../../../dev/sandbox/index.mts';

export { expr, rl } from '../../../dev/harness/nodeTest.mts';

export const NODE = nodeTest.NODE_NAMES.virtualNumber;

export interface RunOptions extends Omit<nodeTest.NodeRunOptions, 'input' | 'items'> {
	input?: INodeExecutionData[];
}

/** Runs one Virtual Number node with `parameters` against the sandbox. */
export function vnRunner(sandbox: () => Sandbox) {
	const run = nodeTest.nodeRunner('virtualNumber', sandbox);
	return async (
		parameters: Record<string, unknown>,
		options: RunOptions = {},
	): Promise<RunResult> =>
		await run(parameters as IDataObject, { ...options, input: undefined, items: options.input });
}

/** The JSON of the node's output items; fails the test when the workflow failed. */
export const jsons = (result: RunResult): IDataObject[] => nodeTest.jsons(result, NODE);

/** The error of a run that must fail. */
export const failure = (result: RunResult) => nodeTest.failure(result, NODE);

/** Every request the virtual number service received. */
export function vnRequests(sandbox: Sandbox, operation?: string) {
	return sandbox.control.requests({ service: 'vn', ...(operation ? { operation } : {}) });
}

/** Runs `attempt`, which must fail with `message` before any request reaches the virtual number service. */
export async function refusedBeforeAnyRequest(
	sandbox: Sandbox,
	attempt: () => Promise<RunResult>,
	message: RegExp,
): Promise<RunResult> {
	sandbox.control.clearRequests();
	const result = await attempt();
	const error = failure(result);
	if (!message.test(error.message))
		throw new Error(`The error "${error.message}" does not match ${String(message)}`);
	const sent = vnRequests(sandbox);
	if (sent.length > 0)
		throw new Error(
			`No request may reach the service, but ${sent.map((r) => r.operation).join(', ')} did`,
		);
	return result;
}

/**
 * Runs the node with `parameters`, which must fail with `field` (and `rule`, when given) before any
 * request reaches the service; the error.
 */
export function refusedRunner(sandbox: Sandbox, run: ReturnType<typeof vnRunner>) {
	return async (
		parameters: Record<string, unknown>,
		field: RegExp,
		ruleOrOptions: RegExp | RunOptions = {},
	): Promise<NonNullable<RunResult['error']>> => {
		const [rule, options] =
			ruleOrOptions instanceof RegExp ? [ruleOrOptions, {}] : [undefined, ruleOrOptions];
		const error = failure(
			await refusedBeforeAnyRequest(sandbox, () => run(parameters, options), field),
		);
		if (rule && !rule.test(error.message))
			throw new Error(`The error "${error.message}" does not match ${String(rule)}`);
		return error;
	};
}

/** A sandbox for the tests of the file, the node run against it, and a run that must be refused. */
export function vnTest() {
	const sandbox = nodeTest.sandboxPerFile();
	const run = vnRunner(() => sandbox);
	return { sandbox, run, refused: refusedRunner(sandbox, run) };
}

/** The node's list search `method`, called as the editor calls it, against the sandbox. */
export function listSearchOn(sandbox: Sandbox) {
	return (method: string, filter?: string): Promise<INodeListSearchResult> =>
		callNodeMethod<INodeListSearchResult>({
			nodeType: 'virtualNumber',
			kind: 'listSearch',
			method,
			credentials: nodeTest.credentialsFor('virtualNumber', sandbox),
			args: [filter],
		});
}

/** The working-hours pattern of the spec, built independently of the node. */
export function hoursPattern(open: Array<[day: number, from: number, to: number]>): string {
	const hours = Array(168).fill('0');
	for (const [day, from, to] of open)
		for (let h = from; h < to; h++) hours[(day * 24 + h) % 168] = '1';
	return hours.join('');
}
