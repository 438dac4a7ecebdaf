/**
 * Route Call's answer time in the real n8n 2.40.7, against n8n's own Webhook node answering the
 * same lookup with Respond to Webhook, in one run, the sides alternating:
 *
 * - rules: Virtual Number Trigger (Respond With: Using Routing Rules) holding the same table as its
 *   rules (one rule per caller, then every other caller): answered before the run, which still
 *   starts (with the same Look Up, for equal work);
 * - route: Virtual Number Trigger (Call Started, Respond With: A Destination From the Workflow) →
 *   Look Up (Edit Fields: the caller's number → a destination from a small table);
 * - routeNode: Virtual Number Trigger (Respond With: Using a 'Route Incoming Call' Node) → the same
 *   Look Up → Virtual Number → Call → Route Incoming Call, answering from inside the run as Respond
 *   to Webhook does (n8n's responseNode mode);
 * - respondNode: Webhook (Respond: Using 'Respond to Webhook' Node) → the same Look Up → Respond to
 *   Webhook answering the destination as text;
 * - respondNodeIsolate (diagnostic): the same with one expression in the Webhook's parameters, which
 *   makes n8n give each request an expression isolate as it does for every other trigger;
 * - lastNode (diagnostic): Webhook (Respond: When Last Node Finishes) → the same Look Up: n8n's own
 *   answer from the last node, the mechanism Route Call rides on;
 * - onReceived (diagnostic): Webhook (Respond: Immediately) → the same Look Up: n8n's request
 *   handling alone, answered once the execution is created.
 *
 * Each burst posts N call-start callbacks at once, as the service sends them (POST, JSON body:
 * event, call_uuid, cdr_ddi, cdr_ani, …; a fresh connection each), to the URL each side listens on
 * (the trigger's: the one it registered with the sandbox, its generated secret included); the
 * answer time of each is taken by the client, from sending to the answer's end, and every answer
 * is checked (the caller's destination). Then the deadline: Trigger → Wait 5 s → Look Up (→ Route
 * Incoming Call, for the node's way), whose answer must come empty at the Deadline (3 s, the
 * default), at 1 and 10 concurrent calls; for each
 * routed call, how long n8n took to hand it to the trigger (the item's `receivedAt`). All of it in
 * one n8n per expression engine (`vm`, n8n's default, then `legacy`) and background load (`--load
 * none,campaign`: with `campaign`, 10,000-recipient Bulk SMS campaigns run one after another in the
 * same n8n for the whole measurement). `--sides rules,routeNode,respondNode` measures only those.
 *
 *   npm run build && npx tsx dev/bench/routeCall.mts [--rounds 5] [--levels 1,10,50] [--engines vm,legacy]
 *     [--load none,campaign] [--sides <keys>] [--out results-route.json]
 *   npm run bench -- --route-call [--rounds 5]     (the same)
 *
 * Writes dev/bench/results-route.json (or --out); dev/docs/benchmarks.md has the method and the figures.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { parse } from 'flatted';

import { startSandbox, type Sandbox } from '../sandbox/index.mts';
import { startN8n, type N8nServer } from '../harness/n8n/server.mts';
import { finished } from '../harness/n8n/executions.mts';
import { runRealBench, type RealRun } from './realRun.mts';
import { profileFlags, readCosts, type Windows } from './routeCallProfile.mts';
import { ROOT_DIR } from '../harness/n8n/install.mts';
import { bulkSmsSend, chain, node, waitUntil, type NodeJson } from '../harness/n8n/workflows.mts';

const { values } = parseArgs({
	options: {
		rounds: { type: 'string' },
		levels: { type: 'string' },
		engines: { type: 'string' },
		profile: { type: 'string' },
		load: { type: 'string' },
		sides: { type: 'string' },
		out: { type: 'string' },
	},
});
const ROUNDS = Number(values.rounds ?? 5);
const LEVELS = (values.levels ?? '1,10,50').split(',').map(Number);
/**
 * n8n's expression engines (N8N_EXPRESSION_ENGINE), one n8n each: `vm` (n8n 2.40.7's default) gives
 * every webhook request to a trigger other than its own Webhook node a V8 isolate; `legacy` none.
 */
