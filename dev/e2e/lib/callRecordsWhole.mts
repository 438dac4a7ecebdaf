/**
 * Calls delivered whole, in the real n8n: examples/ai/call-record-with-recording-to-crm.json run
 * from its two pinned calls with a (scripted) model: the call with a transcript summarised, the CRM
 * receiving the summary; the call without one never given to the model, the CRM receiving it marked
 * "no transcript"; then the same
 * example published as a user would (its Call Record Trigger polling every 15 s) with the field
 * profile's recording written RECORDING_DELAY_S after the call: the call is held, then emitted
 * once with its recording as binary data; a second call held while n8n restarts is emitted once
 * after it, nothing doubled; then a call whose recording answers an HTML page (the field-data
 * corpus's login page) and a later normal call: both reach the CRM, the odd one at once with
 * `recordingStatus: "notAudio"`, the later one not held up by it. Last, the lower-case callback
 * template through the Virtual Number Trigger 1.1: numbers as digits, `recordingExists` a boolean.
 *
 * The service writes a recording up to minutes after the call (the hold allows 10 by default);
 * 25 s here keeps the run short while still spanning more than one poll.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

import { parse } from 'flatted';

import type { Sandbox } from '../../sandbox/index.mts';
import type { N8nServer } from '../../harness/n8n/server.mts';
import { executionsOf, finished, runFromPinned } from '../../harness/n8n/executions.mts';
import { POLL_TIMES, SANDBOX_ZONE } from './pollTrigger.mts';
import {
	scriptedOpenAiCredential,
	startScriptedModel,
	textOf,
	type ScriptedModel,
} from '../../harness/n8n/scriptedModel.mts';
import { readExample } from '../../harness/n8n/install.mts';
import { startCrm, type StandInCrm } from '../../harness/n8n/standInCrm.mts';
import {
	chain,
	node,
	sleep,
	waitUntil,
	type Check,
	type Log,
} from '../../harness/n8n/workflows.mts';

const FILE = 'ai/call-record-with-recording-to-crm.json';
const TRIGGER = 'Call records with recording';
const SUMMARY = '- Caller wants a price for a month of the billboard\n- Call back tomorrow';
const RECORDING_DELAY_S = 25;
interface ExampleNode {
	name: string;
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
}
interface Example extends Record<string, unknown> {
	nodes: ExampleNode[];
	pinData: Record<string, unknown[]>;
}
interface Setup {
	n8n: N8nServer;
	sandbox: Sandbox;
	model: ScriptedModel;
	crm: StandInCrm;
	credentials: Record<string, string>;
	check: Check;
	log: Log;
}
type Note = {
	callId?: string;
	note?: string;
	phone?: string;
	recordingStatus?: string;
	transcript?: string | null;
};

/** The example as a user imports it: their credentials, the CRM's address. */
function loadExample(setup: Setup): Example {
	const workflow = JSON.parse(readExample(FILE)) as Example;
	for (const node of workflow.nodes)
		for (const [type, ref] of Object.entries(node.credentials ?? {}))
			node.credentials![type] = { id: setup.credentials[type], name: ref.name };
	// Both CRM steps: the summary's and the one of a call without a transcript.
	for (const node of workflow.nodes)
		if (String(node.parameters.url ?? '').startsWith('https://crm.example.com/'))
			node.parameters.url = setup.crm.url;
	delete workflow.id;
	return workflow;
}

export async function callRecordsWholeRuns(
	n8n: N8nServer,
	sandbox: Sandbox,
	virtualnumApi: string,
	check: Check,
	log: Log,
): Promise<void> {
	const started = Date.now();
	const model = await startScriptedModel(() => ({ text: SUMMARY }));
	const crm = await startCrm();
	try {
		const credentials = { virtualnumApi, openAiApi: await scriptedOpenAiCredential(n8n, model) };
		const setup: Setup = { n8n, sandbox, model, crm, credentials, check, log };
		await pinnedRun(setup);
		await publishedRun(setup);
		await lowerCaseTemplate(setup);
	} finally {
		sandbox.control.setProfile({ profile: 'contract' });
		await crm.close();
		await model.close();
	}
	log(`calls delivered whole: took ${Math.round((Date.now() - started) / 1000)} s`);
}

