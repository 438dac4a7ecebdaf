/**
 * `npm run e2e:queue`: this package in n8n 2.40.7's queue mode. Starts a throw-away Postgres and
 * Redis, then n8n as one main process, one webhook processor and two workers (all on 127.0.0.1,
 * this package installed as a community package in each), and proves with the sandbox: trigger
 * registration and a burst of 1,000 callbacks, a 10,000-recipient send, a recording in database
 * binary mode, Send and Wait answered through the webhook processor (by its link, and by SMS replies
 * relayed by the trigger there), Route Call's answer to clients that ask for compression, the CRM
 * sync example into Postgres, a worker killed mid-burst, a main-process
 * restart, and the polling Call Record Trigger across another main restart. Everything it started
 * is stopped by process id, also on failure or interruption.
 */
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { startSandbox, type Sandbox } from '../sandbox/index.mts';
import { startCluster, type Cluster } from './lib/cluster.mts';
import { mainRestart, workerCrash } from './lib/crash.mts';
import { CRM_DATABASE, crmSync } from './lib/crm.mts';
import { pollTriggerAcrossMainRestart } from './lib/pollTrigger.mts';
import { routeNodeRuns } from './lib/routeNode.mts';
import { compressedClientRuns } from './lib/routeRules.mts';
import { startPostgres, type Postgres } from './lib/postgres.mts';
import { installExitHandlers } from '../harness/n8n/processes.mts';
import { startRedis, type Redis } from './lib/redis.mts';
import { sendAndWaitInQueue } from './lib/sendAndWait.mts';
import { smsRepliesInQueue } from './lib/smsReplyCases.mts';
import { bulkSend, recordingInDatabase, triggerBurst, type QueueRun } from './lib/scale.mts';
import { E2E_DIR, ensureN8nInstall } from '../harness/n8n/install.mts';

const BURST = Number(process.env.E2E_QUEUE_BURST ?? 1000);
const RECIPIENTS = 10_000;
const CRASH_CALLS = 200;
const RECORDING_BYTES = 5 * 1024 * 1024;
/** The whole run's limit: past it, everything is stopped and the run fails. */
const DEADLINE_MS = 30 * 60_000;

const started = Date.now();
const log = (line: string) =>
	console.log(`[e2e:queue ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);
const failures: string[] = [];
const check = (condition: unknown, what: string) => {
	if (condition) log(`ok   ${what}`);
	else {
		failures.push(what);
		log(`FAIL ${what}`);
	}
};

const workDir = join(E2E_DIR, '.queue', `run-${process.pid}`);
// The n8n processes' logs of the last run, kept for a look after a failure.
const logDir = join(E2E_DIR, '.queue', 'logs');
let postgres: Postgres | undefined;
let redis: Redis | undefined;
let sandbox: Sandbox | undefined;
let cluster: Cluster | undefined;
async function stopAll(): Promise<void> {
	await cluster?.stop().catch((error: unknown) => log(`stopping n8n: ${String(error)}`));
	await sandbox?.close().catch(() => undefined);
	await redis?.stop().catch((error: unknown) => log(`stopping redis: ${String(error)}`));
	await postgres?.stop().catch((error: unknown) => log(`stopping postgres: ${String(error)}`));
	rmSync(workDir, { recursive: true, force: true });
}
installExitHandlers(stopAll, log);
removeStaleRuns();
const deadline = setTimeout(() => process.kill(process.pid, 'SIGTERM'), DEADLINE_MS);

const figures: Record<string, unknown> = {};
try {
	await ensureN8nInstall(log);
	mkdirSync(workDir, { recursive: true });
	rmSync(logDir, { recursive: true, force: true });
	mkdirSync(logDir, { recursive: true });
	postgres = await startPostgres(workDir, log);
	redis = await startRedis(workDir, log);
	sandbox = await startSandbox({ log: () => {}, seed: { numbers: 8, cdrs: 200 } });
	log(`sandbox: virtual number ${sandbox.vnUrl}, SMS ${sandbox.smsUrl}`);
	const clusterStarted = Date.now();
	cluster = await startCluster({ postgres, redis, workers: 2, logDir, log });
	figures.clusterStartS = Math.round((Date.now() - clusterStarted) / 1000);
	const run: QueueRun = {
		cluster,
		postgres,
		sandbox,
		credentials: await createCredentials(cluster, sandbox, postgres),
		check,
		log,
		figures,
	};

	await crmSync(run);
	const burst = await triggerBurst(run, BURST);
	await bulkSend(run, RECIPIENTS);
	await sendAndWaitInQueue(run);
	await smsRepliesInQueue(run);
	// Route Incoming Call's answer, relayed from the worker to the webhook processor holding the call.
	const webhooks = { url: cluster.webhookUrl, rest: cluster.rest.bind(cluster) };
	await routeNodeRuns(webhooks, sandbox, run.credentials.vn, check, log);
	// Every Respond With to a client that asks for gzip or br, answered through the webhook processor.
	await compressedClientRuns(webhooks, sandbox, run.credentials.vn, check, log);
	await recordingInDatabase(run, RECORDING_BYTES);
	const crash = await workerCrash(run, redis, CRASH_CALLS);
	await mainRestart(run, [burst, crash.trigger], crash);
	await pollTriggerAcrossMainRestart(run);
} catch (error) {
	failures.push(String(error));
	log(`FAIL ${(error as Error).stack ?? String(error)}`);
	if (cluster) log(cluster.tail(15));
} finally {
	clearTimeout(deadline);
	await stopAll();
}
figures.totalS = Math.round((Date.now() - started) / 1000);
log(`figures ${JSON.stringify(figures, null, 2)}`);
log(
	failures.length
		? `${failures.length} check(s) failed (n8n's logs: ${logDir})`
		: 'all checks passed',
);
log(`took ${figures.totalS as number} s`);
process.exit(failures.length ? 1 : 0);

/** Folders of earlier runs whose process is gone (killed outright, so it could not clean up). */
function removeStaleRuns(): void {
	const base = join(E2E_DIR, '.queue');
	if (!existsSync(base)) return;
	for (const name of readdirSync(base)) {
		const pid = Number(/^run-(\d+)$/.exec(name)?.[1]);
		if (!pid || pid === process.pid) continue;
		try {
			process.kill(pid, 0);
		} catch {
			rmSync(join(base, name), { recursive: true, force: true });
		}
	}
}

async function createCredentials(
	n8n: Cluster,
	sb: Sandbox,
	pg: Postgres,
): Promise<QueueRun['credentials']> {
	const create = async (name: string, type: string, data: Record<string, unknown>) =>
		(await n8n.rest<{ id: string }>('POST', '/credentials', { name, type, data })).id;
	return {
		vn: await create('Virtual Number sandbox', 'virtualnumApi', {
			baseUrl: sb.vnUrl,
			accessToken: sb.tokens.vn,
		}),
		sms: await create('SMS sandbox', 'virtualnumSmsApi', {
			baseUrl: sb.smsUrl,
			accessToken: sb.tokens.sms,
			accountToken: sb.tokens.smsAccount,
		}),
		postgres: await create('CRM database', 'postgres', {
			host: pg.host,
			port: pg.port,
			database: CRM_DATABASE,
			user: pg.user,
			password: pg.password,
			ssl: 'disable',
			allowUnauthorizedCerts: false,
			sshTunnel: false,
		}),
	};
}
