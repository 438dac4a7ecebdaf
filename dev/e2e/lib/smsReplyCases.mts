/**
 * Answers by SMS reply in a real n8n, case by case (the set-up and the 100 concurrent waits are in
 * smsReplies.mts): a second reply, a reply nobody waits for, an n8n restart, a reply after Limit
 * Wait Time, a deleted run, two sender numbers, the same person asked twice, unclear replies with
 * and without the re-ask, an opt-out. Each has one defined result; nothing resumes twice.
 */
import type { Sandbox } from '../../sandbox/index.mts';
import type { N8nServer } from '../../harness/n8n/server.mts';
import { waitUntil, type Check, type Log } from '../../harness/n8n/workflows.mts';
import type { QueueRun } from './scale.mts';
import {
	answerOf,
	askBySms,
	executions,
	hundredWaits,
	REASK,
	reply,
	replySetup,
	settled,
	smsItemOf,
	type ReplySetup,
} from './smsReplies.mts';

/** Starts an ask run and answers its execution ID once it waits. */
async function asked(
	setup: ReplySetup,
	kind: keyof ReplySetup['ask'],
	phone: string,
	sender: string,
): Promise<string | undefined> {
	const before = new Set((await executions(setup, setup.ask[kind].id)).map((e) => e.id));
	await askBySms(setup, kind, phone, sender);
	const run = await waitUntil(async () => {
		const all = await executions(setup, setup.ask[kind].id);
		return all.find((e) => !before.has(e.id) && e.status === 'waiting');
	}, 60_000);
	return run?.id;
}

/** The run's answer once it has finished (undefined when it did not within the time). */
async function finishedAnswer(
	setup: ReplySetup,
	executionId: string | undefined,
	timeoutMs = 60_000,
) {
	if (!executionId) return undefined;
	const done = await waitUntil(async () => {
		const all = await executions(setup, setup.ask.plain.id).then(async (plain) => [
			...plain,
			...(await executions(setup, setup.ask.short.id)),
			...(await executions(setup, setup.ask.reask.id)),
		]);
		const run = all.find((e) => e.id === executionId);
		return run && !['waiting', 'running', 'new'].includes(run.status) ? run : undefined;
	}, timeoutMs);
	return done ? await answerOf(setup, executionId) : undefined;
}

/** Replies that no run takes start the replies workflow as ordinary SMS Received. */
async function ordinaryRuns(setup: ReplySetup, work: () => Promise<unknown>) {
	const before = new Set((await executions(setup, setup.replies.id)).map((e) => e.id));
	await work();
	await new Promise((resolve) => setTimeout(resolve, 1500));
	const all = await settled(setup, setup.replies.id, before.size, ['success', 'error'], 30_000);
	return all.filter((e) => !before.has(e.id));
}

async function nobodysReplies(setup: ReplySetup, check: Check) {
	const [sender] = setup.numbers;
	const again = await ordinaryRuns(setup, () => reply(setup, '0541200000', sender, '1'));
	const stranger = await ordinaryRuns(setup, () => reply(setup, '054 999 0000', sender, 'Hi'));
	const item = stranger[0] ? await smsItemOf(setup, stranger[0].id) : undefined;
	check(
		again.length === 1 && stranger.length === 1 && item?.conversationKey === '972549990000',
		`sms replies: a second reply after the answer, and a reply from a number no run waits for, each start the replies workflow as an ordinary SMS Received (conversationKey ${String(item?.conversationKey)})`,
	);
}

async function afterTheWait(setup: ReplySetup, check: Check, log: Log) {
	const [sender] = setup.numbers;
	const timed = await asked(setup, 'short', '0541300001', sender);
	log('sms replies: waiting for Limit Wait Time (n8n checks for due runs every minute)…');
	const timedOut = await finishedAnswer(setup, timed, 120_000);
	const late = await ordinaryRuns(setup, () => reply(setup, '0541300001', sender, '1'));
	const deleted = await asked(setup, 'plain', '0541300002', sender);
	if (deleted) await setup.host.client.rest('POST', '/executions/delete', { ids: [deleted] });
	const orphan = await ordinaryRuns(setup, () => reply(setup, '0541300002', sender, '1'));
	check(
		timed && timedOut === undefined && late.length === 1,
		`sms replies: a reply after Limit Wait Time (the run went on with its input) is an ordinary SMS Received (${late.length} run)`,
	);
	check(
		deleted && orphan.length === 1,
		`sms replies: a reply to a run deleted while waiting is an ordinary SMS Received (${orphan.length} run)`,
	);
}

async function twoSenders(setup: ReplySetup, check: Check) {
	const [one, two] = setup.numbers;
	const phone = '0541400001';
	const fromOne = await asked(setup, 'plain', phone, one);
	const fromTwo = await asked(setup, 'plain', phone, two);
	await reply(setup, phone, two, 'לא');
	await reply(setup, phone, one, 'yes');
	const [a, b] = [await finishedAnswer(setup, fromOne), await finishedAnswer(setup, fromTwo)];
	check(
		a?.approved === true && b?.approved === false,
		`sms replies: one person asked from two sender numbers: each reply answered the run that asked from the number it went to (${JSON.stringify([a?.approved, b?.approved])})`,
	);
}