/**
 * (a) The example from its two pinned calls: the model reads the one transcript, the CRM gets its
 * summary; the call without a transcript reaches the CRM marked "no transcript", unsummarised.
 */
async function pinnedRun({ n8n, model, crm, check, ...setup }: Setup): Promise<void> {
	const workflow = loadExample({ n8n, model, crm, check, ...setup });
	const execution = await runFromPinned(n8n, workflow, TRIGGER);
	const pinned = (workflow.pinData[TRIGGER][0] as { json: { transcript: string } }).json;
	const prompt = model.requests.map((r) => r.messages.map(textOf).join('\n')).join('\n');
	const notes = crm.notes as Note[];
	const summarised = notes.find((note) => note.callId === '1733049840.1337');
	const unsummarised = notes.find((note) => note.callId === '1733050920.1338');
	check(
		execution?.status === 'success' &&
			model.requests.length === 1 &&
			prompt.includes(pinned.transcript.split('\n')[0]) &&
			!prompt.includes('0541110010'),
		`${FILE}: ran from its pinned calls in n8n, the model received the one transcript and nothing of the call without one (${execution?.status ?? 'no execution'}, ${model.requests.length} model request)`,
	);
	check(
		notes.length === 2 && summarised?.note === SUMMARY && summarised.recordingStatus === 'included',
		`${FILE}: the CRM received the model's summary as the note of the call with a transcript (${JSON.stringify(summarised)})`,
	);
	check(
		unsummarised?.note === 'no transcript' &&
			unsummarised.transcript === null &&
			unsummarised.phone === '0541110010',
		`${FILE}: the call without a transcript reached the CRM marked "no transcript", with no summary (${JSON.stringify(unsummarised)})`,
	);
	crm.notes.length = 0;
}

/** Notes the CRM received for a call. */
const notesOf = (crm: StandInCrm, callId: string) =>
	(crm.notes as Note[]).filter((note) => note.callId === callId);

/** (b) and (c): the example published, its trigger polling every 15 s on a number of its own. */
async function publishedRun(setup: Setup): Promise<void> {
	const { n8n, sandbox, check } = setup;
	const number = sandbox.control.seed({ numbers: 1 }).numbers![0];
	const workflow = loadExample(setup);
	const trigger = workflow.nodes.find((node) => node.name === TRIGGER)!;
	Object.assign(trigger.parameters, {
		pollTimes: POLL_TIMES,
		virtualNumbers: number,
		options: { maxRecords: 100, serviceTimeZone: SANDBOX_ZONE },
	});
	workflow.name = 'E2E: call records with recording to the CRM';
	const created = await n8n.rest<{ id: string; versionId: string }>('POST', '/workflows', workflow);
	await n8n.rest('POST', `/workflows/${created.id}/activate`, { versionId: created.versionId });
	// Calls placed before the trigger's first poll of the number would be before its starting point.
	const polled = await waitUntil(() => pollsOn(sandbox, number) > 0, 45_000, 250);
	check(polled, `${FILE} published: its trigger polls the service for the number ${number}`);
	sandbox.control.setProfile({
		behaviours: ['recording-delay'],
		recordingDelayMs: RECORDING_DELAY_S * 1000,
	});
	try {
		const first = await heldThenEmitted(setup, number, created.id);
		await heldAcrossRestart(setup, number, created.id, first);
		await htmlRecordingNotInTheWay(setup, number, created.id);
	} finally {
		sandbox.control.setProfile({ profile: 'contract' });
		await n8n.rest('POST', `/workflows/${created.id}/deactivate`, {});
	}
}

