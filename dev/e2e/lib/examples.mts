/**
 * The example workflows of examples/ in a real n8n: imported as a user would, credentials
 * remapped, then each run the way it runs in production (webhooks called, triggers activated)
 * or, for schedules and forms, as a manual run started from the trigger with its pinned data.
 */

import type { Sandbox } from '../../sandbox/index.mts';
import { startCrm } from '../../harness/n8n/standInCrm.mts';
import type { N8nServer } from '../../harness/n8n/server.mts';
import { executionsOf, finished, type ExecutionSummary } from '../../harness/n8n/executions.mts';
import { runFromPinned } from '../../harness/n8n/executions.mts';
import {
	scriptedOpenAiCredential,
	startScriptedModel,
	textOf,
} from '../../harness/n8n/scriptedModel.mts';
import { readExample } from '../../harness/n8n/install.mts';
import { waitUntil } from '../../harness/n8n/workflows.mts';

type Check = (condition: unknown, what: string) => void;

/** A number of the sandbox's seeded account the example's trigger watches (it watches all). */
const CALLED = '0722000101';

interface ExampleNode {
	name: string;
	type: string;
	webhookId?: string;
	parameters?: unknown;
	credentials?: Record<string, { id: string; name: string }>;
}
interface Example {
	name: string;
	nodes: ExampleNode[];
	pinData?: Record<string, Array<{ json: unknown }>>;
	[key: string]: unknown;
}
/** An example as a user imports it: its credentials by the ids n8n gave them. */
export function loadExample(file: string, credentials: Record<string, string>): Example {
	const workflow = JSON.parse(readExample(file)) as Example;
	for (const node of workflow.nodes) {
		for (const [type, ref] of Object.entries(node.credentials ?? {})) {
			node.credentials![type] = { id: credentials[type], name: ref.name };
		}
	}
	delete workflow.id;
	return workflow;
}

export async function runExamples(
	n8n: N8nServer,
	sandbox: Sandbox,
	credentials: { virtualnumApi: string; virtualnumSmsApi: string },
	check: Check,
	log: (line: string) => void,
): Promise<void> {
	const imported: Imported = new Map();
	for (const file of [
		'sms-delivery-reports.json',
		'sms-campaign-scheduled.json',
		'nightly-call-record-export.json',
		'blacklist-caller-from-form.json',
		'click-to-call-from-webhook.json',
		'call-ended-download-recording.json',
	]) {
		const workflow = loadExample(file, credentials);
		const created = await n8n.rest<{ id: string; versionId: string }>(
			'POST',
			'/workflows',
			workflow,
		);
		imported.set(file, { ...created, workflow });
	}
	check(imported.size === 6, `imported the 6 example workflows of examples/`);
	const run: ExampleRun = { n8n, sandbox, imported, check, ...exampleActions(n8n, imported) };
	await campaignExample(run);
	await nightlyExample(run);
	await blacklistExample(run);
	await clickToCallExample(run);
	await recordingExample(run);
	await transcriptSummaryExample(n8n, credentials, check, log);
	log('example workflows done');
}

type Imported = Map<string, { id: string; versionId: string; workflow: Example }>;

/** What each example's run works with: n8n, the sandbox, the imported workflows and what to do with them. */
interface ExampleRun extends ReturnType<typeof exampleActions> {
	n8n: N8nServer;
	sandbox: Sandbox;
	imported: Imported;
	check: Check;
}

/** Activating, deactivating and running an imported example by its file name. */
function exampleActions(n8n: N8nServer, imported: Imported) {
	const activate = async (file: string) => {
		const { id, versionId } = imported.get(file)!;
		await n8n.rest('POST', `/workflows/${id}/activate`, { versionId });
	};
	const deactivate = async (file: string) =>
		await n8n.rest('POST', `/workflows/${imported.get(file)!.id}/deactivate`, {});
	const manualRun = async (file: string) => {
		const { id, workflow } = imported.get(file)!;
		const trigger = workflow.nodes.find((node) => /trigger|webhook/i.test(node.type))!;
		const items = workflow.pinData?.[trigger.name] ?? [{ json: {} }];
		const started = await n8n.rest<{ executionId?: string }>('POST', `/workflows/${id}/run`, {
			triggerToStartFrom: {
				name: trigger.name,
				data: {
					startTime: Date.now(),
					executionTime: 0,
					executionIndex: 0,
					source: [],
					data: { main: [items] },
				},
			},
		});
		return started.executionId ? await waitForExecution(n8n, id, started.executionId) : undefined;
	};
	return { activate, deactivate, manualRun };
}

