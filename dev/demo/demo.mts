/**
 * The demo: the package's main jobs, run from the example workflows on the built-in sandbox.
 *
 * `runDemo()` starts the sandbox (both services, in-process, seeded data), runs each example
 * headlessly on n8n-core (see ./workflows.mts), checks what came out against what the sandbox
 * received, and reports it in lines a newcomer can read. Every step is checked, not only printed:
 * the result says which step failed and why. `demo/run.mts` prints it; a test runs it too.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import type {
	IBinaryData,
	ICredentialDataDecryptedObject,
	IDataObject,
	INodeExecutionData,
} from 'n8n-workflow';

import { makeWav } from '../sandbox/audio.mts';
import { AI_EXAMPLE, aiNodes, runAiSummary, type AiSummaryFacts } from './aiSummary.mts';
import { startSandbox, type Sandbox } from '../sandbox/index.mts';
import { runWorkflow, type RunResult } from '../harness/engine.mts';
import { TriggerHost, type TriggerInstance } from '../harness/trigger.mts';
import {
	byOperation,
	findNode,
	loadExample,
	pinnedItems,
	runExample,
	triggerOf,
	type ExampleWorkflow,
} from './workflows.mts';

export interface DemoOptions {
	/** Where the recording and the voice prompt are written (created if missing). */
	outputDir: string;
	/** Receives each report line as soon as it is known. */
	print?: (line: string) => void;
	/** Shown instead of outputDir in the report (e.g. a path relative to the repository). */
	outputLabel?: string;
	/** Called once the sandbox runs, before the first step (tests use it to inject faults). */
	prepare?: (sandbox: Sandbox) => void | Promise<void>;
}

export interface DemoStep {
	title: string;
	ok: boolean;
	ms: number;
	error?: string;
	/** Why the step did not run (it needs something this machine lacks); such a step does not fail the demo. */
	notRun?: string;
}

/** What the demo established, for tests and for anyone scripting around it. */
export interface DemoFacts {
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

export interface DemoResult {
	ok: boolean;
	steps: DemoStep[];
	facts: DemoFacts;
	ms: number;
	files: string[];
}

/** A virtual number and callers of the sandbox's seeded account. */
const VIRTUAL_NUMBER = '0722000100';
const CALLER = '0501234567';

class DemoFailure extends Error {}

/** Thrown by a step that cannot run on this machine: reported as "not run" with the reason. */
class NotRun extends Error {}

function check(condition: unknown, message: string): asserts condition {
	if (!condition) throw new DemoFailure(message);
}

/** Output items of a node; a failed run becomes the node's error in its own words. */
function outputOf(run: RunResult, nodeName: string): INodeExecutionData[] {
	if (run.error) {
		const description = run.error.description ? ` — ${run.error.description}` : '';
		throw new DemoFailure(
			`${run.error.node?.name ?? 'the workflow'} failed: ${run.error.message}${description}`,
		);
	}
	return run.items(nodeName);
}

async function bytesOf(binary: IBinaryData): Promise<Buffer> {
	if (binary.id) {
		const { Container } = await import('@n8n/di');
		const { BinaryDataService } = await import('n8n-core');
		return await Container.get(BinaryDataService).getAsBuffer(binary);
	}
	return Buffer.from(binary.data, 'base64');
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
	const until = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > until)
			throw new DemoFailure(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));

/** A plain text table, columns padded to their widest cell. */
export function table(headers: string[], rows: unknown[][]): string[] {
	const cells = [headers, ...rows.map((row) => row.map(text))];
	const widths = headers.map((_, column) => Math.max(...cells.map((row) => row[column].length)));
	const line = (row: string[]) =>
		row
			.map((cell, column) => cell.padEnd(widths[column]))
			.join('   ')
			.trimEnd();
	return [
		line(headers),
		line(widths.map((width) => '-'.repeat(width))),
		...cells.slice(1).map(line),
	];
}

function kb(bytes: number): string {
	return `${bytes.toLocaleString('en-US')} bytes`;
}

