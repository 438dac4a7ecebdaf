/** Shared by the tests of Virtual Number → User: the node run on the user resource against the file's sandbox. */
import type { IDataObject, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { loadPackage, runWorkflow, type RunResult } from '../../../../../dev/harness/engine.mts';
import { sandboxPerFile } from '../../../../../dev/harness/nodeTest.mts';
import { listSearchOn, refusedBeforeAnyRequest } from '../../vnRun.mts';

export const PASSWORD = 'Sup3r-Secret-Pa55';

/**
 * The run as text, without the workflow's own node definitions: n8n keeps the node (its
 * parameters, as the user typed them) in the execution stack and on the error, like any workflow
 * JSON. Everything the node produced — items, error message, description, data — stays in.
 */
export function producedText(result: RunResult): string {
	return (
		JSON.stringify(result.run, (key, value: unknown) =>
			(key === 'node' || key === 'nodes') && value && typeof value === 'object'
				? '[workflow node]'
				: value,
		) + result.logs.join('\n')
	);
}

export async function nodeDescription(): Promise<INodeTypeDescription> {
	const loader = await loadPackage();
	return (loader.getNode('virtualNumber').type as INodeType).description;
}

/** A sandbox for the tests of the file, and the node run on the user resource against it. */
export function userTest() {
	const sandbox = sandboxPerFile();
	const credentials = () => ({
		virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn },
	});
	const run = (
		parameters: IDataObject,
		options: { continueOnFail?: boolean; timezone?: string } = {},
	) =>
		runWorkflow({
			nodes: [
				{
					name: 'VN',
					type: 'virtualNumber',
					parameters: { resource: 'user', ...parameters },
					continueOnFail: options.continueOnFail,
				},
			],
			credentials: credentials(),
			timezone: options.timezone,
		});
	const json = (result: RunResult) => result.items('VN').map((item) => item.json);
	const user = (value: string | number, mode: 'list' | 'id' = 'id') => ({
		__rl: true,
		mode,
		value: String(value),
	});
	const number = (value: string, mode: 'list' | 'id' = 'list') => ({ __rl: true, mode, value });
	/** A value given as an expression: n8n's own editor checks (required, regex) do not see it, the node's checks do. */
	const expr = (value: string) => `={{ ${JSON.stringify(value)} }}`;
	const requests = (operation?: string) =>
		sandbox.control.requests({ service: 'vn', ...(operation ? { operation } : {}) });

	/** Runs a workflow that must fail before any request reaches the service. */
	async function refused(parameters: IDataObject, message: RegExp) {
		return await refusedBeforeAnyRequest(sandbox, () => run(parameters), message);
	}

	const listSearch = listSearchOn(sandbox);

	return { sandbox, credentials, run, json, user, number, expr, requests, refused, listSearch };
}
