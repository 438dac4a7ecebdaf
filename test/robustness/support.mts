/**
 * What the robustness suites share: the representative operation of each resource of both nodes,
 * how to run one against a sandbox, and the collector of everything the runs produce (output
 * items, error messages and descriptions; the log lines are n8n-core's captured ones), which the
 * secrets test sweeps at the end.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { runWorkflow, type RunResult } from '../../dev/harness/engine.mts';
import { selectedNumbers } from '../../dev/harness/trigger.mts';
import { capturedLogs } from '../../dev/harness/logger.mts';
import { refusedKeys } from '../../dev/harness/outputKeys.mts';
import type { Sandbox } from '../../dev/sandbox/index.mts';

/** The password the user operations use (it must never come back out). */
export const PASSWORD = 'Robust-Passw0rd-4217';
/** The trigger's secret (it travels in the registered callback URL, never in an item, a log line or an error). */
export const TRIGGER_SECRET = 'robust-Trigger_Secret-93';

export const NODE = 'Node';

// ---- resource locators, and the suite's independence from the machine's load ----------------------
//
// n8n checks a resource-locator value typed By ID / By Number against the mode's regex at the start
// of every execution (WorkflowExecute.checkForWorkflowIssues → NodeHelpers.getNodeParametersIssues →
// validateResourceLocatorParameter), and n8n-workflow runs that regex in a `vm` limited to 250 ms of
// wall time (safe-regex.js). On a loaded 2-core machine a run can be descheduled that long and fail
// with "Regular expression execution timed out", which says nothing about the package. So the suite
// picks its values From List, which n8n does not check by regex and the nodes read the same way
// (getNodeParameter with extractValue); a value from an expression is not checked either. What the
// typed route would add — that the same values pass the regexes of a typed mode (By ID, By Number,
// By Name) — is checked once, without a time limit, at the end of robustness.test.mts, and a spy
// proves that no time-limited regex ran during the suite. New runs: use rl() and listedNumbers().

/** A resource-locator value as the user picks it From List. */
export const rl = (value: string) => ({ __rl: true, mode: 'list', value });

/** The trigger's "Virtual Numbers" picked From List. */
export function listedNumbers(numbers: string[]): IDataObject {
	for (const value of numbers)
		picked.push({ type: 'virtualNumberTrigger', name: 'virtualnum', value });
	return selectedNumbers(numbers, 'list');
}

const picked: Array<{ type: string; name: string; value: string }> = [];

/** Notes every value picked From List in a run's parameters (checked against the typed route's regexes at the end). */
export function notePicked(type: string, parameters: unknown, name = ''): void {
	if (Array.isArray(parameters)) {
		for (const value of parameters) notePicked(type, value, name);
		return;
	}
	if (parameters === null || typeof parameters !== 'object') return;
	const locator = parameters as { __rl?: unknown; mode?: unknown; value?: unknown };
	if (
		locator.__rl === true &&
		locator.mode === 'list' &&
		typeof locator.value === 'string' &&
		!locator.value.startsWith('=')
	) {
		picked.push({ type, name, value: locator.value });
		return;
	}
	for (const [key, value] of Object.entries(parameters)) notePicked(type, value, key);
}

/** Every distinct value the suite picked From List, with its node type and parameter name. */
export function pickedLocators(): Array<{ type: string; name: string; value: string }> {
	const seen = new Map(
		picked.map((entry) => [`${entry.type} ${entry.name} ${entry.value}`, entry]),
	);
	return [...seen.values()];
}

const timedRegex = { calls: 0 };

/**
 * Counts n8n-workflow's time-limited regex calls in this process (the CommonJS copy, the one
 * n8n-core uses), passing every call on unchanged.
 */
function spyOnTimedRegex(): void {
	const { safeRegex } = createRequire(import.meta.url)('n8n-workflow') as {
		safeRegex: Record<string, (...args: unknown[]) => unknown>;
	};
	for (const method of Object.keys(safeRegex)) {
		const original = safeRegex[method];
		safeRegex[method] = (...args: unknown[]) => {
			timedRegex.calls++;
			return original(...args);
		};
	}
}
spyOnTimedRegex();

/** How many time-limited regex checks n8n made in this process so far. */
export const timedRegexCalls = () => timedRegex.calls;
/** A value as an expression result, past n8n's own editor checks (as when it comes from an earlier node). */
export const expr = (value: unknown) => `={{ ${JSON.stringify(value)} }}`;

