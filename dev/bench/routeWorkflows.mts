/**
 * What Route Call's bench (routeCall.mts) publishes in n8n: its sides, the same lookup on each, the
 * alternating sides' workflows and their slow twins for the Deadline, and the background campaigns.
 * The sides (SIDES; one entry each, so a way of routing a call is one more entry):
 *
 * - rules: Virtual Number Trigger (Respond With: Using Routing Rules) holding the same table as its
 *   rules (one rule per caller, then every other caller): answered before the run, which still
 *   starts (with the same Look Up, for equal work);
 * - route: Virtual Number Trigger (Call Started, Respond With: A Destination From the Workflow) →
 *   Look Up (Edit Fields: the caller's number → a destination from a small table);
 * - routeNode: Virtual Number Trigger (Respond With: Using a 'Route Incoming Call' Node) → the same
 *   Look Up → Virtual Number → Call → Route Incoming Call, answering from inside the run as Respond
 *   to Webhook does (n8n's responseNode mode); routeNodeAll: the same on All Numbers (the trigger's
 *   parameters then static, which n8n 2.x reads its webhook fields from without its expression
 *   engine), on an account of its own (a number has one callback URL);
 * - respondNode: Webhook (Respond: Using 'Respond to Webhook' Node) → the same Look Up → Respond to
 *   Webhook answering the destination as text;
 * - respondNodeIsolate (diagnostic): the same with one expression in the Webhook's parameters, which
 *   makes n8n give each request an expression isolate as it does for every other trigger;
 * - lastNode (diagnostic): Webhook (Respond: When Last Node Finishes) → the same Look Up: n8n's own
 *   answer from the last node, the mechanism Route Call rides on;
 * - onReceived (diagnostic): Webhook (Respond: Immediately) → the same Look Up: n8n's request
 *   handling alone, answered once the execution is created.
 *
 * The background load (`--load campaign`): 10,000-recipient Bulk SMS campaigns (Webhook → Code →
 * Bulk SMS Send, the Webhook answering when the campaign has ended) one after another in the same n8n.
 */
import { randomUUID } from 'node:crypto';

import type { Sandbox } from '../sandbox/index.mts';
import type { N8nServer } from '../harness/n8n/server.mts';
import { bulkSmsSend, chain, node, waitUntil, type NodeJson } from '../harness/n8n/workflows.mts';
import { credentialIn } from './inN8n.mts';

/** The Deadline of the slow sides (Wait WAIT_SEC s), whose answer must come empty at it. */
export const DEADLINE_SEC = 3;
export const WAIT_SEC = 5;
/** The measured Route Call's Deadline: the most it can be, so answers past 3 s are measured too. */
export const ROUTE_DEADLINE_SEC = 10;
const CAMPAIGN_RECIPIENTS = 10_000;

/** The lookup table: caller → destination; any other caller gets the fallback. */
export const TABLE: Record<string, string> = {
	'0541230001': '0501110001',
	'0541230002': '0501110002',
	'0541230003': '0501110003',
	'0541230004': '0501110004',
};
export const FALLBACK = '0501119999';
export const CALLERS = [...Object.keys(TABLE), '0541239999'];
export const expected = (caller: string) => TABLE[caller] ?? FALLBACK;
export const TRIGGER_NAME = 'Call Started';

/** The lookup table as the trigger's Routing Rules: one rule per caller, then every other caller. */
const RULES = {
	rule: [
		...Object.entries(TABLE).map(([callers, destination]) => ({ callers, destination })),
		{ callers: '', destination: FALLBACK },
	],
};

/** Respond With of the trigger's ways: the last node's item, a Route Incoming Call node, its rules. */
type RespondWith = 'destination' | 'routeNode' | 'rules';

/** A side: either this package's trigger (`trigger`) or n8n's Webhook node (`webhook`), then the same Look Up. */
interface SideSpec {
	key: string;
	name: string;
	trigger?: { respondWith: RespondWith; all?: boolean };
	webhook?: { responseMode: string; respond?: boolean; extra?: Record<string, unknown> };
	/** What a correct answer is for this caller ('' for none). */
	answer?: (caller: string) => string;
	/** How the answer's body gives the destination. */
	read?: (body: string) => string;
}

