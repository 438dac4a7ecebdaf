/**
 * n8n 2.40.7 in queue mode on loopback, as users scale it out: one main process (editor, REST API,
 * activation of workflows; no production webhooks), one webhook processor (`n8n webhook`) that
 * receives production webhooks, and workers (`n8n worker`) that run the executions, sharing
 * Postgres (n8n's database, binary data in `database` mode) and Redis (the queue). Each process has
 * its own user folder with this package installed as a community package, as on separate machines;
 * they share only the encryption key, the database and Redis.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
	freePort,
	installPackage,
	n8nEnv,
	restClient,
	waitUntilReady,
	type RestClient,
} from '../../harness/n8n/server.mts';
import type { Postgres } from './postgres.mts';
import { spawnTracked, type Tracked } from '../../harness/n8n/processes.mts';
import type { Redis } from './redis.mts';
import { N8N_BIN, NODE24 } from '../../harness/n8n/install.mts';

export const N8N_DATABASE = 'n8n';
/** Executions each worker runs at once (n8n's default for `n8n worker`). */
export const WORKER_CONCURRENCY = 10;

type Role = 'main' | 'webhook' | 'worker';

export interface N8nProcess {
	name: string;
	role: Role;
	port: number;
	url: string;
	process: Tracked;
	/** Execution ids this process logged as started (workers: "Worker started execution <id> (job <job>)"), with their Bull job ids. */
	started: Map<string, string>;
	/** …and as finished. */
	finished: Set<string>;
}

export interface Cluster extends RestClient {
	/** The main process's URL (editor and REST API). */
	url: string;
	/** The webhook processor's URL: what N8N_WEBHOOK_URL says, so production webhook URLs point at it. */
	webhookUrl: string;
	main: N8nProcess;
	webhook: N8nProcess;
	workers: N8nProcess[];
	/** Which worker logged the execution as started (undefined: none did). */
	workerOf(executionId: string): string | undefined;
	/** SIGKILL to a worker by its process id, as a crash would; answers the pid. */
	killWorker(index: number): Promise<number>;
	/** Starts the worker again (same name, port and user folder). */
	startWorker(index: number): Promise<void>;
	/** Stops the main process (SIGTERM: n8n's graceful shutdown); answers how long it took, in ms. */
	stopMain(): Promise<number>;
	/** Starts the main process again on the same database and signs in; answers the seconds it took. */
	startMain(): Promise<number>;
	/** Every process's last log lines, for a failure report. */
	tail(lines: number): string;
	stop(): Promise<void>;
}

interface Slot {
	name: string;
	role: Role;
	port: number;
	brokerPort: number;
	userFolder: string;
	proc?: N8nProcess;
}

const STARTED = /Worker started execution (\d+) \(job (\d+)\)/;
const FINISHED = /Worker finished execution (\d+)/;

export async function startCluster(options: {
	postgres: Postgres;
	redis: Redis;
	workers: number;
	logDir: string;
	log: (line: string) => void;
}): Promise<Cluster> {
	const { postgres, redis, log, logDir } = options;
	await postgres.sql('postgres', `CREATE DATABASE ${N8N_DATABASE}`);
	const shared = sharedEnv(postgres, redis);
	const slot = async (name: string, role: Role): Promise<Slot> => {
		const userFolder = mkdtempSync(join(tmpdir(), `virtualnum-queue-${name}-`));
		installPackage(userFolder);
		return { name, role, port: await freePort(), brokerPort: await freePort(), userFolder };
	};
	const mainSlot = await slot('main', 'main');
	const webhookSlot = await slot('webhook', 'webhook');
	const workerSlots = await Promise.all(
		Array.from({ length: options.workers }, (_, i) => slot(`worker-${i + 1}`, 'worker')),
	);
	const mainUrl = `http://127.0.0.1:${mainSlot.port}`;
	const webhookUrl = `http://127.0.0.1:${webhookSlot.port}`;
	// n8n 2.x's name (WEBHOOK_URL, n8n 1.x's, still works in 2.40 but is flagged deprecated at start).
	shared.N8N_WEBHOOK_URL = `${webhookUrl}/`;
	shared.N8N_EDITOR_BASE_URL = `${mainUrl}/`;

	const launch = launcher(shared, logDir, log);
	const slots = [mainSlot, webhookSlot, ...workerSlots];
	try {
		// The main process first: it migrates the empty database the others then use.
		await launch(mainSlot);
		await Promise.all([launch(webhookSlot), ...workerSlots.map(launch)]);
	} catch (error) {
		await stopSlots(slots);
		throw error;
	}
	const client = restClient(mainUrl);
	await client.signIn(true);
	return clusterApi({
		client,
		mainUrl,
		webhookUrl,
		mainSlot,
		webhookSlot,
		workerSlots,
		launch,
		log,
	});
}

/** Starts a slot's process and resolves once it is ready (the main process: once its REST API answers). */
function launcher(shared: NodeJS.ProcessEnv, logDir: string, log: (line: string) => void) {
	return async (s: Slot): Promise<N8nProcess> => {
		const proc = launchProcess(s, shared, join(logDir, `${s.name}.log`));
		s.proc = proc;
		const url = proc.url;
		const seconds = await waitUntilReady(
			url,
			`n8n ${s.name}`,
			proc.process.exited,
			proc.process.logs,
			{ rest: s.role === 'main' },
		);
		log(`n8n ${s.name} (pid ${proc.process.pid}) ready at ${url} after ${seconds} s`);
		return proc;
	};
}

