/**
 * Route Call's answer time in the real n8n 2.40.7, against n8n's own Webhook node answering the
 * same lookup with Respond to Webhook, in one run, the sides alternating. The sides (SIDES; one
 * entry each, so a way of routing a call is one more entry):
 *
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
 * Each burst posts N call-start callbacks at once, as the service sends them (POST, JSON body;
 * a fresh connection each), to the URL each side listens on (the trigger's: the one it registered
 * with the sandbox, its generated secret included); the answer time of each is taken by the client,
 * from sending to the answer's end, and every answer is checked (the caller's destination). Then
 * the deadline: Trigger → Wait 5 s → Look Up (→ Route Incoming Call, for the node's way), whose
 * answer must come empty at the Deadline (3 s) at 1 and 10 concurrent calls; for each routed call,
 * how long n8n took to hand it to the trigger (the item's `receivedAt`). All of it in one n8n per
 * expression engine (`vm`, n8n's default, then `legacy`).
 *
 *   npm run build && npx tsx dev/bench/routeCall.mts [--rounds 5] [--levels 1,10,50] [--engines vm,legacy]
 *   npm run bench -- --route-call [--rounds 5]     (the same)
 *
 * Writes dev/bench/results-route.json; dev/docs/benchmarks.md has the method and the figures.
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
import { ROOT_DIR } from '../harness/n8n/install.mts';
import { chain, node, waitUntil, type NodeJson } from '../harness/n8n/workflows.mts';
import { credentialIn, runRealBench, type RealRun } from './inN8n.mts';

const { values } = parseArgs({
	options: { rounds: { type: 'string' }, levels: { type: 'string' }, engines: { type: 'string' } },
});
const ROUNDS = Number(values.rounds ?? 5);
const LEVELS = (values.levels ?? '1,10,50').split(',').map(Number);
/**
 * n8n's expression engines (N8N_EXPRESSION_ENGINE), one n8n each: `vm` (n8n 2.40.7's default) gives
 * every webhook request to a trigger other than its own Webhook node a V8 isolate; `legacy` none.
 */
const ENGINES = (values.engines ?? 'vm,legacy').split(',');
const DEADLINE_SEC = 3;
/** The measured Route Call's Deadline: the most it can be, so answers past 3 s are measured too. */
const ROUTE_DEADLINE_SEC = 10;
const DEADLINE_LEVELS = [1, 10];
const WAIT_SEC = 5;
/** The targets: Route Call at most this many times Webhook + Respond to Webhook; the deadline kept within this. */
const TARGET_RATIO = 1.1;
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

