/**
 * On Error → Continue (using error output) in a real n8n: a Bulk SMS Send with one good, one bad and
 * one more good recipient. n8n (WorkflowExecute.handleNodeErrorOutput) must put the bad item on the
 * node's error output, so the error branch runs with it and the success branch with the two sent.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';

import type { Sandbox } from '../../sandbox/index.mts';
import type { N8nServer } from '../../harness/n8n/server.mts';
import { ROOT_DIR } from '../../harness/n8n/install.mts';
import { runFromPinned } from '../../harness/n8n/executions.mts';
import { node, type Check, type Log } from '../../harness/n8n/workflows.mts';

interface RunItem {
	json: Record<string, unknown>;
	pairedItem?: { item: number } | Array<{ item: number }>;
}
interface TaskData {
	data?: { main?: Array<RunItem[] | null> };
}
interface StoredRun {
	resultData: { runData: Record<string, TaskData[]>; error?: { message?: string } };
}

/** n8n stores run data in the "flatted" form; its own copy of flatted reads it. */
const flatted = createRequire(join(ROOT_DIR, 'dev', 'e2e', 'package.json'))('flatted') as {
	parse(text: string): unknown;
};

const RECIPIENTS = ['0501234567', 'not a phone', '0527654321'];

function errorBranchWorkflow(
	smsCredentialId: string,
): { pinData: Record<string, unknown[]> } & Record<string, unknown> {
	const send = node(
		'Send SMS',
		'n8n-nodes-virtualnum.bulkSms',
		1,
		{
			resource: 'message',
			operation: 'send',
			sender: { __rl: true, mode: 'list', value: 'VirtualNum' },
			to: '={{ $json.phone }}',
			message: 'Your order has shipped',
			options: {},
		},
		{
			credentials: { virtualnumSmsApi: { id: smsCredentialId, name: 'SMS sandbox' } },
			onError: 'continueErrorOutput',
		},
	);
	return {
		name: 'e2e: error output of Bulk SMS',
		nodes: [
			node('Start', 'n8n-nodes-base.manualTrigger', 1, {}),
			send,
			node('Sent', 'n8n-nodes-base.noOp', 1, {}),
			node('Failed', 'n8n-nodes-base.noOp', 1, {}),
		],
		connections: {
			Start: { main: [[{ node: 'Send SMS', type: 'main', index: 0 }]] },
			'Send SMS': {
				main: [
					[{ node: 'Sent', type: 'main', index: 0 }],
					[{ node: 'Failed', type: 'main', index: 0 }],
				],
			},
		},
		// The manual run starts from the trigger's pinned items, as a user's Execute Workflow does.
		pinData: { Start: RECIPIENTS.map((phone) => ({ json: { phone } })) },
		settings: { executionOrder: 'v1' },
	};
}

/** The items a node output on its first run, by output. */
function outputs(run: StoredRun, name: string): RunItem[][] {
	return (run.resultData.runData[name]?.[0]?.data?.main ?? []).map((items) => items ?? []);
}

export async function errorBranchRuns(
	n8n: N8nServer,
	sandbox: Sandbox,
	smsCredentialId: string,
	check: Check,
	log: Log,
): Promise<void> {
	sandbox.control.clearRequests();
	const execution = await runFromPinned(n8n, errorBranchWorkflow(smsCredentialId));
	const run = execution ? (flatted.parse(execution.data) as StoredRun) : undefined;
	check(
		execution?.status === 'success',
		`error output: the workflow ran to the end (${execution?.status ?? 'no execution'}${run?.resultData.error?.message ? `: ${run.resultData.error.message}` : ''})`,
	);
	if (!run) return;

	const [success = [], failed = []] = outputs(run, 'Send SMS');
	check(
		success.length === 2 && failed.length === 1,
		`error output: Send put 2 items on its success output and 1 on its error output (${success.length}, ${failed.length})`,
	);
	const error = failed[0]?.json ?? {};
	const paired = failed[0]?.pairedItem;
	check(
		/^To: /.test(String(error.error)) && JSON.stringify(paired) === JSON.stringify({ item: 1 }),
		`error output: the failed item names the field and is paired to input item 1 (${String(error.error)}; pairedItem ${JSON.stringify(paired)})`,
	);
	const failedBranch = outputs(run, 'Failed')[0] ?? [];
	const sentBranch = outputs(run, 'Sent')[0] ?? [];
	check(
		failedBranch.length === 1 && sentBranch.length === 2,
		`error output: the error branch ran with the failed item and the success branch with the 2 sent (${failedBranch.length}, ${sentBranch.length})`,
	);
	const sent = sandbox.control
		.requests({ operation: 'send_sms' })
		.flatMap((request) => (request.body ?? []) as Array<{ dest: string }>);
	check(
		sent
			.map((message) => message.dest)
			.sort()
			.join(',') === '0501234567,0527654321',
		`error output: the service received the 2 good recipients only (${sent.map((message) => message.dest).join(', ')})`,
	);
	log('error output: the error branch ran in n8n');
}
