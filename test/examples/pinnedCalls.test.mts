/**
 * The call-ended and CRM sync examples pin a call of the sandbox `npm run playground` starts (2000
 * call records, as the e2e and the demo seed it, in UTC as the playground runs it), so Execute
 * workflow runs through: the pinned item matches the sandbox's record of that call, Get call record
 * finds it, and the call-ended example downloads its recording.
 */
// The sandbox's call ids begin with the call's Unix start time, computed from its seeded local dates:
// set before the sandbox module loads (imported below), as dev/e2e/playground.mts does.
process.env.TZ = 'UTC';

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../dev/sandbox/index.mts';
import {
	loadExample,
	pinnedItems,
	runExample,
	triggerOf,
	type ExampleWorkflow,
} from '../../dev/demo/workflows.mts';

let sandbox: Sandbox;

before(async () => {
	const { startSandbox } = await import('../../dev/sandbox/index.mts');
	sandbox = await startSandbox({ seed: { cdrs: 2000 } });
});
after(async () => await sandbox.close());

const credentials = () => ({
	virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn },
});

/** The workflow up to and including `last` (the nodes after it write elsewhere, e.g. the CRM's Postgres). */
function upTo(workflow: ExampleWorkflow, last: string): ExampleWorkflow {
	const trigger = triggerOf(workflow);
	return {
		...workflow,
		nodes: workflow.nodes.filter((node) => node === trigger || node.name === last),
		connections: { [trigger.name]: workflow.connections[trigger.name] },
	};
}

for (const file of ['call-ended-download-recording.json', 'crm-sync-call-records.json']) {
	describe(`examples/${file}: the pinned call`, () => {
		const workflow = loadExample(file);
		const pinned = () => pinnedItems(workflow, triggerOf(workflow).name)[0].json;

		test("is a call of the playground's sandbox, answered, with a recording, and the pinned fields are its record's", () => {
			const item = pinned();
			const record = sandbox.control.cdr(String(item.callId));
			assert.ok(record, `the sandbox has no call ${String(item.callId)}`);
			assert.equal(record.call_status, 'ANSWER');
			assert.equal(record.has_recording, true);
			assert.deepEqual(
				{
					virtualNumber: item.virtualNumber,
					callerNumber: item.callerNumber,
					destinationPhone: item.destinationPhone,
					numberDescription: item.numberDescription,
					startTime: item.startTime,
					endTime: item.endTime,
					durationSec: item.durationSec,
				},
				{
					virtualNumber: record.cdr_ddi,
					callerNumber: record.cdr_ani,
					destinationPhone: record.user_phone,
					numberDescription: record.user_name,
					startTime: record.start_call,
					endTime: record.end_call,
					durationSec: record.call_duration,
				},
			);
			const body = item.body as IDataObject;
			assert.equal(body.call_uuid, item.callId, 'the echoed callback body names the same call');
		});

		test('Get call record finds it (one item, the pinned call)', async () => {
			const run = await runExample(upTo(workflow, 'Get call record'), {
				input: pinnedItems(workflow, triggerOf(workflow).name),
				credentials: credentials(),
			});
			assert.equal(run.error, undefined, run.error?.message);
			const items = run.items('Get call record').map((entry) => entry.json);
			assert.equal(items.length, 1);
			assert.equal(items[0].callId, pinned().callId);
		});
	});
}

test('examples/call-ended-download-recording.json runs from its pinned call through to the recording', async () => {
	const workflow = loadExample('call-ended-download-recording.json');
	const input = pinnedItems(workflow, triggerOf(workflow).name);
	const run = await runExample(workflow, { input, credentials: credentials() });
	assert.equal(run.error, undefined, run.error?.message);
	const [item] = run.items('Download recording');
	assert.ok(item, 'the workflow stopped before the download');
	assert.equal(item.binary?.data?.fileName, `${String(input[0].json.callId)}.wav`);
});