const ENGINES = (values.engines ?? 'vm,legacy').split(',');
/**
 * n8n's settings of one engine entry: `vm+lazy` sets N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE (an isolate
 * only when an expression needs one), `vm+pool4` N8N_EXPRESSION_ENGINE_POOL_SIZE=4 (default 1).
 */
function engineEnv(entry: string): Record<string, string> {
	const [engine, ...settings] = entry.split('+');
	const env: Record<string, string> = { N8N_EXPRESSION_ENGINE: engine };
	for (const setting of settings) {
		if (setting === 'lazy') env.N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE = 'true';
		else if (/^pool\d+$/.test(setting)) env.N8N_EXPRESSION_ENGINE_POOL_SIZE = setting.slice(4);
		else throw new Error(`--engines: unknown setting "${setting}" in ${entry} (lazy, pool<N>)`);
	}
	return env;
}
/** The background of each n8n: nothing, or 10,000-recipient campaigns one after another. */
const LOADS = (values.load ?? 'none').split(',');
const CAMPAIGN_RECIPIENTS = 10_000;
/** The sides measured (their keys); all of them by default. */
const SIDES = values.sides?.split(',');
const OUT = values.out ?? 'results-route.json';
/**
 * `--profile <dir>`: n8n runs under V8's CPU profiler and each side's bursts are cut out of its
 * profile: n8n's CPU time per call start, and the parts named in PROBES (routeCallProfile.mts).
 */
