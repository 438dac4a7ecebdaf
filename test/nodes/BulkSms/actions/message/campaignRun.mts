/**
 * What the Campaign tests share: Send's parameters with Campaign options, one run of Bulk SMS
 * through n8n's engine against the sandbox.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	runWorkflow,
	type RunResult,
	type WorkflowNode,
} from '../../../../../dev/harness/engine.mts';
import { credentialsFor, rl } from '../../../../../dev/harness/nodeTest.mts';
import type { Sandbox } from '../../../../../dev/sandbox/index.mts';

export const NODE = 'Bulk SMS';

export interface CampaignSend {
	campaign?: IDataObject;
	options?: IDataObject;
	message?: string;
	to?: string;
}

export function sendParameters({
	campaign = {},
	options = {},
	message = 'Spring sale: 20% off until Sunday',
	to = '={{ $json.to }}',
}: CampaignSend = {}): IDataObject {
	return {
		resource: 'message',
		operation: 'send',
		sender: rl('VirtualNum', 'id'),
		to,
		message,
		options,
		campaign,
	};
}

export interface CampaignRunOptions {
	onError?: WorkflowNode['onError'];
	typeVersion?: number;
	/** The credential's fields beside the sandbox's (e.g. its Service Time Zone). */
	credentials?: IDataObject;
}

/** Runs Send once for `recipients` (one input item each, `{ to }`). */
export async function runCampaign(
	sandbox: Sandbox,
	recipients: string[],
	send: CampaignSend,
	options: CampaignRunOptions = {},
): Promise<RunResult> {
	return await runWorkflow({
		nodes: [
			{
				name: NODE,
				type: 'bulkSms',
				parameters: sendParameters(send),
				onError: options.onError,
				typeVersion: options.typeVersion ?? 1.1,
			},
		],
		input: recipients.map((to) => ({ json: { to } })),
		credentials: credentialsFor('bulkSms', sandbox, options.credentials),
	});
}

/** The messages the sandbox received, in order. */
export function sentMessages(sandbox: Sandbox): IDataObject[] {
	return sandbox.control
		.requests({ operation: 'send_sms' })
		.flatMap((request) => (request.body ?? []) as IDataObject[]);
}
