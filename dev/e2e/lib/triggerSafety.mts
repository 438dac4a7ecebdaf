/**
 * The trigger safe by default in a real n8n (node version 1.1, default options): a forged call
 * start is refused (401, no execution) while the sandbox's own callbacks, which call the URL the
 * trigger registered with its generated secret, still start the workflow and are routed; a
 * premium-rate destination the workflow answers is refused (the number's own routing); a forged
 * STOP to the SMS trigger is refused while the one carrying the Secret is read as an opt-out.
 */
import { createHash, randomUUID } from 'node:crypto';

import type { Sandbox } from '../../sandbox/index.mts';
import type { N8nServer } from '../../harness/n8n/server.mts';
import { executionsOf, finished } from '../../harness/n8n/executions.mts';
import { waitUntil, type Check, type Log } from '../../harness/n8n/workflows.mts';

const TRIGGER = 'n8n-nodes-virtualnum.virtualNumberTrigger';
const PREMIUM_CALLER = '0547770009';
const SMS_SECRET = 'e2e-inbound-s3cret';

interface Created {
	id: string;
	versionId: string;
	url: string;
}

export async function createAndPublish(
	n8n: Pick<N8nServer, 'url' | 'rest'>,
	name: string,
	nodes: Array<Record<string, unknown>>,
	connections: Record<string, unknown>,
): Promise<Created> {
	const webhookId = randomUUID();
	nodes[0] = { ...nodes[0], webhookId };
	const created = await n8n.rest<{ id: string; versionId: string }>('POST', '/workflows', {
		name,
		settings: { executionOrder: 'v1' },
		nodes,
		connections,
	});
	await n8n.rest('POST', `/workflows/${created.id}/activate`, { versionId: created.versionId });
	const url = `${n8n.url}/webhook/${webhookId}/webhook`;
	// Routed (anything but 404) for both methods: an empty request without the secret gets 401.
	await waitUntil(async () => {
		for (const method of ['POST', 'GET'])
			if ((await fetch(url, { method })).status === 404) return undefined;
		return true;
	}, 60_000);
	return { ...created, url };
}

/** The trigger (version 1.1, default options) routing Call Started on `number`, answered as `respondWith` says. */
export function routeTriggerNode(number: string, credentialId: string, respondWith: string) {
	return {
		id: randomUUID(),
		name: 'Virtual Number Trigger',
		type: TRIGGER,
		typeVersion: 1.1,
		position: [0, 0],
		parameters: {
			events: ['callStarted'],
			numbers: 'selected',
			virtualnums: { number: [{ virtualnum: { __rl: true, mode: 'id', value: number } }] },
			options: { respondWith },
		},
		credentials: { virtualnumApi: { id: credentialId, name: 'Virtual Number sandbox' } },
	};
}

/** The Code node that looks the caller up: the destination (or nothing) for the trigger's item. */
export function lookUpNode(code: string) {
	return {
		id: randomUUID(),
		name: 'Look Up',
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		position: [220, 0],
		parameters: { jsCode: code },
	};
}

function routeWorkflow(number: string, credentialId: string) {
	const code =
		`return [{ json: { destination: $json.callerNumber === '${PREMIUM_CALLER}' ` +
		`? '1-900-72-1234' : '0509998888' } }];`;
	const nodes = [routeTriggerNode(number, credentialId, 'destination'), lookUpNode(code)];
	const connections = {
		'Virtual Number Trigger': { main: [[{ node: 'Look Up', type: 'main', index: 0 }]] },
	};
	return { nodes, connections };
}

/** Call Started with Route Call: forged start refused, the sandbox's calls routed, premium refused. */
async function forgedCallAndPremium(
	n8n: N8nServer,
	sandbox: Sandbox,
	number: string,
	credentialId: string,
	check: Check,
): Promise<Created> {
	const { nodes, connections } = routeWorkflow(number, credentialId);
	const workflow = await createAndPublish(n8n, 'E2E: trigger safe by default', nodes, connections);
	await waitUntil(
		() => sandbox.control.virtualnum(number)?.callback_url?.startsWith(workflow.url) || undefined,
		60_000,
		250,
	);
	const registered = new URL(sandbox.control.virtualnum(number)!.callback_url);
	check(
		(registered.searchParams.get('secret') ?? '').length >= 32,
		'trigger 1.1: activation registered the URL with a generated secret (no Secret set)',
	);
	const before = (await executionsOf(n8n, workflow.id)).length;
	const forged = await fetch(
		`${workflow.url}?${new URLSearchParams({ event: 'start', call_uuid: 'forged-1', cdr_ddi: number, cdr_ani: '0501234567' })}`,
	);
	const forgedPost = await fetch(workflow.url, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ event: 'start', call_uuid: 'forged-2', cdr_ddi: number }),
	});
	const first = sandbox.control.routes().length;
	const { callbacks } = await sandbox.control.placeCall({
		virtualnum: number,
		caller: '0547770002',
	});
	await sandbox.control.placeCall({ virtualnum: number, caller: PREMIUM_CALLER });
	const [routed, premium] = sandbox.control.routes().slice(first);
	const runs = await waitUntil(async () => {
		const list = await executionsOf(n8n, workflow.id);
		return list.length >= before + 2 && list.every(finished) ? list : undefined;
	}, 60_000);
	check(
		forged.status === 401 && forgedPost.status === 401 && runs?.length === before + 2,
		`trigger 1.1: a forged call start (GET ${forged.status}, POST ${forgedPost.status}) started nothing; the sandbox's two calls ran the workflow (${runs?.length ?? 0} executions)`,
	);
	check(
		callbacks.every((c) => c.responseStatus === 200) &&
			routed?.destination === '0509998888' &&
			routed.routedTo === '0509998888',
		`trigger 1.1: the sandbox's own call start (secret and all) was routed to the workflow's answer (answer "${routed?.answer}")`,
	);
	check(
		premium !== undefined && premium.answer === '' && premium.destination === '',
		`trigger 1.1: a premium-rate destination (1-900-72-1234) was refused: the number's own routing (answer "${premium?.answer}")`,
	);
	return workflow;
}

