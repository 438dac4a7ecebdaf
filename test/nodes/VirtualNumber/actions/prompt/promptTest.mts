/** Shared by the tests of Virtual Number → Voice Prompt: files as a previous node hands them over, and the node run on the prompt resource against the file's sandbox. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';

import type { IBinaryData, IDataObject, INodeExecutionData } from 'n8n-workflow';

import { runWorkflow, type RunResult } from '../../../../../dev/harness/engine.mts';
import { sandboxPerFile } from '../../../../../dev/harness/nodeTest.mts';
import { jsons, listSearchOn, refusedBeforeAnyRequest } from '../../vnRun.mts';

export const MB = 1024 * 1024;
export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** An input item carrying a file in a binary field, as a previous node (e.g. Read File) hands it over. */
export function fileItem(
	data: Buffer,
	fileName: string | undefined,
	mimeType: string,
	field = 'data',
): INodeExecutionData {
	const binary: IBinaryData = {
		data: data.toString('base64'),
		mimeType,
		...(fileName !== undefined ? { fileName } : {}),
	};
	return { json: { source: 'previous node' }, binary: { [field]: binary } };
}

/** A sandbox for the tests of the file, and the node run on the prompt resource against it. */
export function promptTest() {
	const sandbox = sandboxPerFile();
	const credentials = () => ({
		virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn },
	});
	const run = (parameters: IDataObject, input?: INodeExecutionData[]) =>
		runWorkflow({
			nodes: [
				{ name: 'VN', type: 'virtualNumber', parameters: { resource: 'prompt', ...parameters } },
			],
			input,
			credentials: credentials(),
		});
	const expr = (value: string) => `={{ ${JSON.stringify(value)} }}`;
	const rl = (value: string, mode = 'list') => ({ __rl: true, mode, value });
	const requests = (operation?: string) =>
		sandbox.control.requests({ service: 'vn', ...(operation ? { operation } : {}) });
	const binaryOf = (result: RunResult, field = 'data') => {
		const binary = result.items('VN')[0].binary?.[field];
		assert.ok(binary, `the item has the binary field ${field}`);
		return { binary, bytes: Buffer.from(binary.data, 'base64') };
	};

	const ok = (result: RunResult) => jsons(result);

	async function refused(
		parameters: IDataObject,
		input: INodeExecutionData[] | undefined,
		message: RegExp,
	) {
		return await refusedBeforeAnyRequest(sandbox, () => run(parameters, input), message);
	}

	const listSearch = listSearchOn(sandbox);

	return { sandbox, credentials, run, expr, rl, requests, binaryOf, ok, refused, listSearch };
}
