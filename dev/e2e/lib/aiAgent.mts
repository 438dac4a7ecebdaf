/**
 * Both nodes as tools of n8n's AI Agent in the real n8n, with the OpenAI Chat Model pointed at a
 * scripted model on loopback (scriptedModel.mts). The model's requests show what n8n gave it: the
 * tools' names, descriptions and argument schemas (from `$fromAI`), and each tool's result.
 * Three conversations: (a) a send that reaches the sandbox and whose result the model reads; (b) a
 * refused send whose error, naming the argument, the model reads in its next request; (c) a
 * question about calls (Get Many numbers, then Call Record Query), with the compact outputs.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';

import type { Sandbox } from '../../sandbox/index.mts';
import type { N8nServer } from '../../harness/n8n/server.mts';
import { runFromPinned } from '../../harness/n8n/executions.mts';
import {
	scriptedOpenAiCredential,
	startScriptedModel,
	textOf,
	type ChatRequest,
	type ScriptedModel,
	type ScriptedTurn,
} from '../../harness/n8n/scriptedModel.mts';
import { ROOT_DIR } from '../../harness/n8n/install.mts';
import { node, type Check, type Log } from '../../harness/n8n/workflows.mts';

const flatted = createRequire(join(ROOT_DIR, 'dev', 'e2e', 'package.json'))('flatted') as {
	parse(text: string): unknown;
};

interface StoredRun {
	resultData: {
		runData: Record<
			string,
			Array<{ data?: { main?: Array<Array<{ json: Record<string, unknown> }>> } }>
		>;
		error?: { message?: string };
	};
}

const GOOD_PHONE = '0501234567';
const BAD_PHONE = 'call me maybe';
const TEXT = 'Your table is ready';

/** The tool names n8n gives the nodes (nodeNameToToolName: spaces become underscores). */
const TOOLS = {
	send: 'Send_SMS',
	numbers: 'Numbers',
	allNumbers: 'All_Number_Fields',
	calls: 'Call_Records',
} as const;

const toolMessages = (request: ChatRequest) =>
	request.messages.filter((message) => message.role === 'tool');

/** The model's part: which tool to call next in each conversation, then its answer. */
function script(request: ChatRequest): ScriptedTurn {
	const question = textOf(request.messages.find((message) => message.role === 'user'));
	const results = toolMessages(request).map(textOf);
	const call = (name: string, args: Record<string, unknown> = {}): ScriptedTurn => ({
		toolCalls: [{ name, arguments: args }],
	});
	if (question.includes('[send]'))
		return results.length === 0
			? call(TOOLS.send, { phone: GOOD_PHONE, text: TEXT })
			: { text: `Sent. The service said: ${results[0]}` };
	if (question.includes('[refused]'))
		return results.length === 0
			? call(TOOLS.send, { phone: BAD_PHONE, text: TEXT })
			: { text: `I could not send it: ${results[0]}` };
	if (question.includes('[calls]')) {
		if (results.length === 0) return call(TOOLS.numbers);
		if (results.length === 1) return call(TOOLS.allNumbers);
		if (results.length === 2) return call(TOOLS.calls, { caller_number: '' });
		const rows = JSON.parse(results[2]) as Array<{ callId?: string }>;
		return { text: `The latest call is ${rows[0]?.callId ?? 'unknown'}.` };
	}
	return { text: 'No script for this question.' };
}

function agentWorkflow(
	credentials: { vn: string; sms: string; openAi: string },
	question: string,
): { pinData: Record<string, unknown[]> } & Record<string, unknown> {
	const vn = { virtualnumApi: { id: credentials.vn, name: 'Virtual Number sandbox' } };
	const toAgent = (type: string) => ({ [type]: [[{ node: 'AI Agent', type, index: 0 }]] });
	return {
		name: 'e2e: AI agent with Bulk SMS and Virtual Number tools',
		nodes: [
			node('Start', 'n8n-nodes-base.manualTrigger', 1, {}),
			node('AI Agent', '@n8n/n8n-nodes-langchain.agent', 3.1, {
				promptType: 'define',
				text: '={{ $json.chatInput }}',
				options: {},
			}),
			node(
				'OpenAI Chat Model',
				'@n8n/n8n-nodes-langchain.lmChatOpenAi',
				1.3,
				{
					model: { __rl: true, mode: 'id', value: 'scripted' },
					responsesApiEnabled: false,
					options: {},
				},
				{ credentials: { openAiApi: { id: credentials.openAi, name: 'Scripted model' } } },
			),
			node(
				'Send SMS',
				'n8n-nodes-virtualnum.bulkSmsTool',
				1.1,
				{
					resource: 'message',
					operation: 'send',
					sender: { __rl: true, mode: 'id', value: 'VirtualNum' },
					to: "={{ $fromAI('phone', 'The phone number to text', 'string') }}",
					message: "={{ $fromAI('text', 'The text of the SMS', 'string') }}",
					options: {},
				},
				{ credentials: { virtualnumSmsApi: { id: credentials.sms, name: 'SMS sandbox' } } },
			),
			...virtualNumberTools(vn),
		],
		connections: {
			Start: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
			'OpenAI Chat Model': toAgent('ai_languageModel'),
			'Send SMS': toAgent('ai_tool'),
			Numbers: toAgent('ai_tool'),
			'All Number Fields': toAgent('ai_tool'),
			'Call Records': toAgent('ai_tool'),
		},
		pinData: { Start: [{ json: { chatInput: question } }] },
		settings: { executionOrder: 'v1' },
	};
}