/** The cluster's handle over its running slots: who ran what, and the kill, restart and stop of processes. */
function clusterApi(parts: {
	client: RestClient;
	mainUrl: string;
	webhookUrl: string;
	mainSlot: Slot;
	webhookSlot: Slot;
	workerSlots: Slot[];
	launch: (s: Slot) => Promise<N8nProcess>;
	log: (line: string) => void;
}): Cluster {
	const { client, mainSlot, webhookSlot, workerSlots, launch, log } = parts;
	const slots = [mainSlot, webhookSlot, ...workerSlots];
	return {
		...client,
		url: parts.mainUrl,
		webhookUrl: parts.webhookUrl,
		get main() {
			return mainSlot.proc!;
		},
		get webhook() {
			return webhookSlot.proc!;
		},
		get workers() {
			return workerSlots.map((s) => s.proc!);
		},
		workerOf: (executionId) =>
			workerSlots.find((s) => s.proc?.started.has(String(executionId)))?.name,
		async killWorker(index) {
			const proc = workerSlots[index].proc!;
			await proc.process.stop('SIGKILL', 5_000);
			log(`killed n8n ${proc.name} (pid ${proc.process.pid}) with SIGKILL`);
			return proc.process.pid;
		},
		async startWorker(index) {
			const previous = workerSlots[index].proc;
			const proc = await launch(workerSlots[index]);
			// Keep what the worker ran before its crash, for the spread of executions.
			for (const [id, job] of previous?.started ?? []) proc.started.set(id, job);
			for (const id of previous?.finished ?? []) proc.finished.add(id);
		},
		async stopMain() {
			const before = Date.now();
			await mainSlot.proc!.process.stop('SIGTERM', 45_000);
			log(`stopped n8n main (pid ${mainSlot.proc!.process.pid}) in ${Date.now() - before} ms`);
			return Date.now() - before;
		},
		async startMain() {
			const before = Date.now();
			await launch(mainSlot);
			await client.signIn(false);
			return Math.round((Date.now() - before) / 1000);
		},
		tail: (lines) =>
			slots
				.map((s) => `--- ${s.name}\n${(s.proc?.process.logs ?? []).slice(-lines).join('\n')}`)
				.join('\n'),
		stop: async () => await stopSlots(slots),
	};
}

function sharedEnv(postgres: Postgres, redis: Redis): NodeJS.ProcessEnv {
	return {
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: postgres.host,
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_DATABASE: N8N_DATABASE,
		DB_POSTGRESDB_USER: postgres.user,
		DB_POSTGRESDB_PASSWORD: postgres.password,
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: redis.host,
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		N8N_ENCRYPTION_KEY: randomBytes(24).toString('hex'),
		// n8n's default in queue mode, set explicitly: the binary data of an execution is kept in
		// Postgres, where every process reads it (filesystem mode is per machine).
		N8N_DEFAULT_BINARY_DATA_MODE: 'database',
		// Manual runs go to the workers too, as production runs do.
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
	};
}

function launchProcess(s: Slot, shared: NodeJS.ProcessEnv, logFile: string): N8nProcess {
	// n8n's default pool of 2 database connections makes concurrent webhooks wait for each other (and
	// fail after 20 s): the webhook processor and each worker get as many as the executions they handle at once.
	const poolSize = s.role === 'main' ? 4 : WORKER_CONCURRENCY;
	const own: NodeJS.ProcessEnv = {
		...shared,
		N8N_RUNNERS_BROKER_PORT: String(s.brokerPort),
		DB_POSTGRESDB_POOL_SIZE: String(poolSize),
	};
	let args: string[];
	if (s.role === 'main') {
		// Production webhooks are the webhook processor's job; the main process only registers them.
		Object.assign(own, { N8N_PORT: String(s.port), N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' });
		args = ['start'];
	} else if (s.role === 'webhook') {
		Object.assign(own, { N8N_PORT: String(s.port) });
		args = ['webhook'];
	} else {
		Object.assign(own, {
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			QUEUE_HEALTH_CHECK_PORT: String(s.port),
			N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
		});
		args = ['worker', `--concurrency=${WORKER_CONCURRENCY}`];
	}
	const started = new Map<string, string>();
	const finished = new Set<string>();
	const process = spawnTracked(`n8n ${s.name}`, NODE24, [N8N_BIN, ...args], {
		env: n8nEnv(s.userFolder, own),
		logFile,
		onLine: (line) => {
			const start = STARTED.exec(line);
			if (start) started.set(start[1], start[2]);
			const end = FINISHED.exec(line);
			if (end) finished.add(end[1]);
		},
	});
	return {
		name: s.name,
		role: s.role,
		port: s.port,
		url: `http://127.0.0.1:${s.port}`,
		process,
		started,
		finished,
	};
}

async function stopSlots(slots: Slot[]): Promise<void> {
	// Workers and the webhook processor before the main process, all at once; then the folders.
	await Promise.all(
		slots
			.filter((s) => s.role !== 'main')
			.map(async (s) => await s.proc?.process.stop('SIGTERM', 30_000)),
	);
	await Promise.all(
		slots
			.filter((s) => s.role === 'main')
			.map(async (s) => await s.proc?.process.stop('SIGTERM', 30_000)),
	);
	for (const s of slots) rmSync(s.userFolder, { recursive: true, force: true });
}
