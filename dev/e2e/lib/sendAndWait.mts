/**
 * Bulk SMS → Send and Wait for Response in a real n8n: a Webhook → Send and Wait → Set workflow is
 * published and started; the sandbox receives the SMS; the link is taken from its text and opened
 * over HTTP as a phone would (GET the page, POST the answer), and the execution finishes with the
 * answer. A second click gets n8n's "No action required". An execution still waiting when n8n
 * restarts is answered after the restart. An execution with a short Limit Wait Time goes on
 * without an answer (n8n's wait tracker), with its input item.
 *
 * In queue mode (`sendAndWaitInQueue`): the production webhook and the link both go to the webhook
 * processor, a worker sends the SMS and another run (after that worker was killed and started again)
 * resumes the execution.
 */
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import type { Sandbox } from '../../sandbox/index.mts';
import type { QueueRun } from './scale.mts';
import type { N8nServer, RestClient } from '../../harness/n8n/server.mts';
import { executionsOf } from '../../harness/n8n/executions.mts';
import { ROOT_DIR } from '../../harness/n8n/install.mts';
import {
	chain,
	node,
	waitUntil,
	webhookTrigger,
	type Check,
	type Log,
} from '../../harness/n8n/workflows.mts';

/** n8n stores run data in the "flatted" form; its own copy of flatted reads it. */
const flatted = createRequire(join(ROOT_DIR, 'dev', 'e2e', 'package.json'))('flatted') as {
	parse(text: string): unknown;
};

interface StoredRun {
	resultData: {
		runData: Record<
			string,
			Array<{ data?: { main?: Array<Array<{ json: Record<string, unknown> }> | null> } }>
		>;
		error?: { message?: string };
	};
}

/** Where the workflows live: the REST API, and the base URL production webhooks are served on. */
interface Host {
	client: Pick<RestClient, 'rest'>;
	webhookBase: string;
}

interface Published {
	id: string;
	path: string;
}

async function publishWorkflow(
	n8n: Pick<RestClient, 'rest'>,
	smsCredentialId: string,
	name: string,
	options: Record<string, unknown>,
): Promise<Published> {
	const path = `ask-${randomUUID().slice(0, 8)}`;
	const ask = node('Ask', 'n8n-nodes-virtualnum.bulkSms', 1, {
		resource: 'message',
		operation: 'sendAndWait',
		sender: { __rl: true, mode: 'id', value: 'VirtualNum' },
		to: '={{ $json.body.phone }}',
		message: '={{ "Approve the refund of order " + $json.body.order + "?" }}',
		responseType: 'approval',
		options,
	});
	ask.credentials = { virtualnumSmsApi: { id: smsCredentialId, name: 'SMS sandbox' } };
	const done = node('Done', 'n8n-nodes-base.set', 3.4, {
		mode: 'manual',
		assignments: {
			assignments: [
				{
					id: randomUUID(),
					name: 'approved',
					value: '={{ $json.data?.approved }}',
					type: 'boolean',
				},
				{ id: randomUUID(), name: 'by', value: '={{ $json.data?.respondedBy }}', type: 'string' },
			],
		},
		// Unanswered (Limit Wait Time), `approved` is empty: not a boolean to convert.
		options: { ignoreConversionErrors: true },
	});
	const workflow = chain(name, [webhookTrigger('Start', path), ask, done]);
	const created = await n8n.rest<{ id: string; versionId: string }>('POST', '/workflows', workflow);
	await n8n.rest('POST', `/workflows/${created.id}/activate`, { versionId: created.versionId });
	await waitUntil(async () => {
		const status = await n8n.rest<{ status: string }>(
			'GET',
			`/workflows/${created.id}/publication-status`,
		);
		return status.status === 'published';
	}, 60_000);
	return { id: created.id, path };
}

