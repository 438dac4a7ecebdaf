// The demo's steps: each runs one example workflow (or a small workflow of its own) on the sandbox,
// checks what came out against what the sandbox received, and says it in lines a newcomer can read.
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { makeWav } from '../sandbox/audio.mts';
import type { Sandbox } from '../sandbox/index.mts';
import { runWorkflow, type RunResult, type WorkflowNode } from '../harness/engine.mts';
import type { TriggerInstance } from '../harness/trigger.mts';
import { AI_EXAMPLE, aiNodes, runAiSummary, type AiSummaryFacts } from './aiSummary.mts';
import { optOutCampaign } from './campaign.mts';
import { NotRun, bytesOf, check, kb, outputOf, sha256, table, text, waitFor } from './checks.mts';
import {
	byOperation,
	findNode,
	loadExample,
	pinnedItems,
	runExample,
	triggerOf,
	type ExampleNode,
	type ExampleWorkflow,
} from './workflows.mts';

/** What the demo established, for tests and for anyone scripting around it. */
export interface DemoFacts {
	/** The §30A campaign: the text sent, the numbers texted, its Summary, the rows on its error output. */
	campaign?: { text: string; sent: string[]; summary: IDataObject; failedRows: IDataObject[] };
	sms?: Array<{
		recipient: string;
		status: string;
		messageId: string;
		segments: number;
		encoding: string;
	}>;
	deliveryReports?: Array<{ messageId: string; recipient: string; deliveryStatus: string }>;
	call?: {
		callId: string;
		virtualNumber: string;
		callerNumber: string;
		durationSec: number;
		numbersRegistered: number;
		restored: boolean;
	};
	callRecord?: IDataObject;
	recording?: { path: string; bytes: number; mimeType: string };
	export?: { day: string; rows: number; withRecording: number };
	prompt?: {
		uploadedName: string;
		promptName: string;
		bytes: number;
		identical: boolean;
		path: string;
	};
	blacklist?: { callerNumber: string; scope: string; note: string };
	clickToCall?: {
		callId: string;
		destination: string;
		virtualnum: string;
		webhookAnswer: IDataObject;
	};
	aiSummary?: AiSummaryFacts;
}

/** What a step works with: the sandbox, the credentials, the report and the trigger host. */
export interface DemoRun {
	sandbox: Sandbox;
	/** The Virtual Number credential alone, and both credentials. */
	vnCredentials: Record<string, ICredentialDataDecryptedObject>;
	credentials: Record<string, ICredentialDataDecryptedObject>;
	timezone: string;
	facts: DemoFacts;
	/** The files written so far (their paths). */
	files: string[];
	/** One report line, indented under the step's title. */
	say: (line?: string) => void;
	/** Writes a file to the output folder; returns the path shown in the report. */
	save: (name: string, bytes: Buffer) => string;
	/** Activates an example's trigger on the trigger host (deactivated at the end if still active). */
	activate: (workflow: ExampleWorkflow) => Promise<TriggerInstance>;
	deactivate: (trigger: TriggerInstance) => Promise<void>;
}

/** A virtual number and callers of the sandbox's seeded account. */
const VIRTUAL_NUMBER = '0722000100';
const CALLER = '0501234567';

/** Scheduled SMS campaign, with delivery reports into the trigger. */
async function smsCampaign(demo: DemoRun): Promise<void> {
	const { say, activate, deactivate } = demo;
	const campaign = loadExample('sms-campaign-scheduled.json');
	const reports = loadExample('sms-delivery-reports.json');
	say('examples/sms-campaign-scheduled.json: Schedule Trigger → Bulk SMS → Message → Send');
	say('examples/sms-delivery-reports.json: Virtual Number Trigger (SMS Delivery Status)');
	const listener = await activate(reports);
	const send = findNode(campaign, byOperation('message', 'send'), 'Bulk SMS → Send');
	checkReportUrl(demo, send, reports, listener);
	const sent = await sendCampaign(demo, campaign, send, listener);
	await checkDeliveryReports(demo, listener, sent);
	say('(the sandbox reports FAILED for numbers ending in 0000)');
	await deactivate(listener);
}

