/**
 * `npm run e2e`: this package in a real n8n 2.x server, against the sandbox.
 * Starts the sandbox and n8n (Node 24) with the package installed as a community package,
 * creates both credentials, checks the node types load, runs the example workflows, does the
 * trigger round trip, and drives the editor in Chromium for screenshots.
 */
import { startSandbox } from '../sandbox/index.mts';
import { startN8n, type N8nServer } from '../harness/n8n/server.mts';
import { triggerRoundTrip } from './lib/trigger.mts';
import { restoreAfterUninstall } from './lib/restoreCallbacks.mts';
import { pollTriggerSingle } from './lib/pollTrigger.mts';
import { fieldTriggerEvents } from './lib/fieldTrigger.mts';
import { triggerSafetyRuns } from './lib/triggerSafety.mts';
import { routeNodeAllNumbersRuns, routeNodeRuns } from './lib/routeNode.mts';
import { compressedClientRuns, routeRulesRuns } from './lib/routeRules.mts';
import { editorRuns } from './lib/showcase.mts';
import { errorBranchRuns } from './lib/errorBranch.mts';
import { runExamples } from './lib/examples.mts';
import { retryAndRedirects } from './lib/retryAndRedirects.mts';
import { sendAndWaitRuns } from './lib/sendAndWait.mts';
import { smsReplyRuns } from './lib/smsReplyCases.mts';
import { smsAssistantRuns } from './lib/smsAssistant.mts';
import { missedCallRuns } from './lib/missedCalls.mts';
import { aiAgentRuns } from './lib/aiAgent.mts';
import { campaignRuns } from './lib/campaigns.mts';
import { campaignLedgerRuns } from './lib/campaignLedger.mts';
import { callRecordsWholeRuns } from './lib/callRecordsWhole.mts';
import { dealWonRuns } from './lib/dealWon.mts';
import { fileURLToPath } from 'node:url';
import { installExitHandlers } from '../harness/n8n/processes.mts';
import { ensureE2eInstall } from '../harness/n8n/install.mts';

const started = Date.now();
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// The tracked screenshots are rewritten only when asked (`npm run e2e -- --screenshots`, or
// E2E_SCREENSHOTS=1); otherwise they go to dev/e2e/screenshots (ignored by git), for a look after a failure.
const WRITE_DOCS =
	process.argv.includes('--screenshots') ||
	['1', 'true', 'docs'].includes(process.env.E2E_SCREENSHOTS ?? '');
