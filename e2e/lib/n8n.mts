/** A real n8n server (Node 24) with this package installed as a community package, and its REST API. */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { N8N_BIN, NODE24, NODE24_DIR, ROOT_DIR } from './setup.mts';

export const OWNER = { email: 'owner@example.com', firstName: 'Demo', lastName: 'Owner', password: 'Virtualnum-e2e-1' };

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
		JSON.stringify({ name: 'installed-nodes', private: true, dependencies: { 'n8n-nodes-virtualnum': '0.1.0' } }),
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

/** Starts n8n on the user folder and port; resolves once its REST API answers. */
async function launch(userFolder: string, port: number, logs: string[], log: (line: string) => void): Promise<{ child: ChildProcess; exited: Promise<number | null> }> {
	const brokerPort = await freePort();
	const url = `http://127.0.0.1:${port}`;
	const child: ChildProcess = spawn(NODE24, [N8N_BIN, 'start'], {
		env: {
			...process.env,
			PATH: `${join(NODE24_DIR, 'bin')}:${process.env.PATH ?? ''}`,
			N8N_USER_FOLDER: userFolder,
			N8N_PORT: String(port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_RUNNERS_BROKER_PORT: String(brokerPort),
			WEBHOOK_URL: `${url}/`,
			N8N_EDITOR_BASE_URL: `${url}/`,
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
			DB_SQLITE_POOL_SIZE: '2',
		},
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	for (const stream of [child.stdout!, child.stderr!]) {
		stream.setEncoding('utf8');
		stream.on('data', (chunk: string) => logs.push(...chunk.split('\n').filter(Boolean)));
	}
	const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
	const started = Date.now();
	for (;;) {
		if (Date.now() - started > 180_000) throw new Error(`n8n did not become healthy in 180 s:\n${logs.slice(-30).join('\n')}`);
		const code = await Promise.race([exited, new Promise<'alive'>((r) => setTimeout(() => r('alive'), 1000))]);
		if (code !== 'alive') throw new Error(`n8n exited with ${code}:\n${logs.slice(-30).join('\n')}`);
		try {
			// /healthz answers before the REST API is up; readiness waits for it.
			const res = await fetch(`${url}/healthz/readiness`);
			const probe = await fetch(`${url}/rest/settings`);
			const text = await probe.text();
			if (res.ok && !text.includes('starting up')) break;
		} catch {
			// not listening yet
		}
	}
	log(`n8n is healthy at ${url} after ${Math.round((Date.now() - started) / 1000)} s`);
	return { child, exited };
}

async function terminate(server: { child: ChildProcess; exited: Promise<number | null> }): Promise<void> {
	server.child.kill('SIGTERM');
	const timer = setTimeout(() => server.child.kill('SIGKILL'), 15_000);
	await server.exited;
	clearTimeout(timer);
}

export async function startN8n(log: (line: string) => void): Promise<N8nServer> {
	const userFolder = mkdtempSync(join(tmpdir(), 'virtualnum-n8n-'));
	installPackage(userFolder);
	const port = await freePort();
	const url = `http://127.0.0.1:${port}`;
	const logs: string[] = [];
	let running = await launch(userFolder, port, logs, log);

	let cookie = '';
	const request = async <T,>(method: string, path: string, body?: unknown): Promise<T> => {
		const res = await fetch(`${url}${path}`, {
			method,
			headers: { 'content-type': 'application/json', 'browser-id': 'virtualnum-e2e', ...(cookie ? { cookie } : {}) },
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
	const rest = async <T,>(method: string, path: string, body?: unknown) => await request<T>(method, `/rest${path}`, body);
	await rest('POST', '/owner/setup', OWNER);
	const login = async () => await rest('POST', '/login', { emailOrLdapLoginId: OWNER.email, password: OWNER.password });
	await login();

	return {
		url,
		port,
		userFolder,
		logs,
		rest,
		get: async (path) => await request('GET', path),
		async restart() {
			await terminate(running);
			running = await launch(userFolder, port, logs, log);
			cookie = '';
			await login();
		},
		async stop() {
			await terminate(running);
			rmSync(userFolder, { recursive: true, force: true });
		},
	};
}
