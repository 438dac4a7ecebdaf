/** The trigger round trip in a real n8n: activate, the service calls n8n, n8n runs, deactivate restores. */
import { randomUUID } from 'node:crypto';

import type { Sandbox } from '../../sandbox/index.mts';
import type { N8nServer } from './n8n.mts';

type Check = (condition: unknown, what: string) => void;

const NUMBER = '0722000100';
const FOREIGN_CALLBACK = 'https://crm.example.invalid/calls';

interface ExecutionSummary {
	id: string;
	status: string;
}

export async function triggerRoundTrip(
	n8n: N8nServer,
	sandbox: Sandbox,
	credentialId: string,
	check: Check,
	log: (line: string) => void,
): Promise<void> {
	// A number that already reports its calls elsewhere: deactivation must put that back.
	const before = sandbox.control.virtualnum(NUMBER)!;
	await callVn(sandbox, 'update_virtualnum', {
		virtualnum: NUMBER,
		description: String(before.description),
		call_destination_phone: String(before.call_destination_phone),
		callback_url: FOREIGN_CALLBACK,
		callback_url_option: '2',
	});

	const webhookId = randomUUID();
	const created = await n8n.rest<{ id: string; versionId: string }>('POST', '/workflows', {
		name: 'E2E: call ended',
		active: false,
		settings: { executionOrder: 'v1' },
		connections: {},
		nodes: [
			{
				id: randomUUID(),
				name: 'Call Ended',
				type: 'n8n-nodes-virtualnum.virtualNumberTrigger',
				typeVersion: 1,
				position: [0, 0],
				webhookId,
				parameters: {
					events: ['callEnded'],
					numbers: 'selected',
					virtualnums: { number: [{ virtualnum: { __rl: true, mode: 'list', value: NUMBER } }] },
					existingCallback: 'replace',
				},
				credentials: { virtualnumApi: { id: credentialId, name: 'Virtual Number sandbox' } },
			},
		],
	});
	sandbox.control.clearRequests();
	await n8n.rest('POST', `/workflows/${created.id}/activate`, { versionId: created.versionId });
	// n8n answers the activation before its webhook lifecycle has finished.
	await waitFor(() => sandbox.control.requests({ operation: 'update_virtualnum' }).length > 0);
	const registered = sandbox.control.requests({ operation: 'update_virtualnum' });
	const productionUrl = `${n8n.url}/webhook/${webhookId}/webhook`;
	const sent = registered.map((r) => (r.body as Record<string, string>).callback_url);
	check(
		registered.length === 1 && sent[0] === productionUrl,
		`activation registered n8n's production webhook URL on ${NUMBER} (${sent.join(', ') || 'nothing'})`,
	);
	check(
		sandbox.control.virtualnum(NUMBER)?.callback_url === productionUrl &&
			String(sandbox.control.virtualnum(NUMBER)?.callback_url_option) === '2',
		'the number now calls n8n at call end (callback_url_option 2)',
	);

	const { call, callbacks } = await sandbox.control.placeCall({ virtualnum: NUMBER, caller: '0501234567', answered: true, durationSec: 42 });
	check(
		callbacks.length === 1 && callbacks[0].responseStatus === 200,
		`the sandbox's call-end callback reached n8n (HTTP ${callbacks.map((c) => c.responseStatus).join(', ')})`,
	);
	const execution = await waitForExecution(n8n, created.id);
	check(execution?.status === 'success', `n8n recorded a successful execution of the trigger workflow (${execution?.status ?? 'none'})`);
	if (execution) {
		const detail = await n8n.rest<{ data: string }>('GET', `/executions/${execution.id}`);
		const data = String(detail.data);
		check(
			data.includes('call.ended') && data.includes(String(call.cdr_uniqueid)) && data.includes('0501234567'),
			`the execution holds the normalized call-ended item (event call.ended, call id ${String(call.cdr_uniqueid)}, caller)`,
		);
	}

	await n8n.rest('POST', `/workflows/${created.id}/deactivate`, {});
	await waitFor(() => sandbox.control.virtualnum(NUMBER)?.callback_url !== productionUrl);
	const restored = sandbox.control.virtualnum(NUMBER)!;
	check(
		restored.callback_url === FOREIGN_CALLBACK && String(restored.callback_url_option) === '2',
		`deactivation restored the previous callback URL (${String(restored.callback_url)})`,
	);
	log(`trigger workflow ${created.id}: webhook ${productionUrl}`);
}

async function waitFor(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
}

async function waitForExecution(n8n: N8nServer, workflowId: string): Promise<ExecutionSummary | undefined> {
	const deadline = Date.now() + 60_000;
	while (Date.now() < deadline) {
		const list = await n8n.rest<{ results: ExecutionSummary[] }>(
			'GET',
			`/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`,
		);
		const done = list.results?.find((e) => e.status !== 'running' && e.status !== 'new' && e.status !== 'waiting');
		if (done) return done;
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	return undefined;
}

async function callVn(sandbox: Sandbox, service: string, params: Record<string, string>): Promise<void> {
	const res = await fetch(`${sandbox.vnUrl}/api/?service=${service}&format=json`, {
		method: 'POST',
		headers: { authorization: `Bearer ${sandbox.tokens.vn}`, 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams(params).toString(),
	});
	const answer = (await res.json()) as { status: { code: number; description: string } };
	if (answer.status.code !== 200) throw new Error(`${service}: ${answer.status.code} ${answer.status.description}`);
}
