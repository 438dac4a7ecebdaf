/**
 * What n8n itself decides, proved in the real server: its Retry On Fail loop around Bulk SMS Send
 * (a batch the service refused before reading it is sent again, none that reached it), the refusal
 * of Click to Call under Retry On Fail, and a redirect answer to the credential Test and to a node
 * (an error naming it; the token and the body never reach the redirect's target).
 */
import type { Sandbox } from '../../sandbox/index.mts';
import type { N8nServer } from '../../harness/n8n/server.mts';
import { runFromPinned, type StoredDetail } from '../../harness/n8n/executions.mts';
import { node, type Check, type Log } from '../../harness/n8n/workflows.mts';

const DESTS = ['0521000001', '0521000002', '0521000003', '0521000004', '0521000005', '0521000006'];

/** A workflow Start → `action`, run from Start's pinned items. */
async function runOnce(
	n8n: N8nServer,
	name: string,
	action: ReturnType<typeof node>,
	items: Array<{ json: Record<string, unknown> }>,
): Promise<StoredDetail | undefined> {
	return await runFromPinned(n8n, {
		name,
		nodes: [node('Start', 'n8n-nodes-base.manualTrigger', 1, {}), action],
		connections: { Start: { main: [[{ node: action.name, type: 'main', index: 0 }]] } },
		pinData: { Start: items },
		settings: { executionOrder: 'v1' },
	});
}

async function retryOnFail(
	n8n: N8nServer,
	sandbox: Sandbox,
	credentials: { vn: string; sms: string },
	check: Check,
): Promise<void> {
	await sendRetried(n8n, sandbox, credentials, check);
	await clickToCallRefusesRetry(n8n, sandbox, credentials, check);
}

/** Send under Retry On Fail: n8n's retry sends the refused batch and the unsent one again, never the first. */
async function sendRetried(
	n8n: N8nServer,
	sandbox: Sandbox,
	credentials: { vn: string; sms: string },
	check: Check,
): Promise<void> {
	sandbox.control.clearRequests();
	const before = sandbox.control.messages().length;
	// Batch 2 of the first try is refused before the service reads it (401): only it and batch 3 may go again.
	sandbox.control.injectFaults({
		kind: 'slow',
		delayMs: 0,
		server: 'sms',
		operation: 'send_sms',
		count: 1,
	});
	sandbox.control.injectFaults({
		kind: 'unauthorized',
		text: 'Token Expired',
		server: 'sms',
		operation: 'send_sms',
		count: 1,
	});
	const send = retriedSend(credentials.sms);
	const sent = await runOnce(
		n8n,
		'e2e: Send under Retry On Fail',
		send,
		DESTS.map((to) => ({ json: { to } })),
	);
	const batches = sandbox.control
		.requests({ service: 'sms', operation: 'send_sms' })
		.map((request) => (request.body as Array<{ dest: string }>).map((m) => m.dest).join('+'));
	const delivered = sandbox.control
		.messages()
		.slice(before)
		.map((message) => message.dest);
	check(
		sent?.status === 'success',
		`Retry On Fail: the Send with a refused second batch succeeded on n8n's retry (${sent?.status ?? 'no execution'})`,
	);
	check(
		batches.join(' | ') ===
			[
				'0521000001+0521000002',
				'0521000003+0521000004',
				'0521000003+0521000004',
				'0521000005+0521000006',
			].join(' | '),
		`Retry On Fail: n8n's retry sent the refused batch again and the one never sent, never the first (${batches.join(' | ')})`,
	);
	check(
		delivered.length === 6 && new Set(delivered).size === 6,
		`Retry On Fail: each of the 6 recipients got one SMS (${delivered.length} delivered)`,
	);
}