const SCREENSHOTS = WRITE_DOCS ? `${ROOT}docs/screenshots` : `${ROOT}dev/e2e/screenshots`;
const onlyAt = process.argv.indexOf('--only');
const ONLY = onlyAt >= 0 ? (process.argv[onlyAt + 1] ?? '').split(',').filter(Boolean) : [];
/** Ends a run of some scenarios before the editor's checks, which only a whole run makes. */
class OnlySome extends Error {}
const log = (line: string) =>
	console.log(`[e2e ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);
const failures: string[] = [];
function check(condition: unknown, what: string): void {
	if (condition) log(`ok   ${what}`);
	else {
		failures.push(what);
		log(`FAIL ${what}`);
	}
}

await ensureE2eInstall(log);
// 2000 call records so the nightly export's pinned day has calls, as in the demo.
const sandbox = await startSandbox({ log: () => {}, seed: { cdrs: 2000 } });
log(`sandbox: virtual number ${sandbox.vnUrl}, SMS ${sandbox.smsUrl}`);
let n8n: N8nServer | undefined;
// Ctrl-C, SIGTERM (CI's time limit) or a crash: n8n and the sandbox are stopped all the same.
installExitHandlers(async () => {
	await n8n?.stop();
	await sandbox.close();
}, log);
try {
	n8n = await startN8n(log);
	const types = await n8n.get<Array<{ name: string }>>('/types/nodes.json');
	const names = new Set(types.map((t) => t.name));
	for (const name of [
		'n8n-nodes-virtualnum.virtualNumber',
		'n8n-nodes-virtualnum.bulkSms',
		'n8n-nodes-virtualnum.virtualNumberTrigger',
	]) {
		check(names.has(name), `node type ${name} is loaded`);
	}

	const vnCredential = await n8n.rest<{ id: string }>('POST', '/credentials', {
		name: 'Virtual Number sandbox',
		type: 'virtualnumApi',
		data: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn },
	});
	const smsCredential = await n8n.rest<{ id: string }>('POST', '/credentials', {
		name: 'SMS sandbox',
		type: 'virtualnumSmsApi',
		data: {
			baseUrl: sandbox.smsUrl,
			accessToken: sandbox.tokens.sms,
			accountToken: sandbox.tokens.smsAccount,
		},
	});
	for (const [credential, type, data] of [
		[vnCredential, 'virtualnumApi', { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn }],
		[
			smsCredential,
			'virtualnumSmsApi',
			{ baseUrl: sandbox.smsUrl, accessToken: sandbox.tokens.sms },
		],
	] as const) {
		const result = await n8n.rest<{ status: string; message: string }>(
			'POST',
			'/credentials/test',
			{
				credentials: { id: credential.id, name: type, type, data },
			},
		);
		check(
			result.status === 'OK',
			`credential test of ${type} in n8n: ${result.status} ${result.message}`,
		);
	}

	const credentials = { virtualnumApi: vnCredential.id, virtualnumSmsApi: smsCredential.id };
	const ids = { vn: vnCredential.id, sms: smsCredential.id };
	const server = n8n;
	// Each scenario by name: `npm run e2e -- --only sendAndWait,campaigns` runs some.
	const scenarios: Record<string, () => Promise<unknown>> = {
		trigger: () => triggerRoundTrip(server, sandbox, vnCredential.id, check, log),
		restoreCallbacks: () => restoreAfterUninstall(server, sandbox, vnCredential.id, check, log),
		pollTrigger: () => pollTriggerSingle(server, sandbox, vnCredential.id, check, log),
		examples: () => runExamples(server, sandbox, credentials, check, log),
		fieldTrigger: () => fieldTriggerEvents(server, sandbox, credentials, check, log),
		triggerSafety: () => triggerSafetyRuns(server, sandbox, vnCredential.id, check, log),
		routeNode: () => routeNodeRuns(server, sandbox, vnCredential.id, check, log),
		routeNodeAllNumbers: () => routeNodeAllNumbersRuns(server, check, log),
		routeRules: () => routeRulesRuns(server, sandbox, vnCredential.id, check, log),
		compressedClients: () => compressedClientRuns(server, sandbox, vnCredential.id, check, log),
		errorBranch: () => errorBranchRuns(server, sandbox, smsCredential.id, check, log),
		retryAndRedirects: () => retryAndRedirects(server, sandbox, ids, check, log),
		sendAndWait: () => sendAndWaitRuns(server, sandbox, smsCredential.id, check, log),
		smsReplies: () => smsReplyRuns(server, sandbox, ids, check, log),
		smsAssistant: () => smsAssistantRuns(server, sandbox, ids, check, log),
		missedCalls: () => missedCallRuns(server, sandbox, ids, check, log),
		campaigns: () => campaignRuns(server, sandbox, smsCredential.id, check, log),
		campaignLedger: () => campaignLedgerRuns(server, sandbox, credentials, check, log),
		aiAgent: () => aiAgentRuns(server, sandbox, ids, check, log),
		callRecordsWhole: () => callRecordsWholeRuns(server, sandbox, vnCredential.id, check, log),
		dealWon: () => dealWonRuns(server, sandbox, vnCredential.id, check, log),
		// Last: the editor, with its screenshots (into docs/screenshots only when asked).
		editor: () => editorRuns(server, ids, SCREENSHOTS, check),
	};
	const unknown = ONLY.filter((name) => !(name in scenarios));
	if (unknown.length > 0)
		throw new Error(
			`unknown scenario(s) ${unknown.join(', ')}: ${Object.keys(scenarios).join(', ')}`,
		);
	for (const [name, run] of Object.entries(scenarios))
		if (ONLY.length === 0 || ONLY.includes(name)) await run();
	if (ONLY.length > 0) throw new OnlySome();
} catch (error) {
	if (error instanceof OnlySome) log(`ran only ${ONLY.join(', ')}`);
	else {
		failures.push(String(error));
		log(`FAIL ${String(error)}`);
		if (n8n) log(n8n.logs.slice(-20).join('\n'));
	}
} finally {
	await n8n?.stop();
	await sandbox.close();
}
log(failures.length ? `${failures.length} check(s) failed` : 'all checks passed');
log(`took ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(failures.length ? 1 : 0);