/** The poll statements the service received for the number (they name it). */
const pollsOn = (sandbox: Sandbox, number: string) =>
	sandbox.control
		.requests({ operation: 'cdr_query' })
		.filter((r) => JSON.stringify(r.body).includes(`'${number}'`)).length;

/** The service's answers "no recording yet" for the call before its recording was written. */
function refusedDownloads(sandbox: Sandbox, callId: string, placedAt: number): number {
	return sandbox.control
		.requests({ operation: 'get_record_by_call_uuid' })
		.filter(
			(r) =>
				JSON.stringify([r.query, r.body]).includes(callId) &&
				Date.parse(r.receivedAt) < placedAt + RECORDING_DELAY_S * 1000,
		).length;
}

/** An answered call with a recording on the number, placed now. */
async function answeredCall(sandbox: Sandbox, number: string, caller: string) {
	let placed;
	do ({ call: placed } = await sandbox.control.placeCall({ virtualnum: number, caller }));
	while (!placed.has_recording);
	return placed;
}

/** (b) Held while its recording is not written, then emitted once, with the recording as binary. */
async function heldThenEmitted(
	{ n8n, sandbox, crm, check }: Setup,
	number: string,
	workflowId: string,
): Promise<string> {
	const placedAt = Date.now();
	const call = await answeredCall(sandbox, number, '0501000071');
	const callId = String(call.cdr_uniqueid);
	const held = await waitUntil(() => refusedDownloads(sandbox, callId, placedAt), 30_000, 500);
	check(
		held && notesOf(crm, callId).length === 0,
		`held back: a poll read the call ${callId}, found no recording yet (${held} refused downloads) and emitted nothing`,
	);
	await waitUntil(() => notesOf(crm, callId).length > 0, (RECORDING_DELAY_S + 60) * 1000, 500);
	const afterS = Math.round((Date.now() - placedAt) / 1000);
	const note = notesOf(crm, callId)[0];
	check(
		note?.note === SUMMARY && note.recordingStatus === 'included' && afterS >= RECORDING_DELAY_S,
		`held back: the call reached the CRM with its summary, recording included, ${afterS} s after the call (recording written after ${RECORDING_DELAY_S} s)`,
	);
	const binary = await binaryOfEmission(n8n, workflowId, callId);
	check(
		binary,
		`held back: the execution that emitted ${callId} carried its recording as binary data (${callId}.mp3)`,
	);
	return callId;
}

/** Whether a stored execution of the workflow names the call's MP3 (the trigger's binary `data`). */
async function binaryOfEmission(n8n: N8nServer, workflowId: string, callId: string) {
	for (const { id } of await executionsOf(n8n, workflowId)) {
		const detail = await n8n.rest<{ data: unknown }>('GET', `/executions/${id}`);
		const text = typeof detail.data === 'string' ? detail.data : JSON.stringify(detail.data);
		if (text.includes(`${callId}.mp3`) && text.includes('audio/mpeg')) return true;
	}
	return false;
}

/** (c) A call held while n8n restarts: emitted once after the restart, the earlier one not again. */
async function heldAcrossRestart(
	{ n8n, sandbox, crm, check, log }: Setup,
	number: string,
	workflowId: string,
	firstId: string,
): Promise<void> {
	const placedAt = Date.now();
	const call = await answeredCall(sandbox, number, '0501000072');
	const callId = String(call.cdr_uniqueid);
	await waitUntil(() => refusedDownloads(sandbox, callId, placedAt), 30_000, 500);
	// Stopped while the recording is still not written: the call is held, not emitted.
	const held = refusedDownloads(sandbox, callId, placedAt) > 0 && notesOf(crm, callId).length === 0;
	const restartAfterS = Math.round((Date.now() - placedAt) / 1000);
	log(`restarting n8n while the call ${callId} is held (${restartAfterS} s after the call)…`);
	await n8n.restart();
	await waitUntil(() => notesOf(crm, callId).length > 0, (RECORDING_DELAY_S + 90) * 1000, 500);
	// Two more polls: a doubled emission would come with them.
	await sleep(35_000);
	const executions = await executionsOf(n8n, workflowId);
	check(
		held &&
			notesOf(crm, callId).length === 1 &&
			notesOf(crm, callId)[0].recordingStatus === 'included' &&
			notesOf(crm, firstId).length === 1 &&
			crm.notes.length === 2,
		`restart during the hold: the call ${callId}, held when n8n was stopped ${restartAfterS} s after it, reached the CRM once after the restart, the earlier one not again (${crm.notes.length} notes in all)`,
	);
	check(
		executions.every(finished) && executions.every((e) => e.status === 'success'),
		`restart during the hold: every execution of the published example succeeded (${executions.length})`,
	);
}

