/**
 * The Virtual Number Trigger in a real n8n (2.40: the publication service activates and
 * deactivates): the round trip (activate, the service calls n8n, n8n runs, deactivate restores),
 * across an n8n restart; an activation that fails halfway (a fault injected between n8n and the
 * sandbox), after which every number is back; and two workflows that want the same number.
 */
import { randomUUID } from 'node:crypto';

import { startProxy } from '../../harness/proxy.mts';
import { setCallbackAtService } from '../../harness/serviceCalls.mts';
import type { Sandbox } from '../../sandbox/index.mts';
import type { N8nServer } from '../../harness/n8n/server.mts';
import { executionsOf, finished, type ExecutionSummary } from '../../harness/n8n/executions.mts';
import { waitUntil } from '../../harness/n8n/workflows.mts';

type Check = (condition: unknown, what: string) => void;
type Log = (line: string) => void;

const NUMBER = '0722000100';
const FOREIGN_CALLBACK = 'https://crm.example.invalid/calls';
const TRIGGER_TYPE = 'n8n-nodes-virtualnum.virtualNumberTrigger';

interface TriggerWorkflow {
	id: string;
	versionId: string;
	productionUrl: string;
}

interface PublicationStatus {
	status: string;
	triggers?: Array<{ status: string; errorMessage?: string | null }>;
}

export async function triggerRoundTrip(
	n8n: N8nServer,
	sandbox: Sandbox,
	credentialId: string,
	check: Check,
	log: Log,
): Promise<void> {
	await roundTripAcrossRestart(n8n, sandbox, credentialId, check, log);
	await activationFailingHalfway(n8n, sandbox, check, log);
	await twoWorkflowsOnOneNumber(n8n, sandbox, credentialId, check, log);
}

async function roundTripAcrossRestart(
	n8n: N8nServer,
	sandbox: Sandbox,
	credentialId: string,
	check: Check,
	log: Log,
): Promise<void> {
	// A number that already reports its calls elsewhere: deactivation must put that back.
	await setCallbackAtService(sandbox, NUMBER, FOREIGN_CALLBACK, 2);
	const workflow = await createTriggerWorkflow(
		n8n,
		'E2E: call ended',
		{
			events: ['callEnded'],
			numbers: 'selected',
			virtualnums: selected([NUMBER]),
			existingCallback: 'replace',
		},
		credentialId,
	);
	sandbox.control.clearRequests();
	const published = await publish(n8n, workflow);
	const registered = sandbox.control.requests({ operation: 'update_virtualnum' });
	const expectedUrl = `${workflow.productionUrl}?vnt=live&vnt_prev=2${encodeURIComponent(FOREIGN_CALLBACK)}`;
	const sent = registered.map((r) => (r.body as Record<string, string>).callback_url);
	check(
		published.status === 'published' && registered.length === 1 && sent[0] === expectedUrl,
		`activation registered n8n's production webhook URL on ${NUMBER}, its previous callback inside (${sent.join(', ') || 'nothing'}; ${published.status})`,
	);
	check(
		callbackOf(sandbox, NUMBER).url === expectedUrl && callbackOf(sandbox, NUMBER).option === 2,
		'the number now calls n8n at call end (callback_url_option 2)',
	);

	await callAndCheck(n8n, sandbox, workflow, check, 'before the restart');

	sandbox.control.clearRequests();
	log('restarting n8n with the trigger active…');
	await n8n.restart();
	check(
		sandbox.control.requests({ operation: 'update_virtualnum' }).length === 0 &&
			callbackOf(sandbox, NUMBER).url === expectedUrl,
		'after an n8n restart the number still points at the trigger (nothing re-registered)',
	);
	await callAndCheck(n8n, sandbox, workflow, check, 'after the restart');

	await unpublish(n8n, workflow);
	await waitUntil(() => callbackOf(sandbox, NUMBER).url !== expectedUrl, 30_000, 250);
	const restored = callbackOf(sandbox, NUMBER);
	check(
		restored.url === FOREIGN_CALLBACK && restored.option === 2,
		`deactivation after the restart restored the previous callback URL (${restored.url})`,
	);
	log(`trigger workflow ${workflow.id}: webhook ${workflow.productionUrl}`);
}

async function callAndCheck(
	n8n: N8nServer,
	sandbox: Sandbox,
	workflow: TriggerWorkflow,
	check: Check,
	when: string,
): Promise<void> {
	const known = new Set((await executionsOf(n8n, workflow.id)).map((execution) => execution.id));
	const { call, callbacks } = await sandbox.control.placeCall({
		virtualnum: NUMBER,
		caller: '0501234567',
		answered: true,
		durationSec: 42,
	});
	check(
		callbacks.length === 1 &&
			callbacks[0].responseStatus === 200 &&
			callbacks[0].responseBody === '',
		`${when}: the sandbox's call-end callback reached n8n, answered 200 with an empty body (HTTP ${callbacks.map((c) => `${c.responseStatus} "${c.responseBody.slice(0, 40)}"`).join(', ')})`,
	);
	const execution = await waitForExecution(n8n, workflow.id, known);
	check(
		execution?.status === 'success',
		`${when}: n8n recorded a successful execution of the trigger workflow (${execution?.status ?? 'none'})`,
	);
	if (!execution) return;
	const detail = await n8n.rest<{ data: string }>('GET', `/executions/${execution.id}`);
	const data = String(detail.data);
	check(
		data.includes('call.ended') &&
			data.includes(String(call.cdr_uniqueid)) &&
			data.includes('callerNumber') &&
			data.includes('0501234567') &&
			!/"caller"/.test(data),
		`${when}: the execution holds the call-ended item under the vocabulary (call id ${String(call.cdr_uniqueid)}, callerNumber)`,
	);
}