/** Respond With of the trigger's two ways: the last node's item, or a Route Incoming Call node. */
type RespondWith = 'destination' | 'routeNode';

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
interface Side extends SideSpec {
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
			options: { respondWith, routeDeadlineSec: deadlineSec },
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
interface Account {
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

/** Every side, and both ways of the trigger with a lookup slower than the Deadline. */
async function publishSides(n8n: N8nServer, shared: Account, own: Account) {
	const sides: Side[] = [];
	for (const spec of SIDES.filter((s) => s.trigger))
		sides.push(await publishTrigger(n8n, spec.trigger!.all ? own : shared, spec));
	for (const spec of SIDES.filter((s) => s.webhook))
		sides.push(await publishWebhook(n8n, spec, sides[0].number));
	const wait = node('Wait', 'n8n-nodes-base.wait', 1.1, {
		resume: 'timeInterval',
		amount: WAIT_SEC,
		unit: 'seconds',
	});
	const deadlines: Side[] = [];
	for (const spec of SIDES.filter((s) => s.trigger && !s.trigger.all)) {
		const slow = {
			...spec,
			name: `${spec.name}, Wait ${WAIT_SEC} s, Deadline ${DEADLINE_SEC} s`,
			answer: () => '',
		};
		deadlines.push(await publishTrigger(n8n, shared, slow, [wait], DEADLINE_SEC));
	}
	return { sides, deadlines };
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
	const headers = {
		'user-agent': 'virtualnum-sandbox/1.0',
		'content-type': 'application/json',
		'content-length': String(Buffer.byteLength(body)),
	};
	return new Promise((resolve, reject) => {
		const sentAt = Date.now();
		const from = performance.now();
		const req = http.request(
			url,
			{ method: 'POST', agent: false, timeout: 30_000, headers },
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

/**
 * Posts `count` call starts at once to the side and waits until its executions have ended: the
 * answer time of each, how many answers were not the caller's destination, and (for a trigger) how
 * long n8n took to hand each call to it.
 */
async function burst(n8n: N8nServer, side: Side, count: number, fired: Map<Side, number>) {
	const callers = Array.from({ length: count }, (_, i) => CALLERS[i % CALLERS.length]);
	const answers = await Promise.all(callers.map((c) => postCallStart(side.url, side.number, c)));
	const read = side.read ?? ((body: string) => body.trim());
	const wrong = answers.filter((answer, i) => {
		const got = answer.status === 200 ? read(answer.body) : `status ${answer.status}`;
		return got !== (side.answer ?? expected)(callers[i]);
	});
	if (wrong.length > 0)
		log(
			`${side.name}: ${wrong.length} of ${count} answers were not the destination ` +
				`(${wrong[0].status} "${wrong[0].body.slice(0, 60)}")`,
		);
	fired.set(side, (fired.get(side) ?? 0) + count);
	await settled(n8n, side, fired.get(side)!);
	const handover = side.trigger ? await handoverTimes(n8n, side, answers) : [];
	return { ms: answers.map((answer) => answer.ms), wrong: wrong.length, handover };
}

const listOf = (n8n: N8nServer, side: Side, limit: number) =>
	n8n.rest<{ count: number; results: Array<{ id: string; status: string }> }>(
		'GET',
		`/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId: side.workflowId }))}&limit=${limit}`,
	);

/**
 * How long after the client sent each call start the trigger had it (the item's `receivedAt`,
 * taken when n8n calls the trigger's webhook method): n8n's own handling of the request before the
 * trigger sees it, read from n8n's record of each execution.
 */
async function handoverTimes(n8n: N8nServer, side: Side, answers: Answer[]): Promise<number[]> {
	const sent = new Map(answers.map((answer) => [answer.callId, answer.sentAt]));
	const times: number[] = [];
	for (const { id } of (await listOf(n8n, side, answers.length)).results) {
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
	const done = await waitUntil(
		async () => {
			const list = await listOf(n8n, side, 100);
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

/** Median, 95th percentile (nearest rank) and maximum of the samples. */
function figures(samples: number[]): Figures {
	const sorted = [...samples].sort((a, b) => a - b);
	const at = (p: number) =>
		sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
	return {
		samples: sorted.length,
		medianMs: Math.round(at(50)),
		p95Ms: Math.round(at(95)),
		maxMs: Math.round(sorted.at(-1)!),
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
		for (const side of sides.map((_, i) => sides[(i + round) % sides.length])) {
			const answered = await burst(n8n, side, count, fired);
			handover.push(...answered.handover);
			times.get(side)!.push(...answered.ms);
			wrong.set(side, (wrong.get(side) ?? 0) + answered.wrong);
			const got = figures(answered.ms);
			log(`${count} at once, ${side.name}: median ${got.medianMs} ms, max ${got.maxMs} ms`);
		}
	}
	const bySide = Object.fromEntries(
		sides.map((side) => [
			side.key,
			{ name: side.name, ...figures(times.get(side)!), wrong: wrong.get(side) ?? 0 },
		]),
	);
	const over = (mine: string, theirs: string) => ({
		median: ratio(bySide[mine].medianMs, bySide[theirs].medianMs),
		p95: ratio(bySide[mine].p95Ms, bySide[theirs].p95Ms),
	});
	// Each trigger side against Webhook + Respond to Webhook; the node's way (the one to choose for
	// speed) is the target's.
	const againstRespondNode = Object.fromEntries(
		sides.filter((side) => side.trigger).map((side) => [side.key, over(side.key, 'respondNode')]),
	);
	const target = againstRespondNode.routeNode;
	return {
		concurrent: count,
		sides: bySide,
		routeHandover: figures(handover),
		againstRespondNode,
		// Both pay n8n's expression isolate per request under `vm`: what is left is the trigger's own.
		routeNodeOverRespondNodeIsolate: over('routeNode', 'respondNodeIsolate'),
		met:
			target.median <= TARGET_RATIO &&
			target.p95 <= TARGET_RATIO &&
			sides.every((side) => !side.trigger || bySide[side.key].wrong === 0),
	};
}

/** The deadline: a lookup slower than it, answered empty at the Deadline; how late each answer was. */
async function measureDeadline(n8n: N8nServer, side: Side, fired: Map<Side, number>) {
	const results = [];
	for (const count of DEADLINE_LEVELS) {
		const times: number[] = [];
		const handover: number[] = [];
		let wrong = 0;
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

/** Every side and the deadline in one n8n (its expression engine `engine`), warmed up first. */
async function measureEngine(n8n: N8nServer, sandbox: Sandbox, own: Sandbox, engine: string) {
	const account = async (service: Sandbox): Promise<Account> => ({
		sandbox: service,
		credentialId: await credentialIn(n8n, 'Virtual Number sandbox', 'virtualnumApi', {
			baseUrl: service.vnUrl,
			accessToken: service.tokens.vn,
		}),
	});
	const { sides, deadlines } = await publishSides(n8n, await account(sandbox), await account(own));
	const fired = new Map<Side, number>();
	for (const side of [...sides, ...deadlines]) await burst(n8n, side, 3, fired);
	log(`${engine}: warm-up done (3 calls to each side); ${ROUNDS} rounds per level`);
	const loadAtStart = loadavg();
	const levels = [];
	for (const count of LEVELS) {
		const level = await measureLevel(n8n, sides, count, fired);
		levels.push(level);
		log(
			`${engine}, ${count} at once, against Webhook + Respond to Webhook (median / p95): ` +
				`${JSON.stringify(level.againstRespondNode)} (target ≤ ×${TARGET_RATIO}): ${level.met ? 'met' : 'MISSED'}`,
		);
	}
	const deadlineLevels = [];
	for (const side of deadlines) deadlineLevels.push(...(await measureDeadline(n8n, side, fired)));
	return {
		engine,
		loadAverage: { atStart: loadAtStart, atEnd: loadavg() },
		levels,
		deadline: { deadlineSec: DEADLINE_SEC, waitSec: WAIT_SEC, levels: deadlineLevels },
		met: levels.every((level) => level.met) && deadlineLevels.every((level) => level.met),
	};
}

const sandbox = await startSandbox({ log: () => {} });
const run: RealRun = { sandbox };
await runRealBench(run, log, started, async () => {
	const engines = [];
	for (const engine of ENGINES) {
		run.n8n = await startN8n(log, { env: { N8N_EXPRESSION_ENGINE: engine } });
		// An account of its own for the All Numbers trigger, new for each n8n (the last one's
		// trigger still holds the numbers of the one before).
		const own = await startSandbox({ log: () => {} });
		engines.push(await measureEngine(run.n8n, sandbox, own, engine));
		await run.n8n.stop();
		await own.close();
		run.n8n = undefined;
	}
	const result = {
		measuredAt: new Date().toISOString(),
		command: `npx tsx dev/bench/routeCall.mts --rounds ${ROUNDS} --levels ${LEVELS.join(',')} --engines ${ENGINES.join(',')}`,
		n8n: '2.40.7',
		rounds: ROUNDS,
		lookup: `Edit Fields: the caller's number → one of ${Object.keys(TABLE).length} destinations, else ${FALLBACK}`,
		deadlineOfTheMeasuredSides: ROUTE_DEADLINE_SEC,
		targets: { routeNodeOverRespondNode: TARGET_RATIO, deadlineLateMs: TARGET_LATE_MS },
		engines,
	};
	writeFileSync(
		join(ROOT_DIR, 'dev/bench/results-route.json'),
		`${JSON.stringify(result, null, '\t')}\n`,
	);
	log(
		`written: dev/bench/results-route.json; targets ${engines.every((e) => e.met) ? 'met' : 'MISSED'}`,
	);
	return false;
});