/** The corpus's HTML page, served instead of one call's recording. */
const LOGIN_PAGE = readFileSync(
	new URL('../../../test/fixtures/field-data/recordings/login-page.html', import.meta.url),
	'utf8',
);

/**
 * (c2) One call's recording answers an HTML page, every time; a later call's is normal. Both reach
 * the CRM: the odd one at once with `notAudio` (asked for once), the later one with its recording,
 * not held up; nothing stays held.
 */
async function htmlRecordingNotInTheWay(
	{ n8n, sandbox, crm, check }: Setup,
	number: string,
	workflowId: string,
): Promise<void> {
	sandbox.control.setProfile({ profile: 'contract' });
	// Added and faulted in one step, so no poll reads the call before its fault is in place.
	const [odd] = sandbox.control.addCalls({ count: 1, virtualnum: number, caller: '0501000073' });
	sandbox.control.injectFaults({
		kind: 'hostileBody',
		status: 200,
		contentType: 'text/html; charset=utf-8',
		text: LOGIN_PAGE,
		bytes: Buffer.byteLength(LOGIN_PAGE),
		operation: 'get_record_by_call_uuid',
		callId: odd.cdr_uniqueid,
		count: 99,
	});
	const addedAt = Date.now();
	const [later] = sandbox.control.addCalls({ count: 1, virtualnum: number, caller: '0501000074' });
	const both = await waitUntil(
		() => notesOf(crm, odd.cdr_uniqueid).length > 0 && notesOf(crm, later.cdr_uniqueid).length > 0,
		60_000,
		500,
	);
	const afterS = Math.round((Date.now() - addedAt) / 1000);
	const oddNote = notesOf(crm, odd.cdr_uniqueid);
	const laterNote = notesOf(crm, later.cdr_uniqueid);
	const asked = sandbox.control
		.requests({ operation: 'get_record_by_call_uuid' })
		.filter((r) => JSON.stringify([r.query, r.body]).includes(odd.cdr_uniqueid)).length;
	check(
		Boolean(both) &&
			oddNote.length === 1 &&
			oddNote[0].recordingStatus === 'notAudio' &&
			laterNote.length === 1 &&
			laterNote[0].recordingStatus === 'included' &&
			asked === 1,
		`an HTML page instead of a recording: that call reached the CRM with recordingStatus notAudio (${String(oddNote[0]?.recordingStatus)}, asked for ${asked} time), the later call with its recording (${String(laterNote[0]?.recordingStatus)}), not held up: both within ${afterS} s`,
	);
	await sleep(20_000);
	const staticData = await n8n.rest<{ staticData?: unknown }>('GET', `/workflows/${workflowId}`);
	const executions = await executionsOf(n8n, workflowId);
	check(
		notesOf(crm, odd.cdr_uniqueid).length === 1 &&
			!JSON.stringify(staticData.staticData ?? {}).includes('heldRecords') &&
			executions.every((e) => e.status === 'success'),
		`an HTML page instead of a recording: nothing held or emitted again a poll later, every execution succeeded (${executions.length})`,
	);
}