/** The agent's Virtual Number tools: numbers (short and with every field) and call records. */
function virtualNumberTools(vn: Record<string, { id: string; name: string }>) {
	return [
		node(
			'Numbers',
			'n8n-nodes-virtualnum.virtualNumberTool',
			1.1,
			{ resource: 'virtualnum', operation: 'getAll', limit: 3 },
			{ credentials: vn },
		),
		// The same with Return All Fields, to compare what the model reads.
		node(
			'All Number Fields',
			'n8n-nodes-virtualnum.virtualNumberTool',
			1.1,
			{ resource: 'virtualnum', operation: 'getAll', limit: 3, toolAllFields: true },
			{ credentials: vn },
		),
		node(
			'Call Records',
			'n8n-nodes-virtualnum.virtualNumberTool',
			1.1,
			{
				resource: 'cdr',
				operation: 'query',
				// Not 'caller': n8n refuses keys that name members of JavaScript objects.
				callers:
					"={{ $fromAI('caller_number', 'A caller number to filter by, or empty for all', 'string') }}",
				limit: 3,
			},
			{ credentials: vn },
		),
	];
}

/** Runs one conversation; answers the agent's output text and the model's requests of this run. */
async function converse(
	n8n: N8nServer,
	model: ScriptedModel,
	credentials: { vn: string; sms: string; openAi: string },
	question: string,
): Promise<{ output: string; requests: ChatRequest[]; status: string; error?: string }> {
	const before = model.requests.length;
	const execution = await runFromPinned(n8n, agentWorkflow(credentials, question));
	const run = execution ? (flatted.parse(execution.data) as StoredRun) : undefined;
	const output = run?.resultData.runData['AI Agent']?.at(-1)?.data?.main?.[0]?.[0]?.json.output;
	return {
		output: String(output ?? ''),
		requests: model.requests.slice(before),
		status: execution?.status ?? 'no execution',
		error: run?.resultData.error?.message,
	};
}

/** The tool result the model read in a request, by tool name (the call it answers). */
function toolResult(request: ChatRequest | undefined, tool: string): string {
	if (!request) return '';
	const ids = request.messages
		.flatMap((message) => message.tool_calls ?? [])
		.filter((call) => call.function.name === tool)
		.map((call) => call.id);
	const result = request.messages.find(
		(message) => message.role === 'tool' && ids.includes(String(message.tool_call_id)),
	);
	return textOf(result);
}

export async function aiAgentRuns(
	n8n: N8nServer,
	sandbox: Sandbox,
	credentials: { vn: string; sms: string },
	check: Check,
	log: Log,
): Promise<void> {
	const model = await startScriptedModel(script);
	try {
		const ids = {
			...credentials,
			openAi: await scriptedOpenAiCredential(n8n, model, 'Scripted model'),
		};
		await sendConversation(n8n, sandbox, model, ids, check, log);
		await refusedConversation(n8n, sandbox, model, ids, check);
		await callsConversation(n8n, model, ids, check, log);
	} finally {
		await model.close();
	}
}