/** Starts the workflow for `phone`; answers the link of the SMS the sandbox received. */
async function start(host: Host, sandbox: Sandbox, workflow: Published, phone: string) {
	const before = sandbox.control.messages().length;
	await fetch(`${host.webhookBase}/webhook/${workflow.path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ phone, order: 1042 }),
	});
	const sms = await waitUntil(
		() =>
			sandbox.control
				.messages()
				.slice(before)
				.find((m) => m.dest === phone),
		30_000,
	);
	const link = /https?:\/\/\S+$/.exec(sms?.message ?? '')?.[0];
	const waiting = await waitUntil(async () => {
		const list = await executionsOf(host.client, workflow.id);
		return list.find((e) => e.status === 'waiting');
	}, 30_000);
	return { sms, link, executionId: waiting?.id };
}

async function finishedRun(n8n: Pick<RestClient, 'rest'>, executionId: string, timeoutMs = 30_000) {
	const detail = await waitUntil(async () => {
		const found = await n8n
			.rest<{ status: string; data: string }>('GET', `/executions/${executionId}`)
			.catch(() => undefined);
		return found && !['running', 'new', 'waiting'].includes(found.status) ? found : undefined;
	}, timeoutMs);
	if (!detail) return undefined;
	const run = flatted.parse(detail.data) as StoredRun;
	const first = (name: string) => run.resultData.runData[name]?.[0]?.data?.main?.[0]?.[0]?.json;
	return { status: detail.status, ask: first('Ask'), done: first('Done') };
}

const answer = async (link: string, value: string) =>
	await fetch(link, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'Mozilla/5.0' },
		body: `answer=${value}`,
	});

export async function sendAndWaitRuns(
	n8n: N8nServer,
	sandbox: Sandbox,
	smsCredentialId: string,
	check: Check,
	log: Log,
): Promise<void> {
	// n8n 2.40 makes a "Human review" tool of every node with a sendAndWait operation and webhooks.
	const types = await n8n.get<Array<{ name: string }>>('/types/nodes.json');
	check(
		types.some((type) => type.name === 'n8n-nodes-virtualnum.bulkSmsHitlTool'),
		'send and wait: n8n generated the Bulk SMS human-review tool (bulkSmsHitlTool) for AI agents',
	);
	const ask = await publishWorkflow(n8n, smsCredentialId, 'e2e: send and wait', {});
	// 0.05 minutes = 3 s: n8n's wait tracker resumes it (it looks for due executions every minute).
	const short = await publishWorkflow(n8n, smsCredentialId, 'e2e: send and wait, limited', {
		limitWaitTime: {
			values: { limitType: 'afterTimeInterval', resumeAmount: 0.05, resumeUnit: 'minutes' },
		},
	});
	const host = { client: n8n, webhookBase: n8n.url };
	const timed = await start(host, sandbox, short, '0520000003');

	const first = await start(host, sandbox, ask, '0520000001');
	check(
		first.link !== undefined && first.executionId !== undefined,
		`send and wait: the sandbox received one SMS with one link (${first.sms?.message.length ?? 0} characters, link ${first.link?.length ?? 0}) and the execution waits`,
	);
	if (!first.link || !first.executionId) return;
	await answerOnce(n8n, { link: first.link, executionId: first.executionId }, check);

	const second = await start(host, sandbox, ask, '0520000002');
	log('send and wait: restarting n8n while an execution waits…');
	await n8n.restart();
	if (second.link && second.executionId) {
		const declined = await answer(second.link, 'decline');
		const after = await finishedRun(n8n, second.executionId);
		check(
			declined.status === 200 && after?.status === 'success' && after.done?.approved === false,
			`send and wait: after an n8n restart the answer (Decline) still resumed the execution (HTTP ${declined.status}; ${after?.status ?? 'not finished'}; ${JSON.stringify(after?.done)})`,
		);
	} else check(false, 'send and wait: the second execution did not wait');

	if (timed.executionId) {
		const ended = await finishedRun(n8n, timed.executionId, 90_000);
		check(
			ended?.status === 'success' && ended.ask?.data === undefined && ended.ask?.body !== undefined,
			`send and wait: with Limit Wait Time the run went on unanswered, with its input item (${ended?.status ?? 'not finished'}; Ask output keys ${Object.keys(ended?.ask ?? {}).join(', ')})`,
		);
	} else check(false, 'send and wait: the limited execution did not wait');
}

/** The link shows the answer page; Approve resumes the run; a second click is told no action is needed. */
async function answerOnce(
	n8n: N8nServer,
	first: { link: string; executionId: string },
	check: Check,
): Promise<void> {
	const shown = await fetch(first.link, { headers: { 'user-agent': 'Mozilla/5.0' } });
	const pageHtml = await shown.text();
	check(
		shown.status === 200 && pageHtml.includes('value="approve"') && pageHtml.includes('order 1042'),
		`send and wait: GET of the link shows the answer page (HTTP ${shown.status})`,
	);
	const recorded = await answer(first.link, 'approve');
	const recordedHtml = await recorded.text();
	check(
		recorded.status === 200 && recordedHtml.includes('Your answer was recorded'),
		`send and wait: POST of Approve says the answer was recorded (HTTP ${recorded.status})`,
	);
	const run = await finishedRun(n8n, first.executionId);
	check(
		run?.status === 'success' && run.done?.approved === true && run.done?.by === '0520000001',
		`send and wait: the workflow finished with approved: true from 0520000001 (${run?.status ?? 'not finished'}; ${JSON.stringify(run?.done)})`,
	);
	const again = await answer(first.link, 'decline');
	const againHtml = await again.text();
	check(
		againHtml.includes('No action required'),
		`send and wait: a second click gets n8n's "No action required" page (HTTP ${again.status})`,
	);
}

