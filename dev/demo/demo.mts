/**
 * The demo: the package's main jobs, run from the example workflows on the built-in sandbox.
 *
 * `runDemo()` starts the sandbox (both services, in-process, seeded data), runs each example
 * headlessly on n8n-core (see ./workflows.mts), checks what came out against what the sandbox
 * received, and reports it in lines a newcomer can read. Every step is checked, not only printed:
 * the result says which step failed and why. `demo/run.mts` prints it; a test runs it too.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../sandbox/index.mts';
import { TriggerHost, type TriggerInstance } from '../harness/trigger.mts';
import { NotRun } from './checks.mts';
import { DEMO_STEPS, type DemoFacts, type DemoRun } from './steps.mts';
import { triggerOf, type ExampleWorkflow } from './workflows.mts';

export { table } from './checks.mts';
export type { DemoFacts } from './steps.mts';

export interface DemoOptions {
	/** Where the recording and the voice prompt are written (created if missing). */
	outputDir: string;
	/** Receives each report line as soon as it is known. */
	print?: (line: string) => void;
	/** Shown instead of outputDir in the report (e.g. a path relative to the repository). */
	outputLabel?: string;
	/** Called once the sandbox runs, before the first step (tests use it to inject faults). */
	prepare?: (sandbox: Sandbox) => void | Promise<void>;
}

export interface DemoStep {
	title: string;
	ok: boolean;
	ms: number;
	error?: string;
	/** Why the step did not run (it needs something this machine lacks); such a step does not fail the demo. */
	notRun?: string;
}

export interface DemoResult {
	ok: boolean;
	steps: DemoStep[];
	facts: DemoFacts;
	ms: number;
	files: string[];
}

export async function runDemo(options: DemoOptions): Promise<DemoResult> {
	const started = Date.now();
	const print = options.print ?? (() => undefined);
	const outputLabel = options.outputLabel ?? options.outputDir;
	mkdirSync(options.outputDir, { recursive: true });
	// The sandbox holds the calls of Oct-Dec 2024; 2000 of them give the nightly export a full day.
	const sandbox = await startSandbox({ seed: { cdrs: 2000 } });
	const host = await TriggerHost.start();
	await options.prepare?.(sandbox);
	const { demo, active } = demoRun(sandbox, host, options);
	printIntroduction(print, sandbox, demo.timezone);
	const steps: DemoStep[] = [];
	try {
		for (const [title, body] of DEMO_STEPS)
			steps.push(await runStep(print, steps.length, title, body, demo));
	} finally {
		for (const trigger of [...active]) await demo.deactivate(trigger).catch(() => undefined);
		await sandbox.control.settle();
		await host.close();
		await sandbox.close();
	}
	const ms = Date.now() - started;
	const files = demo.files;
	const ok = printSummary(
		print,
		steps,
		ms,
		outputLabel,
		files.map((file) => relative(options.outputDir, file)),
	);
	return { ok, steps, facts: demo.facts, ms, files };
}

/** What the steps share; `active` holds the triggers still active, deactivated at the end. */
function demoRun(
	sandbox: Sandbox,
	host: TriggerHost,
	options: DemoOptions,
): { demo: DemoRun; active: TriggerInstance[] } {
	const print = options.print ?? (() => undefined);
	const outputLabel = options.outputLabel ?? options.outputDir;
	const files: string[] = [];
	const vnCredentials: Record<string, ICredentialDataDecryptedObject> = {
		virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn },
	};
	const active: TriggerInstance[] = [];
	const demo: DemoRun = {
		sandbox,
		vnCredentials,
		credentials: {
			...vnCredentials,
			virtualnumSmsApi: { baseUrl: sandbox.smsUrl, accessToken: sandbox.tokens.sms },
		},
		// The examples set no time zone (n8n then uses the instance's); UTC keeps the report the same on every machine.
		timezone: 'UTC',
		facts: {},
		files,
		say: (line = '') => print(line ? `   ${line}` : ''),
		save: (name, bytes) => {
			const path = join(options.outputDir, name);
			writeFileSync(path, bytes);
			files.push(path);
			return join(outputLabel, relative(options.outputDir, path));
		},
		activate: async (workflow: ExampleWorkflow) => {
			const node = triggerOf(workflow);
			const trigger = host.add({
				name: node.name,
				parameters: node.parameters,
				credentials: vnCredentials,
				webhookId: node.webhookId,
			});
			await trigger.activate();
			active.push(trigger);
			return trigger;
		},
		deactivate: async (trigger) => {
			await trigger.deactivate();
			active.splice(active.indexOf(trigger), 1);
		},
	};
	return { demo, active };
}

function printIntroduction(
	print: (line: string) => void,
	sandbox: Sandbox,
	timezone: string,
): void {
	print(
		'n8n-nodes-virtualnum demo: the example workflows of examples/, run on a local sandbox of both services',
	);
	print(
		`Virtual number service ${sandbox.vnUrl}, SMS service ${sandbox.smsUrl} (in-process, seeded test account)`,
	);
	print(
		`Workflows run on n8n-core's engine; triggers are fed their pinned sample data or a real callback. Workflow time zone: ${timezone}.`,
	);
}

/** Runs one step under its number and title; a failure (or a reason it cannot run) is reported, not thrown. */
async function runStep(
	print: (line: string) => void,
	done: number,
	title: string,
	body: (demo: DemoRun) => Promise<void>,
	demo: DemoRun,
): Promise<DemoStep> {
	const say = demo.say;
	print('');
	print(`${done + 1}. ${title}`);
	const stepStarted = Date.now();
	try {
		await body(demo);
		const ms = Date.now() - stepStarted;
		say(`✓ passed (${ms} ms)`);
		return { title, ok: true, ms };
	} catch (error) {
		const ms = Date.now() - stepStarted;
		if (error instanceof NotRun) {
			say(`– not run: ${error.message}`);
			return { title, ok: true, ms, notRun: error.message };
		}
		const message = error instanceof Error ? error.message : String(error);
		const description = (error as { description?: string }).description;
		say(`✗ FAILED: ${message}`);
		if (description) say(`  ${description}`);
		return { title, ok: false, ms, error: description ? `${message} — ${description}` : message };
	}
}

/** The last lines: how many steps passed, in how long, the files written, each failure; true when all passed. */
function printSummary(
	print: (line: string) => void,
	steps: DemoStep[],
	ms: number,
	outputLabel: string,
	files: string[],
): boolean {
	const passed = steps.filter((s) => s.ok && !s.notRun).length;
	const notRun = steps.filter((s) => s.notRun).length;
	const ok = steps.every((s) => s.ok) && passed > 0;
	print('');
	print(
		`${ok ? '✓' : '✗'} ${passed} of ${steps.length} steps passed${notRun ? ` (${notRun} not run)` : ''} in ${(ms / 1000).toFixed(1)} s; files in ${outputLabel}/: ${files.join(', ') || 'none'}`,
	);
	for (const failed of steps.filter((s) => !s.ok)) print(`  ✗ ${failed.title}: ${failed.error}`);
	return ok;
}

export type { Sandbox };
