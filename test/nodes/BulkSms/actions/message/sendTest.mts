/** Shared by the tests of Message → Send: its parameters, and Send run against the file's sandbox. */
import assert from 'node:assert/strict';

import type { IDataObject } from 'n8n-workflow';

import { runWorkflow, type RunResult } from '../../../../../dev/harness/engine.mts';
import type { FaultSpec, Sandbox } from '../../../../../dev/sandbox/index.mts';
import {
	credentialsFor,
	NODE_NAMES,
	sandboxPerFile,
} from '../../../../../dev/harness/nodeTest.mts';

export const NODE = NODE_NAMES.bulkSms;

export interface SendParams {
	sender?: string | IDataObject;
	to?: string;
	message?: string;
	options?: IDataObject;
}

export function sendParameters({
	sender = 'VirtualNum',
	to = '={{ $json.to }}',
	message = 'Hello from n8n',
	options = {},
}: SendParams = {}) {
	return {
		resource: 'message',
		operation: 'send',
		sender: typeof sender === 'string' ? { __rl: true, mode: 'id', value: sender } : sender,
		to,
		message,
		options,
	};
}

/** The items the node output, or none when it failed. */
export const outputOf = (result: RunResult) =>
	result.run.data.resultData.runData[NODE]?.[0]?.data?.main?.[0] ?? [];

/** A sender the sandbox's account does not have, for items the service refuses. */
export const UNAPPROVED = 'NotOurs';
export const SENDER_OF_ITEM = `={{ $json.sender ?? 'VirtualNum' }}`;

/** Distinct, valid Israeli mobile numbers. */
export const phone = (i: number) => `9725${String(10000000 + i).padStart(8, '0')}`;

/** A sandbox for the tests of the current file (or `describe`), and Send run against it. */
export function sendTest() {
	const sandbox = sandboxPerFile();
	const credentials = (overrides: IDataObject = {}) =>
		credentialsFor('bulkSms', sandbox, overrides);

	async function send(
		input: IDataObject[],
		params: SendParams = {},
		extra: { continueOnFail?: boolean; timezone?: string; credentials?: IDataObject } = {},
	): Promise<RunResult> {
		return await runWorkflow({
			nodes: [
				{
					name: NODE,
					type: 'bulkSms',
					parameters: sendParameters(params),
					continueOnFail: extra.continueOnFail,
				},
			],
			input: input.map((json) => ({ json })),
			credentials: credentials(extra.credentials),
			timezone: extra.timezone,
		});
	}

	return {
		sandbox,
		credentials,
		send,
		sendTo: send,
		sendRequests: () => sandbox.control.requests({ service: 'sms', operation: 'send_sms' }),
		smsRequests: () => sandbox.control.requests({ service: 'sms' }),
		noToken: (result: RunResult) =>
			assert.ok(
				!JSON.stringify(result.run).includes(sandbox.tokens.sms),
				'the access token must not appear in the run data',
			),
	};
}

/** A fault on Send's batch `n` (1-based), `count` times: harmless slow(0) answers for the batches before it. */
export function faultOnBatch(sandbox: Sandbox, n: number, fault: FaultSpec, count = 1): void {
	if (n > 1)
		sandbox.control.injectFaults({
			kind: 'slow',
			delayMs: 0,
			server: 'sms',
			operation: 'send_sms',
			count: n - 1,
		});
	sandbox.control.injectFaults({ ...fault, server: 'sms', operation: 'send_sms', count });
}