/** The campaign's Delivery Report URL is the delivery-report trigger's Production URL. */
function checkReportUrl(
	{ say }: DemoRun,
	send: ExampleNode,
	reports: ExampleWorkflow,
	listener: TriggerInstance,
): void {
	const urlExpression = text((send.parameters.options as IDataObject | undefined)?.callbackUrl);
	const webhookId = triggerOf(reports).webhookId ?? '';
	check(
		webhookId && urlExpression.includes(`webhook/${webhookId}/webhook`),
		`the campaign's Delivery Report URL does not lead to the delivery-report trigger (webhook id ${webhookId})`,
	);
	say(
		`Delivery Report URL: in n8n the expression gives <n8n>/webhook/${webhookId}/webhook, the trigger's Production URL;`,
	);
	say(`here the same trigger listens on ${listener.webhookUrl}`);
}

/** Runs the campaign (its Delivery Report URL set to the listener) and checks one result per recipient. */
async function sendCampaign(
	{ say, sandbox, credentials, timezone, facts }: DemoRun,
	campaign: ExampleWorkflow,
	send: ExampleNode,
	listener: TriggerInstance,
): Promise<IDataObject[]> {
	const trigger = triggerOf(campaign);
	// The delivery-report trigger (version 1.1) refuses a report without its Secret, as in n8n.
	const secret = text(
		(triggerOf(loadExample('sms-delivery-reports.json')).parameters.options as IDataObject)?.secret,
	);
	const callbackUrl = `${listener.webhookUrl}?secret=${encodeURIComponent(secret)}`;
	const run = await runExample(campaign, {
		input: pinnedItems(campaign, trigger.name),
		credentials,
		overrides: { [send.name]: { options: { callbackUrl } } },
		timezone,
	});
	const sent = outputOf(run, send.name).map((item) => item.json);
	const requests = sandbox.control.requests({ service: 'sms', operation: 'send_sms' });
	say(`Message: "${text(send.parameters.message)}"`);
	say(
		`Sent from ${text((send.parameters.sender as IDataObject).value)} to ${sent.length} recipients in ${requests.length} request${requests.length === 1 ? '' : 's'}; one result per recipient:`,
	);
	for (const line of table(
		['recipient', 'status', 'message id', 'segments', 'est. credits'],
		sent.map((r) => [
			r.dest,
			r.error ? `ERROR ${text(r.error)}` : r.status,
			r.message_id ?? '-',
			`${text(r.segments)} (${text(r.encoding)})`,
			r.estimatedCredits ?? '-',
		]),
	))
		say(`  ${line}`);
	const estimated = sent.reduce((sum, r) => sum + Number(r.estimatedCredits ?? 0), 0);
	const charged = sent.reduce((sum, r) => sum + Number(r.total_charge ?? 0), 0);
	say(`Estimated credits of the campaign: ${estimated} (the service charged ${charged})`);
	check(
		estimated === charged,
		`the estimated credits (${estimated}) differ from the service's charge (${charged})`,
	);
	facts.sms = sent.map((r) => ({
		recipient: text(r.dest),
		status: text(r.status),
		messageId: text(r.message_id),
		segments: Number(r.segments),
		encoding: text(r.encoding),
	}));
	check(sent.length === 3, `expected 3 results (one per recipient in To), got ${sent.length}`);
	const failed = sent.filter((r) => r.error || !r.message_id);
	check(
		failed.length === 0,
		`${failed.length} recipient(s) were not sent: ${failed.map((r) => text(r.dest)).join(', ')}`,
	);
	return sent;
}