/**
 * Queue mode: the SMS is sent by a worker, the link points at the webhook processor (N8N_WEBHOOK_URL), and
 * the answer resumes the execution on a worker, also after the worker that sent it was killed.
 */
export async function sendAndWaitInQueue(run: QueueRun): Promise<void> {
	const { cluster, sandbox, check, log } = run;
	const host = { client: cluster, webhookBase: cluster.webhookUrl };
	const ask = await publishWorkflow(cluster, run.credentials.sms, 'queue: send and wait', {});
	const first = await start(host, sandbox, ask, '0520000011');
	check(
		first.link?.startsWith(`${cluster.webhookUrl}/webhook-waiting/`) && first.executionId,
		`send and wait (queue): the SMS's link points at the webhook processor and the execution waits (${first.link ?? 'no link'})`,
	);
	if (!first.link || !first.executionId) return;
	const sentBy = cluster.workerOf(first.executionId);
	const approved = await answer(first.link, 'approve');
	const resumed = await finishedRun(cluster, first.executionId, 60_000);
	check(
		approved.status === 200 && resumed?.status === 'success' && resumed.done?.approved === true,
		`send and wait (queue): Approve through the webhook processor resumed the execution on a worker (sent by ${sentBy ?? '?'}, finished by ${cluster.workerOf(first.executionId) ?? '?'}; ${resumed?.status ?? 'not finished'}; ${JSON.stringify(resumed?.done)})`,
	);

	const second = await start(host, sandbox, ask, '0520000012');
	const worker = cluster.workers.findIndex(
		(w) => w.name === cluster.workerOf(second.executionId ?? ''),
	);
	if (worker >= 0) {
		log(
			`send and wait (queue): killing ${cluster.workers[worker].name} while the execution waits…`,
		);
		await cluster.killWorker(worker);
		await cluster.startWorker(worker);
	}
	if (!second.link || !second.executionId) {
		check(false, 'send and wait (queue): the second execution did not wait');
		return;
	}
	const declined = await answer(second.link, 'decline');
	const after = await finishedRun(cluster, second.executionId, 60_000);
	check(
		worker >= 0 &&
			declined.status === 200 &&
			after?.status === 'success' &&
			after.done?.approved === false,
		`send and wait (queue): after the worker that sent the SMS was killed and started again, Decline resumed the execution (${after?.status ?? 'not finished'}; ${JSON.stringify(after?.done)})`,
	);
}
