/**
 * The AI example of the demo: examples/ai/call-transcript-summary-to-crm.json (Call Ended → wait
 * for the recording → transcript → Basic LLM Chain with the OpenAI Chat Model → CRM note), run from
 * its pinned call with n8n's own LangChain and HTTP Request nodes, loaded from the e2e install of
 * n8n. The model is a stub: the scripted OpenAI-compatible server of the e2e run, on loopback, set
 * as the credential's Base URL; the CRM is a stand-in on loopback too. Without the install (or
 * when its nodes cannot load here) the step is not run, and says why.
 */

import type { ICredentialDataDecryptedObject, IDataObject, INodeTypes } from 'n8n-workflow';

import { startCrm } from '../harness/n8n/standInCrm.mts';
import { startScriptedModel, textOf } from '../harness/n8n/scriptedModel.mts';
import { loadPackage } from '../harness/engine.mts';
import {
	InstalledNodeTypes,
	installStatus,
	loadInstalledNodes,
	type InstalledNode,
} from '../harness/n8nInstall.mts';
import { findNode, loadExample, pinnedItems, runExample, triggerOf } from './workflows.mts';

export const AI_EXAMPLE = 'ai/call-transcript-summary-to-crm.json';

const LANGCHAIN = '@n8n/n8n-nodes-langchain';
const BASE = 'n8n-nodes-base';
const CHAIN = `${LANGCHAIN}.chainLlm`;
const CHAT_MODEL = `${LANGCHAIN}.lmChatOpenAi`;
const HTTP_REQUEST = `${BASE}.httpRequest`;

const INSTALLED: Record<string, InstalledNode> = {
	[CHAIN]: {
		pkg: LANGCHAIN,
		file: 'dist/nodes/chains/ChainLLM/ChainLlm.node.js',
		exported: 'ChainLlm',
	},
	[CHAT_MODEL]: {
		pkg: LANGCHAIN,
		file: 'dist/nodes/llms/LMChatOpenAi/LmChatOpenAi.node.js',
		exported: 'LmChatOpenAi',
	},
	[HTTP_REQUEST]: {
		pkg: BASE,
		file: 'dist/nodes/HttpRequest/HttpRequest.node.js',
		exported: 'HttpRequest',
	},
};

/** The summary the stub model gives; the CRM step must receive it as the note. */
export const STUB_SUMMARY =
	'- Caller asked about Billboard Tel Aviv 2\n- Nothing agreed yet\n- Follow-up: call the caller back at 0501702585';

export type AiNodes =
	| { available: true; nodeTypes: INodeTypes; versions: Record<string, string> }
	| { available: false; reason: string };

let loaded: AiNodes | undefined;

/** n8n's Basic LLM Chain, OpenAI Chat Model and HTTP Request nodes, or why they cannot run here. */
export async function aiNodes(): Promise<AiNodes> {
	if (loaded) return loaded;
	const status = installStatus([LANGCHAIN, BASE]);
	if (!status.available) return (loaded = status);
	try {
		const types = loadInstalledNodes(INSTALLED);
		loaded = {
			available: true,
			nodeTypes: new InstalledNodeTypes(await loadPackage(), types),
			versions: status.versions,
		};
	} catch (error) {
		const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
		loaded = { available: false, reason: `n8n's LangChain nodes do not load here: ${message}` };
	}
	return loaded;
}

export interface AiSummaryFacts {
	callId: string;
	transcript: string;
	summary: string;
	note: IDataObject;
	modelRequests: number;
}

export interface AiSummaryContext {
	credentials: Record<string, ICredentialDataDecryptedObject>;
	timezone: string;
	nodeTypes: INodeTypes;
	say: (line?: string) => void;
	check: (condition: unknown, message: string) => asserts condition;
	/** Output items of a node, or the run's error in the node's own words. */
	outputOf: (
		run: Awaited<ReturnType<typeof runExample>>,
		node: string,
	) => Array<{ json: IDataObject }>;
}

const indent = (block: string) => block.split('\n').map((line) => `  ${line}`);

