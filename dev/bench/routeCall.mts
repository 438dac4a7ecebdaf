/**
 * Route Call's answer time in the real n8n 2.40.7, against n8n's own Webhook node answering the
 * same lookup with Respond to Webhook, in one run, the sides alternating. The sides and their
 * workflows are in routeWorkflows.mts (SIDES; one entry each, so a way of routing a call is one
 * more entry): the trigger's Routing Rules, its two ways of answering from the workflow (the last
 * node's item, a Route Incoming Call node; the node's way also on All Numbers), Webhook + Respond to
 * Webhook, and n8n's other ways of answering a webhook as diagnostics.
 *
 * Each burst posts N call-start callbacks at once, as the service sends them (POST, JSON body;
 * a fresh connection each), to the URL each side listens on (the trigger's: the one it registered
 * with the sandbox, its generated secret included); the answer time of each is taken by the client,
 * from sending to the answer's end, and every answer is checked (the caller's destination). Then
 * the deadline: Trigger → Wait 5 s → Look Up (→ Route Incoming Call, for the node's way), whose
 * answer must come empty at the Deadline (3 s) at 1 and 10 concurrent calls; for each routed call,
 * how long n8n took to hand it to the trigger (the item's `receivedAt`). All of it in one n8n per
 * expression engine (`vm`, n8n's default, then `legacy`) and background load (`--load
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
import { isAbsolute, join } from 'node:path';
import { parseArgs } from 'node:util';

import { parse } from 'flatted';

import { startSandbox, type Sandbox } from '../sandbox/index.mts';
import { startN8n, type N8nServer } from '../harness/n8n/server.mts';
import { finished } from '../harness/n8n/executions.mts';
import { ROOT_DIR } from '../harness/n8n/install.mts';
import { waitUntil } from '../harness/n8n/workflows.mts';
import { credentialIn, runRealBench, type RealRun } from './inN8n.mts';
import {
	backgroundCampaigns,
	CALLERS,
	DEADLINE_SEC,
	expected,
	FALLBACK,
	publishSides,
	ROUTE_DEADLINE_SEC,
	TABLE,
	TRIGGER_NAME,
	WAIT_SEC,
	type Account,
	type Side,
} from './routeWorkflows.mts';

const { values } = parseArgs({
	options: {
		rounds: { type: 'string' },
		levels: { type: 'string' },
		engines: { type: 'string' },
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
/** The sides measured (their keys); all of them by default. */
const ONLY = values.sides?.split(',');
/** Where the results go: a path from dev/bench/, or absolute. */
const OUT = values.out ?? 'results-route.json';
const DEADLINE_LEVELS = [1, 10];
/** The targets: Route Call at most this many times Webhook + Respond to Webhook; the deadline kept within this. */
const TARGET_RATIO = 1.1;
/** The routing rules answer before the run: their p95 at most Webhook + Respond to Webhook's. */
const TARGET_RULES_RATIO = 1.0;
const TARGET_LATE_MS = 100;
const started = Date.now();
const log = (line: string) =>
	console.log(`[bench route ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

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
	const bySide: Record<string, SideFigures> = Object.fromEntries(
		sides.map((side) => [
			side.key,
			{ name: side.name, ...figures(times.get(side)!), wrong: wrong.get(side) ?? 0 },
		]),
	);
	return {
		concurrent: count,
		sides: bySide,
		routeHandover: figures(handover),
		...against(sides, bySide),
	};
}

type SideFigures = Figures & { name: string; wrong: number };

/**
 * Each trigger side against Webhook + Respond to Webhook (a ratio only of two sides measured:
 * `--sides` may leave one out), and the targets: the node's way (the one to choose for speed of the
 * ways that answer from the workflow) within TARGET_RATIO, the rules' p95 within TARGET_RULES_RATIO,
 * every routing side's answers right.
 */
function against(sides: Side[], bySide: Record<string, SideFigures>) {
	const over = (mine: string, theirs: string) => {
		const [a, b] = [bySide[mine], bySide[theirs]];
		return a && b
			? { median: ratio(a.medianMs, b.medianMs), p95: ratio(a.p95Ms, b.p95Ms) }
			: undefined;
	};
	const routing = sides.filter((side) => side.trigger);
	const againstRespondNode = Object.fromEntries(
		routing.flatMap((side) => {
			const ratios = over(side.key, 'respondNode');
			return ratios ? [[side.key, ratios]] : [];
		}),
	) as Record<string, { median: number; p95: number } | undefined>;
	const { routeNode: byNode, rules } = againstRespondNode;
	return {
		againstRespondNode,
		// Both pay n8n's expression isolate per request under `vm`: what is left is the trigger's own.
		routeNodeOverRespondNodeIsolate: over('routeNode', 'respondNodeIsolate'),
		met:
			(!byNode || (byNode.median <= TARGET_RATIO && byNode.p95 <= TARGET_RATIO)) &&
			(!rules || rules.p95 <= TARGET_RULES_RATIO) &&
			routing.every((side) => bySide[side.key].wrong === 0),
	};
}

function logLevel(config: string, level: Awaited<ReturnType<typeof measureLevel>>): void {
	const sides = Object.values(level.sides).map(
		(f) => `${f.name} ${f.medianMs} / ${f.p95Ms} / ${f.maxMs} ms (${f.wrong} wrong)`,
	);
	const ratios = Object.entries(level.againstRespondNode).map(
		([key, r]) => `${key} ×${r?.median} / ×${r?.p95}`,
	);
	log(
		`${config}, ${level.concurrent} at once (median / p95 / max): ${sides.join('; ')}; over Webhook + ` +
			`Respond to Webhook: ${ratios.join(', ')} (targets: node ≤ ×${TARGET_RATIO}, rules' ` +
			`p95 ≤ ×${TARGET_RULES_RATIO}): ${level.met ? 'met' : 'MISSED'}`,
	);
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

/** Every side and the deadline in one n8n (its expression engine `engine`, its load), warmed up first. */
async function measureEngine(
	n8n: N8nServer,
	sandbox: Sandbox,
	own: Sandbox,
	engine: string,
	load: string,
) {
	const account = async (service: Sandbox): Promise<Account> => ({
		sandbox: service,
		credentialId: await credentialIn(n8n, 'Virtual Number sandbox', 'virtualnumApi', {
			baseUrl: service.vnUrl,
			accessToken: service.tokens.vn,
		}),
	});
	const accounts = [await account(sandbox), await account(own)] as const;
	const { sides, deadlines } = await publishSides(n8n, ...accounts, ONLY);
	const background = load === 'campaign' ? await backgroundCampaigns(n8n, sandbox, log) : undefined;
	const fired = new Map<Side, number>();
	for (const side of [...sides, ...deadlines]) await burst(n8n, side, 3, fired);
	log(`${engine}, load ${load}: warm-up done (3 calls to each side); ${ROUNDS} rounds per level`);
	const loadAtStart = loadavg();
	const levels = [];
	for (const count of LEVELS) levels.push(await measureLevel(n8n, sides, count, fired));
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
	};
}