/** Click to Call refuses to run under Retry On Fail (a call placed twice rings twice), before any request. */
async function clickToCallRefusesRetry(
	n8n: N8nServer,
	sandbox: Sandbox,
	credentials: { vn: string; sms: string },
	check: Check,
): Promise<void> {
	sandbox.control.clearRequests();
	const call = node(
		'Click to Call',
		'n8n-nodes-virtualnum.virtualNumber',
		1.1,
		{
			resource: 'call',
			operation: 'clickToCall',
			virtualnum: { __rl: true, mode: 'list', value: '0722000100' },
			destination: '0501234567',
		},
		{
			credentials: { virtualnumApi: { id: credentials.vn, name: 'Virtual Number sandbox' } },
			retryOnFail: true,
			maxTries: 3,
		},
	);
	const refused = await runOnce(n8n, 'e2e: Click to Call under Retry On Fail', call, [
		{ json: {} },
	]);
	const calls = sandbox.control.requests({
		service: 'vn',
		operation: 'create_virtualnum_call',
	}).length;
	check(
		refused?.status === 'error' && /Retry On Fail/.test(refused.data) && calls === 0,
		`Retry On Fail: Click to Call refused to run with it on, before any request (${refused?.status ?? 'no execution'}, ${calls} calls placed)`,
	);
}

async function redirects(
	n8n: N8nServer,
	sandbox: Sandbox,
	credentials: { vn: string; sms: string },
	check: Check,
): Promise<void> {
	sandbox.control.clearRequests();
	sandbox.redirectTarget.clear();
	sandbox.control.injectFaults({ kind: 'redirect', status: 307, server: 'sms', count: 1 });
	const tested = await n8n.rest<{ status: string; message: string }>('POST', '/credentials/test', {
		credentials: {
			id: credentials.sms,
			name: 'virtualnumSmsApi',
			type: 'virtualnumSmsApi',
			data: { baseUrl: sandbox.smsUrl, accessToken: sandbox.tokens.sms },
		},
	});
	check(
		tested.status === 'Error' && /redirect/i.test(tested.message),
		`redirects: the SMS credential's Test in n8n reports the 307 as an error (${tested.status}: ${tested.message})`,
	);

	sandbox.control.injectFaults({
		kind: 'redirect',
		status: 307,
		server: 'sms',
		operation: 'send_sms',
		count: 1,
	});
	const send = node(
		'Send SMS',
		'n8n-nodes-virtualnum.bulkSms',
		1,
		{
			resource: 'message',
			operation: 'send',
			sender: { __rl: true, mode: 'list', value: 'VirtualNum' },
			to: '0501234567',
			message: 'Not to another host',
		},
		{ credentials: { virtualnumSmsApi: { id: credentials.sms, name: 'SMS sandbox' } } },
	);
	const run = await runOnce(n8n, 'e2e: Send answered with a redirect', send, [{ json: {} }]);
	check(
		run?.status === 'error' && /redirect \(HTTP 307\)/.test(run.data),
		`redirects: a Send answered with a 307 fails with an error naming it (${run?.status ?? 'no execution'})`,
	);
	const reached = sandbox.redirectTarget.requests();
	check(
		reached.length === 0,
		`redirects: the redirect target received nothing from n8n, no token and no batch (${reached.length} requests)`,
	);
}

export async function retryAndRedirects(
	n8n: N8nServer,
	sandbox: Sandbox,
	credentials: { vn: string; sms: string },
	check: Check,
	log: Log,
): Promise<void> {
	await retryOnFail(n8n, sandbox, credentials, check);
	await redirects(n8n, sandbox, credentials, check);
	sandbox.control.clearFaults();
	log('Retry On Fail and redirects: decided by n8n, checked in n8n');
}

/** Send in batches of 2 under Retry On Fail (3 tries). */
function retriedSend(credentialId: string) {
	return node(
		'Send SMS',
		'n8n-nodes-virtualnum.bulkSms',
		1,
		{
			resource: 'message',
			operation: 'send',
			sender: { __rl: true, mode: 'list', value: 'VirtualNum' },
			to: '={{ $json.to }}',
			message: 'Once only',
			options: { batchSize: 2 },
		},
		{
			credentials: { virtualnumSmsApi: { id: credentialId, name: 'SMS sandbox' } },
			retryOnFail: true,
			maxTries: 3,
			waitBetweenTries: 100,
		},
	);
}