/** (d) The lower-case callback template through the Virtual Number Trigger 1.1. */
async function lowerCaseTemplate({ n8n, sandbox, credentials, check }: Setup): Promise<void> {
	const number = sandbox.control.seed({ numbers: 1 }).numbers![0];
	const webhookId = randomUUID();
	const trigger = node(
		'Call ended',
		'n8n-nodes-virtualnum.virtualNumberTrigger',
		1.1,
		{
			events: ['callEnded'],
			numbers: 'selected',
			virtualnums: { number: [{ virtualnum: { __rl: true, mode: 'id', value: number } }] },
		},
		{
			webhookId,
			credentials: { virtualnumApi: { id: credentials.virtualnumApi, name: 'Virtual Number' } },
		},
	);
	const created = await n8n.rest<{ id: string; versionId: string }>(
		'POST',
		'/workflows',
		chain('E2E: call ended, lower-case template', [trigger]),
	);
	await n8n.rest('POST', `/workflows/${created.id}/activate`, { versionId: created.versionId });
	const registered = await waitUntil(
		() => String(sandbox.control.virtualnum(number)?.callback_url ?? '').includes(webhookId),
		60_000,
	);
	sandbox.control.setProfile({ behaviours: ['callback-lower'] });
	try {
		const items = await lowerCaseCalls(n8n, sandbox, number, created.id);
		checkLowerCase(check, Boolean(registered), number, items);
	} finally {
		sandbox.control.setProfile({ profile: 'contract' });
		await n8n.rest('POST', `/workflows/${created.id}/deactivate`, {});
	}
}

type CallItem = Record<string, unknown>;
type RunOfNode = { data: { main: Array<Array<{ json: CallItem }>> } };

/** An answered and an unanswered call; the trigger's output items of both (by caller). */
async function lowerCaseCalls(
	n8n: N8nServer,
	sandbox: Sandbox,
	number: string,
	workflowId: string,
): Promise<CallItem[]> {
	await sandbox.control.placeCall({ virtualnum: number, caller: '0501000090', answered: true });
	await sandbox.control.placeCall({ virtualnum: number, caller: '0501000091', answered: false });
	const runs = await waitUntil(async () => {
		const list = await executionsOf(n8n, workflowId);
		return list.length >= 2 && list.every(finished) ? list : undefined;
	}, 60_000);
	const items: CallItem[] = [];
	for (const run of runs ?? []) {
		const detail = await n8n.rest<{ data: unknown }>('GET', `/executions/${run.id}`);
		const text = typeof detail.data === 'string' ? detail.data : JSON.stringify(detail.data);
		const data = parse(text) as { resultData: { runData: Record<string, RunOfNode[]> } };
		items.push(...data.resultData.runData['Call ended'][0].data.main[0].map((i) => i.json));
	}
	return items;
}

function checkLowerCase(check: Check, registered: boolean, number: string, items: CallItem[]) {
	const answered = items.find((item) => item.callerNumber === '0501000090');
	const missed = items.find((item) => item.callerNumber === '0501000091');
	const asSent = (answered?.query ?? answered?.body ?? {}) as Record<string, unknown>;
	const sent = String(asSent.cli ?? '');
	check(
		registered &&
			answered?.virtualNumber === number &&
			/^\d+$/.test(String(answered.callerNumber)) &&
			/-/.test(sent),
		`lower-case callback template (trigger 1.1): numbers as digits, as the call records give them; the text as sent stays in query (${JSON.stringify({ callerNumber: answered?.callerNumber, virtualNumber: answered?.virtualNumber, sent })})`,
	);
	check(
		answered?.recordingExists === true && missed?.recordingExists === false,
		`lower-case callback template (trigger 1.1): recordingExists a boolean (answered ${String(answered?.recordingExists)}, unanswered ${String(missed?.recordingExists)})`,
	);
}