/** Scheduled SMS campaign, delivery reports into the (active) delivery trigger. */
async function campaignExample({
	n8n,
	sandbox,
	imported,
	check,
	activate,
	deactivate,
	manualRun,
}: ExampleRun): Promise<void> {
	await activate('sms-delivery-reports.json');
	// n8n 2.40 publishes a workflow in the background after answering: the reports must not arrive
	// before its webhook is live. An empty request starts no execution (the trigger answers it OK).
	const reportsTrigger = imported
		.get('sms-delivery-reports.json')!
		.workflow.nodes.find((node) => /trigger/i.test(node.type))!;
	const live = await waitUntil(async () => {
		// With the example's Secret: the trigger (version 1.1) refuses a request without it.
		const secret = String(
			(reportsTrigger.parameters as { options?: { secret?: string } }).options?.secret,
		);
		const res = await fetch(
			`${n8n.url}/webhook/${String(reportsTrigger.webhookId)}/webhook?secret=${secret}`,
			{ method: 'POST' },
		);
		return res.status === 200 ? true : undefined;
	}, 60_000);
	check(live, 'sms-delivery-reports: the published trigger answers at its production URL');
	const campaign = await manualRun('sms-campaign-scheduled.json');
	check(
		campaign?.status === 'success',
		`sms-campaign-scheduled: the campaign ran in n8n (${campaign?.status ?? 'no execution'})`,
	);
	const sent = sandbox.control.requests({ operation: 'send_sms' });
	const batch = (sent.at(-1)?.body ?? []) as Array<{ dest: string; callback_url?: string }>;
	const deliveryUrl = `${n8n.url}/webhook/`;
	check(
		sent.length === 1 &&
			batch.length === 3 &&
			batch.every((m) => String(m.callback_url).startsWith(deliveryUrl)),
		`sms-campaign-scheduled: one batch of ${batch.length} messages, each with the delivery trigger's production URL (${String(batch[0]?.callback_url)})`,
	);
	await sandbox.control.flushScheduled();
	const reports = await waitUntil(async () => {
		const list = await executionsOf(n8n, imported.get('sms-delivery-reports.json')!.id);
		return list.filter((e) => e.status === 'success').length >= 3 ? list : undefined;
	}, 60_000);
	check(
		reports && reports.length >= 3,
		`sms-delivery-reports: n8n ran the delivery trigger once per report (${reports?.length ?? 0} successful executions)`,
	);
	await deactivate('sms-delivery-reports.json');
}

/** Nightly call-record export, started from its schedule trigger with the pinned run time. */
async function nightlyExample({ n8n, check, manualRun }: ExampleRun): Promise<void> {
	const nightly = await manualRun('nightly-call-record-export.json');
	const nightlyData = nightly ? await executionData(n8n, nightly.id) : '';
	check(
		nightly?.status === 'success' && nightlyData.includes('callId'),
		`nightly-call-record-export: the export ran in n8n and output call records (${nightly?.status ?? 'no execution'})`,
	);
}

/** Blacklist a caller from a form, started from the form trigger with the pinned submission. */
async function blacklistExample({ sandbox, check, manualRun }: ExampleRun): Promise<void> {
	const before = sandbox.control.blacklist().length;
	const blacklist = await manualRun('blacklist-caller-from-form.json');
	check(
		blacklist?.status === 'success' && sandbox.control.blacklist().length === before + 1,
		`blacklist-caller-from-form: the caller was blacklisted (${blacklist?.status ?? 'no execution'}, ${sandbox.control.blacklist().length - before} new entry)`,
	);
}

/** Click-to-call from a webhook: activated, then called like a website would. */
async function clickToCallExample({ n8n, check, activate, deactivate }: ExampleRun): Promise<void> {
	await activate('click-to-call-from-webhook.json');
	const answer = await waitUntil(async () => {
		const res = await fetch(`${n8n.url}/webhook/click-to-call`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ phone: '+972 50-123 4567' }),
		});
		return res.status === 200 ? ((await res.json()) as { callId?: string }) : undefined;
	}, 60_000);
	check(
		answer?.callId,
		`click-to-call-from-webhook: the production webhook placed a call (callId) and answered ${JSON.stringify(answer)}`,
	);
	await deactivate('click-to-call-from-webhook.json');
}

