/**
 * examples/ai/call-record-with-recording-to-crm.json: the Call Record Trigger with Include →
 * Recording and Transcript → n8n's If (a transcript?) → an AI summary (Basic LLM Chain with an
 * OpenAI chat model) → a note to the CRM (HTTP Request); a call without a transcript goes to the CRM
 * marked "no transcript", never to the model (which would invent a summary). Here: n8n's import
 * check, the flow, the AI, If and CRM nodes as the installed n8n 2.40.7 defines them, the example's
 * trigger polled through n8n's PollContext against the sandbox with the recording written late (the
 * call is held, then emitted once with its recording and the transcript the summary reads, with the
 * fields the pinned item shows), and the trigger's own items with and without a transcript through
 * n8n's If node and the no-transcript CRM step. The whole run in n8n: dev/e2e/lib/callRecordsWhole.mts.
 */
// The sandbox writes call times on this process's clock; the trigger reads them in the service's zone.
process.env.TZ = 'Asia/Jerusalem';

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';

import type { IDataObject, INodeExecutionData, INodeType } from 'n8n-workflow';

import { loadPackage, runWorkflow } from '../../dev/harness/engine.mts';
import {
	InstalledNodeTypes,
	installedDescription,
	installedDescriptionsPresent,
	installStatus,
	loadInstalledNodes,
} from '../../dev/harness/n8nInstall.mts';
import { startCrm } from '../../dev/harness/n8n/standInCrm.mts';
import { PollHost } from '../../dev/harness/poll.mts';
import { startSandbox, type Sandbox } from '../../dev/sandbox/index.mts';
import { EXAMPLES_DIR, isOurs, type ExampleWorkflow } from '../../dev/demo/workflows.mts';
import { checkStructure } from './structureCheck.mts';

const FILE = `${EXAMPLES_DIR}ai/call-record-with-recording-to-crm.json`;
const workflow = JSON.parse(readFileSync(FILE, 'utf8')) as ExampleWorkflow;
const node = (name: string) => workflow.nodes.find((candidate) => candidate.name === name)!;
const TRIGGER = 'Call records with recording';
const IF = 'Has a transcript?';
const NO_TRANSCRIPT = 'Add to CRM: no transcript';
const DELAY_MS = 1500;