const PROFILE_DIR = values.profile;
const DEADLINE_SEC = 3;
/** The measured Route Call's Deadline: the most it can be. */
const ROUTE_DEADLINE_SEC = 10;
const DEADLINE_LEVELS = [1, 10];
const WAIT_SEC = 5;
/** The targets: Route Call at most this many times Webhook + Respond to Webhook; the deadline kept within this. */
const TARGET_RATIO = 1.1;
/** The routing rules answer before the run: their p95 at most Webhook + Respond to Webhook's. */
const TARGET_RULES_RATIO = 1.0;
const TARGET_LATE_MS = 100;
const started = Date.now();
const log = (line: string) =>
	console.log(`[bench route ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

/** The lookup table: caller → destination; any other caller gets the fallback. */
const TABLE: Record<string, string> = {
	'0541230001': '0501110001',
	'0541230002': '0501110002',
	'0541230003': '0501110003',
	'0541230004': '0501110004',
};
const FALLBACK = '0501119999';
const CALLERS = [...Object.keys(TABLE), '0541239999'];
const expected = (caller: string) => TABLE[caller] ?? FALLBACK;

const TRIGGER_NAME = 'Call Started';

type SideKey =
	| 'rules'
	| 'route'
	| 'routeNode'
	| 'routeNodeAll'
	| 'respondNode'
	| 'respondNodeIsolate'
	| 'lastNode'
	| 'onReceived';
/** Respond With of the trigger's ways: the last node's item, a Route Incoming Call node, its rules. */
type RespondWith = 'destination' | 'routeNode' | 'rules';

/** The lookup table as the trigger's Routing Rules: one rule per caller, then every other caller. */
const RULES = {
	rule: [
		...Object.entries(TABLE).map(([callers, destination]) => ({ callers, destination })),
		{ callers: '', destination: FALLBACK },
	],
};

interface Side {
	key: SideKey;
	name: string;
	url: string;
	workflowId: string;
	/** The virtual number the calls are made to (cdr_ddi). */
	number: string;
	/** What a correct answer is for this caller ('' for none: Respond Immediately answers no destination). */
	answer: (caller: string) => string;
}

/** The same lookup on both sides, reading the caller's number where each side's item has it. */
function lookUp(caller: string): NodeJson {
	return node('Look Up', 'n8n-nodes-base.set', 3.4, {
		mode: 'manual',
		includeOtherFields: false,
		assignments: {
			assignments: [
				{
					id: '1',
					name: 'destination',
					type: 'string',
					value: `={{ ${JSON.stringify(TABLE)}[String(${caller}).replace(/\\D/g, '')] ?? '${FALLBACK}' }}`,
				},
			],
		},
		options: {},
	});
}

/** The trigger on one number (Selected Numbers, a resource locator), or on All Numbers. */
function routeTrigger(
	number: string | 'all',
	credentialId: string,
	respondWith: RespondWith,
	deadlineSec?: number,
): NodeJson {
	return node(
		TRIGGER_NAME,
		'n8n-nodes-virtualnum.virtualNumberTrigger',
		1.1,
		{
			events: ['callStarted'],
			...(number === 'all'
				? { numbers: 'all' }
				: {
						numbers: 'selected',
						virtualnums: { number: [{ virtualnum: { __rl: true, mode: 'id', value: number } }] },
					}),
			options: {
				respondWith,
				...(deadlineSec === undefined ? {} : { routeDeadlineSec: deadlineSec }),
				...(respondWith === 'rules' ? { routingRules: RULES } : {}),
			},
		},
		{
			webhookId: randomUUID(),
			credentials: { virtualnumApi: { id: credentialId, name: 'Virtual Number sandbox' } },
		},
	);
}

function webhook(
	path: string,
	responseMode: string,
	extra: Record<string, unknown> = {},
): NodeJson {
	return node(
		'Webhook',
		'n8n-nodes-base.webhook',
		2.1,
		{ httpMethod: 'POST', path, responseMode, options: {}, ...extra },
		{ webhookId: randomUUID() },
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

/** Publishes a Route Call workflow on a number of its own; its URL is the one registered with the service. */
async function routeSide(
	n8n: N8nServer,
	sandbox: Sandbox,
	credentialId: string,
	name: string,
	way: { respondWith: RespondWith; between: NodeJson[]; deadlineSec?: number; all?: boolean },
): Promise<{ url: string; workflowId: string; number: string }> {
	const number = sandbox.control.seed({ numbers: 1 }).numbers![0];
	const on = way.all ? 'all' : number;
	const trigger = routeTrigger(on, credentialId, way.respondWith, way.deadlineSec);
	const last = way.respondWith === 'routeNode' ? [routeIncomingCall()] : [];
	const workflowId = await publish(
		n8n,
		chain(name, [trigger, ...way.between, lookUp('$json.callerNumber'), ...last]),
	);
	const url = await waitUntil(
		() => sandbox.control.virtualnum(number)?.callback_url || undefined,
		60_000,
		250,
	);
	if (!url) throw new Error(`${name}: the trigger registered no callback URL on ${number}`);
	return { url, workflowId, number };
}

/** n8n's Webhook node answering the same lookup, in each of its ways (Respond to Webhook first). */
async function webhookSides(n8n: N8nServer, number: string): Promise<Side[]> {
	const webhookSide = async (key: SideKey, name: string, nodes: NodeJson[]) => ({
		key,
		name,
		url: `${n8n.url}/webhook/${String(nodes[0].parameters.path)}`,
		workflowId: await publish(n8n, chain(`Bench: ${name}`, nodes)),
		number,
		answer: key === 'onReceived' ? () => '' : expected,
	});
	const caller = '$json.body.cdr_ani';
	return [
		await webhookSide('respondNode', 'Webhook + Respond to Webhook', [
			webhook('bench-respond-node', 'responseNode'),
			lookUp(caller),
			respond(),
		]),
		// n8n 2.40.7 gives every webhook request an expression isolate (N8N_EXPRESSION_ENGINE=vm, the
		// default) except its Webhook node's when no parameter holds an expression: one expression
		// (an empty IP allow-list) makes the same workflow pay what every other trigger pays.
		await webhookSide('respondNodeIsolate', 'Webhook (one expression) + Respond to Webhook', [
			webhook('bench-respond-node-isolate', 'responseNode', {
				options: { ipWhitelist: '={{ "" }}' },
			}),
			lookUp(caller),
			respond(),
		]),
		await webhookSide('lastNode', 'Webhook, Respond: When Last Node Finishes', [
			webhook('bench-last-node', 'lastNode', { responseData: 'firstEntryJson' }),
			lookUp(caller),
		]),
		await webhookSide('onReceived', 'Webhook, Respond: Immediately (no destination)', [
			webhook('bench-on-received', 'onReceived'),
			lookUp(caller),
		]),
	];
}

/**
 * Every side. The trigger on All Numbers (its parameters then static, which n8n 2.x reads its
 * webhook fields from without its expression engine) has an account of its own (`own`): a number
 * has one callback URL, and the other triggers hold theirs.
 */
async function publishSides(
	n8n: N8nServer,
	sandbox: Sandbox,
	credentialId: string,
	own: { sandbox: Sandbox; credentialId: string },
): Promise<{ sides: Side[]; deadlines: Side[] }> {
	// The most Deadline allows, so that the answer time is measured also where it passes 3 s.
	const way = (respondWith: RespondWith) => ({
		respondWith,
		between: [],
		deadlineSec: ROUTE_DEADLINE_SEC,
	});
	const route = await routeSide(
		n8n,
		sandbox,
		credentialId,
		'Bench: Route Call',
		way('destination'),
	);
	const byNode = await routeSide(
		n8n,
		sandbox,
		credentialId,
		'Bench: Route Call, Route Incoming Call node',
		way('routeNode'),
	);
	const allNumbers = await routeSide(
		n8n,
		own.sandbox,
		own.credentialId,
		'Bench: Route Call, Route Incoming Call node, All Numbers',
		{ ...way('routeNode'), all: true },
	);
	const rules = await routeSide(n8n, sandbox, credentialId, 'Bench: Route Call, routing rules', {
		respondWith: 'rules',
		between: [],
	});
	const routing = (key: SideKey, name: string, placed: typeof route): Side => ({
		key,
		name: key === 'rules' ? name : `${name}, Deadline ${ROUTE_DEADLINE_SEC} s)`,
		...placed,
		answer: expected,
	});
	const sides: Side[] = [
		routing('rules', "Route Call (the trigger's Routing Rules)", rules),
		routing('route', 'Route Call (Virtual Number Trigger', route),
		routing('routeNode', 'Route Call (Route Incoming Call node', byNode),
		routing('routeNodeAll', 'Route Call (Route Incoming Call node, All Numbers', allNumbers),
		...(await webhookSides(n8n, route.number)),
	];
	const measured = (side: Side) => SIDES === undefined || SIDES.includes(side.key);
	const deadlines = await deadlineSides(n8n, sandbox, credentialId);
	return { sides: sides.filter(measured), deadlines: deadlines.filter(measured) };
}

/** Both ways with a lookup slower than the Deadline: answered empty at the Deadline. */
async function deadlineSides(n8n: N8nServer, sandbox: Sandbox, credentialId: string) {
	const deadlines: Side[] = [];
	for (const respondWith of ['destination', 'routeNode'] as const) {
		const wait = node('Wait', 'n8n-nodes-base.wait', 1.1, {
			resume: 'timeInterval',
			amount: WAIT_SEC,
			unit: 'seconds',
		});
		const slow = await routeSide(n8n, sandbox, credentialId, `Bench: deadline, ${respondWith}`, {
			respondWith,
			between: [wait],
			deadlineSec: DEADLINE_SEC,
		});
		const how = respondWith === 'routeNode' ? 'Route Incoming Call node' : 'last node';
		deadlines.push({
			key: respondWith === 'routeNode' ? 'routeNode' : 'route',
			name: `Route Call (${how}), Wait ${WAIT_SEC} s, Deadline ${DEADLINE_SEC} s`,
			...slow,
			answer: () => '',
		});
	}
	return deadlines;
}

interface Answer {
	ms: number;
	status: number;
	body: string;
	callId: string;
	/** When the client sent it (epoch ms, the same clock as n8n's). */
	sentAt: number;
}

/** One call-start callback as the service sends it (contract profile: POST, JSON), timed by the client. */
function postCallStart(url: string, number: string, caller: string): Promise<Answer> {
	const callId = randomUUID();
	const body = JSON.stringify({
		event: 'call.start',
		call_uuid: callId,
		cdr_ddi: number,
		cdr_ani: caller,
		user_phone: '',
		user_name: 'Bench',
		start_call: new Date().toISOString().slice(0, 19).replace('T', ' '),
	});
	return new Promise((resolve, reject) => {
		const sentAt = Date.now();
		const from = performance.now();
		const req = http.request(
			url,
			{
				method: 'POST',
				agent: false,
				timeout: 30_000,
				headers: {
					'user-agent': 'virtualnum-sandbox/1.0',
					'content-type': 'application/json',
					'content-length': String(Buffer.byteLength(body)),
				},
			},
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (chunk: Buffer) => chunks.push(chunk));
				res.on('end', () =>
					resolve({
						ms: performance.now() - from,
						status: res.statusCode ?? 0,
						body: Buffer.concat(chunks).toString('utf8'),
						callId,
						sentAt,
					}),
				);
				res.on('error', reject);
			},
		);
		req.on('timeout', () => req.destroy(new Error('no answer within 30 s')));
		req.on('error', reject);
		req.end(body);
	});
}

/** The body each side answers with, reduced to the destination (Respond Immediately answers a JSON message). */
function destinationIn(side: Side, body: string): string {
	if (side.key === 'onReceived') return '';
	if (side.key === 'lastNode')
		return String((JSON.parse(body) as { destination?: string }).destination);
	return body.trim();
}

/**
 * Posts `count` call starts at once to the side and waits until its executions have ended: the
 * answer time of each, and how many answers were not the caller's destination.
 */
async function burst(n8n: N8nServer, side: Side, count: number, fired: Map<Side, number>) {
	const callers = Array.from({ length: count }, (_, i) => CALLERS[i % CALLERS.length]);
	const fromUs = Number(process.hrtime.bigint() / 1000n);
	const answers = await Promise.all(callers.map((c) => postCallStart(side.url, side.number, c)));
	const wrong = answers.filter((answer, i) => {
		const got =
			answer.status === 200 ? destinationIn(side, answer.body) : `status ${answer.status}`;
		return got !== side.answer(callers[i]);
	});
	if (wrong.length > 0)
		log(
			`${side.name}: ${wrong.length} of ${count} answers were not the destination ` +
				`(${wrong[0].status} "${wrong[0].body.slice(0, 60)}")`,
		);
	fired.set(side, (fired.get(side) ?? 0) + count);
	await settled(n8n, side, fired.get(side)!);
	windows.push({
		side: `${side.key}@${count}`,
		fromUs,
		toUs: Number(process.hrtime.bigint() / 1000n),
		requests: count,
	});
	const routes = side.key === 'rules' || side.key === 'route' || side.key.startsWith('routeNode');
	const handover = routes ? await handoverTimes(n8n, side, answers) : [];
	return { ms: answers.map((answer) => answer.ms), wrong: wrong.length, handover };
}

/**
 * How long after the client sent each call start the trigger had it (the item's `receivedAt`,
 * taken when n8n calls the trigger's webhook method): n8n's own handling of the request before the
 * trigger sees it, read from n8n's record of each execution.
 */
async function handoverTimes(n8n: N8nServer, side: Side, answers: Answer[]): Promise<number[]> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId: side.workflowId }));
	const list = await n8n.rest<{ results: Array<{ id: string }> }>(
		'GET',
		`/executions?filter=${filter}&limit=${answers.length}`,
	);
	const sent = new Map(answers.map((answer) => [answer.callId, answer.sentAt]));
	const times: number[] = [];
	for (const { id } of list.results) {
		const detail = await n8n.rest<{ data: string }>('GET', `/executions/${id}`);
		const data = parse(detail.data) as {
			resultData: { runData: Record<string, Array<{ data: { main: TriggerItems } }>> };
		};
		const item = data.resultData.runData[TRIGGER_NAME]?.[0]?.data.main[0]?.[0]?.json;
		const at = sent.get(String(item?.callId));
		if (at !== undefined) times.push(Date.parse(String(item?.receivedAt)) - at);
	}
	return times;
}
type TriggerItems = Array<Array<{ json: Record<string, unknown> }>>;

/** Waits until n8n lists every execution fired at the side as ended (nothing lost, nothing running). */
async function settled(n8n: N8nServer, side: Side, total: number): Promise<void> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId: side.workflowId }));
	const done = await waitUntil(
		async () => {
			const list = await n8n.rest<{ count: number; results: Array<{ status: string }> }>(
				'GET',
				`/executions?filter=${filter}&limit=100`,
			);
			return list.count >= total && list.results.every(finished);
		},
		60_000,
		200,
	);
	if (!done) throw new Error(`${side.name}: ${total} executions did not all end within a minute`);
}

interface Figures {
	samples: number;
	medianMs: number;
	p95Ms: number;
	maxMs: number;
}

/** Nearest-rank percentile of the samples. */
function percentile(sorted: number[], p: number): number {
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function figures(samples: number[]): Figures {
	const sorted = [...samples].sort((a, b) => a - b);
	const round = (ms: number) => Math.round(ms);
	return {
		samples: sorted.length,
		medianMs: round(percentile(sorted, 50)),
		p95Ms: round(percentile(sorted, 95)),
		maxMs: round(sorted.at(-1)!),
	};
}

const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;

/** One concurrency level: every side ROUNDS bursts, the order rotating every round. */
async function measureLevel(
	n8n: N8nServer,
	sides: Side[],
	count: number,
	fired: Map<Side, number>,
) {
	const times = new Map<Side, number[]>(sides.map((side) => [side, []]));
	const wrong = new Map<Side, number>();
	const handover: number[] = [];
	for (let round = 0; round < ROUNDS; round++) {
		const order = sides.map((_, i) => sides[(i + round) % sides.length]);
		for (const side of order) {
			const { ms, wrong: missed, handover: taken } = await burst(n8n, side, count, fired);
			handover.push(...taken);
			times.get(side)!.push(...ms);
			wrong.set(side, (wrong.get(side) ?? 0) + missed);
			log(
				`${count} at once, ${side.name}: median ${figures(ms).medianMs} ms, max ${figures(ms).maxMs} ms`,
			);
		}
	}
	const bySide = Object.fromEntries(
		sides.map((side) => [
			side.key,
			{ name: side.name, ...figures(times.get(side)!), wrong: wrong.get(side) ?? 0 },
		]),
	) as Partial<Record<SideKey, Figures & { name: string; wrong: number }>>;
	// A ratio of two sides measured (--sides may leave one out).
	const over = (mine: SideKey, theirs: SideKey) => {
		const [a, b] = [bySide[mine], bySide[theirs]];
		return a && b
			? { median: ratio(a.medianMs, b.medianMs), p95: ratio(a.p95Ms, b.p95Ms) }
			: undefined;
	};
	const byNode = over('routeNode', 'respondNode');
	const rules = over('rules', 'respondNode');
	const routing: SideKey[] = ['rules', 'route', 'routeNode', 'routeNodeAll'];
	return {
		concurrent: count,
		sides: bySide,
		routeHandover: figures(handover),
		rulesOverRespondNode: rules,
		routeOverRespondNode: over('route', 'respondNode'),
		routeNodeOverRespondNode: byNode,
		routeNodeAllOverRespondNode: over('routeNodeAll', 'respondNode'),
		// Both pay n8n's expression isolate per request under `vm`: what is left is the trigger's own.
		routeNodeOverRespondNodeIsolate: over('routeNode', 'respondNodeIsolate'),
		met:
			(!byNode || (byNode.median <= TARGET_RATIO && byNode.p95 <= TARGET_RATIO)) &&
			(!rules || rules.p95 <= TARGET_RULES_RATIO) &&
			routing.every((key) => (bySide[key]?.wrong ?? 0) === 0),
	};
}

/** The deadline: a lookup slower than it, answered empty at the Deadline; how late each answer was. */
async function measureDeadline(n8n: N8nServer, side: Side, fired: Map<Side, number>) {
	const results = [];
	for (const count of DEADLINE_LEVELS) {
		const times: number[] = [];
		let wrong = 0;
		const handover: number[] = [];
		for (let round = 0; round < ROUNDS; round++) {
			const answered = await burst(n8n, side, count, fired);
			times.push(...answered.ms);
			handover.push(...answered.handover);
			wrong += answered.wrong;
		}
		const all = figures(times);
		const earliest = Math.round(Math.min(...times));
		const late = (ms: number) => ms - DEADLINE_SEC * 1000;
		results.push({
			side: side.name,
			concurrent: count,
			...all,
			earliestMs: earliest,
			lateMedianMs: late(all.medianMs),
			lateMaxMs: late(all.maxMs),
			wrong,
			handover: figures(handover),
			met: late(all.maxMs) <= TARGET_LATE_MS && late(earliest) >= 0 && wrong === 0,
		});
		log(`deadline ${DEADLINE_SEC} s, ${count} at once: ${JSON.stringify(results.at(-1))}`);
	}
	return results;
}

function logLevel(config: string, level: Awaited<ReturnType<typeof measureLevel>>): void {
	const sides = Object.values(level.sides).map(
		(f) => `${f.name} ${f.medianMs} / ${f.p95Ms} / ${f.maxMs} ms (${f.wrong} wrong)`,
	);
	const ratios = (['rules', 'route', 'routeNode', 'routeNodeAll'] as const).map((key) => {
		const r = level[`${key}OverRespondNode`];
		return r ? `${key} ×${r.median} / ×${r.p95}` : '';
	});
	log(
		`${config}, ${level.concurrent} at once (median / p95 / max): ${sides.join('; ')}; over Webhook + ` +
			`Respond to Webhook: ${ratios.filter(Boolean).join(', ')} (targets: node ≤ ×${TARGET_RATIO}, rules' ` +
			`p95 ≤ ×${TARGET_RULES_RATIO}): ${level.met ? 'met' : 'MISSED'}`,
	);
}