// ---- collector ----------------------------------------------------------------------------------

interface Produced {
	source: string;
	kind: 'item' | 'error' | 'log';
	text: string;
}

const produced: Produced[] = [];

function safeJson(value: unknown): string {
	try {
		return (
			JSON.stringify(value, (key, inner: unknown) =>
				// n8n keeps the workflow's node (its parameters as typed, passwords included) on errors and in
				// the execution stack, like any workflow JSON: that is the user's own input, not output.
				(key === 'node' || key === 'nodes') && inner && typeof inner === 'object'
					? '[workflow node]'
					: inner,
			) ?? ''
		);
	} catch {
		return String(value);
	}
}

/** Keeps an error's message, description and context (data shown in n8n's error pane). */
export function collectError(source: string, error: unknown): void {
	if (error === undefined || error === null) return;
	const e = error as {
		message?: unknown;
		description?: unknown;
		context?: unknown;
		cause?: unknown;
		stack?: unknown;
	};
	produced.push({
		source,
		kind: 'error',
		text: [
			String(e.message ?? error),
			String(e.description ?? ''),
			safeJson(e.context),
			safeJson(e.cause),
		].join('\n'),
	});
}

/** Keeps every output item (JSON, binary metadata) and error of a run. */
export function collectRun(source: string, result: RunResult): RunResult {
	for (const [nodeName, tasks] of Object.entries(result.run.data.resultData.runData)) {
		if (nodeName === 'Start') continue;
		for (const task of tasks) {
			for (const output of task.data?.main ?? []) {
				for (const item of output ?? []) collectItem(source, item);
			}
			if (task.error) collectError(source, task.error);
		}
	}
	if (result.error) collectError(source, result.error);
	return result;
}

export function collectItem(source: string, item: INodeExecutionData): void {
	collectKeys(source, item);
	const binary = item.binary
		? Object.fromEntries(
				Object.entries(item.binary).map(([key, value]) => [
					key,
					{ ...value, data: value.id ? value.data : `(${value.data.length} base64 characters)` },
				]),
			)
		: undefined;
	produced.push({ source, kind: 'item', text: safeJson({ json: item.json, binary }) });
}

// ---- output keys (issue 17 §2): every key of every collected output item, checked at the end -----

interface ProducedKeys {
	source: string;
	/** Keys n8n refuses (n8n-workflow's isSafeObjectProperty), with their path. */
	refused: string[];
}

const producedKeys: ProducedKeys[] = [];

function collectKeys(source: string, item: INodeExecutionData): void {
	producedKeys.push({ source, refused: refusedKeys(item.json) });
}

/** The items collected whose source matches, and the refused keys found in them. */
export function sweptKeys(match: (source: string) => boolean): {
	items: number;
	refused: Array<{ source: string; key: string }>;
} {
	const swept = producedKeys.filter((entry) => match(entry.source));
	return {
		items: swept.length,
		refused: swept.flatMap((entry) => entry.refused.map((key) => ({ source: entry.source, key }))),
	};
}

export function collectedCount(): { items: number; errors: number; logs: number } {
	return {
		items: produced.filter((entry) => entry.kind === 'item').length,
		errors: produced.filter((entry) => entry.kind === 'error').length,
		logs: capturedLogs.length,
	};
}

/** Every collected text and every log line n8n-core wrote in this process that contains one of the secrets. */
export function findSecrets(
	secrets: string[],
	extra: Produced[] = [],
): Array<{ source: string; kind: string; secret: string; excerpt: string }> {
	const all: Produced[] = [
		...produced,
		...capturedLogs.map((text) => ({ source: 'n8n log', kind: 'log' as const, text })),
		...extra,
	];
	const found: Array<{ source: string; kind: string; secret: string; excerpt: string }> = [];
	for (const entry of all) {
		for (const secret of secrets) {
			const at = entry.text.indexOf(secret);
			if (at >= 0)
				found.push({
					source: entry.source,
					kind: entry.kind,
					secret,
					excerpt: entry.text.slice(Math.max(0, at - 60), at + secret.length + 20),
				});
		}
	}
	return found;
}

// ---- running one node ---------------------------------------------------------------------------

export type NodeType = 'virtualNumber' | 'bulkSms';