const SIDES: SideSpec[] = [
	{
		key: 'rules',
		name: "Route Call (the trigger's Routing Rules)",
		trigger: { respondWith: 'rules' },
	},
	{
		key: 'route',
		name: 'Route Call (Virtual Number Trigger)',
		trigger: { respondWith: 'destination' },
	},
	{
		key: 'routeNode',
		name: 'Route Call (Route Incoming Call node)',
		trigger: { respondWith: 'routeNode' },
	},
	{
		key: 'routeNodeAll',
		name: 'Route Call (Route Incoming Call node, All Numbers)',
		trigger: { respondWith: 'routeNode', all: true },
	},
	{
		key: 'respondNode',
		name: 'Webhook + Respond to Webhook',
		webhook: { responseMode: 'responseNode', respond: true },
	},
	{
		key: 'respondNodeIsolate',
		name: 'Webhook (one expression) + Respond to Webhook',
		// n8n 2.40.7 gives every webhook request an expression isolate (N8N_EXPRESSION_ENGINE=vm) except
		// its Webhook node's when no parameter holds an expression: one (an empty IP allow-list) makes
		// the same workflow pay what every other trigger pays.
		webhook: {
			responseMode: 'responseNode',
			respond: true,
			extra: { options: { ipWhitelist: '={{ "" }}' } },
		},
	},
	{
		key: 'lastNode',
		name: 'Webhook, Respond: When Last Node Finishes',
		webhook: { responseMode: 'lastNode', extra: { responseData: 'firstEntryJson' } },
		read: (body) => String((JSON.parse(body) as { destination?: string }).destination),
	},
	{
		key: 'onReceived',
		name: 'Webhook, Respond: Immediately (no destination)',
		webhook: { responseMode: 'onReceived' },
		answer: () => '',
		read: () => '',
	},
];

/** A published side: where its calls go. */
export interface Side extends SideSpec {
	url: string;
	workflowId: string;
	/** The virtual number the calls are made to (cdr_ddi). */
	number: string;
}

/** The same lookup on every side, reading the caller's number where each side's item has it. */
function lookUp(caller: string): NodeJson {
	const value = `={{ ${JSON.stringify(TABLE)}[String(${caller}).replace(/\\D/g, '')] ?? '${FALLBACK}' }}`;
	return node('Look Up', 'n8n-nodes-base.set', 3.4, {
		mode: 'manual',
		includeOtherFields: false,
		assignments: { assignments: [{ id: '1', name: 'destination', type: 'string', value }] },
		options: {},
	});
}

/** The trigger on one number (Selected Numbers, a resource locator), or on All Numbers. */
function routeTrigger(
	number: string | 'all',
	credentialId: string,
	respondWith: RespondWith,
	deadlineSec: number,
) {
	const numbers =
		number === 'all'
			? { numbers: 'all' }
			: {
					numbers: 'selected',
					virtualnums: { number: [{ virtualnum: { __rl: true, mode: 'id', value: number } }] },
				};
	return node(
		TRIGGER_NAME,
		'n8n-nodes-virtualnum.virtualNumberTrigger',
		1.1,
		{
			events: ['callStarted'],
			...numbers,
			// The rules answer before the run: a Deadline has nothing to bound.
			options: {
				respondWith,
				...(respondWith === 'rules' ? { routingRules: RULES } : { routeDeadlineSec: deadlineSec }),
			},
		},
		{
			webhookId: randomUUID(),
			credentials: { virtualnumApi: { id: credentialId, name: 'Virtual Number sandbox' } },
		},
	);
}

/** Virtual Number → Call → Route Incoming Call: the node's way of answering, through sendResponse. */
const routeIncomingCall = () =>
	node('Route Incoming Call', 'n8n-nodes-virtualnum.virtualNumber', 1.2, {
		resource: 'call',
		operation: 'routeIncomingCall',
		destination: '={{ $json.destination }}',
	});

const respond = () =>
	node('Respond to Webhook', 'n8n-nodes-base.respondToWebhook', 1.5, {
		respondWith: 'text',
		responseBody: '={{ $json.destination }}',
		options: {},
	});

async function publish(n8n: N8nServer, workflow: Record<string, unknown>): Promise<string> {
	const created = await n8n.rest<{ id: string; versionId: string }>('POST', '/workflows', workflow);
	await n8n.rest('POST', `/workflows/${created.id}/activate`, { versionId: created.versionId });
	return created.id;
}

/** Where a side publishes: the account (a sandbox and its credential in n8n). */
export interface Account {
	sandbox: Sandbox;
	credentialId: string;
}

/** Publishes a Route Call workflow on a number of its own; its URL is the one registered with the service. */
async function publishTrigger(
	n8n: N8nServer,
	account: Account,
	spec: SideSpec,
	between: NodeJson[] = [],
	deadlineSec = ROUTE_DEADLINE_SEC,
): Promise<Side> {
	const { sandbox, credentialId } = account;
	const { respondWith, all } = spec.trigger!;
	const number = sandbox.control.seed({ numbers: 1 }).numbers![0];
	const trigger = routeTrigger(all ? 'all' : number, credentialId, respondWith, deadlineSec);
	const last = respondWith === 'routeNode' ? [routeIncomingCall()] : [];
	const nodes = [trigger, ...between, lookUp('$json.callerNumber'), ...last];
	const workflowId = await publish(n8n, chain(`Bench: ${spec.name}`, nodes));
	const url = await waitUntil(
		() => sandbox.control.virtualnum(number)?.callback_url || undefined,
		60_000,
		250,
	);
	if (!url) throw new Error(`${spec.name}: the trigger registered no callback URL on ${number}`);
	return { ...spec, url, workflowId, number };
}