/** SMS Received with a Secret: a forged STOP refused, the real one read as an opt-out. */
async function forgedStop(
	n8n: N8nServer,
	sandbox: Sandbox,
	number: string,
	credentialId: string,
	check: Check,
): Promise<Created> {
	const nodes = [
		{
			id: randomUUID(),
			name: 'Virtual Number Trigger',
			type: TRIGGER,
			typeVersion: 1.1,
			position: [0, 0],
			parameters: { events: ['smsReceived'], options: { secret: SMS_SECRET } },
			credentials: { virtualnumApi: { id: credentialId, name: 'Virtual Number sandbox' } },
		},
	];
	const workflow = await createAndPublish(n8n, 'E2E: SMS opt-outs need the secret', nodes, {});
	const forged = await sandbox.control.inboundSms({
		virtualnum: number,
		from: '0541110010',
		text: 'STOP',
		url: workflow.url,
	});
	const real = await sandbox.control.inboundSms({
		virtualnum: number,
		from: '0541110011',
		text: 'S\u200bTOP',
		url: `${workflow.url}?secret=${SMS_SECRET}`,
	});
	const sms = await smsUrlAnswers(sandbox, number, workflow.url);
	const runs = await waitUntil(async () => {
		const list = await executionsOf(n8n, workflow.id);
		return list.length >= 2 && list.every(finished) ? list : undefined;
	}, 60_000);
	await new Promise((resolve) => setTimeout(resolve, 1000));
	const all = await executionsOf(n8n, workflow.id);
	check(
		forged.responseStatus === 401 &&
			real.responseStatus === 200 &&
			runs !== undefined &&
			all.length === 2,
		`trigger 1.1: a forged STOP without the Secret was refused (${forged.responseStatus}) and started nothing; the inbound SMS with it ran the workflow (${real.responseStatus}, ${all.length} executions with the SMS URL's)`,
	);
	check(
		sms.real === 200 && sms.wrongToken === 404 && sms.callStart === 401,
		`trigger 1.1: the SMS URL n8n registered from the Secret (…/sms/<token>) took an SMS without ?secret= (${sms.real}); a wrong token is not routed (${sms.wrongToken}); a call start sent there was refused (${sms.callStart})`,
	);
	return workflow;
}

/** The URL the panel shows for SMS events, `…/sms/<token>` (the Secret's SHA-256, shared/triggerUrl.ts). */
async function smsUrlAnswers(sandbox: Sandbox, number: string, callUrl: string) {
	const token = (secret: string) =>
		createHash('sha256').update(secret, 'utf8').digest('hex').slice(0, 32);
	const smsUrl = (secret: string) => callUrl.replace(/\/webhook$/, `/sms/${token(secret)}`);
	const real = await sandbox.control.inboundSms({
		virtualnum: number,
		from: '0541110012',
		text: 'הסר',
		url: smsUrl(SMS_SECRET),
	});
	const wrong = await sandbox.control.inboundSms({
		virtualnum: number,
		from: '0541110013',
		text: 'STOP',
		url: smsUrl('not the secret'),
	});
	const start = new URLSearchParams({ event: 'start', call_uuid: 'e2e-sms-url', cdr_ani: '0501' });
	const callStart = await fetch(`${smsUrl(SMS_SECRET)}?${start}`);
	return {
		real: real.responseStatus,
		wrongToken: wrong.responseStatus,
		callStart: callStart.status,
	};
}

export async function triggerSafetyRuns(
	n8n: N8nServer,
	sandbox: Sandbox,
	credentialId: string,
	check: Check,
	log: Log,
): Promise<void> {
	log('trigger safe by default (node version 1.1)');
	const free = sandbox.control
		.virtualnums()
		.filter((record) => record.active_status === 1 && !record.callback_url);
	const number = free.at(-1)?.virtualnum;
	if (number === undefined) return check(false, 'trigger 1.1: a number without a callback URL');
	const route = await forgedCallAndPremium(n8n, sandbox, number, credentialId, check);
	const sms = await forgedStop(n8n, sandbox, number, credentialId, check);
	for (const workflow of [route, sms])
		await n8n.rest('POST', `/workflows/${workflow.id}/deactivate`, {});
}