/**
 * The background load: 10,000-recipient Bulk SMS campaigns (Webhook → Code → Bulk SMS Send, the
 * Webhook answering when the campaign has ended) started one after another until `stop()`.
 */
async function backgroundCampaigns(n8n: N8nServer, sandbox: Sandbox) {
	sandbox.control.setCredit(1_000_000_000);
	const sms = await n8n.rest<{ id: string }>('POST', '/credentials', {
		name: 'SMS sandbox',
		type: 'virtualnumSmsApi',
		data: {
			baseUrl: sandbox.smsUrl,
			accessToken: sandbox.tokens.sms,
			accountToken: sandbox.tokens.smsAccount,
		},
	});
	const recipients =
		`return Array.from({ length: ${CAMPAIGN_RECIPIENTS} }, (_, i) => ` +
		`({ json: { phone: '05' + String(20000000 + i) } }));`;
	await publish(
		n8n,
		chain('Bench: background campaign', [
			webhook('bench-campaign', 'lastNode', { responseData: 'noData' }),
			node('Recipients', 'n8n-nodes-base.code', 2, { jsCode: recipients }),
			bulkSmsSend(sms.id),
		]),
	);
	let running = true;
	const ended: number[] = [];
	const failures: string[] = [];
	const campaign = async () => {
		const res = await fetch(`${n8n.url}/webhook/bench-campaign`, { method: 'POST' });
		await res.arrayBuffer();
		return res.status;
	};
	// n8n may answer 404 for a moment after the activation: the first campaign waits for its webhook.
	if ((await waitUntil(async () => (await campaign()) === 200 || undefined, 30_000, 500)) !== true)
		throw new Error('background campaign: its webhook never answered 200');
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
			return {
				recipients: CAMPAIGN_RECIPIENTS,
				campaignsEnded: ended.length,
				campaignMs: ended,
				failed: failures.length,
			};
		},
	};
}

