/**
 * Download Recording → Wait for Recording (Seconds): while get_record_by_call_uuid answers 3002
 * (the field profile's `recording-delay`: the file is written some seconds after the call ends),
 * the node asks again until the wait has passed; then the file, or an error saying how long it
 * waited. 0, the default, asks once as before.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import { startSandbox, type Sandbox } from '../../../../../dev/sandbox/index.mts';
import { failure, vnRequests, vnRunner, NODE } from '../../vnRun.mts';

let sandbox: Sandbox;
const run = vnRunner(() => sandbox);
const DELAY_MS = 1500;

const download = (callUuid: string, options: Record<string, unknown> = {}, typeVersion = 1.1) =>
	run(
		{ resource: 'cdr', operation: 'downloadRecording', callUuid, fileFormat: 'wav', options },
		{ typeVersion },
	);

/**
 * Runs `check` while the recordings of new calls stay unwritten far longer than any run takes, so
 * that a busy machine cannot let the delay pass before the node asks.
 */
async function whileUnwritten(check: () => Promise<void>): Promise<void> {
	sandbox.control.setProfile({ recordingDelayMs: 10 * 60_000 });
	try {
		await check();
	} finally {
		sandbox.control.setProfile({ recordingDelayMs: DELAY_MS });
	}
}

/** A call that just ended on a number recording every call: its file exists only after the delay. */
async function justEndedCall(): Promise<string> {
	const { call } = await sandbox.control.placeCall({
		virtualnum: '0722000100',
		caller: '0501234567',
	});
	assert.ok(call.has_recording, 'the call is recorded');
	sandbox.control.clearRequests();
	return call.cdr_uniqueid;
}

describe('Download Recording → Wait for Recording (recording-delay)', () => {
	before(async () => {
		sandbox = await startSandbox({
			profile: 'contract',
			behaviours: ['recording-delay'],
			recordingDelayMs: DELAY_MS,
		});
	});
	after(async () => await sandbox.close());
	beforeEach(() => sandbox.control.reset());

	test('version 1.1 without a wait: fails at once with 3002, saying the call just ended and to set Wait for Recording', async () => {
		await whileUnwritten(async () => {
			const callUuid = await justEndedCall();
			const error = failure(await download(callUuid));
			assert.match(error.message, /\(code 3002\)/);
			assert.match(
				String(error.description),
				/The call ended \d+ s ago: its recording may not be written yet .* Set Wait for Recording \(Seconds\) in Options/,
			);
			assert.doesNotMatch(String(error.description), /record percentage/);
			assert.equal(vnRequests(sandbox, 'get_record_by_call_uuid').length, 1, 'asked once');
		});
	});

	test('version 1.2 waits up to 60 s by default: the file once it is written', async () => {
		const callUuid = await justEndedCall();
		const result = await download(callUuid, {}, 1.2);
		assert.equal(result.error, undefined, result.error?.message);
		assert.equal(result.items(NODE)[0].binary?.data.mimeType, 'audio/wav');
		assert.ok(vnRequests(sandbox, 'get_record_by_call_uuid').length >= 2, 'asked again');
	});

	test('version 1.2 with Wait for Recording 0 asks once, as before', async () => {
		await whileUnwritten(async () => {
			const callUuid = await justEndedCall();
			failure(await download(callUuid, { waitForRecordingSec: 0 }, 1.2));
			assert.equal(vnRequests(sandbox, 'get_record_by_call_uuid').length, 1);
		});
	});

	test('with a wait, it asks again until the file exists and outputs the file', async () => {
		const callUuid = await justEndedCall();
		const started = Date.now();
		const result = await download(callUuid, { waitForRecordingSec: 10 });
		assert.equal(result.error, undefined, result.error?.message);
		const [item] = result.items(NODE);
		assert.equal(item.json.callId, callUuid);
		assert.equal(item.binary?.data.mimeType, 'audio/wav');
		const tries = vnRequests(sandbox, 'get_record_by_call_uuid').length;
		assert.ok(tries >= 2 && tries <= 4, `asked a few times (${tries})`);
		assert.ok(Date.now() - started >= DELAY_MS - 100, 'the file came after the delay');
	});

	test('a wait shorter than the delay fails saying how long it waited', async () => {
		await whileUnwritten(async () => {
			const callUuid = await justEndedCall();
			const started = Date.now();
			const error = failure(await download(callUuid, { waitForRecordingSec: 1 }));
			const elapsed = Date.now() - started;
			assert.match(
				error.message,
				new RegExp(
					`No recording of call ${callUuid.replace('.', '\\.')} after waiting 1 s \\(2 tries\\)`,
				),
			);
			assert.match(String(error.description), /The call ended \d+ s ago.*Raise Wait for Recording/);
			assert.ok(elapsed >= 1000 && elapsed < 3000, `bounded by the wait (${elapsed} ms)`);
		});
	});
});

describe('Download Recording → Wait for Recording (contract)', () => {
	before(async () => {
		sandbox = await startSandbox({ profile: 'contract' });
	});
	after(async () => await sandbox.close());
	beforeEach(() => sandbox.control.reset());

	test('a recorded call: one request, the file, also with a wait set', async () => {
		const callUuid = sandbox.control.cdrs({ hasRecording: true })[0].cdr_uniqueid;
		const result = await download(callUuid, { waitForRecordingSec: 30 });
		assert.equal(result.error, undefined);
		assert.equal(vnRequests(sandbox, 'get_record_by_call_uuid').length, 1);
	});

	test('other refusals are not waited on: a token refusal fails at once', async () => {
		const callUuid = sandbox.control.cdrs({ hasRecording: true })[0].cdr_uniqueid;
		sandbox.control.injectFaults({
			kind: 'unauthorized',
			text: 'Token invalid',
			operation: 'get_record_by_call_uuid',
		});
		const started = Date.now();
		failure(await download(callUuid, { waitForRecordingSec: 30 }));
		assert.equal(vnRequests(sandbox, 'get_record_by_call_uuid').length, 1);
		assert.ok(Date.now() - started < 1000);
	});

	test('a call never recorded: bounded by the wait, then the error says so', async () => {
		const callUuid = sandbox.control.cdrs().find((row) => !row.has_recording)!.cdr_uniqueid;
		const error = failure(await download(callUuid, { waitForRecordingSec: 2 }));
		assert.match(error.message, /after waiting 2 s \(3 tries\)/);
		assert.match(String(error.description), /Only recorded calls have a file/);
	});

	test('an older call without a recording, asked once: the record-percentage advice', async () => {
		const callUuid = sandbox.control.cdrs().find((row) => !row.has_recording)!.cdr_uniqueid;
		const error = failure(await download(callUuid, {}, 1.1));
		assert.match(String(error.description), /record percentage of the number/);
		assert.doesNotMatch(String(error.description), /may not be written yet/);
	});
});