describe('examples/ai/call-record-with-recording-to-crm.json', () => {
	test("passes n8n's own structure check of imported workflows", (t) => {
		checkStructure(t, workflow);
	});

	test('the flow: call record → a transcript? → summary (with its model) → CRM note; else the CRM, no summary', () => {
		const next = (from: string, type = 'main', output = 0) =>
			workflow.connections[from]?.[type]?.[output]?.map((target) => target.node);
		assert.deepEqual(next(TRIGGER), [IF]);
		assert.deepEqual(next(IF), ['Summarize the call'], 'true: summarised');
		assert.deepEqual(next(IF, 'main', 1), [NO_TRANSCRIPT], 'false: to the CRM as it is');
		assert.deepEqual(next('Summarize the call'), ['Add note to CRM']);
		assert.deepEqual(next('OpenAI Chat Model', 'ai_languageModel'), ['Summarize the call']);
		assert.equal(next(NO_TRANSCRIPT), undefined);
		assert.deepEqual(node(TRIGGER).parameters.include, ['recording', 'transcript']);
		assert.equal(node(NO_TRANSCRIPT).parameters.url, node('Add note to CRM').parameters.url);
		assert.match(String(node(NO_TRANSCRIPT).parameters.jsonBody), /note: 'no transcript'/);
		assert.deepEqual(
			workflow.pinData![TRIGGER].map((item) => item.json.transcript === null),
			[false, true],
			'a pinned call of each kind',
		);
		assert.match(
			String(node('Summarize the call').parameters.text),
			/\{\{ \$json\.transcript \}\}/,
		);
		assert.match(String(node('Add note to CRM').parameters.jsonBody), /note: \$json\.text/);
		assert.equal(workflow.active, false);
	});

	test("the trigger's parameters are the node's, at its version", async () => {
		const loader = await loadPackage();
		const trigger = node(TRIGGER);
		const description = (loader.getNode('virtualNumberCallRecordTrigger').type as INodeType)
			.description;
		assert.ok(([] as number[]).concat(description.version).includes(trigger.typeVersion));
		const names = new Set(description.properties.map((property) => property.name));
		for (const parameter of Object.keys(trigger.parameters))
			assert.ok(
				names.has(parameter) || parameter === 'pollTimes',
				`the trigger defines ${parameter}`,
			);
	});

	test('the AI and CRM nodes exist at their typeVersion in the installed n8n, with these parameters', (t) => {
		if (!installedDescriptionsPresent())
			return t.skip('n8n is not installed under dev/e2e/node_modules');
		for (const candidate of workflow.nodes.filter((n) => !isOurs(n.type))) {
			const description = installedDescription(candidate.type, candidate.typeVersion);
			assert.ok(description, `${candidate.type} has typeVersion ${candidate.typeVersion}`);
			const names = new Set(description.properties.map((property) => property.name));
			for (const parameter of Object.keys(candidate.parameters))
				assert.ok(
					names.has(parameter),
					`${candidate.name}: ${candidate.type} defines ${parameter}`,
				);
		}
	});

	describe(`the example's trigger, the recording written ${DELAY_MS} ms after the call`, () => {
		let sandbox: Sandbox;
		before(async () => {
			sandbox = await startSandbox({
				profile: 'contract',
				behaviours: ['recording-delay'],
				recordingDelayMs: DELAY_MS,
			});
		});
		after(async () => await sandbox.close());

		test('holds the call, then emits it once with its recording and the transcript', async () => {
			const trigger = await PollHost.create({
				parameters: node(TRIGGER).parameters,
				credentials: { virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn } },
			});
			await trigger.activate();
			// An answered call with a recording on an even row (the sandbox gives those speaker turns).
			const placed = [];
			let call;
			do {
				({ call } = await sandbox.control.placeCall({
					virtualnum: '0722000100',
					caller: '0501234567',
				}));
				placed.push(call.cdr_uniqueid);
			} while (call.id % 2 !== 0 || !call.has_recording);
			const held = await trigger.tick();
			assert.equal(held.emitted, false, 'held while the recording is not written');
			await new Promise((resolve) => setTimeout(resolve, DELAY_MS + 200));
			// A held call is asked for again after a pause of 30 s: its times, as they read by then.
			for (const call of (trigger.live?.heldRecords ?? []) as IDataObject[]) {
				call.heldSince = Number(call.heldSince) - 30_000;
				call.nextTry = Number(call.nextTry) - 30_000;
			}
			const { items } = await trigger.tick();
			assert.deepEqual(
				items.map((entry) => entry.json.callId),
				placed,
			);
			const item = items.at(-1)!;
			assert.equal(item.json.recordingStatus, 'included');
			assert.equal(item.binary?.data.mimeType, 'audio/mpeg');
			assert.match(String(item.json.transcript), /^\[0:00-0:03\] caller: Hello/);
			const pinned = workflow.pinData![TRIGGER][0].json as IDataObject;
			const missing = Object.keys(pinned).filter((key) => !(key in item.json));
			assert.deepEqual(missing, [], 'every field of the pinned item is one the trigger outputs');
			assert.equal((await trigger.tick()).emitted, false, 'emitted once');
		});
	});

	describe("the trigger's calls with and without a transcript, through n8n's If node", () => {
		let sandbox: Sandbox;
		before(async () => {
			sandbox = await startSandbox({ profile: 'contract' });
		});
		after(async () => await sandbox.close());

		test('a call with a transcript goes to the summary; one without goes to the CRM marked "no transcript"', async (t) => {
			const status = installStatus(['n8n-nodes-base']);
			if (!status.available) return t.skip(status.reason);
			const nodeTypes = new InstalledNodeTypes(
				await loadPackage(),
				loadInstalledNodes({
					'n8n-nodes-base.if': {
						pkg: 'n8n-nodes-base',
						file: 'dist/nodes/If/If.node.js',
						exported: 'If',
					},
					'n8n-nodes-base.httpRequest': {
						pkg: 'n8n-nodes-base',
						file: 'dist/nodes/HttpRequest/HttpRequest.node.js',
						exported: 'HttpRequest',
					},
				}),
			);
			const [withTranscript, without] = await callsWithAndWithoutTranscript(sandbox);
			assert.match(String(withTranscript.json.transcript), /Hello, I am calling about/);
			assert.equal(without.json.transcript, null);
			const ifRun = await runWorkflow({
				nodes: [exampleNode(IF)],
				input: [withTranscript, without],
				nodeTypes,
			});
			assert.equal(ifRun.error, undefined, ifRun.error?.message);
			const [summarised, notSummarised] = ifRun.outputs(IF);
			assert.deepEqual(
				summarised.map((item) => item.json.callId),
				[withTranscript.json.callId],
			);
			assert.deepEqual(
				notSummarised.map((item) => item.json.callId),
				[without.json.callId],
			);
			const crm = await startCrm();
			try {
				const crmNode = exampleNode(NO_TRANSCRIPT);
				crmNode.parameters = { ...crmNode.parameters, url: crm.url };
				const crmRun = await runWorkflow({ nodes: [crmNode], input: notSummarised, nodeTypes });
				assert.equal(crmRun.error, undefined, crmRun.error?.message);
				assert.deepEqual(crm.notes, [
					{
						phone: without.json.callerNumber,
						callId: without.json.callId,
						startTime: without.json.startTime,
						recordingStatus: 'included',
						note: 'no transcript',
						transcript: null,
					},
				]);
			} finally {
				await crm.close();
			}
		});
	});
});

/** A node of the example as the engine runs it. */
function exampleNode(name: string) {
	const { type, typeVersion, parameters } = node(name);
	return { name, type, typeVersion, parameters: parameters as IDataObject };
}

/** Two answered, recorded calls emitted by the example's trigger: the second with speech recognition off. */
async function callsWithAndWithoutTranscript(sandbox: Sandbox): Promise<INodeExecutionData[]> {
	const trigger = await PollHost.create({
		parameters: node(TRIGGER).parameters,
		credentials: { virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn } },
	});
	await trigger.activate();
	const emitted: INodeExecutionData[] = [];
	for (const speechRecognition of [true, false]) {
		sandbox.control.configure({ speechRecognition });
		let call;
		do
			({ call } = await sandbox.control.placeCall({
				virtualnum: '0722000100',
				caller: '0541110010',
			}));
		while (!call.has_recording);
		const { items } = await trigger.tick();
		emitted.push(items.at(-1)!);
	}
	return emitted;
}
