/**
 * The two-way SMS assistant (examples/ai/sms-assistant.json) in a real n8n, with the scripted model
 * (dev/harness/n8n/scriptedModel.mts): two people text the number at the same time, three turns
 * each, one of them from three spellings of their number. Each gets every answer from the number
 * they texted; n8n's memory, keyed by the trigger's conversationKey, holds each conversation apart
 * and whole; the Bulk SMS tool tells the staff of a booking. A sender in the opt-outs table gets
 * no answer (the model is never asked), and a STOP is recorded by its phone identity.
 */
import type { Sandbox } from '../../sandbox/index.mts';
import type { N8nServer } from '../../harness/n8n/server.mts';
import {
	scriptedOpenAiCredential,
	startScriptedModel,
	textOf,
	type ChatRequest,
	type ScriptedTurn,
} from '../../harness/n8n/scriptedModel.mts';
import { executionsOf, storedRun } from '../../harness/n8n/executions.mts';
import { waitUntil, type Check, type Log } from '../../harness/n8n/workflows.mts';
import {
	activateExample,
	ensureTable,
	tableRowsByName,
	type ExampleCredentials,
} from './conversations.mts';
import { apiCredential, verifySender } from './smsReplies.mts';

const STAFF = '0501234567';
const DANA = ['Hi, this is Dana', 'Can I book a table for 2 tomorrow?', 'At 8pm please'];
const AVI = ['Hello, Avi here', 'What are your Friday hours?', 'Thanks!'];
const DANA_FROM = ['0541110021', '+972-54-111-0021', '00972541110021'];
const AVI_FROM = '0541110022';

/** The model: turn n answers what it remembers; Dana's last message books through the tool. */
function script(request: ChatRequest): ScriptedTurn {
	const users = request.messages.filter((m) => m.role === 'user').map(textOf);
	const told = request.messages.some((m) => m.role === 'tool');
	const last = users.at(-1) ?? '';
	if (last.includes('8pm') && !told)
		return {
			toolCalls: [
				{ name: 'Notify_staff', arguments: { message: 'Dana: table for 2 tomorrow at 8pm' } },
			],
		};
	return { text: `Turn ${users.length}. You first said: ${users[0] ?? ''}` };
}

interface Ctx {
	sandbox: Sandbox;
	workflowId: string;
	number: string;
	smsUrl: string;
}

const digits = (text: string) => text.replace(/\D/g, '');

/** The answers the sandbox received for `phone` (its local form), from the number texted. */
function answersTo(ctx: Ctx, phone: string) {
	return ctx.sandbox.control
		.messages()
		.filter(
			(m) =>
				digits(m.dest).endsWith(digits(phone).slice(-9)) && digits(m.sender) === digits(ctx.number),
		);
}

async function text(ctx: Ctx, from: string, msg: string) {
	return await ctx.sandbox.control.inboundSms({
		virtualnum: ctx.number,
		from,
		text: msg,
		url: ctx.smsUrl,
	});
}

/** Three turns, both people at once each turn, each turn waiting for both answers. */
async function converse(ctx: Ctx, log: Log): Promise<boolean> {
	for (let turn = 0; turn < 3; turn++) {
		const sent = await Promise.all([
			text(ctx, DANA_FROM[turn], DANA[turn]),
			text(ctx, AVI_FROM, AVI[turn]),
		]);
		log(
			`sms assistant: turn ${turn + 1} texted, answered ${sent.map((r) => r.responseStatus ?? r.error).join('/')}`,
		);
		const both = await waitUntil(
			() => answersTo(ctx, DANA_FROM[0]).length > turn && answersTo(ctx, AVI_FROM).length > turn,
			60_000,
		);
		if (!both) return false;
	}
	return true;
}