/**
 * Activation that fails halfway: the 3rd registration update of every attempt fails; in the first
 * attempt the roll-back of one number fails on every try too, so n8n's own clean-up must put it back.
 */
async function activationFailingHalfway(
	n8n: N8nServer,
	sandbox: Sandbox,
	check: Check,
	log: Log,
): Promise<void> {
	const numbers = ['0722000101', '0722000102', '0722000103'];
	await setCallbackAtService(sandbox, numbers[0], FOREIGN_CALLBACK, 1);
	const before = new Map(numbers.map((number) => [number, callbackOf(sandbox, number)]));
	const faults = await failingProxy(sandbox);
	const { proxy } = faults;
	try {
		const credential = await n8n.rest<{ id: string }>('POST', '/credentials', {
			name: 'Virtual Number through a fault proxy',
			type: 'virtualnumApi',
			data: { baseUrl: proxy.url, accessToken: sandbox.tokens.vn },
		});
		const workflow = await createTriggerWorkflow(
			n8n,
			'E2E: activation failing halfway',
			{
				events: ['callStarted', 'callEnded'],
				numbers: 'selected',
				virtualnums: selected(numbers),
				options: { secret: 'e2e-secret-of-the-failing-one' },
			},
			credential.id,
		);
		const status = await publish(n8n, workflow);
		const message = status.triggers?.map((trigger) => trigger.errorMessage ?? '').join(' ') ?? '';
		check(
			status.status === 'failed' && /Could not register the trigger on 07220001\d\d/.test(message),
			`the activation failed, naming the number (${status.status}: ${message.slice(0, 160)})`,
		);
		check(
			faults.rollbackFailures === 3 && faults.registering >= 3,
			`a roll-back failed on every try (${faults.rollbackFailures} failures on ${faults.stuck})`,
		);
		for (const [number, callback] of before) {
			const now = callbackOf(sandbox, number);
			check(
				now.url === callback.url && now.option === callback.option,
				`after the failed activation ${number} is back as it was (${now.url || 'no URL'}, option ${now.option})`,
			);
		}
		check(
			!message.includes('e2e-secret-of-the-failing-one'),
			'the activation error shows no secret',
		);
		sandbox.control.clearRequests();
		await unpublish(n8n, workflow);
		check(
			sandbox.control.requests({ operation: 'update_virtualnum' }).length === 0,
			'deactivating the failed workflow changes nothing',
		);
		log(`failed activation: ${faults.registering} registration updates over n8n's attempts`);
	} finally {
		await proxy.close();
	}
}

/**
 * A proxy in front of the service that fails every 3rd registration update (4020), and the roll-back
 * of one number 3 times (HTTP 500); its counts read live.
 */
async function failingProxy(sandbox: Sandbox) {
	const counts = { registering: 0, stuck: '', rollbackFailures: 0 };
	const proxy = await startProxy(sandbox.vnUrl, (request) => {
		if (request.params.service !== 'update_virtualnum') return;
		const isRegistration = (request.params.callback_url ?? '').includes('vnt_prev=');
		if (isRegistration && ++counts.registering % 3 === 0)
			sandbox.control.injectFaults({
				kind: 'serviceError',
				code: 4020,
				server: 'vn',
				operation: 'update_virtualnum',
			});
		if (
			!isRegistration &&
			counts.rollbackFailures < 3 &&
			(counts.stuck === '' || counts.stuck === request.params.virtualnum)
		) {
			counts.stuck = request.params.virtualnum;
			counts.rollbackFailures++;
			sandbox.control.injectFaults({
				kind: 'http500',
				server: 'vn',
				operation: 'update_virtualnum',
			});
		}
	});
	return Object.assign(counts, { proxy });
}

/** The number two workflows both ask for. */
const SHARED_NUMBER = '0722000104';

