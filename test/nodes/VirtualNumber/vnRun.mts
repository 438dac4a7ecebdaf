/** Shared by the Virtual Number tests of numbers, calls, call records and conversions: one node against the sandbox. */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { runWorkflow, type RunResult } from '../../../dev/harness/engine.mts';
import type { Sandbox } from '../../../dev/sandbox/index.mts';

export const NODE = 'VN';

export interface RunOptions {
	input?: INodeExecutionData[];
	continueOnFail?: boolean;
	timezone?: string;
	/** The node's version (1 when not given: the version saved workflows have). */
	typeVersion?: number;
}

/** Runs one Virtual Number node with `parameters` against the sandbox. */
export function vnRunner(sandbox: () => Sandbox) {
	return async (
		parameters: Record<string, unknown>,
		options: RunOptions = {},
	): Promise<RunResult> =>
		await runWorkflow({
			nodes: [
				{
					name: NODE,
					type: 'virtualNumber',
					typeVersion: options.typeVersion,
					parameters: parameters as IDataObject,
					continueOnFail: options.continueOnFail,
				},
			],
			input: options.input,
			timezone: options.timezone,
			credentials: {
				virtualnumApi: { baseUrl: sandbox().vnUrl, accessToken: sandbox().tokens.vn },
			},
		});
}

/** A resource-locator value. */
export const rl = (value: string, mode: 'list' | 'id' = 'list') => ({ __rl: true, mode, value });

/** The JSON of the node's output items; fails the test when the workflow failed. */
export function jsons(result: RunResult): IDataObject[] {
	if (result.error)
		throw new Error(
			`The workflow failed: ${result.error.message} — ${result.error.description ?? ''}`,
		);
	return result.items(NODE).map((item) => item.json);
}

/** The error of a run that must fail. */
export function failure(result: RunResult): NonNullable<RunResult['error']> {
	if (!result.error)
		throw new Error(
			`The workflow should have failed but output ${JSON.stringify(result.items(NODE).map((i) => i.json)).slice(0, 300)}`,
		);
	return result.error;
}

/** Every request the virtual number service received. */
export function vnRequests(sandbox: Sandbox, operation?: string) {
	return sandbox.control.requests({ service: 'vn', ...(operation ? { operation } : {}) });
}

/** An expression giving `value` at run time (as when it comes from an earlier node), past n8n's own parameter checks. */
export const expr = (value: unknown) => `={{ ${JSON.stringify(value)} }}`;

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
