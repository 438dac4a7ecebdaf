/**
 * Route Call in a real n8n, as the service's calls see it:
 *
 * - `routeRulesRuns`: Respond With "Using Routing Rules" (the trigger answers the call start before
 *   n8n creates the execution): a VIP routed to the direct line, an ordinary caller left to the
 *   number's own routing, a premium-rate destination in the rules refused, the number dialled and
 *   another number of the account refused as destinations (no loops), then, with the opening hours
 *   closed today, the ordinary caller routed to the After-Hours Destination and the VIP still to
 *   the direct line. Each run's trigger item says what was answered (routedTo, routeRefused).
 * - `compressedClientRuns`: for each Respond With (Nothing, A Destination From the Workflow, a
 *   Route Incoming Call node, the routing rules), the sandbox's calls sent with Accept-Encoding gzip
 *   and then br (as Python requests or Node fetch send them, the answer decoded by its
 *   Content-Encoding alone): every call routed as answered. `npm run e2e:queue` runs it too, the
 *   node's answer relayed from a worker to the webhook processor.
 */
import { randomUUID } from 'node:crypto';

import { parse } from 'flatted';
import { DateTime } from 'luxon';

import type { Sandbox } from '../../sandbox/index.mts';
import type { N8nServer } from '../../harness/n8n/server.mts';
import { executionsOf, finished } from '../../harness/n8n/executions.mts';
import { waitUntil, type Check, type Log } from '../../harness/n8n/workflows.mts';
import { createAndPublish, lookUpNode, routeTriggerNode } from './triggerSafety.mts';

type N8n = Pick<N8nServer, 'url' | 'rest'>;

const VIP = '0547770031';
const DIRECT_LINE = '0509997777';
const ORDINARY = '0547770032';
const PREMIUM = '0547770033';
const LOOP = '0547770034';
const ACCOUNT_LOOP = '0547770035';
const AFTER_HOURS_LINE = '0509996666';
const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** A number of the account written as people write it: +972-72-200-0100 for 0722000100. */
const international = (number: string) =>
	`+972-${number.slice(1, 3)}-${number.slice(3, 6)}-${number.slice(6)}`;

/** Active numbers of the account no workflow holds. */
function freeNumbers(sandbox: Sandbox): string[] {
	return sandbox.control
		.virtualnums()
		.filter((record) => record.active_status === 1 && !record.callback_url)
		.map((record) => record.virtualnum);
}

/** The trigger with its rules; `closedToday`: opening hours every day but today (Asia/Jerusalem). */
function rulesTrigger(number: string, other: string, credentialId: string, closedToday: boolean) {
	const today = DAYS[DateTime.now().setZone('Asia/Jerusalem').weekday - 1];
	const trigger = routeTriggerNode(number, credentialId, 'rules');
	const options = {
		respondWith: 'rules',
		routingRules: {
			rule: [
				{ callers: VIP, destination: DIRECT_LINE },
				{ callers: PREMIUM, destination: '1-900-72-1234' },
				{ callers: LOOP, destination: international(number) },
				{ callers: ACCOUNT_LOOP, destination: other },
			],
		},
		...(closedToday
			? {
					openingHours: {
						period: [{ days: DAYS.filter((d) => d !== today), opens: '00:00', closes: '24:00' }],
					},
					afterHoursDestination: AFTER_HOURS_LINE,
				}
			: {}),
	};
	return { ...trigger, parameters: { ...trigger.parameters, options } };
}

/** Places each call and answers what the sandbox routed it to ('' for the number's own routing). */
async function routed(sandbox: Sandbox, number: string, callers: string[]) {
	const first = sandbox.control.routes().length;
	const ms: number[] = [];
	for (const caller of callers) {
		const began = Date.now();
		await sandbox.control.placeCall({ virtualnum: number, caller });
		ms.push(Date.now() - began);
	}
	const routes = sandbox.control.routes().slice(first);
	return { destinations: routes.map((route) => route.destination), ms };
}