async function twoWorkflowsOnOneNumber(
	n8n: N8nServer,
	sandbox: Sandbox,
	credentialId: string,
	check: Check,
	log: Log,
): Promise<void> {
	const shared = SHARED_NUMBER;
	await setCallbackAtService(sandbox, shared, FOREIGN_CALLBACK, 1);
	const a = await createTriggerWorkflow(
		n8n,
		'E2E: workflow A on the shared number',
		{
			events: ['callEnded'],
			numbers: 'selected',
			virtualnums: selected([shared]),
			options: { secret: 'e2e-secret-of-a' },
		},
		credentialId,
	);
	const b = await createTriggerWorkflow(
		n8n,
		'E2E: workflow B on the shared number',
		{ events: ['callStarted', 'callEnded'], numbers: 'selected', virtualnums: selected([shared]) },
		credentialId,
	);
	const holds = (workflow: TriggerWorkflow) =>
		callbackOf(sandbox, shared).url.split('?')[0] === workflow.productionUrl;

	check(
		(await publish(n8n, a)).status === 'published' && holds(a),
		'workflow A takes the shared number',
	);
	const refused = await publish(n8n, b);
	const message = refused.triggers?.map((trigger) => trigger.errorMessage ?? '').join(' ') ?? '';
	check(
		refused.status === 'failed' &&
			message.includes("already reports its calls to another workflow's Virtual Number Trigger"),
		`workflow B is refused with a clear message (${message.slice(0, 140)})`,
	);
	check(
		!message.includes('e2e-secret-of-a') && message.includes('secret=********'),
		"the message masks A's secret",
	);
	check(holds(a), 'the shared number stays with A');
	await unpublish(n8n, b);
	await unpublish(n8n, a);
	await numberFreedForB(n8n, sandbox, b, holds, check);
	log('two workflows on one number: the second refused, the original kept');
}

/** Both inactive, the number has its original URL back; B can then take it, and gives it back. */
async function numberFreedForB(
	n8n: N8nServer,
	sandbox: Sandbox,
	b: TriggerWorkflow,
	holds: (workflow: TriggerWorkflow) => boolean,
	check: Check,
): Promise<void> {
	const shared = SHARED_NUMBER;
	check(
		callbackOf(sandbox, shared).url === FOREIGN_CALLBACK &&
			callbackOf(sandbox, shared).option === 1,
		'after both are deactivated the number has its original URL',
	);
	check(
		(await publish(n8n, b)).status === 'published' && holds(b),
		'B can take the number once A is inactive',
	);
	await unpublish(n8n, b);
	check(
		callbackOf(sandbox, shared).url === FOREIGN_CALLBACK &&
			callbackOf(sandbox, shared).option === 1,
		"after B's deactivation the number has its original URL",
	);
}

// ---- helpers -----------------------------------------------------------------------------------

function selected(numbers: string[]) {
	return { number: numbers.map((value) => ({ virtualnum: { __rl: true, mode: 'list', value } })) };
}

function callbackOf(sandbox: Sandbox, number: string): { url: string; option: number } {
	const record = sandbox.control.virtualnum(number)!;
	return { url: String(record.callback_url), option: Number(record.callback_url_option) };
}

export async function createTriggerWorkflow(
	n8n: N8nServer,
	name: string,
	parameters: Record<string, unknown>,
	credentialId: string,
): Promise<TriggerWorkflow> {
	const webhookId = randomUUID();
	const created = await n8n.rest<{ id: string; versionId: string }>('POST', '/workflows', {
		name,
		active: false,
		settings: { executionOrder: 'v1' },
		connections: {},
		nodes: [
			{
				id: randomUUID(),
				name: 'Virtual Number Trigger',
				type: TRIGGER_TYPE,
				typeVersion: 1,
				position: [0, 0],
				webhookId,
				parameters,
				credentials: { virtualnumApi: { id: credentialId, name: 'Virtual Number' } },
			},
		],
	});
	return {
		id: created.id,
		versionId: created.versionId,
		productionUrl: `${n8n.url}/webhook/${webhookId}/webhook`,
	};
}

/** Publishes (activates) and waits until n8n's publication has settled. */
async function publish(n8n: N8nServer, workflow: TriggerWorkflow): Promise<PublicationStatus> {
	await n8n.rest('POST', `/workflows/${workflow.id}/activate`, { versionId: workflow.versionId });
	return await settled(
		n8n,
		workflow,
		(status) => status.status !== 'in_progress' && status.status !== 'not_published',
	);
}

async function unpublish(n8n: N8nServer, workflow: TriggerWorkflow): Promise<void> {
	await n8n.rest('POST', `/workflows/${workflow.id}/deactivate`, {});
	await settled(n8n, workflow, (status) => status.status === 'not_published');
}

async function settled(
	n8n: N8nServer,
	workflow: TriggerWorkflow,
	done: (status: PublicationStatus) => boolean,
): Promise<PublicationStatus> {
	const deadline = Date.now() + 90_000;
	let status: PublicationStatus = { status: 'unknown' };
	while (Date.now() < deadline) {
		status = await n8n.rest<PublicationStatus>(
			'GET',
			`/workflows/${workflow.id}/publication-status`,
		);
		if (done(status)) return status;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	return status;
}

async function waitForExecution(
	n8n: N8nServer,
	workflowId: string,
	known: Set<string>,
): Promise<ExecutionSummary | undefined> {
	return await waitUntil(
		async () => (await executionsOf(n8n, workflowId)).find((e) => !known.has(e.id) && finished(e)),
		60_000,
	);
}
