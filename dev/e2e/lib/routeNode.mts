/**
 * Route Call answered from inside the run in a real n8n: the trigger's Respond With "Using a 'Route
 * Incoming Call' Node" (n8n's responseMode responseNode), a Code node looking the caller up, then
 * Virtual Number → Call → Route Incoming Call, which answers through n8n's sendResponse. The
 * sandbox's own call starts are routed to the node's answer; a premium-rate answer is refused by
 * the trigger's Allowed Destinations (the number's own routing); both runs end successfully. Then
 * the same with the trigger on All Numbers, whose response mode n8n 2.x takes from its resolver.
 */
import { randomUUID } from 'node:crypto';

import { startSandbox, type Sandbox } from '../../sandbox/index.mts';
import type { N8nServer } from '../../harness/n8n/server.mts';
import { executionsOf, finished } from '../../harness/n8n/executions.mts';
import { createAndPublish, lookUpNode, routeTriggerNode } from './triggerSafety.mts';
import { waitUntil, type Check, type Log } from '../../harness/n8n/workflows.mts';

const PREMIUM_CALLER = '0547770019';
/** A caller the lookup finds nothing for: the run ends without reaching the node. */
const UNKNOWN_CALLER = '0547770029';

/**
 * The workflow; with `allNumbers`, the trigger on All Numbers (its parameters static, which n8n 2.x
 * reads without its expression engine).
 */
function routeNodeWorkflow(number: string, credentialId: string, allNumbers = false) {
	const code =
		`if ($json.callerNumber === '${UNKNOWN_CALLER}') return [];\n` +
		`return [{ json: { destination: $json.callerNumber === '${PREMIUM_CALLER}' ` +
		`? '1-900-72-1234' : '050-999-7777' } }];`;
	const selected = routeTriggerNode(number, credentialId, 'routeNode');
	const onAll = { events: ['callStarted'], numbers: 'all', options: { respondWith: 'routeNode' } };
	const trigger = allNumbers ? { ...selected, parameters: onAll } : selected;
	const nodes = [
		trigger,
		lookUpNode(code),
		{
			id: randomUUID(),
			name: 'Route Incoming Call',
			type: 'n8n-nodes-virtualnum.virtualNumber',
			typeVersion: 1.2,
			position: [440, 0],
			parameters: {
				resource: 'call',
				operation: 'routeIncomingCall',
				destination: '={{ $json.destination }}',
			},
		},
	];
	const connections = {
		'Virtual Number Trigger': { main: [[{ node: 'Look Up', type: 'main', index: 0 }]] },
		'Look Up': { main: [[{ node: 'Route Incoming Call', type: 'main', index: 0 }]] },
	};
	return { nodes, connections };
}

/** A VIP, a premium-rate answer and a caller the lookup does not know, each checked as the sandbox routed it. */
async function placeCalls(
	sandbox: Sandbox,
	number: string,
	check: Check,
	label = 'route node',
): Promise<void> {
	const first = sandbox.control.routes().length;
	const timed = async (caller: string) => {
		const began = Date.now();
		const { callbacks } = await sandbox.control.placeCall({ virtualnum: number, caller });
		return { ok: callbacks.every((c) => c.responseStatus === 200), ms: Date.now() - began };
	};
	const vip = await timed('0547770012');
	await timed(PREMIUM_CALLER);
	const unknown = await timed(UNKNOWN_CALLER);
	const [routed, premium, none] = sandbox.control.routes().slice(first);
	check(
		vip.ok && routed?.destination === '0509997777',
		`${label}: the sandbox's call start was routed to the node's answer (answer "${routed?.answer}", ${vip.ms} ms)`,
	);
	check(
		premium !== undefined && premium.answer === '' && premium.destination === '',
		`${label}: a premium-rate answer (1-900-72-1234) was refused by Allowed Destinations (answer "${premium?.answer}")`,
	);
	check(
		unknown.ok && none !== undefined && none.answer === '' && unknown.ms < 3000,
		`${label}: a run that ended without reaching the node was answered empty at its end, not at the 3 s Deadline (answer "${none?.answer}", ${unknown.ms} ms)`,
	);
}

/**
 * `n8n`: the REST client, and the URL production webhooks are served at (in queue mode the
 * webhook processor's: the node's answer is relayed there from the worker that ran it).
 */
export async function routeNodeRuns(
	n8n: Pick<N8nServer, 'url' | 'rest'>,
	sandbox: Sandbox,
	credentialId: string,
	check: Check,
	log: Log,
): Promise<void> {
	log("Route Call answered by a Route Incoming Call node (n8n's responseNode mode)");
	const free = sandbox.control
		.virtualnums()
		.filter((record) => record.active_status === 1 && !record.callback_url);
	const number = free.at(-1)?.virtualnum;
	if (number === undefined) return check(false, 'route node: a number without a callback URL');
	const { nodes, connections } = routeNodeWorkflow(number, credentialId);
	const workflow = await createAndPublish(n8n, 'E2E: route by node', nodes, connections);
	try {
		await waitUntil(
			() => sandbox.control.virtualnum(number)?.callback_url?.startsWith(workflow.url) || undefined,
			60_000,
			250,
		);
		await placeCalls(sandbox, number, check);
		const runs = await waitUntil(async () => {
			const list = await executionsOf(n8n, workflow.id);
			return list.length >= 3 && list.every(finished) ? list : undefined;
		}, 60_000);
		check(
			runs !== undefined && runs.every((run) => run.status === 'success'),
			`route node: the three runs ended successfully (${runs?.map((run) => run.status).join(', ') ?? 'none finished'})`,
		);
	} finally {
		await n8n.rest('POST', `/workflows/${workflow.id}/deactivate`, {});
	}
}

/**
 * The same with the trigger on All Numbers, in an account of its own (a second sandbox: a number
 * has one callback URL, and other workflows hold this run's numbers). Its parameters are static, so
 * n8n 2.x takes the response mode from the trigger's resolver rather than its expression: the call
 * is routed only if that resolver says responseNode, as the expression does.
 */
export async function routeNodeAllNumbersRuns(
	n8n: Pick<N8nServer, 'url' | 'rest'>,
	check: Check,
	log: Log,
): Promise<void> {
	log('Route Call by a Route Incoming Call node, the trigger on All Numbers');
	const own = await startSandbox({ log: () => {} });
	const credential = await n8n.rest<{ id: string }>('POST', '/credentials', {
		name: 'Virtual Number sandbox (All Numbers)',
		type: 'virtualnumApi',
		data: { baseUrl: own.vnUrl, accessToken: own.tokens.vn },
	});
	const number = own.control.virtualnums().find((record) => record.active_status === 1)?.virtualnum;
	if (number === undefined) return check(false, 'route node, All Numbers: an active number');
	const { nodes, connections } = routeNodeWorkflow(number, credential.id, true);
	const workflow = await createAndPublish(
		n8n,
		'E2E: route by node, All Numbers',
		nodes,
		connections,
	);
	try {
		await waitUntil(
			() => own.control.virtualnum(number)?.callback_url?.startsWith(workflow.url) || undefined,
			60_000,
			250,
		);
		await placeCalls(own, number, check, 'route node, All Numbers');
	} finally {
		await n8n.rest('POST', `/workflows/${workflow.id}/deactivate`, {});
		await own.close();
	}
}