async function askedTwice(setup: ReplySetup, check: Check) {
	const [sender] = setup.numbers;
	const phone = '0541400002';
	const older = await asked(setup, 'plain', phone, sender);
	const newer = await asked(setup, 'plain', phone, sender);
	const told = await finishedAnswer(setup, older);
	await reply(setup, phone, sender, '1');
	const answered = await finishedAnswer(setup, newer);
	check(
		told?.outcome === 'superseded' && told.supersededBy === newer && answered?.approved === true,
		`sms replies: the same person asked twice from one number: the newer run got the answer, the older resumed at once as superseded by it (${JSON.stringify(told)})`,
	);
}

async function unclearReplies(setup: ReplySetup, sandbox: Sandbox, check: Check) {
	const [sender] = setup.numbers;
	const withReask = await asked(setup, 'reask', '0541500001', sender);
	const sentBefore = sandbox.control.messages().length;
	await reply(setup, '0541500001', sender, '👍');
	const reasked = await waitUntil(
		() =>
			sandbox.control
				.messages()
				.slice(sentBefore)
				.find((m) => m.message === REASK),
		30_000,
	);
	const stillWaiting = (await executions(setup, setup.ask.reask.id)).find(
		(e) => e.id === withReask,
	);
	await reply(setup, '0541500001', sender, '   ');
	const unclear = await finishedAnswer(setup, withReask);
	const plain = await asked(setup, 'plain', '0541500002', sender);
	await reply(setup, '0541500002', sender, 'maybe next week');
	const once = await finishedAnswer(setup, plain);
	check(
		reasked?.dest.endsWith('541500001') &&
			stillWaiting?.status === 'waiting' &&
			unclear?.outcome === 'unclear' &&
			unclear.text === '   ',
		`sms replies: an emoji reply was asked again once (from ${String(reasked?.sender)}) and the run kept waiting (${String(stillWaiting?.status)}); a blank reply then resumed it as unclear with the text (${JSON.stringify(unclear)})`,
	);
	check(
		once?.outcome === 'unclear' && once.text === 'maybe next week',
		'sms replies: without Ask Again When Unclear, a reply matching no answer resumes the run as unclear with the text',
	);
}

async function optOut(setup: ReplySetup, check: Check) {
	const [sender] = setup.numbers;
	const run = await asked(setup, 'plain', '0541600001', sender);
	const ordinary = await ordinaryRuns(setup, () => reply(setup, '0541600001', sender, 'STOP'));
	const answer = await finishedAnswer(setup, run);
	const item = ordinary[0] ? await smsItemOf(setup, ordinary[0].id) : undefined;
	check(
		answer?.outcome === 'optedOut' && answer.approved === false && item?.optOut === true,
		`sms replies: an opt-out reply ended the wait as declined and also started SMS Received with optOut: true (${JSON.stringify(answer)})`,
	);
}

async function restart(setup: ReplySetup, n8n: N8nServer, check: Check, log: Log) {
	const [sender] = setup.numbers;
	const run = await asked(setup, 'plain', '0541700001', sender);
	log('sms replies: restarting n8n while a run waits for a reply…');
	await n8n.restart();
	await reply(setup, '0541700001', sender, '2');
	const answer = await finishedAnswer(setup, run);
	check(
		answer?.approved === false,
		`sms replies: after an n8n restart the reply still resumed the run (${JSON.stringify(answer)})`,
	);
}

export async function smsReplyRuns(
	n8n: N8nServer,
	sandbox: Sandbox,
	ids: { vn: string; sms: string },
	check: Check,
	log: Log,
): Promise<void> {
	const host = { client: n8n, apiUrl: n8n.url, webhookUrl: n8n.url };
	const setup = await replySetup(host, sandbox, ids);
	const figures = await hundredWaits(setup, check, log);
	log(`sms replies: figures ${JSON.stringify(figures)}`);
	await nobodysReplies(setup, check);
	await twoSenders(setup, check);
	await askedTwice(setup, check);
	await unclearReplies(setup, sandbox, check);
	await optOut(setup, check);
	await afterTheWait(setup, check, log);
	await restart(setup, n8n, check, log);
}

/**
 * Queue mode: the reply reaches the webhook processor, whose trigger claims the row through the
 * main process's public API and relays to the resume URL (the webhook processor again), and the
 * run resumes on a worker.
 */
export async function smsRepliesInQueue(run: QueueRun): Promise<void> {
	const { cluster, sandbox, check, log } = run;
	const host = { client: cluster, apiUrl: cluster.url, webhookUrl: cluster.webhookUrl };
	const setup = await replySetup(host, sandbox, run.credentials);
	const figures = await hundredWaits(setup, check, log, 50);
	run.figures.smsReplies = figures;
	const [sender] = setup.numbers;
	const id = await asked(setup, 'plain', '0541800001', sender);
	const askedOn = cluster.workerOf(id ?? '');
	await reply(setup, '0541800001', sender, 'כן');
	const answer = await finishedAnswer(setup, id);
	check(
		answer?.approved === true && cluster.workerOf(id ?? '') !== undefined,
		`sms replies (queue): a reply to the webhook processor resumed the run on a worker (asked on ${askedOn ?? '?'}, finished on ${cluster.workerOf(id ?? '') ?? '?'})`,
	);
}