/** Publishes n8n's Webhook node answering the same lookup; calls carry `number` as the service's would. */
async function publishWebhook(n8n: N8nServer, spec: SideSpec, number: string): Promise<Side> {
	const { responseMode, respond: responds, extra } = spec.webhook!;
	const path = `bench-${spec.key}`;
	const webhook = node(
		'Webhook',
		'n8n-nodes-base.webhook',
		2.1,
		{ httpMethod: 'POST', path, responseMode, options: {}, ...extra },
		{ webhookId: randomUUID() },
	);
	const nodes = [webhook, lookUp('$json.body.cdr_ani'), ...(responds ? [respond()] : [])];
	const workflowId = await publish(n8n, chain(`Bench: ${spec.name}`, nodes));
	return { ...spec, url: `${n8n.url}/webhook/${path}`, workflowId, number };
}

/**
 * The sides `only` names (every side when undefined), and the ways of the trigger that answer from
 * the workflow with a lookup slower than the Deadline (the rules answer before it).
 */
export async function publishSides(
	n8n: N8nServer,
	shared: Account,
	own: Account,
	only: string[] | undefined,
) {
	const chosen = SIDES.filter((s) => only === undefined || only.includes(s.key));
	const sides: Side[] = [];
	for (const spec of chosen.filter((s) => s.trigger))
		sides.push(await publishTrigger(n8n, spec.trigger!.all ? own : shared, spec));
	// The webhooks' calls carry a number as the service's would: a trigger side's when one is measured.
	const number = sides[0]?.number ?? shared.sandbox.control.seed({ numbers: 1 }).numbers![0];
	for (const spec of chosen.filter((s) => s.webhook))
		sides.push(await publishWebhook(n8n, spec, number));
	const wait = node('Wait', 'n8n-nodes-base.wait', 1.1, {
		resume: 'timeInterval',
		amount: WAIT_SEC,
		unit: 'seconds',
	});
	const deadlines: Side[] = [];
	const slowWays = chosen.filter(
		(s) => s.trigger && !s.trigger.all && s.trigger.respondWith !== 'rules',
	);
	for (const spec of slowWays) {
		const slow = {
			...spec,
			name: `${spec.name}, Wait ${WAIT_SEC} s, Deadline ${DEADLINE_SEC} s`,
			answer: () => '',
		};
		deadlines.push(await publishTrigger(n8n, shared, slow, [wait], DEADLINE_SEC));
	}
	return { sides, deadlines };
}

/** The background campaign's workflow, published: Webhook (answering at the end) → Code → Bulk SMS Send. */
async function publishCampaign(n8n: N8nServer, sandbox: Sandbox): Promise<string> {
	sandbox.control.setCredit(1_000_000_000);
	const sms = await credentialIn(n8n, 'SMS sandbox', 'virtualnumSmsApi', {
		baseUrl: sandbox.smsUrl,
		accessToken: sandbox.tokens.sms,
		accountToken: sandbox.tokens.smsAccount,
	});
	const path = 'bench-campaign';
	const recipients =
		`return Array.from({ length: ${CAMPAIGN_RECIPIENTS} }, (_, i) => ` +
		`({ json: { phone: '05' + String(20000000 + i) } }));`;
	const webhook = node(
		'Webhook',
		'n8n-nodes-base.webhook',
		2.1,
		{ httpMethod: 'POST', path, responseMode: 'lastNode', responseData: 'noData', options: {} },
		{ webhookId: randomUUID() },
	);
	const nodes = [
		webhook,
		node('Recipients', 'n8n-nodes-base.code', 2, { jsCode: recipients }),
		bulkSmsSend(sms),
	];
	await publish(n8n, chain('Bench: background campaign', nodes));
	return `${n8n.url}/webhook/${path}`;
}

/** The background load: campaigns started one after another until `stop()`, which answers their figures. */
export async function backgroundCampaigns(
	n8n: N8nServer,
	sandbox: Sandbox,
	log: (line: string) => void,
) {
	const url = await publishCampaign(n8n, sandbox);
	const campaign = async () => {
		const res = await fetch(url, { method: 'POST' });
		await res.arrayBuffer();
		return res.status;
	};
	// n8n may answer 404 for a moment after the activation: the first campaign waits for its webhook.
	if ((await waitUntil(async () => (await campaign()) === 200 || undefined, 30_000, 500)) !== true)
		throw new Error('background campaign: its webhook never answered 200');
	let running = true;
	const ended: number[] = [];
	const failures: string[] = [];
	const loop = (async () => {
		while (running) {
			const from = Date.now();
			const status = await campaign().catch((error: unknown) => String(error));
			if (status === 200) ended.push(Date.now() - from);
			else failures.push(String(status));
		}
	})();
	return {
		stop: async () => {
			running = false;
			await loop;
			if (failures.length > 0) log(`background campaigns that failed: ${failures.join(', ')}`);
			const figures = { campaignsEnded: ended.length, campaignMs: ended, failed: failures.length };
			return { recipients: CAMPAIGN_RECIPIENTS, ...figures };
		},
	};
}