export function credentialsFor(sandbox: Sandbox, base?: { vn?: string; sms?: string }) {
	return {
		virtualnumApi: { baseUrl: base?.vn ?? sandbox.vnUrl, accessToken: sandbox.tokens.vn },
		virtualnumSmsApi: {
			baseUrl: base?.sms ?? sandbox.smsUrl,
			accessToken: sandbox.tokens.sms,
			accountToken: sandbox.tokens.smsAccount,
		},
	};
}

export interface RunOneOptions {
	continueOnFail?: boolean;
	input?: IDataObject[];
	/** Base URLs other than the sandbox's (a proxy in front of it). */
	base?: { vn?: string; sms?: string };
	/** Whole input items (with binary data), instead of `input`. */
	items?: INodeExecutionData[];
}

/** Runs one node against the sandbox, collects what it produced, and times it. */
export async function runOne(
	source: string,
	sandbox: Sandbox,
	type: NodeType,
	parameters: IDataObject,
	options: RunOneOptions = {},
): Promise<RunResult & { ms: number }> {
	const started = Date.now();
	notePicked(type, parameters);
	const result = await runWorkflow({
		nodes: [{ name: NODE, type, parameters, continueOnFail: options.continueOnFail }],
		input: options.items ?? (options.input ?? [{}]).map((json) => ({ json })),
		credentials: credentialsFor(sandbox, options.base),
	});
	collectRun(source, result);
	return Object.assign(result, { ms: Date.now() - started });
}

/** The node's output items (none when it failed). */
export const outputOf = (result: RunResult): INodeExecutionData[] =>
	result.run.data.resultData.runData[NODE]?.[0]?.data?.main?.[0] ?? [];

/** The error of a run that must fail, checked to be one of n8n's node errors (not a crash of the code). */
export function failureOf(result: RunResult): NonNullable<RunResult['error']> {
	if (!result.error) {
		throw new assert.AssertionError({
			message: `the run should have failed, but it output ${JSON.stringify(outputOf(result).map((item) => item.json)).slice(0, 400)}`,
		});
	}
	assertNodeError(result.error);
	return result.error;
}

const CRASH =
	/Cannot read propert|is not a function|is not iterable|undefined is not|Unexpected token|Maximum call stack|of undefined|of null/;

/** An error n8n shows as the node's (NodeApiError / NodeOperationError), with words a user can act on. */
export function assertNodeError(error: Error & { description?: string | null }): void {
	assert.ok(
		['NodeApiError', 'NodeOperationError'].includes(error.name),
		`a node error, not a ${error.name}: ${error.message}`,
	);
	assert.doesNotMatch(
		`${error.message}\n${error.description ?? ''}`,
		CRASH,
		'an error of the code itself',
	);
}

// ---- the representative operation of each resource ----------------------------------------------

export interface Operation {
	/** Resource → operation, in the node's words. */
	label: string;
	type: NodeType;
	server: 'vn' | 'sms';
	/** The operation the service sees (and the errors name). */
	service: string;
	parameters(sandbox: Sandbox): IDataObject;
	/** It changes something (a send, a call, a write): a lost answer must not invite a blind retry. */
	sideEffect: boolean;
	/** Parameters that set the operation's Timeout option to `seconds`, when it has one. */
	timeout?: (seconds: number) => IDataObject;
	/** What a wrong-length (one item short) answer does: the node can tell, or it reads what it got. */
	wrongLength: 'error' | 'fewerItems' | 'noArray';
	/** Output items of one run without faults (to compare a wrong-length run with). */
	itemsOfOneRun?: number;
	/** How errors name the operation, when not by its service name alone. */
	names?: RegExp;
}

const A_NUMBER = '0722000100';

