/** Shared by the tests of Virtual Number → Tag: the node run on the tag resource against the file's sandbox. */
import type { IDataObject } from 'n8n-workflow';

import { runWorkflow, type RunResult } from '../../../../../dev/harness/engine.mts';
import { sandboxPerFile } from '../../../../../dev/harness/nodeTest.mts';
import { jsons, listSearchOn, refusedBeforeAnyRequest } from '../../vnRun.mts';

/** A sandbox for the tests of the file, and the node run on the tag resource against it. */
export function tagTest() {
	const sandbox = sandboxPerFile();
	const credentials = () => ({
		virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn },
	});
	const run = (parameters: IDataObject, continueOnFail = false) =>
		runWorkflow({
			nodes: [
				{
					name: 'VN',
					type: 'virtualNumber',
					parameters: { resource: 'tag', ...parameters },
					continueOnFail,
				},
			],
			credentials: credentials(),
		});
	const expr = (value: string) => `={{ ${JSON.stringify(value)} }}`;
	const rl = (value: string | number, mode = 'list') => ({
		__rl: true,
		mode,
		value: String(value),
	});
	const requests = (operation?: string) =>
		sandbox.control.requests({ service: 'vn', ...(operation ? { operation } : {}) });
	const tagId = (name: string) => sandbox.control.tags().find((t) => t.tag_name === name)!.tag_id;
	const members = (name: string) =>
		sandbox.control.tags().find((t) => t.tag_name === name)?.members;
	const extra = (...pairs: Array<[string, string]>) => ({
		parameter: pairs.map(([name, value]) => ({ name, value })),
	});

	const ok = (result: RunResult) => jsons(result);

	async function refused(parameters: IDataObject, message: RegExp) {
		return await refusedBeforeAnyRequest(sandbox, () => run(parameters), message);
	}

	const listSearch = listSearchOn(sandbox);

	return {
		sandbox,
		credentials,
		run,
		expr,
		rl,
		requests,
		tagId,
		members,
		extra,
		ok,
		refused,
		listSearch,
	};
}