async function sendConversation(
	n8n: N8nServer,
	sandbox: Sandbox,
	model: ScriptedModel,
	ids: { vn: string; sms: string; openAi: string },
	check: Check,
	log: Log,
): Promise<void> {
	sandbox.control.clearRequests();
	const run = await converse(n8n, model, ids, '[send] Text 0501234567 that their table is ready.');
	check(
		run.status === 'success',
		`AI agent (a): the run succeeded (${run.status} ${run.error ?? ''})`,
	);
	const tools = run.requests[0]?.tools ?? [];
	const send = tools.find((tool) => tool.function.name === TOOLS.send)?.function;
	log(`AI agent: the model was given ${tools.map((tool) => tool.function.name).join(', ')}`);
	check(
		/one SMS credit per recipient/.test(send?.description ?? '') &&
			/Sender field/.test(send?.description ?? '') &&
			/\+972 50-123-4567/.test(send?.description ?? ''),
		`AI agent (a): Send's tool description gives the cost, the sender and the phone forms (${send?.description?.slice(0, 80)}…)`,
	);
	const schema = JSON.stringify(send?.parameters ?? {});
	check(
		schema.includes('"phone"') &&
			schema.includes('"text"') &&
			schema.includes('The phone number to text'),
		`AI agent (a): the model's argument schema has phone and text from $fromAI (${schema.slice(0, 160)})`,
	);
	const calls = tools.find((tool) => tool.function.name === TOOLS.calls)?.function;
	check(
		/callId/.test(calls?.description ?? '') && /newest first/.test(calls?.description ?? ''),
		`AI agent (a): Call Record Query's tool description says what it returns`,
	);
	const sent = sandbox.control
		.requests({ operation: 'send_sms' })
		.flatMap((request) => (request.body ?? []) as Array<{ dest: string; message: string }>);
	check(
		sent.length === 1 && sent[0].dest === GOOD_PHONE && sent[0].message === TEXT,
		`AI agent (a): the sandbox received one SMS to ${GOOD_PHONE} (${JSON.stringify(sent)})`,
	);
	const result = toolResult(run.requests[1], TOOLS.send);
	check(
		result.includes(GOOD_PHONE) || result.includes('972501234567'),
		`AI agent (a): the model read the send's result (${result.slice(0, 160)})`,
	);
	check(
		run.output.startsWith('Sent.'),
		`AI agent (a): the agent answered (${run.output.slice(0, 80)})`,
	);
}

async function refusedConversation(
	n8n: N8nServer,
	sandbox: Sandbox,
	model: ScriptedModel,
	ids: { vn: string; sms: string; openAi: string },
	check: Check,
): Promise<void> {
	sandbox.control.clearRequests();
	const run = await converse(
		n8n,
		model,
		ids,
		'[refused] Text "call me maybe" that the table is ready.',
	);
	const result = toolResult(run.requests[1], TOOLS.send);
	check(
		/The argument \\?"phone\\?" \(the To field\)/.test(result) &&
			/Call the tool again with a corrected \\?"phone\\?" argument/.test(result),
		`AI agent (b): the model read the refusal naming its argument and the fix (${result.slice(0, 200)})`,
	);
	check(
		sandbox.control.requests({ operation: 'send_sms' }).length === 0,
		'AI agent (b): nothing reached the SMS service',
	);
	check(
		run.status === 'success' && run.output.startsWith('I could not send it'),
		`AI agent (b): the agent went on and answered (${run.status}: ${run.output.slice(0, 80)})`,
	);
}

async function callsConversation(
	n8n: N8nServer,
	model: ScriptedModel,
	ids: { vn: string; sms: string; openAi: string },
	check: Check,
	log: Log,
): Promise<void> {
	const run = await converse(
		n8n,
		model,
		ids,
		'[calls] Which call came in last, and to which number?',
	);
	const numbers = toolResult(run.requests[1], TOOLS.numbers);
	log(`AI agent (c): Get Many of 3 numbers reached the model as ${numbers.length} characters`);
	check(
		numbers.includes('virtualnum') && !numbers.includes('working_hours') && numbers.length < 1500,
		`AI agent (c): the model read 3 compact numbers (${numbers.length} characters)`,
	);
	const all = toolResult(run.requests[2], TOOLS.allNumbers);
	log(`AI agent (c): the same with Return All Fields: ${all.length} characters`);
	check(
		all.includes('working_hours') && all.length > 3 * numbers.length,
		`AI agent (c): Return All Fields gives the model every field (${all.length} characters)`,
	);
	const calls = toolResult(run.requests[3], TOOLS.calls);
	const rows = (() => {
		try {
			return JSON.parse(calls) as Array<Record<string, unknown>>;
		} catch {
			return [];
		}
	})();
	log(`AI agent (c): Call Record Query of 3 calls reached the model as ${calls.length} characters`);
	check(
		rows.length === 3 && typeof rows[0].callId === 'string' && rows[0].startTime === undefined,
		`AI agent (c): the model read 3 call records with their callId (${calls.slice(0, 160)})`,
	);
	check(
		run.status === 'success' && run.output === `The latest call is ${String(rows[0]?.callId)}.`,
		`AI agent (c): the agent answered from the call records (${run.output})`,
	);
}
