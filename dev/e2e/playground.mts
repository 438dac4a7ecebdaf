/**
 * `npm run playground`: the nodes in a real n8n editor, in one command, with no account anywhere.
 * Installs the e2e's n8n 2.40.7 on first use, starts the sandbox (both services, seeded account) and
 * n8n with this package, creates the owner and both credentials (pointing at the sandbox), imports
 * every example workflow, and prints the editor's address, the login and how to fire a call. The
 * sandbox runs on this machine, so its callbacks reach n8n: "Listen for test event" on the trigger
 * and a fired call work from the editor. Ctrl-C stops what it started, by process id.
 *
 * `npm run playground -- --smoke` starts all of it, checks the editor answers, both credentials test
 * green, every example is there and the call-ended example runs from its pinned call, then stops.
 */
// The sandbox's call ids start with the call's Unix start time, computed from its seeded local dates:
// in UTC they are the ones the examples pin. Set before the sandbox module is loaded (imported below).
process.env.TZ = 'UTC';

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { OWNER, startN8n, type N8nServer } from '../harness/n8n/server.mts';
import { executionsOf, finished } from '../harness/n8n/executions.mts';
import { installExitHandlers } from '../harness/n8n/processes.mts';
import { ensureN8nInstall, ROOT_DIR } from '../harness/n8n/install.mts';
import { waitUntil } from '../harness/n8n/workflows.mts';