/** The service reports each message's delivery to the trigger: one execution per message. */
async function checkDeliveryReports(
	{ say, sandbox, facts }: DemoRun,
	listener: TriggerInstance,
	sent: IDataObject[],
): Promise<void> {
	// The service reports each delivery to the trigger's URL; the sandbox sends them now instead of in a moment.
	await sandbox.control.flushScheduled();
	await waitFor(() => listener.executions.length >= sent.length, 'a delivery report per message');
	const delivered = listener.executions.map((items) => items[0].json);
	say(
		`Delivery reports received by the trigger: ${delivered.length} (one workflow execution each)`,
	);
	for (const line of table(
		['message id', 'recipient', 'delivery status', 'status time'],
		delivered.map((r) => [r.messageId, r.recipient, r.deliveryStatus, r.statusTime]),
	))
		say(`  ${line}`);
	facts.deliveryReports = delivered.map((r) => ({
		messageId: text(r.messageId),
		recipient: text(r.recipient),
		deliveryStatus: text(r.deliveryStatus),
	}));
	for (const result of sent) {
		check(
			delivered.some((r) => r.messageId === text(result.message_id) && r.event === 'sms.delivery'),
			`no delivery report for message ${text(result.message_id)}`,
		);
	}
}

/** Call ended → call record → recording. */
async function callEnded(demo: DemoRun): Promise<void> {
	const { say, sandbox, activate, deactivate, facts } = demo;
	const workflow = loadExample('call-ended-download-recording.json');
	say(
		'examples/call-ended-download-recording.json: Virtual Number Trigger (Call Ended) → Call Record → Query → Download Recording',
	);
	const before = new Map(
		sandbox.control.virtualnums().map((record) => [record.virtualnum, text(record.callback_url)]),
	);
	const trigger = await activate(workflow);
	const registered = sandbox.control
		.virtualnums()
		.filter((record) => trigger.holds(record.callback_url));
	say(
		`Trigger activated: the callback URL of ${registered.length} numbers of the account now points at ${trigger.webhookUrl}`,
	);
	check(
		registered.length === before.size,
		`the trigger registered on ${registered.length} of ${before.size} numbers`,
	);
	const event = await callEndedEvent(demo, trigger);
	const run = await runExample(workflow, {
		input: [{ json: event }],
		credentials: demo.credentials,
		timezone: demo.timezone,
	});
	checkCallRecord(demo, workflow, run, event);
	await checkRecording(demo, workflow, run, event);

	await deactivate(trigger);
	const restored = sandbox.control
		.virtualnums()
		.every((record) => text(record.callback_url) === before.get(record.virtualnum));
	say(`Trigger deactivated: the previous callback URLs of the ${before.size} numbers are back`);
	check(restored, 'deactivation did not restore the previous callback URLs');
	facts.call = {
		callId: text(event.callId),
		virtualNumber: text(event.virtualNumber),
		callerNumber: text(event.callerNumber),
		durationSec: Number(event.durationSec),
		numbersRegistered: registered.length,
		restored,
	};
}

/** A call placed on the sandbox reaches the trigger as its Call Ended event. */
async function callEndedEvent(
	{ say, sandbox }: DemoRun,
	trigger: TriggerInstance,
): Promise<IDataObject> {
	const placed = await sandbox.control.placeCall({
		virtualnum: VIRTUAL_NUMBER,
		caller: CALLER,
		durationSec: 95,
	});
	say(
		`Call placed on the sandbox: ${CALLER} → ${VIRTUAL_NUMBER}, answered by ${placed.call.user_phone}, ${placed.call.call_duration} s`,
	);
	await waitFor(() => trigger.executions.length > 0, 'the call-ended callback');
	const event = trigger.executions[0][0].json;
	say(
		`Trigger output: event ${text(event.event)}, call ID ${text(event.callId)}, caller ${text(event.callerNumber)}, ${text(event.durationSec)} s, recording ${event.recordingExists ? 'yes' : 'no'}`,
	);
	check(
		event.event === 'call.ended' && event.callId === placed.call.cdr_uniqueid,
		`the trigger output ${JSON.stringify(event).slice(0, 200)} instead of the call-ended event of ${placed.call.cdr_uniqueid}`,
	);
	return event;
}

