/** A real n8n server (Node 24) with this package installed as a community package, and its REST API. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { spawnTracked, type Tracked } from './processes.mts';
import { PINNED_INSTALL, ROOT_DIR, type N8nInstall } from './install.mts';

/** The version being tested, as n8n's list of installed community packages records it. */
const PACKAGE_VERSION = (
	JSON.parse(readFileSync(join(ROOT_DIR, 'package.json'), 'utf8')) as { version: string }
).version;

export const OWNER = {
	email: 'owner@example.com',
	firstName: 'Demo',
	lastName: 'Owner',
	password: 'Virtualnum-e2e-1',
};

export async function freePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as { port: number };
			server.close(() => resolve(port));
		});
	});
}

export async function portIsFree(port: number): Promise<boolean> {
	return await new Promise((resolve) => {
		const server = createServer();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

/** Packs the built package and unpacks it where n8n keeps installed community packages. */
export function installPackage(userFolder: string): void {
	const packDir = mkdtempSync(join(tmpdir(), 'virtualnum-pack-'));
	execFileSync('npm', ['pack', '--pack-destination', packDir], { cwd: ROOT_DIR, stdio: 'ignore' });
	const tarball = join(packDir, readdirSync(packDir).find((f) => f.endsWith('.tgz'))!);
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	const target = join(nodesDir, 'node_modules', 'n8n-nodes-virtualnum');
	mkdirSync(target, { recursive: true });
	writeFileSync(
		join(nodesDir, 'package.json'),
		JSON.stringify({
			name: 'installed-nodes',
			private: true,
			dependencies: { 'n8n-nodes-virtualnum': PACKAGE_VERSION },
		}),
	);
	execFileSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
	rmSync(packDir, { recursive: true, force: true });
}

export interface N8nServer {
	url: string;
	port: number;
	userFolder: string;
	logs: string[];
	/** `/rest…` call with the owner's session; answers `data` when the body has it. */
	rest<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
	/** Any path of the server with the owner's session (e.g. `/types/nodes.json`). */
	get<T = unknown>(path: string): Promise<T>;
	/** Stops n8n (SIGTERM, as a service manager does) and starts it again on the same database and port. */
	restart(): Promise<void>;
	stop(): Promise<void>;
}

/**
 * The environment every n8n process of the e2e gets: its Node first on PATH, its own user folder, no
 * telemetry, the community package loaded.
 */
export function n8nEnv(
	userFolder: string,
	extra: NodeJS.ProcessEnv,
	install: N8nInstall = PINNED_INSTALL,
): NodeJS.ProcessEnv {
	return {
		...process.env,
		PATH: `${join(install.nodeDir, 'bin')}:${process.env.PATH ?? ''}`,
		N8N_USER_FOLDER: userFolder,
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_SECURE_COOKIE: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_COMMUNITY_PACKAGES_PREVENT_LOADING: 'false',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
		EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'true',
		N8N_LOG_LEVEL: 'info',
		...extra,
	};
}

/** Waits until `url` answers its readiness probe (and, for a main process, its REST API is up). */
export async function waitUntilReady(
	url: string,
	what: string,
	exited: Promise<number | null>,
	logs: string[],
	options: { rest: boolean; timeoutMs?: number },
): Promise<number> {
	const started = Date.now();
	const timeoutMs = options.timeoutMs ?? 180_000;
	for (;;) {
		if (Date.now() - started > timeoutMs)
			throw new Error(
				`${what} did not become ready in ${timeoutMs / 1000} s:\n${logs.slice(-30).join('\n')}`,
			);
		const code = await Promise.race([
			exited,
			new Promise<'alive'>((r) => setTimeout(() => r('alive'), 1000)),
		]);
		if (code !== 'alive')
			throw new Error(`${what} exited with ${code}:\n${logs.slice(-30).join('\n')}`);
		try {
			// /healthz answers before the REST API is up; readiness waits for it.
			const res = await fetch(`${url}/healthz/readiness`);
			if (res.ok && !options.rest) break;
			const probe = await fetch(`${url}/rest/settings`);
			const text = await probe.text();
			// n8n 1.x answers readiness some seconds before its REST routes exist (404 until then).
			if (res.ok && probe.ok && !text.includes('starting up')) break;
		} catch {
			// not listening yet
		}
	}
	return Math.round((Date.now() - started) / 1000);
}

export interface RestClient {
	rest<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
	get<T = unknown>(path: string): Promise<T>;
	/** Creates the owner on a fresh instance (when `setup`), then signs in. */
	signIn(setup: boolean): Promise<void>;
}

/** n8n's REST API with the owner's session cookie. */
export function restClient(url: string): RestClient {
	let cookie = '';
	const request = async <T,>(method: string, path: string, body?: unknown): Promise<T> => {
		const res = await fetch(`${url}${path}`, {
			method,
			headers: {
				'content-type': 'application/json',
				'browser-id': 'virtualnum-e2e',
				...(cookie ? { cookie } : {}),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const setCookie = res.headers.get('set-cookie');
		if (setCookie) cookie = setCookie.split(';')[0];
		const text = await res.text();
		if (!res.ok) throw new Error(`${method} ${path} → ${res.status}: ${text.slice(0, 500)}`);
		let parsed: { data?: T };
		try {
			parsed = text ? (JSON.parse(text) as { data?: T }) : {};
		} catch {
			throw new Error(`${method} ${path} → ${res.status}, not JSON: ${text.slice(0, 300)}`);
		}
		return (parsed.data ?? parsed) as T;
	};
	const rest = async <T,>(method: string, path: string, body?: unknown) =>
		await request<T>(method, `/rest${path}`, body);
	return {
		rest,
		get: async (path) => await request('GET', path),
		async signIn(setup) {
			if (setup) await rest('POST', '/owner/setup', OWNER);
			await rest('POST', '/login', { emailOrLdapLoginId: OWNER.email, password: OWNER.password });
		},
	};
}

export interface StartOptions {
	/** The editor's port when it is free (the playground asks for n8n's usual 5678), else any free one. */
	port?: number;
	/** Node.js flags for n8n's process (the bench's `--trace-gc`, which NODE_OPTIONS refuses). */
	nodeFlags?: string[];
	/** Which n8n and Node (dev/e2e/versions/ holds the others); the pinned 2.40.7 unless set. */
	install?: N8nInstall;
	/** false: start without the package, for a run that installs it through n8n itself. */
	withPackage?: boolean;
	/** More environment for n8n. */
	env?: NodeJS.ProcessEnv;
}

export async function startN8n(
	log: (line: string) => void,
	options: StartOptions = {},
): Promise<N8nServer> {
	const install = options.install ?? PINNED_INSTALL;
	const userFolder = mkdtempSync(join(tmpdir(), 'virtualnum-n8n-'));
	if (options.withPackage !== false) installPackage(userFolder);
	const port =
		options.port !== undefined && (await portIsFree(options.port))
			? options.port
			: await freePort();
	const brokerPort = await freePort();
	const url = `http://127.0.0.1:${port}`;
	const launch = async (): Promise<Tracked> => {
		const args = [...(options.nodeFlags ?? []), install.n8nBin, 'start'];
		const child = spawnTracked('n8n', install.node, args, {
			env: n8nEnv(
				userFolder,
				{
					N8N_PORT: String(port),
					N8N_RUNNERS_BROKER_PORT: String(brokerPort),
					[install.webhookUrlVariable]: `${url}/`,
					N8N_EDITOR_BASE_URL: `${url}/`,
					DB_SQLITE_POOL_SIZE: '2',
					...options.env,
				},
				install,
			),
		});
		const seconds = await waitUntilReady(url, 'n8n', child.exited, child.logs, { rest: true });
		log(`${install.label} is healthy at ${url} after ${seconds} s`);
		return child;
	};
	let child = await launch();
	const client = restClient(url);
	await client.signIn(true);

	return {
		url,
		port,
		userFolder,
		get logs() {
			return child.logs;
		},
		rest: client.rest,
		get: client.get,
		async restart() {
			await child.stop('SIGTERM', 15_000);
			child = await launch();
			await client.signIn(false);
		},
		async stop() {
			await child.stop('SIGTERM', 15_000);
			rmSync(userFolder, { recursive: true, force: true });
		},
	};
}