/** Runs the example from its pinned call and checks the transcript, the prompt, the summary and the note. */
export async function runAiSummary(context: AiSummaryContext): Promise<AiSummaryFacts> {
	const { say } = context;
	const workflow = loadExample(AI_EXAMPLE);
	const trigger = triggerOf(workflow);
	const input = pinnedItems(workflow, trigger.name);
	const transcriptNode = findNode(
		workflow,
		(node) => node.parameters.operation === 'getTranscript',
		'Get Transcript',
	);
	const chain = findNode(workflow, (node) => node.type === CHAIN, 'Basic LLM Chain');
	const crmNode = findNode(workflow, (node) => node.type === HTTP_REQUEST, 'CRM (HTTP Request)');
	const callId = String(input[0].json.callId);
	say(`Call ended (pinned): call ID ${callId}, caller ${String(input[0].json.callerNumber)}`);

	const model = await startScriptedModel(() => ({ text: STUB_SUMMARY }));
	const crm = await startCrm();
	try {
		say(`Stub model: ${model.baseUrl} (OpenAI-compatible, scripted); CRM stand-in: ${crm.url}`);
		const run = await runExample(workflow, {
			input,
			credentials: {
				...context.credentials,
				openAiApi: { apiKey: 'sk-demo-stub', url: model.baseUrl, header: false },
			},
			overrides: { [crmNode.name]: { url: crm.url } },
			timezone: context.timezone,
			installed: { nodeTypes: context.nodeTypes, types: Object.keys(INSTALLED) },
		});
		const { transcript, summary } = checkSummary(context, run, {
			transcriptNode,
			chain,
			model,
			callId,
		});
		checkNote(context, crm, { callId, caller: input[0].json.callerNumber, transcript });
		const note = crm.notes[0];
		return { callId, transcript, summary, note, modelRequests: model.requests.length };
	} finally {
		await crm.close();
		await model.close();
	}
}

/** Get Transcript read the call's transcript; the model got it in one request; the chain gave its summary. */
function checkSummary(
	context: AiSummaryContext,
	run: Awaited<ReturnType<typeof runExample>>,
	{
		transcriptNode,
		chain,
		model,
		callId,
	}: {
		transcriptNode: { name: string };
		chain: { name: string };
		model: Awaited<ReturnType<typeof startScriptedModel>>;
		callId: string;
	},
): { transcript: string; summary: string } {
	const { say, outputOf } = context;
	const check: AiSummaryContext['check'] = context.check;
	const [read] = outputOf(run, transcriptNode.name).map((item) => item.json);
	const transcript = String(read?.transcript ?? '');
	say('Transcript read by Get Transcript:');
	for (const line of indent(transcript)) say(line);
	check(transcript.trim(), `Get Transcript returned no transcript for call ${callId}`);

	const prompt = model.requests.map((r) => r.messages.map(textOf).join('\n')).join('\n');
	check(
		model.requests.length === 1 && prompt.includes(transcript),
		`the model should get one request with the transcript in its prompt; it got ${model.requests.length}`,
	);
	const [summarized] = outputOf(run, chain.name).map((item) => item.json);
	const summary = String(summarized?.text ?? '');
	say(
		`Summary the model gave (${chain.name}: one request to model ${String(model.requests[0].model)}, the transcript in its prompt):`,
	);
	for (const line of indent(summary)) say(line);
	check(summary === STUB_SUMMARY, `the chain output "${summary}", not the model's summary`);
	return { transcript, summary };
}

/** The stand-in CRM got one note: the summary, the call, the caller and the transcript. */
function checkNote(
	context: AiSummaryContext,
	crm: Awaited<ReturnType<typeof startCrm>>,
	{ callId, caller, transcript }: { callId: string; caller: unknown; transcript: string },
): void {
	const { say } = context;
	const check: AiSummaryContext['check'] = context.check;
	const [note] = crm.notes;
	say(`CRM note received by the stand-in CRM (${crm.notes.length} POST):`);
	say(
		`  phone ${String(note?.phone)}, call ID ${String(note?.callId)}, start ${String(note?.startTime)}`,
	);
	say(`  note: ${JSON.stringify(note?.note)}`);
	check(
		crm.notes.length === 1 &&
			note.note === STUB_SUMMARY &&
			note.callId === callId &&
			note.phone === caller &&
			note.transcript === transcript,
		`the CRM should get one note with the summary, the call and the transcript; it got ${JSON.stringify(crm.notes).slice(0, 300)}`,
	);
}