/** The Query node read the event's call. */
function checkCallRecord(
	{ say, facts }: DemoRun,
	workflow: ExampleWorkflow,
	run: RunResult,
	event: IDataObject,
): void {
	const query = findNode(workflow, byOperation('cdr', 'query'), 'Call Record → Query');
	const [record] = outputOf(run, query.name).map((item) => item.json);
	check(record, 'the call record query returned no row');
	say('Call record:');
	for (const line of table(
		[
			'call ID',
			'start',
			'end',
			'seconds',
			'caller',
			'virtual number',
			'answered by',
			'status',
			'recording',
		],
		[
			[
				record.callId,
				record.startTime,
				record.endTime,
				record.durationSec,
				record.callerNumber,
				record.virtualNumber,
				record.destinationPhone,
				record.callStatus,
				record.recordingExists ? 'yes' : 'no',
			],
		],
	))
		say(`  ${line}`);
	check(
		record.callId === event.callId,
		`the query returned call ${text(record.callId)}, not ${text(event.callId)}`,
	);
	facts.callRecord = record;
}

/** The Download Recording node gave the call's recording as a WAV file; the demo saves it. */
async function checkRecording(
	{ say, facts, files, save }: DemoRun,
	workflow: ExampleWorkflow,
	run: RunResult,
	event: IDataObject,
): Promise<void> {
	const download = findNode(
		workflow,
		byOperation('cdr', 'downloadRecording'),
		'Download Recording',
	);
	const [file] = outputOf(run, download.name);
	check(!file?.json.error, `the recording was not downloaded: ${text(file?.json.error)}`);
	const binary = file?.binary?.data;
	check(binary, 'the Download Recording node output no binary data');
	const bytes = await bytesOf(binary);
	check(
		bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WAVE',
		'the recording is not a WAV file',
	);
	const shown = save(binary.fileName ?? `${text(event.callId)}.wav`, bytes);
	say(`Recording saved: ${shown} (${kb(bytes.length)}, ${binary.mimeType})`);
	facts.recording = {
		path: files[files.length - 1],
		bytes: bytes.length,
		mimeType: binary.mimeType,
	};
}

