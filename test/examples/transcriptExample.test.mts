/**
 * examples/ai/call-transcript-summary-to-crm.json: Call Ended → wait for the recording → transcript →
 * an AI summary (Basic LLM Chain with an OpenAI chat model) → a note to the CRM (HTTP Request). It
 * lives beside the other examples in a folder of its own because it uses n8n's AI nodes and an AI
 * connection, which examples.test.mts (main connections, n8n-nodes-base only) does not cover. Here:
 * n8n's import check, every node type and version and every top-level parameter as the installed
 * n8n 2.40.7 defines them (n8n-nodes-base, @n8n/n8n-nodes-langchain), and this package's part run
 * on the engine against the sandbox with the recording written late.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';

import { runWorkflow } from '../../dev/harness/engine.mts';
import {
	installedDescription,
	installedDescriptionsPresent,
} from '../../dev/harness/n8nInstall.mts';
import { startSandbox, type Sandbox } from '../../dev/sandbox/index.mts';
import { EXAMPLES_DIR, isOurs, type ExampleWorkflow } from '../../dev/demo/workflows.mts';
import { checkStructure } from './structureCheck.mts';

const FILE = `${EXAMPLES_DIR}ai/call-transcript-summary-to-crm.json`;
const workflow = JSON.parse(readFileSync(FILE, 'utf8')) as ExampleWorkflow;
const node = (name: string) => workflow.nodes.find((candidate) => candidate.name === name)!;

describe('examples/ai/call-transcript-summary-to-crm.json', () => {
	test("passes n8n's own structure check of imported workflows", (t) => {
		checkStructure(t, workflow);
	});

	test('the flow: trigger → recording → transcript → summary (with its model) → CRM note', () => {
		const next = (from: string, type = 'main') =>
			workflow.connections[from]?.[type]?.[0]?.map((target) => target.node);
		assert.deepEqual(next('Call ended'), ['Wait for the recording']);
		assert.deepEqual(next('Wait for the recording'), ['Get transcript']);
		assert.deepEqual(next('Get transcript'), ['Summarize the call']);
		assert.deepEqual(next('Summarize the call'), ['Add note to CRM']);
		assert.deepEqual(next('OpenAI Chat Model', 'ai_languageModel'), ['Summarize the call']);
		assert.equal(node('Wait for the recording').parameters.operation, 'downloadRecording');
		assert.ok(
			Number(
				(node('Wait for the recording').parameters.options as { waitForRecordingSec: number })
					.waitForRecordingSec,
			) > 0,
		);
		assert.equal(node('Get transcript').parameters.operation, 'getTranscript');
		assert.match(
			String(node('Summarize the call').parameters.text),
			/\{\{ \$json\.transcript \}\}/,
		);
		assert.equal(workflow.active, false);
	});

	test('the AI and CRM nodes exist at their typeVersion in the installed n8n, with these parameters', (t) => {
		for (const candidate of workflow.nodes.filter((n) => !isOurs(n.type))) {
			const description = installedDescription(candidate.type, candidate.typeVersion);
			if (description === undefined && !installedDescriptionsPresent())
				return t.skip('n8n is not installed under dev/e2e/node_modules');
			assert.ok(description, `${candidate.type} has typeVersion ${candidate.typeVersion}`);
			const names = new Set(description.properties.map((property) => property.name));
			for (const parameter of Object.keys(candidate.parameters))
				assert.ok(
					names.has(parameter),
					`${candidate.name}: ${candidate.type} defines ${parameter}`,
				);
		}
	});

	describe("this package's part, on the engine, the recording written 1.5 s after the call", () => {
		let sandbox: Sandbox;
		before(async () => {
			sandbox = await startSandbox({
				profile: 'contract',
				behaviours: ['recording-delay'],
				recordingDelayMs: 1500,
			});
		});
		after(async () => await sandbox.close());

		test('waits for the recording, then outputs the transcript the summary reads', async () => {
			// A call that just ended, on an even row (the sandbox gives those speaker turns).
			let call;
			do {
				({ call } = await sandbox.control.placeCall({
					virtualnum: '0722000100',
					caller: '0501234567',
				}));
			} while (call.id % 2 !== 0 || !call.has_recording);
			sandbox.control.clearRequests();
			const ours = ['Wait for the recording', 'Get transcript'].map(node);
			const result = await runWorkflow({
				nodes: ours.map(({ name, type, typeVersion, parameters, credentials }) => ({
					name,
					type,
					typeVersion,
					parameters,
					credentials,
				})),
				connections: [['Wait for the recording', 'Get transcript']],
				input: [{ json: { callId: call.cdr_uniqueid, callerNumber: '0501234567' } }],
				credentials: {
					virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn },
				},
			});
			assert.equal(result.error, undefined, result.error?.message);
			const [item] = result.items('Get transcript');
			assert.equal(item.json.callId, call.cdr_uniqueid);
			assert.match(String(item.json.transcript), /^\[0:00-0:03\] caller: Hello/);
			const downloads = sandbox.control.requests({
				service: 'vn',
				operation: 'get_record_by_call_uuid',
			});
			assert.ok(downloads.length >= 2, 'the recording was asked for again while it did not exist');
		});
	});
});