const SMOKE = process.argv.includes('--smoke');
const started = Date.now();
const log = (line: string) =>
	console.log(`[playground ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

/** A number of the seeded account and a caller, for the printed "fire a call" command. */
const WATCHED_NUMBER = '0722000101';
const CALLER = '0501234567';

interface ExampleNode {
	name: string;
	type: string;
	credentials?: Record<string, { id: string; name: string }>;
}
interface Example {
	id?: string;
	name: string;
	nodes: ExampleNode[];
	pinData?: Record<string, Array<{ json: unknown }>>;
}

/** Every examples/*.json, credentials pointed at the playground's; others (the CRM's Postgres) left for the user to pick. */
function examples(credentials: Record<string, string>): Array<{ file: string; workflow: Example }> {
	const dir = join(ROOT_DIR, 'examples');
	return readdirSync(dir)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => {
			const workflow = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Example;
			delete workflow.id;
			for (const node of workflow.nodes) {
				for (const [type, ref] of Object.entries(node.credentials ?? {})) {
					if (credentials[type])
						node.credentials![type] = { id: credentials[type], name: ref.name };
					else delete node.credentials![type];
				}
			}
			return { file, workflow };
		});
}

const failures: string[] = [];
function check(condition: unknown, what: string): void {
	if (condition) log(`ok   ${what}`);
	else {
		failures.push(what);
		log(`FAIL ${what}`);
	}
}

await ensureN8nInstall(log);
const { startSandbox } = await import('../sandbox/index.mts');
// 2000 call records, as the e2e and the demo seed them: the examples' pinned call and the nightly
// export's pinned day are in them.
const sandbox = await startSandbox({ log: () => {}, seed: { cdrs: 2000 } });
let n8n: N8nServer | undefined;
let stopping: Promise<void> | undefined;
const stopAll = async () => {
	stopping ??= (async () => {
		await n8n?.stop();
		await sandbox.close();
	})();
	await stopping;
};
installExitHandlers(stopAll, log);

try {
	n8n = await startN8n(log, { port: 5678 });
	const vnData = { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn };
	const smsData = {
		baseUrl: sandbox.smsUrl,
		accessToken: sandbox.tokens.sms,
		accountToken: sandbox.tokens.smsAccount,
	};
	const vn = await n8n.rest<{ id: string }>('POST', '/credentials', {
		name: 'Virtual Number sandbox',
		type: 'virtualnumApi',
		data: vnData,
	});
	const sms = await n8n.rest<{ id: string }>('POST', '/credentials', {
		name: 'SMS sandbox',
		type: 'virtualnumSmsApi',
		data: smsData,
	});
	const imported: Array<{ file: string; id: string; workflow: Example }> = [];
	for (const { file, workflow } of examples({ virtualnumApi: vn.id, virtualnumSmsApi: sms.id })) {
		const created = await n8n.rest<{ id: string }>('POST', '/workflows', workflow);
		imported.push({ file, id: created.id, workflow });
	}
	if (SMOKE) await smoke(n8n, imported, { vn: [vn.id, vnData], sms: [sms.id, smsData] });
	else {
		printWelcome(n8n, imported);
		// Runs until Ctrl-C (the exit handlers stop n8n and the sandbox).
		await new Promise(() => {});
	}
} catch (error) {
	failures.push(String(error));
	log(`FAIL ${String(error)}`);
	if (n8n) log(n8n.logs.slice(-20).join('\n'));
}
await stopAll();
log(failures.length ? `${failures.length} check(s) failed` : 'smoke: all checks passed');
log(`took ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(failures.length ? 1 : 0);

function printWelcome(server: N8nServer, imported: Array<{ file: string; id: string }>): void {
	const call = JSON.stringify({
		virtualnum: WATCHED_NUMBER,
		caller: CALLER,
		answered: true,
		durationSec: 61,
	});
	console.log(
		[
			'',
			`  n8n editor:   ${server.url}`,
			`  login:        ${OWNER.email} / ${OWNER.password}`,
			`  credentials:  "Virtual Number sandbox" (${sandbox.vnUrl}), "SMS sandbox" (${sandbox.smsUrl})`,
			'  examples:',
			...imported.map(
				(example) => `    ${server.url}/workflow/${example.id}   (examples/${example.file})`,
			),
			'',
			'  Fire a call (a trigger listening for a test event, or a published workflow, gets its callbacks):',
			`    curl -s -X POST ${sandbox.vnUrl}/_sandbox/calls -H 'content-type: application/json' -d '${call}'`,
			`  The sandbox's control API (calls, faults, what it received): ${sandbox.vnUrl}/_sandbox`,
			'',
			'  Everything runs on this machine and is thrown away on exit. Ctrl-C stops n8n and the sandbox.',
			'',
		].join('\n'),
	);
}

async function smoke(
	server: N8nServer,
	imported: Array<{ file: string; id: string; workflow: Example }>,
	credentials: Record<'vn' | 'sms', [string, Record<string, string>]>,
): Promise<void> {
	const editor = await fetch(`${server.url}/`);
	const page = await editor.text();
	check(
		editor.status === 200 && /<title>n8n/i.test(page),
		`the editor answers at ${server.url} (HTTP ${editor.status})`,
	);
	for (const [id, data, type] of [
		[...credentials.vn, 'virtualnumApi'],
		[...credentials.sms, 'virtualnumSmsApi'],
	] as Array<[string, Record<string, string>, string]>) {
		const result = await server.rest<{ status: string; message: string }>(
			'POST',
			'/credentials/test',
			{ credentials: { id, name: type, type, data } },
		);
		check(result.status === 'OK', `credential test of ${type}: ${result.status} ${result.message}`);
	}
	const listed = await server.rest<Array<{ id: string; name: string }>>('GET', '/workflows');
	const names = new Set(listed.map((workflow) => workflow.name));
	const missing = imported.filter((example) => !names.has(example.workflow.name));
	check(
		imported.length > 0 && missing.length === 0,
		`the ${imported.length} examples are in n8n${missing.length ? `; missing: ${missing.map((e) => e.file).join(', ')}` : ''}`,
	);
	const callEnded = imported.find(
		(example) => example.file === 'call-ended-download-recording.json',
	);
	if (callEnded) {
		await runFromPin(server, callEnded);
		await listenForTestEvent(server, callEnded.workflow);
	}
}

/**
 * "Listen for test event" on the call-ended trigger (a copy without pinned data, as after Unpin):
 * n8n registers its test URL at the sandbox, a fired call's callbacks reach it, and the workflow runs.
 */
async function listenForTestEvent(server: N8nServer, workflow: Example): Promise<void> {
	const copy = { ...workflow, name: `${workflow.name} (listening)`, pinData: {} };
	const created = await server.rest<{ id: string }>('POST', '/workflows', copy);
	const trigger = workflow.nodes.find((node) => /trigger/i.test(node.type))!;
	const answer = await server.rest<{ waitingForWebhook?: boolean }>(
		'POST',
		`/workflows/${created.id}/run`,
		{ triggerToStartFrom: { name: trigger.name } },
	);
	const testUrl = `${server.url}/webhook-test/`;
	const listening = await waitUntil(
		() =>
			String(sandbox.control.virtualnum(WATCHED_NUMBER)?.callback_url ?? '').startsWith(testUrl)
				? true
				: undefined,
		30_000,
	);
	check(
		answer.waitingForWebhook && listening,
		`"Listen for test event": n8n waits, and the sandbox's number ${WATCHED_NUMBER} calls back ${testUrl}…`,
	);
	const { call, callbacks } = await sandbox.control.placeCall({
		virtualnum: WATCHED_NUMBER,
		caller: CALLER,
		answered: true,
		durationSec: 61,
	});
	const execution = await waitUntil(
		async () => (await executionsOf(server, created.id)).find(finished),
		60_000,
	);
	const detail = execution
		? await server.rest<{ data: unknown }>('GET', `/executions/${execution.id}`)
		: undefined;
	const text = typeof detail?.data === 'string' ? detail.data : JSON.stringify(detail?.data ?? '');
	check(
		execution?.status === 'success' && text.includes(`${String(call.cdr_uniqueid)}.wav`),
		`a fired call reached the listening trigger (${callbacks.map((c) => `${c.kind} → HTTP ${c.responseStatus ?? c.error}`).join(', ')}) and the workflow downloaded ${String(call.cdr_uniqueid)}.wav (${execution?.status ?? 'no execution'})`,
	);
	await server.rest('DELETE', `/workflows/${created.id}`).catch(() => undefined);
}

/** Runs an example from its trigger's pinned item, as "Execute workflow" in the editor does. */
async function runFromPin(
	server: N8nServer,
	example: { file: string; id: string; workflow: Example },
): Promise<void> {
	const trigger = example.workflow.nodes.find((node) => /trigger/i.test(node.type))!;
	const items = example.workflow.pinData?.[trigger.name] ?? [];
	const run = await server.rest<{ executionId?: string }>('POST', `/workflows/${example.id}/run`, {
		triggerToStartFrom: {
			name: trigger.name,
			data: {
				startTime: Date.now(),
				executionTime: 0,
				executionIndex: 0,
				source: [],
				data: { main: [items] },
			},
		},
	});
	const execution = await waitUntil(async () => {
		const found = (await executionsOf(server, example.id)).find(
			(e) => String(e.id) === String(run.executionId),
		);
		return found && finished(found) ? found : undefined;
	}, 60_000);
	const detail = execution
		? await server.rest<{ data: unknown }>('GET', `/executions/${execution.id}`)
		: undefined;
	const text = typeof detail?.data === 'string' ? detail.data : JSON.stringify(detail?.data ?? '');
	const callId = String((items[0]?.json as { callId?: string } | undefined)?.callId);
	check(
		execution?.status === 'success' && text.includes(`${callId}.wav`),
		`examples/${example.file} runs from its pinned call ${callId} through to the recording (${execution?.status ?? 'no execution'})`,
	);
}
