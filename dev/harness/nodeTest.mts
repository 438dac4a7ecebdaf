/**
 * The set-up node tests share: a sandbox per test file, credentials pointing at it, and one node of
 * this package run through n8n's engine (dev/harness/engine.mts) against it.
 *
 *     const sandbox = sandboxPerFile();
 *     const run = nodeRunner('bulkSms', sandbox);
 *     test('…', async () => { sandbox.control.setCredit(10); … });
 */
import { after, before, beforeEach } from 'node:test';

import type { ICredentialDataDecryptedObject, IDataObject, INodeExecutionData } from 'n8n-workflow';

import { startSandbox, type Sandbox, type SandboxOptions } from '../sandbox/index.mts';
import { runWorkflow, type RunResult, type WorkflowNode } from './engine.mts';
import { TriggerHost } from './trigger.mts';

export interface SandboxPerFileOptions {
	/** Options of `startSandbox` (a profile, a seed, …). */
	sandbox?: SandboxOptions;
	/** Runs before each test, after the sandbox was reset (e.g. a `configure` every test relies on). */
	beforeEach?: (sandbox: Sandbox) => void | Promise<void>;
}

/**
 * Starts a sandbox before the file's (or the current `describe`'s) tests, resets it before each
 * test and closes it after them. What it returns stands for that sandbox (it reads through to the
 * one started), so a test writes `sandbox.control…` as with a sandbox of its own.
 */
export function sandboxPerFile(options: SandboxPerFileOptions = {}): Sandbox {
	let started: Sandbox | undefined;
	const current = (): Sandbox => {
		if (!started) throw new Error('The sandbox starts in `before`: use it inside a test or hook');
		return started;
	};
	before(async () => {
		started = await startSandbox(options.sandbox);
	});
	after(async () => await started?.close());
	beforeEach(async () => {
		current().control.reset();
		await options.beforeEach?.(current());
	});
	return new Proxy({} as Sandbox, {
		get: (_, key) => {
			const value = Reflect.get(current(), key) as unknown;
			return typeof value === 'function' ? value.bind(current()) : value;
		},
	});
}

/** The credential type each node of the package runs with. */
const CREDENTIAL_OF = {
	bulkSms: 'virtualnumSmsApi',
	virtualNumber: 'virtualnumApi',
	virtualNumberTrigger: 'virtualnumApi',
	virtualNumberCallRecordTrigger: 'virtualnumApi',
} as const;

export type PackageNode = keyof typeof CREDENTIAL_OF;

/** The Bulk SMS credential, on the sandbox's SMS service and token. */
export function smsCredential(sandbox: Sandbox, overrides: IDataObject = {}) {
	return { baseUrl: sandbox.smsUrl, accessToken: sandbox.tokens.sms, ...overrides };
}

/** The Virtual Number credential, on the sandbox's virtual number service and token. */
export function vnCredential(sandbox: Sandbox, overrides: IDataObject = {}) {
	return { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn, ...overrides };
}

/** The credential store a node of `type` runs with: its credential on the sandbox, with `overrides`. */
export function credentialsFor(
	type: PackageNode,
	sandbox: Sandbox,
	overrides: IDataObject = {},
): Record<string, ICredentialDataDecryptedObject> {
	const name = CREDENTIAL_OF[type];
	const credential =
		name === 'virtualnumSmsApi'
			? smsCredential(sandbox, overrides)
			: vnCredential(sandbox, overrides);
	return { [name]: credential };
}

/** The node's name in the workflows `nodeRunner` runs (what `items(...)` is asked for). */
export const NODE_NAMES: Record<PackageNode, string> = {
	bulkSms: 'Bulk SMS',
	virtualNumber: 'VN',
	virtualNumberTrigger: 'Virtual Number Trigger',
	virtualNumberCallRecordTrigger: 'Call Record Trigger',
};

export interface NodeRunOptions {
	/** The input items' JSON (one empty item when neither this nor `items` is given). */
	input?: IDataObject[];
	/** Whole input items (with binary data or pairing). */
	items?: INodeExecutionData[];
	/** Settings → On Error: Continue (using regular output). */
	continueOnFail?: boolean;
	onError?: WorkflowNode['onError'];
	retryOnFail?: boolean;
	maxTries?: number;
	/** The node's version (1 when not given: the version saved workflows have). */
	typeVersion?: number;
	/** The workflow's time zone (UTC when not given). */
	timezone?: string;
	/** Fields of the node's credential other than the sandbox's (a base URL, a token, Send Numbers As). */
	credentials?: IDataObject;
}

export type NodeRun = (parameters: IDataObject, options?: NodeRunOptions) => Promise<RunResult>;

/** Runs one node of `type` with the given parameters against the sandbox, named `name`. */
export function nodeRunner(
	type: PackageNode,
	sandbox: Sandbox | (() => Sandbox),
	name: string = NODE_NAMES[type],
): NodeRun {
	const current = typeof sandbox === 'function' ? sandbox : () => sandbox;
	return async (parameters, options = {}) =>
		await runWorkflow({
			nodes: [
				{
					name,
					type,
					parameters,
					typeVersion: options.typeVersion,
					continueOnFail: options.continueOnFail,
					onError: options.onError,
					retryOnFail: options.retryOnFail,
					maxTries: options.maxTries,
				},
			],
			input: options.items ?? options.input?.map((json) => ({ json })),
			timezone: options.timezone,
			credentials: credentialsFor(type, current(), options.credentials),
		});
}

/** The JSON of a node's output items; fails the test, with the workflow's error, when it failed. */
export function jsons(result: RunResult, name: string): IDataObject[] {
	if (result.error)
		throw new Error(
			`The workflow failed: ${result.error.message} — ${result.error.description ?? ''}`,
		);
	return result.items(name).map((item) => item.json);
}

/** The error of a run that must fail; fails the test, with what the node output, when it did not. */
export function failure(result: RunResult, name: string): NonNullable<RunResult['error']> {
	if (!result.error) {
		const output = JSON.stringify(result.items(name).map((item) => item.json));
		throw new Error(`The workflow should have failed but output ${output.slice(0, 300)}`);
	}
	return result.error;
}

/** A resource-locator value, as the editor saves it. */
export const rl = (value: string, mode: 'list' | 'id' = 'list') => ({ __rl: true, mode, value });

/** An expression giving `value` at run time (as when it comes from an earlier node), past n8n's own parameter checks. */
export const expr = (value: unknown) => `={{ ${JSON.stringify(value)} }}`;

/**
 * A trigger host started before the file's (or the `describe`'s) tests and closed after them; the
 * answer stands for it, as sandboxPerFile's does for the sandbox.
 */
export function hostPerFile(): TriggerHost {
	let started: TriggerHost | undefined;
	before(async () => {
		started = await TriggerHost.start();
	});
	after(async () => await started?.close());
	const current = (): TriggerHost => {
		if (!started)
			throw new Error('The trigger host starts in `before`: use it inside a test or hook');
		return started;
	};
	return new Proxy({} as TriggerHost, {
		get: (_, key) => {
			const value = Reflect.get(current(), key) as unknown;
			return typeof value === 'function' ? value.bind(current()) : value;
		},
		set: (_, key, value) => Reflect.set(current(), key, value),
	});
}