interface TriggerItem {
	callerNumber?: string;
	routedTo?: string;
	routeRefused?: string | null;
}

/** The trigger items of a workflow's runs, once `count` have finished. */
async function triggerItems(n8n: N8n, workflowId: string, count: number): Promise<TriggerItem[]> {
	const runs = await waitUntil(async () => {
		const list = await executionsOf(n8n, workflowId);
		return list.length >= count && list.every(finished) ? list : undefined;
	}, 60_000);
	const items: TriggerItem[] = [];
	for (const run of runs ?? []) {
		const detail = await n8n.rest<{ data: string }>('GET', `/executions/${run.id}`);
		const data = parse(detail.data) as {
			resultData: {
				runData: Record<string, Array<{ data: { main: Array<Array<{ json: TriggerItem }>> } }>>;
			};
		};
		const item = data.resultData.runData['Virtual Number Trigger']?.[0]?.data.main[0][0]?.json;
		if (item) items.push(item);
	}
	return items;
}

/** Publishes the workflow (the trigger, then n8n's No Operation) and waits for the number to point at it. */
async function published(
	n8n: N8n,
	sandbox: Sandbox,
	name: string,
	trigger: Record<string, unknown>,
	number: string,
) {
	const after = {
		id: randomUUID(),
		name: 'Log',
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [220, 0],
		parameters: {},
	};
	const connections = {
		'Virtual Number Trigger': { main: [[{ node: 'Log', type: 'main', index: 0 }]] },
	};
	const workflow = await createAndPublish(n8n, name, [trigger, after], connections);
	await waitUntil(
		() => sandbox.control.virtualnum(number)?.callback_url?.startsWith(workflow.url) || undefined,
		60_000,
		250,
	);
	return workflow;
}

export async function routeRulesRuns(
	n8n: N8n,
	sandbox: Sandbox,
	credentialId: string,
	check: Check,
	log: Log,
): Promise<void> {
	log("Route Call by the trigger's routing rules (answered before the run)");
	const [number, other] = freeNumbers(sandbox).slice(-2);
	if (other === undefined) return check(false, 'route rules: two numbers without a callback URL');
	const open = await published(
		n8n,
		sandbox,
		'E2E: route by rules',
		rulesTrigger(number, other, credentialId, false),
		number,
	);
	try {
		const callers = [VIP, ORDINARY, PREMIUM, LOOP, ACCOUNT_LOOP];
		const { destinations, ms } = await routed(sandbox, number, callers);
		check(
			destinations.join() === [DIRECT_LINE, '', '', '', ''].join(),
			`route rules: VIP to the direct line; an ordinary caller, a premium-rate destination (1-900), the number dialled (${international(number)}) and another number of the account (${other}) left to the number's own routing (routes ${JSON.stringify(destinations)}, ${ms.join('/')} ms)`,
		);
		const items = await triggerItems(n8n, open.id, callers.length);
		const byCaller = new Map(items.map((item) => [item.callerNumber, item]));
		check(
			byCaller.get(VIP)?.routedTo === DIRECT_LINE &&
				/Allowed Destinations/.test(String(byCaller.get(PREMIUM)?.routeRefused)) &&
				/virtual number that was dialled/.test(String(byCaller.get(LOOP)?.routeRefused)) &&
				/virtual number of this account/.test(String(byCaller.get(ACCOUNT_LOOP)?.routeRefused)) &&
				byCaller.get(ORDINARY)?.routeRefused === null,
			`route rules: every run started with what was answered (${JSON.stringify(items.map((i) => [i.callerNumber, i.routedTo, i.routeRefused]))})`,
		);
	} finally {
		await n8n.rest('POST', `/workflows/${open.id}/deactivate`, {});
	}
	const closed = await published(
		n8n,
		sandbox,
		'E2E: route by rules, after hours',
		rulesTrigger(number, other, credentialId, true),
		number,
	);
	try {
		const { destinations } = await routed(sandbox, number, [ORDINARY, VIP]);
		check(
			destinations.join() === [AFTER_HOURS_LINE, DIRECT_LINE].join(),
			`route rules after hours: an ordinary caller to the After-Hours Destination, the VIP still to the direct line (routes ${JSON.stringify(destinations)})`,
		);
	} finally {
		await n8n.rest('POST', `/workflows/${closed.id}/deactivate`, {});
	}
}