async function setUp(n8n: N8nServer, sandbox: Sandbox, ids: { vn: string; sms: string }) {
	const model = await startScriptedModel(script);
	const number = sandbox.control.virtualnums()[0].virtualnum;
	await verifySender(sandbox, number);
	const host = { client: n8n, apiUrl: n8n.url, webhookUrl: n8n.url };
	const credentials: ExampleCredentials = {
		virtualnumApi: ids.vn,
		virtualnumSmsApi: ids.sms,
		virtualnumN8nApi: (await apiCredential(host)).id,
		openAiApi: await scriptedOpenAiCredential(n8n, model),
	};
	const optOuts = await ensureTable(n8n, 'SMS opt-outs', ['phone', 'text', 'receivedAt']);
	await n8n.rest('POST', `/projects/${optOuts.project}/data-tables/${optOuts.id}/insert`, {
		data: [{ phone: '972541110029', text: 'STOP', receivedAt: '' }],
		returnType: 'count',
	});
	const { id: workflowId, url: smsUrl } = await activateExample(
		n8n,
		'ai/sms-assistant.json',
		credentials,
		(node) => {
			if (node.type.endsWith('lmChatOpenAi'))
				node.parameters = {
					...node.parameters,
					model: { __rl: true, mode: 'id', value: 'scripted' },
					// The scripted model speaks Chat Completions, not the Responses API version 1.3 uses.
					responsesApiEnabled: false,
				};
		},
	);
	return { model, ctx: { sandbox, workflowId, number, smsUrl } };
}

export async function smsAssistantRuns(
	n8n: N8nServer,
	sandbox: Sandbox,
	ids: { vn: string; sms: string },
	check: Check,
	log: Log,
): Promise<void> {
	const { model, ctx } = await setUp(n8n, sandbox, ids);
	try {
		const done = await converse(ctx, log);
		if (!done) await logRuns(n8n, ctx, log);
		const dana = answersTo(ctx, DANA_FROM[0]).map((m) => m.message);
		const avi = answersTo(ctx, AVI_FROM).map((m) => m.message);
		log(`sms assistant: Dana got ${JSON.stringify(dana)}; Avi got ${JSON.stringify(avi)}`);
		check(
			done &&
				dana.length === 3 &&
				dana[2] === `Turn 3. You first said: ${DANA[0]}` &&
				avi.length === 3 &&
				avi[2] === `Turn 3. You first said: ${AVI[0]}`,
			`sms assistant: two people texting at once, three turns each, got every answer from the number they texted, each from one memory of their own (Dana wrote from three spellings of her number)`,
		);
		const staff = sandbox.control.messages().filter((m) => digits(m.dest) === digits(STAFF));
		check(
			staff.some((m) => m.message.includes('8pm')),
			`sms assistant: the Bulk SMS tool told the staff of Dana's booking (${staff.length} SMS)`,
		);
		await optedOut(n8n, ctx, model.requests.length, () => model.requests.length, check);
	} finally {
		await model.close();
	}
}

/** What the assistant's runs did, when an answer did not come. */
async function logRuns(n8n: N8nServer, ctx: Ctx, log: Log) {
	for (const execution of (await executionsOf(n8n, ctx.workflowId)).slice(0, 4)) {
		const run = await storedRun(n8n, execution.id);
		log(
			`sms assistant: run ${execution.id} ${execution.status}: ${JSON.stringify(run?.error ?? null).slice(0, 600)}; ` +
				`ran ${['New opt-out?', 'Opted out earlier?', 'Assistant', 'Reply'].filter((name) => run?.ran(name)).join(', ')}; ` +
				`trigger item ${JSON.stringify(run?.first('SMS Received') ?? null).slice(0, 400)}`,
		);
	}
}

/** An opted-out sender gets no answer and the model is not asked; a STOP is recorded and not answered. */
async function optedOut(
	n8n: N8nServer,
	ctx: Ctx,
	before: number,
	requests: () => number,
	check: Check,
) {
	await text(ctx, '+972 54-111-0029', 'Hi, are you open today?');
	await text(ctx, '054-111-0030', 'STOP');
	const recorded = await waitUntil(async () => {
		const rows = await tableRowsByName(n8n, 'SMS opt-outs');
		return rows.some((row) => row.phone === '972541110030') ? rows : undefined;
	}, 30_000);
	await new Promise((resolve) => setTimeout(resolve, 2000));
	check(
		recorded !== undefined &&
			answersTo(ctx, '0541110029').length === 0 &&
			answersTo(ctx, '0541110030').length === 0 &&
			requests() === before,
		'sms assistant: a sender who opted out earlier got no answer (the model was not asked); a STOP was recorded by its phone identity and not answered',
	);
}