export const OPERATIONS: Operation[] = [
	{
		label: 'Virtual Number → Account → Test Connection',
		type: 'virtualNumber',
		server: 'vn',
		service: 'test',
		parameters: () => ({ resource: 'account', operation: 'test' }),
		sideEffect: false,
		wrongLength: 'noArray',
	},
	{
		label: 'Virtual Number → Virtual Number → Get',
		type: 'virtualNumber',
		server: 'vn',
		service: 'get_virtualnum',
		parameters: () => ({ resource: 'virtualnum', operation: 'get', virtualnum: rl(A_NUMBER) }),
		sideEffect: false,
		// One record in an array: one short is none, which the node reports as "not in the account".
		wrongLength: 'error',
	},
	{
		label: 'Virtual Number → Call → Click to Call',
		type: 'virtualNumber',
		server: 'vn',
		service: 'create_virtualnum_call',
		parameters: () => ({
			resource: 'call',
			operation: 'clickToCall',
			virtualnum: rl(A_NUMBER),
			destination: '050-1234567',
		}),
		sideEffect: true,
		wrongLength: 'noArray',
	},
	{
		label: 'Virtual Number → Call Record → Query',
		type: 'virtualNumber',
		server: 'vn',
		service: 'cdr_query',
		parameters: () => ({
			resource: 'cdr',
			operation: 'query',
			queryMode: 'builder',
			columns: ['cdr_uniqueid', 'call_status'],
			limit: 5,
		}),
		sideEffect: false,
		timeout: (seconds) => ({ options: { timeout: seconds } }),
		wrongLength: 'fewerItems',
		itemsOfOneRun: 5,
	},
	{
		label: 'Virtual Number → Offline Conversion → Set',
		type: 'virtualNumber',
		server: 'vn',
		service: 'set_ads_offline_conversion',
		parameters: (sandbox) => ({
			resource: 'offlineConversion',
			operation: 'set',
			callUuid: sandbox.control.cdrs()[0].cdr_uniqueid,
			conversionValue: '120.5',
		}),
		sideEffect: true,
		wrongLength: 'noArray',
	},
	{
		label: 'Virtual Number → User → Create',
		type: 'virtualNumber',
		server: 'vn',
		service: 'set_user',
		parameters: () => ({
			resource: 'user',
			operation: 'create',
			email: 'robust.user@example.com',
			password: PASSWORD,
		}),
		sideEffect: true,
		wrongLength: 'noArray',
	},
	{
		label: 'Virtual Number → Tag → Get Many',
		type: 'virtualNumber',
		server: 'vn',
		service: 'view_tags',
		parameters: () => ({ resource: 'tag', operation: 'getAll', returnAll: true }),
		sideEffect: false,
		wrongLength: 'fewerItems',
		itemsOfOneRun: 6,
	},
	{
		label: 'Virtual Number → Blacklist → Add',
		type: 'virtualNumber',
		server: 'vn',
		service: 'add_number_to_blacklist',
		parameters: () => ({
			resource: 'blacklist',
			operation: 'add',
			callerNumber: '050-3333333',
			scope: 'global',
			note: 'robustness',
		}),
		sideEffect: true,
		wrongLength: 'noArray',
	},
	{
		label: 'Virtual Number → Voice Prompt → Get Many',
		type: 'virtualNumber',
		server: 'vn',
		service: 'get_prompts_list',
		parameters: () => ({ resource: 'prompt', operation: 'getAll', returnAll: true }),
		sideEffect: false,
		wrongLength: 'fewerItems',
		itemsOfOneRun: 3,
	},
	{
		label: 'Bulk SMS → Message → Send',
		type: 'bulkSms',
		server: 'sms',
		service: 'send_sms',
		// Two recipients: one batch of two messages.
		parameters: () => ({
			resource: 'message',
			operation: 'send',
			sender: rl('VirtualNum'),
			to: '050-1234567, 052-7654321',
			message: 'Robustness check',
		}),
		sideEffect: true,
		wrongLength: 'error',
		// Failed recipients (the service answered, per message) are told in the user's words.
		names: /\bsend_sms\b|SMS messages failed|message to \d+ was not sent/,
	},
	{
		label: 'Bulk SMS → Sender → List',
		type: 'bulkSms',
		server: 'sms',
		service: 'get_sender_list',
		parameters: () => ({ resource: 'sender', operation: 'list' }),
		sideEffect: false,
		wrongLength: 'noArray',
	},
	{
		label: 'Bulk SMS → Credit → Get Balance',
		type: 'bulkSms',
		server: 'sms',
		service: 'credit',
		parameters: () => ({ resource: 'credit', operation: 'getBalance' }),
		sideEffect: false,
		wrongLength: 'noArray',
	},
];

/** Requests the service received for the operation. */
export const requestsTo = (sandbox: Sandbox, op: { server: 'vn' | 'sms'; service: string }) =>
	sandbox.control.requests({ service: op.server, operation: op.service });

/** The operation's name as the errors say it. */
export const namesOperation = (op: Operation) => op.names ?? new RegExp(`\\b${op.service}\\b`);

/** Words that tell the user a change may have been made (so a blind retry may repeat it). */
export const MAY_HAVE_HAPPENED =
	/may have been (carried out|sent|made|placed)|may or may not have been made|change was made/i;
