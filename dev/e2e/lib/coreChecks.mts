/**
 * The e2e's core checks, small enough to run on every n8n version users run (dev/e2e/versions.mts):
 * the four node types load, both credentials test green, Bulk SMS → Send and Virtual Number reads run
 * from a manual trigger, and the Virtual Number Trigger's activation → callback → deactivation. Only
 * REST calls n8n 1.x and 2.x both answer (no 2.x publication status).
 */
import { randomUUID } from 'node:crypto';

import { parse } from 'flatted';

import type { Sandbox } from '../../sandbox/index.mts';
import type { N8nServer } from '../../harness/n8n/server.mts';
import { runFromPinned } from '../../harness/n8n/executions.mts';
import { setCallbackAtService } from '../../harness/serviceCalls.mts';
import { createTriggerWorkflow } from './trigger.mts';
import { waitUntil, type Check, type Log } from '../../harness/n8n/workflows.mts';

const PACKAGE = 'n8n-nodes-virtualnum';
const NODE_TYPES = [
	'virtualNumber',
	'bulkSms',
	'virtualNumberTrigger',
	'virtualNumberCallRecordTrigger',
];
/** A number of the sandbox's seeded account the other checks leave alone. */
const NUMBER = '0722000102';

export interface Credentials {
	vn: string;
	sms: string;
}

export async function checkNodeTypes(n8n: N8nServer, check: Check): Promise<void> {
	const types = await n8n.get<Array<{ name: string }>>('/types/nodes.json');
	const names = new Set(types.map((t) => t.name));
	for (const name of NODE_TYPES)
		check(names.has(`${PACKAGE}.${name}`), `node type ${PACKAGE}.${name} is loaded`);
}

/** Creates both credentials on the sandbox and runs n8n's credential test on each. */
export async function createAndTestCredentials(
	n8n: N8nServer,
	sandbox: Sandbox,
	check: Check,
): Promise<Credentials> {
	const vnData = { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn };
	const smsData = {
		baseUrl: sandbox.smsUrl,
		accessToken: sandbox.tokens.sms,
		accountToken: sandbox.tokens.smsAccount,
	};
	const ids: Credentials = { vn: '', sms: '' };
	for (const [key, type, name, data] of [
		['vn', 'virtualnumApi', 'Virtual Number sandbox', vnData],
		['sms', 'virtualnumSmsApi', 'SMS sandbox', smsData],
	] as const) {
		const created = await n8n.rest<{ id: string }>('POST', '/credentials', { name, type, data });
		ids[key] = created.id;
		const result = await n8n.rest<{ status: string; message: string }>(
			'POST',
			'/credentials/test',
			{
				credentials: { id: created.id, name: type, type, data },
			},
		);
		check(result.status === 'OK', `credential test of ${type}: ${result.status} ${result.message}`);
	}
	return ids;
}

