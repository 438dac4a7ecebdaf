/** Shared by the tests of Virtual Number → Blacklist: the node run on the blacklist resource against the file's sandbox. */
import type { IDataObject } from 'n8n-workflow';

import { runWorkflow, type RunResult } from '../../../../../dev/harness/engine.mts';
import { sandboxPerFile } from '../../../../../dev/harness/nodeTest.mts';
import { jsons, refusedBeforeAnyRequest } from '../../vnRun.mts';

/** A sandbox for the tests of the file, and the node run on the blacklist resource against it. */
export function blacklistTest() {
	const sandbox = sandboxPerFile();
	const run = (parameters: IDataObject) =>
		runWorkflow({
			nodes: [
				{ name: 'VN', type: 'virtualNumber', parameters: { resource: 'blacklist', ...parameters } },
			],
			credentials: { virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn } },
		});
	const expr = (value: string) => `={{ ${JSON.stringify(value)} }}`;
	const rl = (value: string, mode = 'list') => ({ __rl: true, mode, value });
	const requests = (operation?: string) =>
		sandbox.control.requests({ service: 'vn', ...(operation ? { operation } : {}) });
	// Seeded: 0501111111 and 0777777777 global, 0502222222 bound to the first number.
	const BOUND_TO = '0722000100';

	const ok = (result: RunResult) => jsons(result);
	/** The hints n8n keeps in the run data of the node's run (shown above its output). */
	const hintsOf = (result: RunResult) => result.run.data.resultData.runData.VN[0].hints ?? [];

	async function refused(parameters: IDataObject, message: RegExp) {
		return await refusedBeforeAnyRequest(sandbox, () => run(parameters), message);
	}

	return { sandbox, run, expr, rl, requests, BOUND_TO, ok, hintsOf, refused };
}
