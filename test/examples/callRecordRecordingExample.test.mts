/**
 * examples/ai/call-record-with-recording-to-crm.json: the Call Record Trigger with Include →
 * Recording and Transcript → an AI summary (Basic LLM Chain with an OpenAI chat model) → a note to
 * the CRM (HTTP Request). Here: n8n's import check, the flow, the AI and CRM nodes as the installed
 * n8n 2.40.7 defines them, and the example's trigger polled through n8n's PollContext against the
 * sandbox with the recording written late: the call is held, then emitted once with its recording
 * and the transcript the summary reads, with the fields the pinned item shows.
 */
// The sandbox writes call times on this process's clock; the trigger reads them in the service's zone.
process.env.TZ = 'Asia/Jerusalem';

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';

import type { IDataObject, INodeType } from 'n8n-workflow';

import { loadPackage } from '../../dev/harness/engine.mts';
import {
	installedDescription,
	installedDescriptionsPresent,
} from '../../dev/harness/n8nInstall.mts';
import { PollHost } from '../../dev/harness/poll.mts';
import { startSandbox, type Sandbox } from '../../dev/sandbox/index.mts';
import { EXAMPLES_DIR, isOurs, type ExampleWorkflow } from '../../dev/demo/workflows.mts';
import { checkStructure } from './structureCheck.mts';

const FILE = `${EXAMPLES_DIR}ai/call-record-with-recording-to-crm.json`;
const workflow = JSON.parse(readFileSync(FILE, 'utf8')) as ExampleWorkflow;
const node = (name: string) => workflow.nodes.find((candidate) => candidate.name === name)!;
const TRIGGER = 'Call records with recording';
const DELAY_MS = 1500;

describe('examples/ai/call-record-with-recording-to-crm.json', () => {
	test("passes n8n's own structure check of imported workflows", (t) => {
		checkStructure(t, workflow);
	});

	test('the flow: call record with recording and transcript → summary (with its model) → CRM note', () => {
		const next = (from: string, type = 'main') =>
			workflow.connections[from]?.[type]?.[0]?.map((target) => target.node);
		assert.deepEqual(next(TRIGGER), ['Summarize the call']);
		assert.deepEqual(next('Summarize the call'), ['Add note to CRM']);
		assert.deepEqual(next('OpenAI Chat Model', 'ai_languageModel'), ['Summarize the call']);
		assert.deepEqual(node(TRIGGER).parameters.include, ['recording', 'transcript']);
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
});
