/**
 * Node types of the e2e install of n8n (dev/e2e/node_modules: n8n-nodes-base, n8n's LangChain
 * nodes), loaded into this process beside the package's own, when that install is present.
 *
 * One n8n-workflow, one n8n-core, one @n8n/di: requires of those from inside the install resolve to
 * the worktree's copies (n8n's install has each once; two copies would mean two DI containers and
 * errors that fail `instanceof`). The install must hold the same versions; otherwise nothing is
 * loaded and the reason says which package differs. The install's folder is usually a link, so
 * both its path and its real path count as "inside".
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { PackageDirectoryLoader } from 'n8n-core';
import type { INodeType, INodeTypeDescription, IVersionedNodeType } from 'n8n-workflow';

import { NodeTypes } from './engine.mts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The install's node_modules (N8N_INSTALL_MODULES names another, e.g. an empty one to see the demo without it). */
export const E2E_MODULES =
	process.env.N8N_INSTALL_MODULES ?? join(ROOT, 'dev', 'e2e', 'node_modules');
/** Packages the install's nodes must share with the harness (one instance each, as in n8n). */
const SHARED = ['n8n-workflow', 'n8n-core', '@n8n/di'];

/** A node class in the install: its package, its file under the package, its exported class. */
export interface InstalledNode {
	pkg: string;
	file: string;
	exported: string;
}

export type InstallStatus =
	| { available: true; versions: Record<string, string> }
	| { available: false; reason: string };

const versionOf = (dir: string, name: string): string | undefined => {
	const file = join(dir, name, 'package.json');
	return existsSync(file)
		? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version
		: undefined;
};

/**
 * The node_modules folder the harness takes `name` from: the package's own, or another engine's when
 * one is put in its place (`npm run test:n8n1` gives it n8n 1.x's, whose nodes the install's do not fit).
 */
function engineModules(name: string): string {
	const resolved = createRequire(import.meta.url).resolve(name);
	const at = resolved.lastIndexOf('/node_modules/');
	return at < 0 ? join(ROOT, 'node_modules') : resolved.slice(0, at + '/node_modules'.length);
}

/** Whether these packages of the install can be loaded here, and why not (nothing is loaded). */
export function installStatus(packages: string[]): InstallStatus {
	if (!existsSync(join(E2E_MODULES, '.virtualnum-e2e-ready')))
		return {
			available: false,
			reason: 'the e2e install of n8n (dev/e2e/node_modules) is absent or incomplete',
		};
	const versions: Record<string, string> = {};
	for (const name of packages) {
		const version = versionOf(E2E_MODULES, name);
		if (!version) return { available: false, reason: `${name} is not in the e2e install` };
		versions[name] = version;
	}
	for (const name of SHARED) {
		const here = versionOf(engineModules(name), name);
		const there = versionOf(E2E_MODULES, name);
		if (here !== there)
			return {
				available: false,
				reason: `${name} differs: ${here ?? 'absent'} in the package, ${there ?? 'absent'} in the e2e install`,
			};
	}
	return { available: true, versions };
}

let redirected = false;

/** Makes requires of the shared packages from inside the install resolve to the worktree's copies. */
function shareEngine(): void {
	if (redirected) return;
	redirected = true;
	const inside = [E2E_MODULES, realpathSync(E2E_MODULES)].map((dir) => `${dir}/`);
	const fromRoot = createRequire(join(ROOT, 'package.json'));
	const internals = Module as unknown as {
		_resolveFilename: (
			request: string,
			parent: { filename?: string } | undefined,
			...rest: unknown[]
		) => string;
	};
	const original = internals._resolveFilename;
	internals._resolveFilename = function (request, parent, ...rest) {
		const filename = parent?.filename ?? '';
		if (
			inside.some((dir) => filename.startsWith(dir)) &&
			SHARED.some((name) => request === name || request.startsWith(`${name}/`))
		) {
			return fromRoot.resolve(request);
		}
		return original.call(this, request, parent, ...rest);
	};
}

/** Loads node classes of the install (call installStatus first) and returns one instance each. */
export function loadInstalledNodes(
	nodes: Record<string, InstalledNode>,
): Record<string, INodeType | IVersionedNodeType> {
	shareEngine();
	const types: Record<string, INodeType | IVersionedNodeType> = {};
	for (const [type, { pkg, file, exported }] of Object.entries(nodes)) {
		const dir = join(E2E_MODULES, pkg);
		const require = createRequire(join(dir, 'package.json'));
		const NodeClass = (
			require(join(dir, file)) as Record<string, new () => INodeType | IVersionedNodeType>
		)[exported];
		types[type] = new NodeClass();
	}
	return types;
}

/** This package's node types and, by full type name, node types loaded from the install. */
export class InstalledNodeTypes extends NodeTypes {
	constructor(
		loader: PackageDirectoryLoader,
		private readonly installed: Record<string, INodeType | IVersionedNodeType>,
	) {
		super(loader);
	}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		return this.installed[nodeType] ?? super.getByName(nodeType);
	}
}

/** The install's own list of node descriptions, by package (what the editor of that n8n shows). */
const DESCRIPTION_FILES: Record<string, string> = {
	'n8n-nodes-base.': 'n8n-nodes-base/dist/types/nodes.json',
	'@n8n/n8n-nodes-langchain.': '@n8n/n8n-nodes-langchain/dist/types/nodes.json',
};

/** Whether the install's node descriptions can be read (else checks against them are skipped). */
export const installedDescriptionsPresent = (): boolean =>
	existsSync(join(E2E_MODULES, DESCRIPTION_FILES['n8n-nodes-base.']));

/** The description of a core or LangChain node type at `version` in the install, if it has it. */
export function installedDescription(
	type: string,
	version: number,
): INodeTypeDescription | undefined {
	const prefix = Object.keys(DESCRIPTION_FILES).find((candidate) => type.startsWith(candidate));
	const file = prefix && join(E2E_MODULES, DESCRIPTION_FILES[prefix]);
	if (!file || !existsSync(file)) return undefined;
	const all = JSON.parse(readFileSync(file, 'utf8')) as INodeTypeDescription[];
	return all.find(
		(description) =>
			description.name === type.slice(prefix.length) &&
			([] as number[]).concat(description.version).includes(version),
	);
}