/** Every side and the deadline in one n8n (its expression engine `engine`, its load), warmed up first. */
async function measureEngine(
	n8n: N8nServer,
	sandbox: Sandbox,
	own: Sandbox,
	engine: string,
	load: string,
) {
	const credential = async (service: Sandbox) =>
		(
			await n8n.rest<{ id: string }>('POST', '/credentials', {
				name: 'Virtual Number sandbox',
				type: 'virtualnumApi',
				data: { baseUrl: service.vnUrl, accessToken: service.tokens.vn },
			})
		).id;
	const { sides, deadlines } = await publishSides(n8n, sandbox, await credential(sandbox), {
		sandbox: own,
		credentialId: await credential(own),
	});
	const background = load === 'campaign' ? await backgroundCampaigns(n8n, sandbox) : undefined;
	const fired = new Map<Side, number>();
	for (const side of [...sides, ...deadlines]) await burst(n8n, side, 3, fired);
	log(`${engine}, load ${load}: warm-up done (3 calls to each side); ${ROUNDS} rounds per level`);
	const loadAtStart = loadavg();
	windows.length = 0;
	const levels = [];
	for (const count of LEVELS) levels.push(await measureLevel(n8n, sides, count, fired));
	const measured = windows.splice(0);
	const deadlineLevels = [];
	for (const side of deadlines) deadlineLevels.push(...(await measureDeadline(n8n, side, fired)));
	const loadAtEnd = loadavg();
	const campaigns = await background?.stop();
	for (const level of levels) logLevel(`${engine}, load ${load}`, level);
	return {
		engine,
		load: campaigns ?? 'none',
		loadAverage: { atStart: loadAtStart, atEnd: loadAtEnd },
		levels,
		deadline: { deadlineSec: DEADLINE_SEC, waitSec: WAIT_SEC, levels: deadlineLevels },
		met: levels.every((level) => level.met) && deadlineLevels.every((level) => level.met),
		windows: measured,
	};
}

