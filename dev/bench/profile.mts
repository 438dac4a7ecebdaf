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

interface Profile {
	nodes: ProfileNode[];
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
		const where = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/^.*\/(node_modules|dist)\//, '')}:${node.callFrame.lineNumber + 1}`;
		functions.set(`${who} | ${where}`, (functions.get(`${who} | ${where}`) ?? 0) + ms);
	});
	return { totalMs, owners, functions };
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