export async function runDemo(options: DemoOptions): Promise<DemoResult> {
	const started = Date.now();
	const print = options.print ?? (() => undefined);
	const outputLabel = options.outputLabel ?? options.outputDir;
	// The examples set no time zone (n8n then uses the instance's); UTC keeps the report the same on every machine.
	const timezone = 'UTC';
	const steps: DemoStep[] = [];
	const facts: DemoFacts = {};
	const files: string[] = [];
	mkdirSync(options.outputDir, { recursive: true });

	const say = (line = '') => print(line ? `   ${line}` : '');
	const save = (name: string, bytes: Buffer): string => {
		const path = join(options.outputDir, name);
		writeFileSync(path, bytes);
		files.push(path);
		return join(outputLabel, relative(options.outputDir, path));
	};

	// The sandbox holds the calls of Oct-Dec 2024; 2000 of them give the nightly export a full day.
	const sandbox = await startSandbox({ seed: { cdrs: 2000 } });
	const host = await TriggerHost.start();
	await options.prepare?.(sandbox);
	const vnCredentials: Record<string, ICredentialDataDecryptedObject> = {
		virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn },
	};
	const credentials: Record<string, ICredentialDataDecryptedObject> = {
		...vnCredentials,
		virtualnumSmsApi: { baseUrl: sandbox.smsUrl, accessToken: sandbox.tokens.sms },
	};
	const active: TriggerInstance[] = [];
	const activate = async (workflow: ExampleWorkflow): Promise<TriggerInstance> => {
		const node = triggerOf(workflow);
		const trigger = host.add({
			name: node.name,
			parameters: node.parameters,
			credentials: vnCredentials,
			webhookId: node.webhookId,
		});
		await trigger.activate();
		active.push(trigger);
		return trigger;
	};
	const deactivate = async (trigger: TriggerInstance) => {
		await trigger.deactivate();
		active.splice(active.indexOf(trigger), 1);
	};

	print(
		'n8n-nodes-virtualnum demo: the example workflows of examples/, run on a local sandbox of both services',
	);
	print(
		`Virtual number service ${sandbox.vnUrl}, SMS service ${sandbox.smsUrl} (in-process, seeded test account)`,
	);
	print(
		`Workflows run on n8n-core's engine; triggers are fed their pinned sample data or a real callback. Workflow time zone: ${timezone}.`,
	);

	const step = async (title: string, body: () => Promise<void>) => {
		print('');
		print(`${steps.length + 1}. ${title}`);
		const stepStarted = Date.now();
		try {
			await body();
			const ms = Date.now() - stepStarted;
			steps.push({ title, ok: true, ms });
			say(`✓ passed (${ms} ms)`);
		} catch (error) {
			const ms = Date.now() - stepStarted;
			if (error instanceof NotRun) {
				steps.push({ title, ok: true, ms, notRun: error.message });
				say(`– not run: ${error.message}`);
				return;
			}
			const message = error instanceof Error ? error.message : String(error);
			const description = (error as { description?: string }).description;
			steps.push({
				title,
				ok: false,
				ms,
				error: description ? `${message} — ${description}` : message,
			});
			say(`✗ FAILED: ${message}`);
			if (description) say(`  ${description}`);
		}
	};

	try {
		await step('Scheduled SMS campaign, with delivery reports into the trigger', async () => {
			const campaign = loadExample('sms-campaign-scheduled.json');
			const reports = loadExample('sms-delivery-reports.json');
			say('examples/sms-campaign-scheduled.json: Schedule Trigger → Bulk SMS → Message → Send');
			say('examples/sms-delivery-reports.json: Virtual Number Trigger (SMS Delivery Status)');
			const listener = await activate(reports);
			const send = findNode(campaign, byOperation('message', 'send'), 'Bulk SMS → Send');
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

			const trigger = triggerOf(campaign);
			const run = await runExample(campaign, {
				input: pinnedItems(campaign, trigger.name),
				credentials,
				overrides: { [send.name]: { options: { callbackUrl: listener.webhookUrl } } },
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

			// The service reports each delivery to the trigger's URL; the sandbox sends them now instead of in a moment.
			await sandbox.control.flushScheduled();
			await waitFor(
				() => listener.executions.length >= sent.length,
				'a delivery report per message',
			);
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
					delivered.some(
						(r) => r.messageId === text(result.message_id) && r.event === 'sms.delivery',
					),
					`no delivery report for message ${text(result.message_id)}`,
				);
			}
			say('(the sandbox reports FAILED for numbers ending in 0000)');
			await deactivate(listener);
		});

		await step('Call ended → call record → recording', async () => {
			const workflow = loadExample('call-ended-download-recording.json');
			say(
				'examples/call-ended-download-recording.json: Virtual Number Trigger (Call Ended) → Call Record → Query → Download Recording',
			);
			const before = new Map(
				sandbox.control
					.virtualnums()
					.map((record) => [record.virtualnum, text(record.callback_url)]),
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

			const query = findNode(workflow, byOperation('cdr', 'query'), 'Call Record → Query');
			const download = findNode(
				workflow,
				byOperation('cdr', 'downloadRecording'),
				'Download Recording',
			);
			const run = await runExample(workflow, { input: [{ json: event }], credentials, timezone });
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
		});

		await step('Nightly call-record export', async () => {
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
		});

		await step('Voice prompt uploaded and downloaded', async () => {
			say(
				'Virtual Number → Voice Prompt → Upload, then → Download (a two-node workflow built by the demo)',
			);
			const wav = makeWav(16_044, 440); // one second of a 440 Hz tone, 8 kHz 16-bit mono
			const uploadedName = 'Demo greeting.wav';
			const run = await runWorkflow({
				nodes: [
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
				],
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
		});

		await step('Blacklist a caller from a form', async () => {
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
		});

		await step('Click-to-call from a webhook', async () => {
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
		});

		await step('Call ended → transcript → AI summary → CRM note (stub model)', async () => {
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
		});
	} finally {
		for (const trigger of [...active]) await deactivate(trigger).catch(() => undefined);
		await sandbox.control.settle();
		await host.close();
		await sandbox.close();
	}

	const ms = Date.now() - started;
	const passed = steps.filter((s) => s.ok && !s.notRun).length;
	const notRun = steps.filter((s) => s.notRun).length;
	const ok = steps.every((s) => s.ok) && passed > 0;
	print('');
	print(
		`${ok ? '✓' : '✗'} ${passed} of ${steps.length} steps passed${notRun ? ` (${notRun} not run)` : ''} in ${(ms / 1000).toFixed(1)} s; files in ${outputLabel}/: ${files.map((file) => relative(options.outputDir, file)).join(', ') || 'none'}`,
	);
	for (const failed of steps.filter((s) => !s.ok)) print(`  ✗ ${failed.title}: ${failed.error}`);
	return { ok, steps, facts, ms, files };
}

export type { Sandbox };
