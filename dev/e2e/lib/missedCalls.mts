/**
 * Missed-call text-back (examples/missed-call-text-back.json) in a real n8n: Call Ended with
 * Unanswered Calls Only, n8n's Remove Duplicates keyed by the caller's phone identity and the day,
 * the opt-outs Data Table, Bulk SMS from the number dialled inside the Sending Window. Two missed
 * calls from one caller (in two spellings) get one text; an opted-out caller none; an answered
 * call never starts the workflow.
 */
import type { Sandbox } from '../../sandbox/index.mts';
import type { N8nServer } from '../../harness/n8n/server.mts';
import { executionsOf } from '../../harness/n8n/executions.mts';
import { waitUntil, type Check, type Log } from '../../harness/n8n/workflows.mts';
import { activateExample, ensureTable } from './conversations.mts';
import { verifySender } from './smsReplies.mts';

const CALLER = '0541110031';
const OPTED_OUT = '0541110039';
const ANSWERED = '0541110032';

const digits = (text: string) => text.replace(/\D/g, '');

/** Two missed calls from one caller (two spellings), an answered call, a call from an opted-out number. */
async function fourCalls(sandbox: Sandbox, number: string): Promise<string[]> {
	const answers: string[] = [];
	const call = async (caller: string, status: 'ANSWER' | 'NOANSWER' | 'BUSY') => {
		const placed = await sandbox.control.placeCall({
			virtualnum: number,
			caller,
			status,
			durationSec: 30,
		});
		answers.push(
			`${placed.call.call_status}: ${placed.callbacks.map((c) => c.responseStatus ?? c.error).join('/')}`,
		);
	};
	await call(CALLER, 'NOANSWER');
	await call(ANSWERED, 'ANSWER');
	await call(`+972-${CALLER.slice(1)}`, 'BUSY');
	await call(OPTED_OUT, 'NOANSWER');
	return answers;
}

export async function missedCallRuns(
	n8n: N8nServer,
	sandbox: Sandbox,
	ids: { vn: string; sms: string },
	check: Check,
	log: Log,
): Promise<void> {
	const number = sandbox.control.virtualnums()[0].virtualnum;
	await verifySender(sandbox, number);
	const optOuts = await ensureTable(n8n, 'SMS opt-outs', ['phone', 'text', 'receivedAt']);
	await n8n.rest('POST', `/projects/${optOuts.project}/data-tables/${optOuts.id}/insert`, {
		data: [{ phone: `972${OPTED_OUT.slice(1)}`, text: 'STOP', receivedAt: '' }],
		returnType: 'count',
	});
	const { id: workflowId } = await activateExample(n8n, 'missed-call-text-back.json', {
		virtualnumApi: ids.vn,
		virtualnumSmsApi: ids.sms,
	});
	const sentBefore = sandbox.control.messages().length;
	const answers = await fourCalls(sandbox, number);
	log(`missed calls: the calls and the answers to their callbacks ${JSON.stringify(answers)}`);
	const runs = await waitUntil(async () => {
		const all = await executionsOf(n8n, workflowId);
		const done = all.filter((e) => !['running', 'new', 'waiting'].includes(e.status));
		return done.length >= 3 ? done : undefined;
	}, 60_000);
	await new Promise((resolve) => setTimeout(resolve, 2000));
	const all = await executionsOf(n8n, workflowId);
	const texts = sandbox.control.messages().slice(sentBefore);
	const to = (phone: string) =>
		texts.filter((m) => digits(m.dest).endsWith(digits(phone).slice(-9)));
	log(
		`missed calls: ${all.length} runs (${all.map((e) => e.status).join(', ')}); texts ${JSON.stringify(texts.map((m) => ({ dest: m.dest, sender: m.sender, sendtime: m.sendtime })))}`,
	);
	check(
		runs !== undefined && all.length === 3 && all.every((e) => e.status === 'success'),
		`missed calls: three unanswered calls started the workflow and the answered one did not (${all.length} runs)`,
	);
	check(
		to(CALLER).length === 1 &&
			digits(to(CALLER)[0].sender) === digits(number) &&
			to(OPTED_OUT).length === 0 &&
			to(ANSWERED).length === 0,
		`missed calls: the caller who called twice (two spellings) was texted once, from the number dialled (${to(CALLER).length} SMS, sent ${to(CALLER)[0]?.sendtime ?? '-'} inside the Sending Window); the opted-out caller got none`,
	);
}
