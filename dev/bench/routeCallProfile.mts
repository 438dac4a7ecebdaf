/**
 * Where a call start's time goes in n8n, for `routeCall.mts --profile <dir>`: n8n runs under V8's
 * CPU profiler, the bench notes when each side's bursts ran, and each side's CPU time per call
 * start is read from the profile with the parts below (named after n8n 2.40.7's functions).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import {
	costPerRequest,
	type Probe,
	type Profile,
	type ProfileWindow,
	type SideCost,
} from './profile.mts';

export type Windows = ProfileWindow[];

/** Node flags for n8n: one profile per process in `dir/engine`, a sample every 250 µs. */
export function profileFlags(dir: string, engine: string): string[] {
	return ['--cpu-prof', `--cpu-prof-dir=${join(dir, engine)}`, '--cpu-prof-interval=250'];
}

const frame = (name: string, file: string): Probe['matches'] => {
	return (callFrame) => callFrame.functionName === name && callFrame.url.endsWith(file);
};

const PROBES: Probe[] = [
	{
		// LiveWebhooks, WorkflowRunner and the execution's persistence each build a Workflow, which
		// applies every node's parameter defaults (NodeHelpers.getNodeParameters).
		name: "n8n builds the workflow (each node's parameter defaults)",
		matches: frame('Workflow', 'n8n-workflow/dist/cjs/workflow.js'),
	},
	{
		name: "n8n checks each node's parameters before the run",
		matches: frame('checkReadyForExecution', 'execution-engine/workflow-execute.js'),
	},
	{
		name: "n8n reads the start node's webhook description (path, response mode)",
		matches: (callFrame) =>
			frame('getNodeWebhooks', 'webhooks/webhook.service.js')(callFrame) ||
			frame('evaluateResponseOptions', 'webhooks/webhook-helpers.js')(callFrame),
	},
	{
		name: "n8n's expression isolates (taken, given back)",
		matches: (callFrame) =>
			(callFrame.functionName === 'acquireIsolate' ||
				callFrame.functionName === 'releaseIsolate') &&
			callFrame.url.endsWith('n8n-workflow/dist/cjs/expression.js'),
	},
	{
		name: "n8n's expression engine (every expression)",
		matches: frame('resolveSimpleParameterValue', 'n8n-workflow/dist/cjs/workflow-expression.js'),
	},
	{
		name: 'n8n loads the workflow from its database',
		matches: frame('loadWebhookExecutionData', 'webhooks/live-webhooks.js'),
	},
	{
		// After its first await, n8n's read goes on from its own frames (getDecrypted resumed).
		name: "n8n's credential read (database, decryption, expressions)",
		matches: (callFrame) =>
			frame('getCredentials', 'node-execution-context/webhook-context.js')(callFrame) ||
			frame('getDecrypted', 'dist/credentials-helper.js')(callFrame) ||
			frame('applyDefaultsAndOverwrites', 'dist/credentials-helper.js')(callFrame),
	},
	{
		name: "this package's own code (the trigger, Route Incoming Call; self time)",
		matches: (callFrame) => /n8n-nodes-virtualnum\/dist\//.test(callFrame.url),
		self: true,
	},
	{
		name: 'the answering node (Route Incoming Call, Respond to Webhook)',
		matches: (callFrame) =>
			frame('execute', 'VirtualNumber/VirtualNumber.node.js')(callFrame) ||
			frame('execute', 'RespondToWebhook/RespondToWebhook.node.js')(callFrame),
	},
	{ name: 'Look Up (Edit Fields)', matches: frame('execute', 'Set/v2/SetV2.node.js') },
	{
		name: 'garbage collection',
		matches: (callFrame) => callFrame.functionName === '(garbage collector)',
	},
];

/** The main n8n process's profile: the largest of the directory (the task runner's is small). */
function mainProfile(dir: string): Profile {
	const files = readdirSync(dir)
		.filter((name) => name.endsWith('.cpuprofile'))
		.map((name) => join(dir, name))
		.sort((a, b) => statSync(b).size - statSync(a).size);
	if (files.length === 0) throw new Error(`no CPU profile was written in ${dir}`);
	return JSON.parse(readFileSync(files[0], 'utf8')) as Profile;
}

/** The functions whose time per call start (inclusive, ms) is most above the other side's. */
function mostAbove(mine: SideCost, theirs: SideCost, count = 15): Record<string, number> {
	const above = Object.entries(mine.functions)
		.map(([where, ms]): [string, number] => [where, ms - (theirs.functions[where] ?? 0)])
		// A frame that holds nearly everything (the event loop, the request's root) says nothing.
		.filter(([where]) => mine.functions[where] < 0.5 * mine.cpuMs)
		.sort((a, b) => b[1] - a[1]);
	return Object.fromEntries(above.slice(0, count).map(([where, ms]) => [where, round(ms)]));
}

const round = (ms: number) => Math.round(ms * 100) / 100;

/**
 * Each side's CPU time per call start (ms), all of it and by part, at each concurrency level; and
 * the functions where the Route Incoming Call node's way spends most above n8n's Webhook sides.
 */
export function readCosts(dir: string, engine: string, windows: Windows) {
	const costs = costPerRequest(mainProfile(join(dir, engine)), windows, PROBES);
	const levels = [...new Set(windows.map(({ side }) => side.split('@')[1]))];
	const sides = Object.fromEntries(
		Object.entries(costs).map(([side, { functions: _functions, ...cost }]) => [side, cost]),
	);
	const above = Object.fromEntries(
		levels.flatMap((level) =>
			['respondNode', 'respondNodeIsolate'].map((other) => [
				`routeNode@${level} over ${other}@${level}`,
				mostAbove(costs[`routeNode@${level}`], costs[`${other}@${level}`]),
			]),
		),
	);
	return { probes: PROBES.map(({ name }) => name), sides, routeNodeAbove: above };
}