/** The trigger answering as `respondWith` says, and what follows it (the lookup, a Route Incoming Call node). */
function compressedWorkflow(number: string, credentialId: string, respondWith: string) {
	const trigger = routeTriggerNode(number, credentialId, respondWith);
	const options =
		respondWith === 'rules'
			? { respondWith, routingRules: { rule: [{ callers: VIP, destination: DIRECT_LINE }] } }
			: { respondWith };
	const code = `return [{ json: { destination: $json.callerNumber === '${VIP}' ? '${DIRECT_LINE}' : '' } }];`;
	const nodes: Array<Record<string, unknown>> = [
		{ ...trigger, parameters: { ...trigger.parameters, options } },
		lookUpNode(code),
	];
	const connections: Record<string, unknown> = {
		'Virtual Number Trigger': { main: [[{ node: 'Look Up', type: 'main', index: 0 }]] },
	};
	if (respondWith === 'routeNode') {
		nodes.push({
			id: randomUUID(),
			name: 'Route Incoming Call',
			type: 'n8n-nodes-virtualnum.virtualNumber',
			typeVersion: 1.3,
			position: [440, 0],
			parameters: {
				resource: 'call',
				operation: 'routeIncomingCall',
				destination: '={{ $json.destination }}',
			},
		});
		connections['Look Up'] = { main: [[{ node: 'Route Incoming Call', type: 'main', index: 0 }]] };
	}
	return { nodes, connections };
}

/** Every Respond With, its calls sent by a client that asks for gzip, then br: each routed as answered. */
export async function compressedClientRuns(
	n8n: N8n,
	sandbox: Sandbox,
	credentialId: string,
	check: Check,
	log: Log,
): Promise<void> {
	log(
		'Route Call answers a client that asks for compression (Accept-Encoding gzip, br), every Respond With',
	);
	const number = freeNumbers(sandbox).at(-1);
	if (number === undefined)
		return check(false, 'compressed clients: a number without a callback URL');
	for (const respondWith of ['nothing', 'destination', 'routeNode', 'rules']) {
		const { nodes, connections } = compressedWorkflow(number, credentialId, respondWith);
		const workflow = await createAndPublish(
			n8n,
			`E2E: compressed client, ${respondWith}`,
			nodes,
			connections,
		);
		try {
			await waitUntil(
				() =>
					sandbox.control.virtualnum(number)?.callback_url?.startsWith(workflow.url) || undefined,
				60_000,
				250,
			);
			for (const encoding of ['gzip', 'br']) {
				sandbox.control.configure({ callbackAcceptEncoding: encoding });
				const first = sandbox.control.callbacks().length;
				const { destinations } = await routed(sandbox, number, [VIP]);
				const [answer] = sandbox.control.callbacks().slice(first);
				const expected = respondWith === 'nothing' ? '' : DIRECT_LINE;
				check(
					answer?.responseStatus === 200 && destinations[0] === expected,
					`compressed client, Respond With ${respondWith}, Accept-Encoding ${encoding}: routed to "${destinations[0]}" ` +
						`(answer "${answer?.responseBody}", Content-Encoding ${answer?.responseEncoding ?? 'none'})`,
				);
			}
		} finally {
			sandbox.control.configure({ callbackAcceptEncoding: '' });
			await n8n.rest('POST', `/workflows/${workflow.id}/deactivate`, {});
		}
	}
}
