/**
 * What differs between the n8n engines the suite runs on: n8n 2.x (the devDependencies) and the last
 * n8n 1.x (`npm run test:n8n1`, n8n1/). Everything here detects the feature, never the version.
 */
import { createRequire } from 'node:module';
import vm from 'node:vm';

import { Container } from '@n8n/di';
import type { INode, INodeIssues, IWorkflowExecuteAdditionalData } from 'n8n-workflow';
import * as workflowPackage from 'n8n-workflow';

/**
 * n8n-core 1.x starts its SSH clients manager with an interval that keeps the process alive (2.x
 * unrefs it): unref it, so a test process exits when its tests are done.
 */
export async function releaseEngineTimers(): Promise<void> {
	let manager: { cleanupTimer?: NodeJS.Timeout };
	try {
		const { SSHClientsManager } = (await import(
			'n8n-core/dist/execution-engine/ssh-clients-manager.js' as string
		)) as {
			SSHClientsManager: new () => object;
		};
		manager = Container.get(SSHClientsManager);
	} catch {
		return; // not in this engine's layout: nothing of it to release
	}
	manager.cleanupTimer?.unref?.();
}

/** n8n-workflow's regex engine: each method runs one regex operation. */
type RegexEngine = Record<
	'exec' | 'test' | 'replace' | 'matchAll' | 'split',
	(...args: string[]) => unknown
>;

const REGEX_OPERATIONS = {
	exec: 'new RegExp(pattern, flags).exec(input)',
	test: 'new RegExp(pattern, flags).test(input)',
	replace: 'input.replace(new RegExp(pattern, flags), replacement)',
	matchAll:
		'Array.from(input.matchAll(new RegExp(pattern, flags.includes("g") ? flags : flags + "g")))',
	split: 'input.split(new RegExp(pattern, flags))',
};

/**
 * n8n-workflow 2.x runs the regexes it cannot trust (a resource locator typed By ID, checked before
 * every run) in a `vm` limited to 250 ms of wall time: its defence against a pattern that never ends.
 * On a test machine shared with other builds, a trivial pattern misses that limit while the process
 * waits for the CPU ("Regular expression execution timed out", seen in Send's and Assign Number's
 * tests). The harness keeps the defence, the same `vm` and scripts, with a limit the machine's load
 * does not reach (10 s). The CommonJS copy is the one n8n-core uses; 1.x has no such engine.
 */
export function patientRegexEngine(): void {
	const workflow = createRequire(import.meta.url)('n8n-workflow') as {
		setSafeRegexEngine?: (engine: RegexEngine) => void;
	};
	if (!workflow.setSafeRegexEngine) return;
	const context = vm.createContext({
		pattern: '',
		flags: '',
		input: '',
		replacement: '',
		result: undefined,
	});
	const engine = Object.fromEntries(
		Object.entries(REGEX_OPERATIONS).map(([name, code]) => {
			const script = new vm.Script(`result = ${code}`);
			const run = (pattern: string, input: string, flags = '', replacement = '') => {
				Object.assign(context, { pattern, input, flags, replacement, result: undefined });
				script.runInContext(context, { timeout: 10_000 });
				return (context as { result: unknown }).result;
			};
			return [name, run];
		}),
	) as RegexEngine;
	workflow.setSafeRegexEngine(engine);
}

/** n8n-core 2.x's CredentialTestContext takes the additional data (for its request helper); 1.x takes nothing. */
export function credentialTestContext<T>(
	Context: new (...args: never[]) => T,
	additionalData: IWorkflowExecuteAdditionalData,
): T {
	const Any = Context as unknown as new (...args: unknown[]) => T;
	return Context.length > 0 ? new Any(additionalData) : new Any();
}

type StructureCheck = (
	workflow: unknown,
) => { success: true } | { success: false; issues: unknown };

/** n8n-workflow 2.x's check of imported workflows; absent in 1.x (n8n 1.x imports without it). */
export const safeParseWorkflowStructure = (
	workflowPackage as unknown as { safeParseWorkflowStructure?: StructureCheck }
).safeParseWorkflowStructure;

/** n8n-workflow 2.x's `NodeHelpers.nodeIssuesToString`; in 1.x, the same messages collected here. */
export function nodeIssuesToString(issues: INodeIssues, node?: INode): string[] {
	const helpers = workflowPackage.NodeHelpers as {
		nodeIssuesToString?: (issues: INodeIssues, node?: INode) => string[];
	};
	if (helpers.nodeIssuesToString) return helpers.nodeIssuesToString(issues, node);
	const messages: string[] = issues.execution !== undefined ? ['Execution Error.'] : [];
	for (const group of [issues.parameters, issues.credentials, issues.input]) {
		for (const list of Object.values(group ?? {})) messages.push(...list);
	}
	if (issues.typeUnknown !== undefined)
		messages.push(`Node Type "${node?.type ?? ''}" is not known.`);
	return messages;
}

/**
 * What n8n-core says when it refuses to run a workflow whose parameters have issues: 2.x names the
 * issues (its WorkflowHasIssuesError takes them), 1.x only says the workflow has issues.
 */
export async function workflowIssuesRefusal(namedIssue: RegExp): Promise<RegExp> {
	const { WorkflowHasIssuesError } = await import('n8n-core');
	return WorkflowHasIssuesError.length > 0
		? namedIssue
		: /The workflow has issues and cannot be executed/;
}

/**
 * n8n-workflow 2.x's `isNodeClassInstance` (node classes such as n8n's own Webhook node get the
 * context as an argument); 1.x has no node classes, so nothing is one there.
 */
export const isNodeClassInstance: (nodeType: unknown) => boolean =
	(workflowPackage as unknown as { isNodeClassInstance?: (nodeType: unknown) => boolean })
		.isNodeClassInstance ?? (() => false);

type NativeResolution = { resolved: true; value: unknown } | { resolved: false };

/**
 * A webhook description's field as n8n 2.x reads it first: through the field's resolver, when the
 * description declares one and the node's parameters are static (n8n-workflow's
 * `resolveWebhookDescriptionField`). n8n 1.x has no resolvers: always unresolved (the expression).
 */
export function resolveNatively(node: INode, description: object, field: string): NativeResolution {
	const resolve = (workflowPackage as { resolveWebhookDescriptionField?: unknown })
		.resolveWebhookDescriptionField;
	if (typeof resolve !== 'function') return { resolved: false };
	return (resolve as (n: INode, d: object, f: string) => NativeResolution)(
		node,
		description,
		field,
	);
}
