/**
 * Whose time is it: sums the samples of `.cpuprofile` files (BENCH_PROFILE, see dev/bench/measure.mts)
 * by owner (idle time and the profiler's own start and stop left out) — the node's own code, n8n's HTTP helper, n8n's expression engine, the rest of n8n's
 * engine, Node.js internals, garbage collection. A frame without a script (a V8 builtin such as
 * JSON.parse) counts for the owner of the frame that called it.
 *   npx tsx dev/bench/profile.mts <file.cpuprofile>… [--top 15]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number };
	children?: number[];
}

export interface Profile {
	nodes: ProfileNode[];
	startTime: number;
	samples: number[];
	timeDeltas: number[];
}

/** Owners, first match wins (tested against the script URL). */
const OWNERS: Array<[string, RegExp]> = [
	// This package's build (not n8n-nodes-base's dist/nodes under node_modules).
	["the node's own code", /^(?!.*node_modules).*\/dist\/(nodes|credentials)\//],
	[
		"n8n's HTTP helper (n8n-core request helpers, axios)",
		/n8n-core\/dist\/execution-engine\/node-execution-context\/utils\/request-helper|\/request-helpers\/|\/axios\/|\/follow-redirects\/|\/form-data\/|\/proxy-from-env\/|\/combined-stream\/|backend-network/,
	],
	[
		"n8n's expression engine",
		/n8n-workflow\/dist\/.*(expression|workflow-data-proxy|extensions|augment-object)|@n8n\/tournament|@n8n\/expression-runtime|\/esprima|\/recast|\/ast-types|\/jmespath|\/luxon\//,
	],
	[
		"n8n's engine (WorkflowExecute, node contexts, parameters, run data)",
		/n8n-core\/dist|n8n-workflow\/dist|@n8n\/|\/lodash/,
	],
	['n8n-nodes-base (HTTP Request, Code, Webhook nodes)', /n8n-nodes-base\//],
	['the bench and the harness', /\/bench\/|\/test\/harness\//],
	['Node.js internals (http, net, streams, timers)', /^node:|^internal\//],
];

function ownerOf(url: string): string | undefined {
	if (url === '') return undefined;
	return (
		OWNERS.find(([, pattern]) => pattern.test(url))?.[0] ??
		`other: ${url
			.replace(/^.*node_modules\//, '')
			.split('/')
			.slice(0, 2)
			.join('/')}`
	);
}

/** The inspector call that starts and stops the profile: not the run's time. */
const PROFILER = '(profiler)';
/** The measurement's RSS sampler (every few ms during the run). */
const SAMPLER = "the bench's RSS sampler";

/** A frame as the reports name it: function, file under node_modules or dist, line. */
function frameName({ functionName, url, lineNumber }: ProfileNode['callFrame']): string {
	return `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|dist)\//, '')}:${lineNumber + 1}`;
}

export function summarise(profile: Profile): {
	totalMs: number;
	owners: Map<string, number>;
	functions: Map<string, number>;
} {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const owner = new Map<number, string>();
	const visit = (id: number, inherited: string) => {
		const node = byId.get(id)!;
		const { functionName: name, url } = node.callFrame;
		const own =
			['(garbage collector)', '(program)', '(idle)'].includes(name) || inherited === PROFILER
				? inherited === PROFILER
					? PROFILER
					: name
				: url === 'node:inspector'
					? PROFILER
					: name === 'rss' && inherited === 'the bench and the harness'
						? SAMPLER
						: (ownerOf(url) ?? inherited);
		owner.set(id, own);
		for (const child of node.children ?? []) visit(child, own);
	};
	visit(profile.nodes[0].id, '(root)');
	const owners = new Map<string, number>();
	const functions = new Map<string, number>();
	let totalMs = 0;
	profile.samples.forEach((id, index) => {
		const ms = (profile.timeDeltas[index] ?? 0) / 1000;
		const node = byId.get(id)!;
		const who = owner.get(id) ?? '(root)';
		if (who === '(idle)' || who === PROFILER) return;
		totalMs += ms;
		owners.set(who, (owners.get(who) ?? 0) + ms);
		const where = frameName(node.callFrame);
		functions.set(`${who} | ${where}`, (functions.get(`${who} | ${where}`) ?? 0) + ms);
	});
	return { totalMs, owners, functions };
}

/** A stretch of the profiled process's time (µs on the system's monotonic clock) given to one side. */
export interface ProfileWindow {
	side: string;
	fromUs: number;
	toUs: number;
	requests: number;
}

export interface SideCost {
	requests: number;
	/** CPU time per request, ms. */
	cpuMs: number;
	probes: Record<string, number>;
	/** Every function's inclusive time per request, ms (`name file:line`). */
	functions: Record<string, number>;
}

/**
 * A named part of the work: a sample counts for it when one of its stack's frames matches (only
 * the sample's own frame with `self`). A stack ends at an `await`: what an async function does
 * after it is a stack of its own, from the function resumed.
 */
export interface Probe {
	name: string;
	matches: (frame: ProfileNode['callFrame']) => boolean;
	self?: boolean;
}

/**
 * CPU time per request of each side, from one process's profile cut into the sides' windows: all
 * of it (idle and the profiler left out) and each probe's inclusive share. The profiled process
 * and the bench share the monotonic clock (V8's TimeTicks and Node's hrtime on Linux).
 */
export function costPerRequest(
	profile: Profile,
	windows: ProfileWindow[],
	probes: Probe[],
): Record<string, SideCost> {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parent = new Map<number, number>();
	for (const node of profile.nodes)
		for (const child of node.children ?? []) parent.set(child, node.id);
	type Sums = { requests: number; cpuMs: number; probes: Map<string, number> };
	const sides = new Map<string, Sums & { functions: Map<string, number> }>();
	for (const window of windows) {
		const side = sides.get(window.side) ?? {
			requests: 0,
			cpuMs: 0,
			probes: new Map(),
			functions: new Map(),
		};
		side.requests += window.requests;
		sides.set(window.side, side);
	}
	let at = profile.startTime;
	profile.samples.forEach((id, index) => {
		at += profile.timeDeltas[index] ?? 0;
		const ms = (profile.timeDeltas[index + 1] ?? 0) / 1000;
		const window = windows.find(({ fromUs, toUs }) => at >= fromUs && at <= toUs);
		const leaf = byId.get(id)!.callFrame;
		if (!window || leaf.functionName === '(idle)' || leaf.url === 'node:inspector') return;
		const side = sides.get(window.side)!;
		side.cpuMs += ms;
		const stack: ProfileNode['callFrame'][] = [];
		for (let node: number | undefined = id; node !== undefined; node = parent.get(node))
			stack.push(byId.get(node)!.callFrame);
		for (const probe of probes)
			if (probe.self ? probe.matches(leaf) : stack.some(probe.matches))
				side.probes.set(probe.name, (side.probes.get(probe.name) ?? 0) + ms);
		for (const where of new Set(stack.map(frameName)))
			side.functions.set(where, (side.functions.get(where) ?? 0) + ms);
	});
	const perRequest = (ms: number, requests: number) => Math.round((ms / requests) * 100) / 100;
	return Object.fromEntries(
		[...sides].map(([name, side]) => [
			name,
			{
				requests: side.requests,
				cpuMs: perRequest(side.cpuMs, side.requests),
				probes: Object.fromEntries(
					probes.map(({ name: probe }) => [
						probe,
						perRequest(side.probes.get(probe) ?? 0, side.requests),
					]),
				),
				functions: Object.fromEntries(
					[...side.functions].map(([where, ms]) => [where, perRequest(ms, side.requests)]),
				),
			},
		]),
	);
}

if (process.argv[1]?.endsWith('profile.mts')) {
	const args = process.argv.slice(2);
	const topIndex = args.indexOf('--top');
	const top = topIndex >= 0 ? Number(args[topIndex + 1]) : 15;
	const files = args.filter(
		(arg, index) => arg !== '--top' && (topIndex < 0 || index !== topIndex + 1),
	);
	for (const file of files) {
		const { totalMs, owners, functions } = summarise(
			JSON.parse(readFileSync(file, 'utf8')) as Profile,
		);
		console.log(`\n${file}: ${Math.round(totalMs)} ms of CPU samples (idle excluded)`);
		for (const [who, ms] of [...owners].sort((a, b) => b[1] - a[1]))
			console.log(
				`  ${String(Math.round(ms)).padStart(6)} ms  ${String(Math.round((ms / totalMs) * 100)).padStart(3)} %  ${who}`,
			);
		console.log('  top functions (self time):');
		for (const [where, ms] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top))
			console.log(`  ${String(Math.round(ms)).padStart(6)} ms  ${where}`);
	}
}