/** Nightly call-record export. */
async function nightlyExport(demo: DemoRun): Promise<void> {
	const { say, sandbox, credentials, timezone, facts } = demo;
	const workflow = loadExample('nightly-call-record-export.json');
	say(
		'examples/nightly-call-record-export.json: Schedule Trigger → Call Record → Query (builder: the day before the run)',
	);
	const trigger = triggerOf(workflow);
	const input = pinnedItems(workflow, trigger.name);
	const query = findNode(workflow, byOperation('cdr', 'query'), 'Call Record → Query');
	sandbox.control.clearRequests();
	const run = await runExample(workflow, { input, credentials, timezone });
	const rows = outputOf(run, query.name).map((item) => item.json);
	const [request] = sandbox.control.requests({ operation: 'cdr_query' });
	const sql = text((request?.body as IDataObject | undefined)?.sql ?? request?.query.sql);
	const bounds = /start_call >= '([^']+)' AND start_call <= '([^']+)'/.exec(sql);
	check(bounds, `the statement sent has no time range: ${sql}`);
	const day = bounds[1].slice(0, 10);
	check(
		bounds[1] === `${day} 00:00:00` && bounds[2] === `${day} 23:59:59`,
		`the range sent is not one whole day: ${bounds[1]} – ${bounds[2]}`,
	);
	say(`Run time (pinned): ${text(input[0].json.timestamp)}; the node sent:`);
	say(`  ${sql}`);
	const withRecording = rows.filter((row) => row.recordingExists === true).length;
	say(`${rows.length} call records of ${day}, ${withRecording} with a recording; the first 5:`);
	for (const line of table(
		['start', 'seconds', 'caller', 'virtual number', 'status', 'recording'],
		rows
			.slice(0, 5)
			.map((row) => [
				row.startTime,
				row.durationSec,
				row.callerNumber,
				row.virtualNumber,
				row.callStatus,
				row.recordingExists ? 'yes' : 'no',
			]),
	))
		say(`  ${line}`);
	check(rows.length > 0, `no call records for ${day}`);
	const outside = rows.filter(
		(row) => text(row.startTime) < bounds[1] || text(row.startTime) > bounds[2],
	);
	check(outside.length === 0, `${outside.length} rows are outside ${day}`);
	facts.export = { day, rows: rows.length, withRecording };
}

/** The voice prompt step's workflow: Upload, then Download of the name the service gave. */
const PROMPT_NODES: WorkflowNode[] = [
	{
		name: 'Upload voice prompt',
		type: 'virtualNumber',
		parameters: {
			resource: 'prompt',
			operation: 'upload',
			binaryPropertyName: 'data',
			options: {},
		},
	},
	{
		name: 'Download voice prompt',
		type: 'virtualNumber',
		parameters: {
			resource: 'prompt',
			operation: 'download',
			promptName: { __rl: true, mode: 'name', value: '={{ $json.prompt_name }}' },
			binaryPropertyName: 'data',
		},
	},
];

/** Voice prompt uploaded and downloaded. */
async function voicePrompt(demo: DemoRun): Promise<void> {
	const { say, vnCredentials, timezone, facts, files, save } = demo;
	say(
		'Virtual Number → Voice Prompt → Upload, then → Download (a two-node workflow built by the demo)',
	);
	const wav = makeWav(16_044, 440); // one second of a 440 Hz tone, 8 kHz 16-bit mono
	const uploadedName = 'Demo greeting.wav';
	const run = await runWorkflow({
		nodes: PROMPT_NODES,
		input: [
			{
				json: {},
				binary: {
					data: { data: wav.toString('base64'), mimeType: 'audio/wav', fileName: uploadedName },
				},
			},
		],
		credentials: vnCredentials,
		timezone,
	});
	const [uploaded] = outputOf(run, 'Upload voice prompt').map((item) => item.json);
	const promptName = text(uploaded.prompt_name);
	say(
		`Uploaded "${uploadedName}" (${kb(wav.length)}): the service stores it as prompt "${promptName}"`,
	);
	const [downloaded] = outputOf(run, 'Download voice prompt');
	const binary = downloaded.binary?.data;
	check(binary, 'the Download node output no binary data');
	const bytes = await bytesOf(binary);
	const identical = sha256(bytes) === sha256(wav);
	const shown = save(binary.fileName ?? `${promptName}.wav`, bytes);
	say(
		`Downloaded ${shown} (${kb(bytes.length)}, ${binary.mimeType}): ${identical ? 'byte-identical to the upload (SHA-256)' : 'DIFFERENT from the upload'}`,
	);
	facts.prompt = {
		uploadedName,
		promptName,
		bytes: bytes.length,
		identical,
		path: files[files.length - 1],
	};
	check(
		promptName === 'demo_greeting',
		`the prompt was stored as "${promptName}", expected "demo_greeting"`,
	);
	check(
		identical,
		`the downloaded prompt differs from the upload (${bytes.length} vs ${wav.length} bytes)`,
	);
}

/** Blacklist a caller from a form. */
async function blacklistFromForm(demo: DemoRun): Promise<void> {
	const { say, sandbox, credentials, timezone, facts } = demo;
	const workflow = loadExample('blacklist-caller-from-form.json');
	say('examples/blacklist-caller-from-form.json: n8n Form Trigger → Blacklist → Add');
	const trigger = triggerOf(workflow);
	const input = pinnedItems(workflow, trigger.name);
	const add = findNode(workflow, byOperation('blacklist', 'add'), 'Blacklist → Add');
	say(
		`Form submission (pinned): Caller Number "${text(input[0].json['Caller Number'])}", Reason "${text(input[0].json.Reason)}"`,
	);
	const run = await runExample(workflow, { input, credentials, timezone });
	const [out] = outputOf(run, add.name).map((item) => item.json);
	const entry = sandbox.control
		.blacklist()
		.find((candidate) => candidate.caller_number === text(out.caller_number));
	check(entry, `the sandbox has no blacklist entry for ${text(out.caller_number)}`);
	say(
		`Blacklist entry: ${entry.caller_number}, blocked on ${entry.virtualnum ? `number ${entry.virtualnum}` : 'all virtual numbers'}, note "${entry.note}", created ${entry.create_time}`,
	);
	check(
		entry.virtualnum === '' && entry.note === text(input[0].json.Reason),
		'the entry is not the global block with the reason from the form',
	);
	facts.blacklist = {
		callerNumber: entry.caller_number,
		scope: entry.virtualnum ? entry.virtualnum : 'global',
		note: entry.note,
	};
}

/** Click-to-call from a webhook. */
async function clickToCall(demo: DemoRun): Promise<void> {
	const { say, sandbox, credentials, timezone, facts } = demo;
	const workflow = loadExample('click-to-call-from-webhook.json');
	say(
		'examples/click-to-call-from-webhook.json: Webhook (respond when the last node finishes) → Call → Click to Call',
	);
	const trigger = triggerOf(workflow);
	const input = pinnedItems(workflow, trigger.name);
	const call = findNode(workflow, byOperation('call', 'clickToCall'), 'Call → Click to Call');
	say(`Request body (pinned): ${JSON.stringify(input[0].json.body)}`);
	const run = await runExample(workflow, { input, credentials, timezone });
	const [out] = outputOf(run, call.name).map((item) => item.json);
	check(out.callId, 'the call was not placed: no call ID in the output');
	const record = sandbox.control.cdr(text(out.callId));
	check(record, `the sandbox has no call ${text(out.callId)}`);
	say(
		`The service called ${text(out.destination)} and connected it to ${text(out.virtualnum)}: call ID ${text(out.callId)}, ${record.call_status}, ${record.call_duration} s`,
	);
	// responseMode "lastNode" with "firstEntryJson": n8n answers with the JSON of the last node's first item.
	say(`The webhook answers the request with: ${JSON.stringify(out)}`);
	facts.clickToCall = {
		callId: text(out.callId),
		destination: text(out.destination),
		virtualnum: text(out.virtualnum),
		webhookAnswer: out,
	};
}

/** Call ended → transcript → AI summary → CRM note (stub model). */
async function aiSummary(demo: DemoRun): Promise<void> {
	const { say, vnCredentials, timezone, facts } = demo;
	say(
		`examples/${AI_EXAMPLE}: Virtual Number Trigger (Call Ended) → Wait for the recording → Get transcript → Basic LLM Chain + OpenAI Chat Model → HTTP Request (CRM)`,
	);
	const ai = await aiNodes();
	if (!ai.available) throw new NotRun(ai.reason);
	say(
		`n8n's nodes from the e2e install: @n8n/n8n-nodes-langchain ${ai.versions['@n8n/n8n-nodes-langchain']}, n8n-nodes-base ${ai.versions['n8n-nodes-base']}`,
	);
	facts.aiSummary = await runAiSummary({
		credentials: vnCredentials,
		timezone,
		nodeTypes: ai.nodeTypes,
		say,
		check,
		outputOf,
	});
}

/** The steps in the order they run, each with its title in the report. */
export const DEMO_STEPS: Array<[string, (demo: DemoRun) => Promise<void>]> = [
	[
		'SMS campaign: a §30A advertisement that skips opted-out numbers, with its Summary',
		optOutCampaign,
	],
	['Scheduled SMS campaign, with delivery reports into the trigger', smsCampaign],
	['Call ended → call record → recording', callEnded],
	['Nightly call-record export', nightlyExport],
	['Voice prompt uploaded and downloaded', voicePrompt],
	['Blacklist a caller from a form', blacklistFromForm],
	['Click-to-call from a webhook', clickToCall],
	['Call ended → transcript → AI summary → CRM note (stub model)', aiSummary],
];
