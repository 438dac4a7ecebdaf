/**
 * Transcripts: Get Metadata outputs the speech_recognition section as plain text `transcript` beside
 * the raw section, and Get Transcript returns just that, or an error saying the account has no speech
 * recognition. The sandbox's section has a `transcript` text, and on even rows also speaker turns
 * with start and end times (`segments`): both shapes go through the engine here.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { sandboxPerFile } from '../../../../../dev/harness/nodeTest.mts';
import { failure, jsons, vnRequests, vnRunner } from '../../vnRun.mts';

const sandbox = sandboxPerFile();
const run = vnRunner(() => sandbox);

/** A recorded call whose row id is even (with turns) or odd (a whole text only). */
function recordedCall(withTurns: boolean) {
	const call = sandbox.control
		.cdrs({ hasRecording: true })
		.find((row) => (row.id % 2 === 0) === withTurns);
	assert.ok(call, 'the sandbox has such a call');
	return call;
}

describe('Virtual Number → Call Record → Get Metadata: transcript', () => {
	test('speaker turns with times become one line each, beside the raw section', async () => {
		const call = recordedCall(true);
		const [item] = jsons(
			await run({ resource: 'cdr', operation: 'getMetadata', callUuid: call.cdr_uniqueid }),
		);
		const raw = item.speech_recognition as { segments: unknown[]; transcript: string };
		assert.equal(raw.segments.length, 3, 'the raw section stays as the service gave it');
		assert.equal(
			item.transcript,
			[
				`[0:00-0:03] caller: Hello, I am calling about ${call.user_name}.`,
				'[0:03-0:05] agent: Sure, how can I help?',
				`[1:05-1:08] caller: Could you call me back at ${call.cdr_ani}?`,
			].join('\n'),
		);
		const keys = Object.keys(item);
		assert.equal(keys.indexOf('transcript'), keys.indexOf('speech_recognition') + 1, 'beside it');
	});

	test('a section with a text only: that text', async () => {
		const call = recordedCall(false);
		const [item] = jsons(
			await run({ resource: 'cdr', operation: 'getMetadata', callUuid: call.cdr_uniqueid }),
		);
		assert.equal(item.transcript, (item.speech_recognition as { transcript: string }).transcript);
		assert.match(String(item.transcript), /^Hello, I am calling about/);
	});

	test('no speech recognition on the account: no section, no transcript key, as before', async () => {
		sandbox.control.configure({ speechRecognition: false });
		const call = recordedCall(true);
		const [item] = jsons(
			await run({ resource: 'cdr', operation: 'getMetadata', callUuid: call.cdr_uniqueid }),
		);
		assert.equal('speech_recognition' in item, false);
		assert.equal('transcript' in item, false);
	});
});

describe('Virtual Number → Call Record → Get Transcript', () => {
	const transcript = (callUuid: string) =>
		run({ resource: 'cdr', operation: 'getTranscript', callUuid });

	test('returns the call ID, the transcript and its language, from get_cdr_metadata_by_call_uuid', async () => {
		const call = recordedCall(true);
		const items = jsons(await transcript(call.cdr_uniqueid));
		const [request] = vnRequests(sandbox, 'get_cdr_metadata_by_call_uuid');
		assert.equal(request.query.call_uuid, call.cdr_uniqueid);
		assert.deepEqual(Object.keys(items[0]), ['callId', 'transcript', 'language']);
		assert.equal(items[0].callId, call.cdr_uniqueid);
		assert.equal(items[0].language, 'he-IL');
		assert.equal(String(items[0].transcript).split('\n').length, 3);
	});

	test('an account without speech recognition: a clear error naming the call and why', async () => {
		sandbox.control.configure({ speechRecognition: false });
		const call = recordedCall(false);
		const error = failure(await transcript(call.cdr_uniqueid));
		assert.equal(error.message, `No transcript for call ${call.cdr_uniqueid}`);
		assert.match(String(error.description), /speech recognition is not enabled for this account/);
	});

	test('with Continue On Fail: a transcript item and an error item, each paired to its input', async () => {
		const recorded = recordedCall(true).cdr_uniqueid;
		const unrecorded = sandbox.control.cdrs().find((row) => !row.has_recording)!.cdr_uniqueid;
		const result = await run(
			{ resource: 'cdr', operation: 'getTranscript', callUuid: '={{ $json.id }}' },
			{ input: [{ json: { id: recorded } }, { json: { id: unrecorded } }], continueOnFail: true },
		);
		const items = result.items('VN');
		assert.equal(items.length, 2);
		assert.equal(items[0].json.callId, recorded);
		assert.match(String(items[1].json.error), /No transcript for call/);
		assert.deepEqual(
			items.map((item) => item.pairedItem),
			[{ item: 0 }, { item: 1 }],
		);
	});
});