/** When each burst ran (the bench's monotonic clock), for `--profile`. */
const windows: Windows = [];

const sandbox = await startSandbox({ log: () => {} });
const run: RealRun = { sandbox };
await runRealBench(run, log, started, async () => {
	const engines = [];
	for (const engine of ENGINES.flatMap((e) => LOADS.map((load) => [e, load] as const))) {
		const [name, load] = engine;
		const n8n = (run.n8n = await startN8n(log, {
			env: engineEnv(name),
			nodeFlags: PROFILE_DIR === undefined ? [] : profileFlags(PROFILE_DIR, name),
		}));
		// An account of its own for the All Numbers trigger, new for each n8n (the last one's
		// trigger still holds the numbers of the one before).
		const own = await startSandbox({ log: () => {} });
		const { windows: measured, ...result } = await measureEngine(n8n, sandbox, own, name, load);
		await n8n.stop();
		await own.close();
		run.n8n = undefined;
		const cpu =
			PROFILE_DIR === undefined ? {} : { cpuPerCall: readCosts(PROFILE_DIR, name, measured) };
		engines.push({ ...result, ...cpu });
	}
	const result = {
		measuredAt: new Date().toISOString(),
		command:
			`npx tsx dev/bench/routeCall.mts --rounds ${ROUNDS} --levels ${LEVELS.join(',')} ` +
			`--engines ${ENGINES.join(',')} --load ${LOADS.join(',')}` +
			`${SIDES === undefined ? '' : ` --sides ${SIDES.join(',')}`}` +
			`${PROFILE_DIR === undefined ? '' : ' --profile <dir>'}`,
		n8n: '2.40.7',
		rounds: ROUNDS,
		lookup: `Edit Fields: the caller's number → one of ${Object.keys(TABLE).length} destinations, else ${FALLBACK}`,
		targets: {
			routeOverRespondNode: TARGET_RATIO,
			rulesP95OverRespondNode: TARGET_RULES_RATIO,
			deadlineLateMs: TARGET_LATE_MS,
		},
		engines,
	};
	// A profiled run's times are the profiler's too: its figures are kept apart.
	const file = `dev/bench/${PROFILE_DIR === undefined ? OUT : 'results-route-profile.json'}`;
	writeFileSync(join(ROOT_DIR, file), `${JSON.stringify(result, null, '\t')}\n`);
	log(`written: ${file}; targets ${engines.every((e) => e.met) ? 'met' : 'MISSED'}`);
	return false;
});