const sandbox = await startSandbox({ log: () => {} });
const run: RealRun = { sandbox };
await runRealBench(run, log, started, async () => {
	const engines = [];
	for (const [engine, load] of ENGINES.flatMap((e) => LOADS.map((l) => [e, l] as const))) {
		run.n8n = await startN8n(log, { env: engineEnv(engine) });
		// An account of its own for the All Numbers trigger, new for each n8n (the last one's
		// trigger still holds the numbers of the one before).
		const own = await startSandbox({ log: () => {} });
		engines.push(await measureEngine(run.n8n, sandbox, own, engine, load));
		await run.n8n.stop();
		await own.close();
		run.n8n = undefined;
	}
	const result = {
		measuredAt: new Date().toISOString(),
		command:
			`npx tsx dev/bench/routeCall.mts --rounds ${ROUNDS} --levels ${LEVELS.join(',')} ` +
			`--engines ${ENGINES.join(',')} --load ${LOADS.join(',')}` +
			`${ONLY === undefined ? '' : ` --sides ${ONLY.join(',')}`}`,
		n8n: '2.40.7',
		rounds: ROUNDS,
		lookup: `Edit Fields: the caller's number → one of ${Object.keys(TABLE).length} destinations, else ${FALLBACK}`,
		deadlineOfTheMeasuredSides: ROUTE_DEADLINE_SEC,
		targets: {
			routeNodeOverRespondNode: TARGET_RATIO,
			rulesP95OverRespondNode: TARGET_RULES_RATIO,
			deadlineLateMs: TARGET_LATE_MS,
		},
		engines,
	};
	const file = isAbsolute(OUT) ? OUT : join(ROOT_DIR, 'dev/bench', OUT);
	writeFileSync(file, `${JSON.stringify(result, null, '\t')}\n`);
	log(`written: ${file}; targets ${engines.every((e) => e.met) ? 'met' : 'MISSED'}`);
	return false;
});
