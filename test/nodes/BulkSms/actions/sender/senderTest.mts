/** Shared by the tests of Bulk SMS → Sender: the node run on the sender resource against the file's sandbox. */
import assert from 'node:assert/strict';

import type { IDataObject } from 'n8n-workflow';

import type { RunResult } from '../../../../../dev/harness/engine.mts';
import { NODE_NAMES, nodeRunner, sandboxPerFile } from '../../../../../dev/harness/nodeTest.mts';

export const NODE = NODE_NAMES.bulkSms;

/** A sandbox for the tests of the file, and the node run on the sender resource against it. */
export function senderTest() {
	const sandbox = sandboxPerFile();
	const node = nodeRunner('bulkSms', sandbox);
	const run = (
		operation: string,
		parameters: IDataObject,
		input: IDataObject[] = [{}],
		extra: { continueOnFail?: boolean; credentials?: IDataObject } = {},
	): Promise<RunResult> =>
		node({ resource: 'sender', operation, ...parameters }, { input, ...extra });
	const senderRequests = () => sandbox.control.requests({ service: 'sms' });
	const noSecrets = (result: RunResult) => {
		const text = JSON.stringify(result.run);
		assert.ok(
			!text.includes(sandbox.tokens.sms),
			'the access token must not appear in the run data',
		);
	};

	return { sandbox, run, senderRequests, noSecrets };
}
