/**
 * A throw-away PostgreSQL cluster for the queue-mode run: initdb into a folder under e2e/.queue, its
 * own port on 127.0.0.1 (no Unix socket), password login, durability off (nothing here must survive
 * a crash), stopped by its process id and deleted afterwards. Debian's `postgresql` is installed with
 * apt when missing. As root the server runs as the `postgres` user (PostgreSQL refuses root).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { freePort } from '../../harness/n8n/server.mts';
import { spawnTracked, type Tracked } from '../../harness/n8n/processes.mts';
import { ensureAptPackages, postgresBinDir } from '../../harness/n8n/install.mts';

const run = promisify(execFile);

export interface Postgres {
	host: string;
	port: number;
	user: string;
	password: string;
	process: Tracked;
	/** Runs SQL with psql and answers its unaligned output (`-At`), trimmed. */
	sql(database: string, statement: string): Promise<string>;
	/** Runs a query that returns one JSON value (e.g. `SELECT json_agg(…)`), parsed. */
	json<T>(database: string, query: string): Promise<T>;
	stop(): Promise<void>;
}

interface Account {
	uid: number;
	gid: number;
}

/** The `postgres` system user, when this runs as root; undefined otherwise (the server runs as us). */
async function serverAccount(): Promise<Account | undefined> {
	if (process.getuid?.() !== 0) return undefined;
	const [uid, gid] = await Promise.all([
		run('id', ['-u', 'postgres']),
		run('id', ['-g', 'postgres']),
	]);
	return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** The command line that runs `binary` as the server's account (setpriv: no extra process in between). */
function asAccount(
	account: Account | undefined,
	binary: string,
	args: string[],
): [string, string[]] {
	if (!account) return [binary, args];
	return [
		'setpriv',
		[`--reuid=${account.uid}`, `--regid=${account.gid}`, '--init-groups', '--', binary, ...args],
	];
}

export async function startPostgres(
	baseDir: string,
	log: (line: string) => void,
): Promise<Postgres> {
	ensureAptPackages(log, [{ pkg: 'postgresql', present: () => postgresBinDir() !== undefined }]);
	const bin = postgresBinDir()!;
	const account = await serverAccount();
	const dir = await clusterDir(baseDir, account, log);
	const data = join(dir, 'data');
	const user = 'virtualnum';
	const password = randomBytes(12).toString('hex');
	await initCluster(bin, account, dir, { data, user, password });

	const port = await freePort();
	const [postgres, args] = asAccount(account, join(bin, 'postgres'), [
		'-D',
		data,
		'-p',
		String(port),
		...SERVER_SETTINGS.flatMap((setting) => ['-c', setting]),
	]);
	const server = spawnTracked('postgres', postgres, args, { cwd: dir });
	const sql = psql(bin, { port, user, password });
	await waitForServer(server, () => sql('postgres', 'SELECT 1'));
	log(
		`postgres ${bin.split('/').at(-2)} on 127.0.0.1:${port} (pid ${server.pid}, data in ${data})`,
	);
	return {
		host: '127.0.0.1',
		port,
		user,
		password,
		process: server,
		sql,
		async json<T>(database: string, query: string): Promise<T> {
			const text = await sql(database, query);
			return JSON.parse(text === '' ? 'null' : text) as T;
		},
		async stop() {
			await server.stop('SIGINT', 20_000); // SIGINT: PostgreSQL's fast shutdown
			rmSync(dir, { recursive: true, force: true });
		},
	};
}

/** The server's settings: loopback only, no socket file, durability off (a throwaway test database). */
const SERVER_SETTINGS = [
	'listen_addresses=127.0.0.1',
	'unix_socket_directories=',
	'fsync=off',
	'synchronous_commit=off',
	'full_page_writes=off',
	'max_connections=200',
	'log_min_messages=warning',
];

/** A new cluster in `dir`/data, its superuser `user` with `password` (the password file removed after). */
async function initCluster(
	bin: string,
	account: Awaited<ReturnType<typeof serverAccount>>,
	dir: string,
	{ data, user, password }: { data: string; user: string; password: string },
): Promise<void> {
	writeFileSync(join(dir, 'pwfile'), `${password}\n`);
	if (account) chownSync(join(dir, 'pwfile'), account.uid, account.gid);
	chmodSync(join(dir, 'pwfile'), 0o600);

	const [initdb, initArgs] = asAccount(account, join(bin, 'initdb'), [
		'-D',
		data,
		'-U',
		user,
		`--pwfile=${join(dir, 'pwfile')}`,
		'--auth=scram-sha-256',
		'-E',
		'UTF8',
		'--locale=C.UTF-8',
		'--no-sync',
	]);
	await run(initdb, initArgs, { cwd: dir });
	rmSync(join(dir, 'pwfile'));
}

/** Runs one statement through psql; its rows as unaligned text. */
function psql(
	bin: string,
	{ port, user, password }: { port: number; user: string; password: string },
) {
	const psqlEnv = { ...process.env, PGPASSWORD: password, PGCONNECT_TIMEOUT: '5' };
	const sql = async (database: string, statement: string): Promise<string> => {
		const { stdout } = await run(
			join(bin, 'psql'),
			[
				'-h',
				'127.0.0.1',
				'-p',
				String(port),
				'-U',
				user,
				'-d',
				database,
				'-At',
				'-v',
				'ON_ERROR_STOP=1',
				'-c',
				statement,
			],
			{ env: psqlEnv, maxBuffer: 512 * 1024 * 1024 },
		);
		return stdout.trim();
	};
	return sql;
}

/**
 * The cluster's folder: under the e2e folder, unless the server's account cannot reach it (a clone
 * under /root, say), then under the system's temporary folder.
 */
async function clusterDir(
	baseDir: string,
	account: Account | undefined,
	log: (line: string) => void,
): Promise<string> {
	const dir = join(baseDir, 'postgres');
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	if (!account) return dir;
	chownSync(dir, account.uid, account.gid);
	const [test, args] = asAccount(account, 'test', ['-w', dir, '-a', '-x', dir]);
	try {
		await run(test, args);
		return dir;
	} catch {
		rmSync(dir, { recursive: true, force: true });
		const fallback = mkdtempSync(join(tmpdir(), 'virtualnum-postgres-'));
		chmodSync(fallback, 0o700);
		chownSync(fallback, account.uid, account.gid);
		log(`the postgres account cannot reach ${dir}: the cluster goes to ${fallback}`);
		return fallback;
	}
}

async function waitForServer(server: Tracked, probe: () => Promise<unknown>): Promise<void> {
	const deadline = Date.now() + 60_000;
	for (;;) {
		if (!server.alive()) throw new Error(`postgres exited:\n${server.logs.slice(-20).join('\n')}`);
		try {
			await probe();
			return;
		} catch (error) {
			if (Date.now() > deadline)
				throw new Error(
					`postgres did not accept connections in 60 s (${String(error)}):\n${server.logs.slice(-20).join('\n')}`,
				);
			await new Promise((resolve) => setTimeout(resolve, 300));
		}
	}
}