function manualWorkflow(
	name: string,
	action: Record<string, unknown>,
): Record<string, unknown> & {
	pinData: Record<string, unknown[]>;
} {
	const start = {
		id: randomUUID(),
		name: 'Start',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	return {
		name,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [start, { id: randomUUID(), position: [240, 0], ...action }],
		connections: { Start: { main: [[{ node: String(action.name), type: 'main', index: 0 }]] } },
		pinData: { Start: [{ json: {} }] },
	};
}

/** How many items a node output in a stored execution (n8n keeps run data in its "flatted" form). */
function outputCount(data: string, node: string): number {
	const run = parse(data) as {
		resultData?: { runData?: Record<string, Array<{ data?: { main?: unknown[][] } }>> };
	};
	return run.resultData?.runData?.[node]?.[0]?.data?.main?.[0]?.length ?? 0;
}

export async function sendAndRead(
	n8n: N8nServer,
	sandbox: Sandbox,
	credentials: Credentials,
	check: Check,
): Promise<void> {
	sandbox.control.clearRequests();
	const sms = { virtualnumSmsApi: { id: credentials.sms, name: 'SMS sandbox' } };
	const send = await runFromPinned(
		n8n,
		manualWorkflow('E2E core: send', {
			name: 'Send',
			type: `${PACKAGE}.bulkSms`,
			typeVersion: 1.1,
			parameters: {
				resource: 'message',
				operation: 'send',
				sender: { __rl: true, mode: 'id', value: 'VirtualNum' },
				to: '0501234567, 052-765-4321',
				message: 'Core check',
			},
			credentials: sms,
		}),
	);
	const sent = sandbox.control.requests({ operation: 'send_sms' });
	const batch = (sent[0]?.body ?? []) as Array<{ dest: string }>;
	check(
		send?.status === 'success' && sent.length === 1 && batch.length === 2,
		`Bulk SMS → Send: one request with both recipients, execution ${send?.status ?? 'missing'}`,
	);

	const vn = { virtualnumApi: { id: credentials.vn, name: 'Virtual Number sandbox' } };
	for (const [label, parameters, expected] of [
		['Virtual Number → Get Many', { resource: 'virtualnum', operation: 'getAll', limit: 3 }, 3],
		['Call Record → Query', { resource: 'cdr', operation: 'query', limit: 3 }, 3],
	] as const) {
		const run = await runFromPinned(
			n8n,
			manualWorkflow(`E2E core: ${label}`, {
				name: 'Read',
				type: `${PACKAGE}.virtualNumber`,
				typeVersion: 1.1,
				parameters,
				credentials: vn,
			}),
		);
		const count = run ? outputCount(run.data, 'Read') : 0;
		check(
			run?.status === 'success' && count === expected,
			`${label}: ${count} items (execution ${run?.status ?? 'missing'})`,
		);
	}
}

/** Activation points the number at n8n, a call-end callback runs the workflow, deactivation puts it back. */
export async function triggerActivation(
	n8n: N8nServer,
	sandbox: Sandbox,
	credentials: Credentials,
	check: Check,
	log: Log,
): Promise<void> {
	// A number that already reports its calls elsewhere: deactivation must put that back.
	const before = 'https://crm.example.invalid/calls';
	await setCallbackAtService(sandbox, NUMBER, before, 2);
	const created = await createTriggerWorkflow(
		n8n,
		'E2E core: call ended',
		{
			events: ['callEnded'],
			numbers: 'selected',
			virtualnums: { number: [{ virtualnum: { __rl: true, mode: 'list', value: NUMBER } }] },
			existingCallback: 'replace',
		},
		credentials.vn,
	);
	await n8n.rest('POST', `/workflows/${created.id}/activate`, { versionId: created.versionId });
	const production = created.productionUrl;
	const registered = await waitUntil(
		() => String(sandbox.control.virtualnum(NUMBER)?.callback_url ?? '').startsWith(production),
		60_000,
		250,
	);
	check(registered, `activation pointed ${NUMBER} at n8n's production webhook URL`);
	if (!registered) return;

	const { callbacks } = await sandbox.control.placeCall({
		virtualnum: NUMBER,
		caller: '0501234567',
		answered: true,
		durationSec: 12,
	});
	const execution = await waitUntil(async () => {
		const list = await n8n.rest<{ results: Array<{ status: string }> }>(
			'GET',
			`/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId: created.id }))}`,
		);
		return list.results?.find((e) => e.status === 'success');
	}, 60_000);
	check(
		callbacks[0]?.responseStatus === 200 && execution,
		`a call-end callback reached n8n (HTTP ${callbacks[0]?.responseStatus ?? 'none'}) and ran the workflow`,
	);

	await n8n.rest('POST', `/workflows/${created.id}/deactivate`, {});
	const restored = await waitUntil(
		() => String(sandbox.control.virtualnum(NUMBER)?.callback_url ?? '') === before,
		30_000,
		250,
	);
	check(restored, `deactivation restored ${NUMBER}'s callback URL ("${before}")`);
	log(`trigger round trip on ${NUMBER} done`);
}