/** Call ended → call record → recording, through the real trigger. */
async function recordingExample({
	n8n,
	sandbox,
	imported,
	check,
	activate,
	deactivate,
}: ExampleRun): Promise<void> {
	const deliveryUrl = `${n8n.url}/webhook/`;
	await activate('call-ended-download-recording.json');
	// n8n answers the activation before the trigger has registered every number.
	const registered = await waitUntil(
		async () =>
			String(sandbox.control.virtualnum(CALLED)?.callback_url ?? '').startsWith(deliveryUrl)
				? true
				: undefined,
		60_000,
	);
	check(
		registered,
		`call-ended-download-recording: activation pointed the watched number ${CALLED} at n8n`,
	);
	const { call, callbacks } = await sandbox.control.placeCall({
		virtualnum: CALLED,
		caller: '0501234567',
		answered: true,
		durationSec: 61,
	});
	check(
		callbacks.length > 0 && callbacks.every((c) => c.responseStatus === 200),
		`call-ended-download-recording: the call's callbacks reached n8n (${callbacks.map((c) => `${c.kind} → HTTP ${c.responseStatus ?? c.error}`).join(', ')})`,
	);
	const recordingRun = await waitUntil(async () => {
		const list = await executionsOf(n8n, imported.get('call-ended-download-recording.json')!.id);
		return list.find((e) => e.status !== 'running' && e.status !== 'new');
	}, 60_000);
	const recordingData = recordingRun ? await executionData(n8n, recordingRun.id) : '';
	check(
		recordingRun?.status === 'success' &&
			recordingData.includes(`${String(call.cdr_uniqueid)}.wav`),
		`call-ended-download-recording: n8n fetched the call record and downloaded ${String(call.cdr_uniqueid)}.wav (${recordingRun?.status ?? 'no execution'})`,
	);
	await deactivate('call-ended-download-recording.json');
}

/** The summary the scripted model gives, which the CRM step must receive as the note. */
const SUMMARY = '- Caller asked about the Tel Aviv billboard\n- Wants a call back';

/**
 * examples/ai/call-transcript-summary-to-crm.json with a model: the pinned Call Ended item → wait
 * for the recording → Get Transcript → Basic LLM Chain with the OpenAI Chat Model (its credential's
 * Base URL on a scripted model) → the CRM note, posted to a stand-in CRM on loopback. The demo runs
 * it too, in-process (dev/demo/aiSummary.mts); this is the run in n8n itself.
 */
async function transcriptSummaryExample(
	n8n: N8nServer,
	credentials: { virtualnumApi: string; virtualnumSmsApi: string },
	check: Check,
	log: (line: string) => void,
): Promise<void> {
	const model = await startScriptedModel(() => ({ text: SUMMARY }));
	const crm = await startCrm();
	try {
		const workflow = loadExample('ai/call-transcript-summary-to-crm.json', {
			...credentials,
			openAiApi: await scriptedOpenAiCredential(n8n, model),
		});
		const crmNode = workflow.nodes.find(
			(node) => node.name === 'Add note to CRM',
		) as ExampleNode & {
			parameters: Record<string, unknown>;
		};
		crmNode.parameters.url = crm.url;
		const execution = await runFromPinned(
			n8n,
			workflow as Example & { pinData: Record<string, unknown[]> },
			'Call ended',
		);
		check(
			execution?.status === 'success',
			`call-transcript-summary-to-crm: the example ran in n8n with the OpenAI Chat Model (${execution?.status ?? 'no execution'})`,
		);
		const prompt = model.requests
			.map((request) => request.messages.map(textOf).join('\n'))
			.join('\n');
		check(
			model.requests.length === 1 && prompt.includes('Hello, I am calling about'),
			`call-transcript-summary-to-crm: the model received the call's transcript in the prompt (${model.requests.length} request)`,
		);
		const note = crm.notes[0] as { note?: string; callId?: string; phone?: string } | undefined;
		check(
			crm.notes.length === 1 &&
				note?.note === SUMMARY &&
				note.callId === '1733049840.1337' &&
				note.phone === '0501702585',
			`call-transcript-summary-to-crm: the CRM step received the model's summary as the note (${JSON.stringify(note)})`,
		);
	} finally {
		await crm.close();
		await model.close();
	}
	log('call-transcript-summary-to-crm: ran with a (scripted) model');
}

async function waitForExecution(
	n8n: N8nServer,
	workflowId: string,
	executionId: string,
): Promise<ExecutionSummary | undefined> {
	return await waitUntil(async () => {
		const found = (await executionsOf(n8n, workflowId)).find(
			(e) => String(e.id) === String(executionId),
		);
		return found && finished(found) ? found : undefined;
	}, 60_000);
}

/** The stored run data of an execution, as text (n8n keeps it in its "flatted" form). */
async function executionData(n8n: N8nServer, executionId: string): Promise<string> {
	const detail = await n8n.rest<{ data: unknown }>('GET', `/executions/${executionId}`);
	return typeof detail.data === 'string' ? detail.data : JSON.stringify(detail.data);
}
