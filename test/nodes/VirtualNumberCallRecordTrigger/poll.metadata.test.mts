// Include → Transcript and Metadata against the field-data corpus of metadata answers
// (test/fixtures/field-data/metadata): one call's get_cdr_metadata_by_call_uuid answers as the case
// says, a later call's normally. Through n8n's PollContext: what each poll emits (transcript,
// metadata, their statuses and errors), the position and the held calls in the static data, and how
// often the service was asked for each call's metadata; then the parts together (the recording not
// asked while the metadata may still come), a call not answered, and a refused credential.
process.env.TZ = 'Asia/Jerusalem';

import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../../dev/sandbox/index.mts';
import { PollHost, type PollOutcome } from '../../../dev/harness/poll.mts';
import { FieldCases, age, checkError, heldIn, type FieldCase } from './fieldCases.mts';

const NUMBER = '0722000100';
const METADATA = 'get_cdr_metadata_by_call_uuid';
const RECORDING = 'get_record_by_call_uuid';
const MAX_BYTES = 5 * 1024 * 1024;

interface Expect {
	status: string;
	bytes?: 'announced' | null;
	error?: string;
	errorDescription?: string;
	errorCode?: number;
}
type Case = FieldCase<Expect>;
type Item = PollOutcome['items'][number];

const corpus = new FieldCases<Expect>('metadata');
const faultOf = (entry: Case, callId: string) => corpus.faultOf(entry, METADATA, callId);

/** The transcript and metadata of the call as the item carries them, and the statuses. */
function checkIncluded(item: Item) {
	assert.match(String(item.json.transcript), /Hello, I am calling about/);
	assert.ok(Array.isArray(item.json.transcriptTurns));
	assert.equal(item.json.transcriptStatus, 'included');
	assert.deepEqual((item.json.metadata as IDataObject).pixel_data, { utm_source: 'billboard' });
	assert.equal(item.json.metadataStatus, 'included');
	for (const field of ['transcriptError', 'metadataError', 'transcriptBytes', 'metadataBytes'])
		assert.ok(!(field in item.json), `no ${field}`);
}

/** A case's item: nothing of the transcript or metadata, both statuses and errors as the case says. */
function checkItem(entry: Case, item: Item) {
	const { expect } = entry;
	if (expect.status === 'included') return checkIncluded(item);
	for (const part of ['transcript', 'metadata']) {
		assert.equal(item.json[`${part}Status`], expect.status, `${part}Status`);
		assert.equal(item.json[part], null, part);
		const error = item.json[`${part}Error`] as IDataObject | undefined;
		if (expect.status === 'none') assert.equal(error, undefined, 'no error: not a failure');
		else checkError(error!, expect);
		if (!('bytes' in expect)) assert.ok(!(`${part}Bytes` in item.json));
		else if (expect.bytes === null) assert.equal(item.json[`${part}Bytes`], null);
		else assert.ok(Number(item.json[`${part}Bytes`]) > MAX_BYTES, `${part}Bytes`);
	}
	assert.equal(item.json.transcriptTurns, null);
}

describe('Virtual Number Call Record Trigger → transcripts and metadata as the field answers them', () => {
	let sandbox: Sandbox;
	before(async () => {
		sandbox = await startSandbox();
	});
	after(async () => {
		await sandbox.close();
	});
	beforeEach(() => sandbox.control.reset());

	const started = async (timeoutSec = 10, include = ['transcript', 'metadata']) => {
		const trigger = await PollHost.create({
			parameters: { include, holdBackMinutes: 1, options: { timeout: timeoutSec } },
			credentials: { virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn } },
		});
		assert.equal((await trigger.activate()).emitted, false);
		return trigger;
	};
	/** A recorded call with pixel and ads data: the sandbox gives it speech recognition and sections. */
	const recorded = (caller: string, status = 'ANSWER') =>
		sandbox.control.seed({
			cdr: {
				cdr_ddi: NUMBER,
				cdr_ani: caller,
				call_status: status,
				cdr_meta_data: '{"utm_source":"billboard"}',
				gclid: 'Cj0KCQ',
			},
		}).cdr!;
	const asked = (operation: string, callId: string) =>
		sandbox.control
			.requests({ operation })
			.filter((request) => JSON.stringify([request.query, request.body]).includes(callId)).length;
	const callers = (poll: PollOutcome) => poll.items.map((item) => item.json.callerNumber);

	for (const entry of corpus.cases) {
		const { held, status } = entry.expect;
		test(`${entry.name}: ${held ? 'held, then' : 'at once'} ${status}; the later call is not held up`, async () => {
			const trigger = await started(entry.timeoutSec);
			const odd = recorded('0501000001');
			sandbox.control.injectFaults(faultOf(entry, odd.cdr_uniqueid));
			const normal = recorded('0501000002');
			const first = await trigger.tick();
			assert.equal(first.error, undefined, first.error?.message);
			checkIncluded(first.items.find((item) => item.json.callId === normal.cdr_uniqueid)!);
			assert.equal(trigger.savedCursor!.rowId, normal.id, 'the position moved past both');
			assert.equal(asked(METADATA, odd.cdr_uniqueid), 1);
			if (!held) {
				assert.deepEqual(callers(first), ['0501000001', '0501000002'], 'in row order');
				checkItem(entry, first.items[0]);
				assert.equal(heldIn(trigger.savedCursor).length, 0);
				assert.equal((await trigger.tick()).emitted, false, 'once');
				assert.equal(asked(METADATA, odd.cdr_uniqueid), 1, 'never asked again');
				return;
			}
			assert.deepEqual(callers(first), ['0501000002'], 'the odd call is held');
			const [entryHeld] = heldIn(trigger.savedCursor);
			assert.deepEqual([entryHeld.rowId, entryHeld.callId], [String(odd.id), odd.cdr_uniqueid]);
			age(trigger.live, 30_000);
			let poll = await trigger.tick();
			assert.equal(asked(METADATA, odd.cdr_uniqueid), 2, 'asked again after its pause');
			if (entry.times === 'always') {
				assert.equal(poll.emitted, false, 'still held');
				age(trigger.live, 31_000);
				poll = await trigger.tick();
				assert.equal(asked(METADATA, odd.cdr_uniqueid), 3, 'asked a last time when the hold ended');
			}
			assert.deepEqual(callers(poll), ['0501000001']);
			checkItem(entry, poll.items[0]);
			for (const part of ['transcript', 'metadata'])
				assert.ok(Number(poll.items[0].json[`${part}HeldSec`]) >= 30, `${part}HeldSec`);
			assert.ok(!('heldRecords' in trigger.savedCursor!));
			assert.equal((await trigger.tick()).emitted, false, 'once');
		});

		test(`${entry.name}: Fetch Test Event tries once and says what came`, async () => {
			const trigger = await started(entry.timeoutSec);
			const odd = recorded('0501000001');
			sandbox.control.injectFaults(faultOf(entry, odd.cdr_uniqueid));
			const [item] = await trigger.fetchTestEvent();
			assert.equal(item.json.callId, odd.cdr_uniqueid);
			const once = held ? 'unavailable' : status;
			assert.equal(item.json.transcriptStatus, once);
			assert.equal(item.json.metadataStatus, once);
			assert.equal(asked(METADATA, odd.cdr_uniqueid), 1);
		});
	}

	test('with the recording: not asked while the metadata may still come; asked once when the hold ends', async () => {
		const trigger = await started(10, ['recording', 'transcript', 'metadata']);
		const odd = recorded('0501000001');
		sandbox.control.injectFaults({
			kind: 'http500',
			operation: METADATA,
			callId: odd.cdr_uniqueid,
			count: 99,
		});
		const normal = recorded('0501000002');
		const first = await trigger.tick();
		assert.deepEqual(callers(first), ['0501000002']);
		assert.equal(first.items[0].json.recordingStatus, 'included');
		assert.equal(first.items[0].binary?.data.mimeType, 'audio/wav');
		checkIncluded(first.items[0]);
		assert.equal(asked(RECORDING, normal.cdr_uniqueid), 1);
		assert.equal(asked(RECORDING, odd.cdr_uniqueid), 0, 'not asked while the metadata is held');
		age(trigger.live, 30_000);
		assert.equal((await trigger.tick()).emitted, false);
		age(trigger.live, 31_000);
		const [item] = (await trigger.tick()).items;
		assert.equal(item.json.callId, odd.cdr_uniqueid);
		assert.equal(item.json.recordingStatus, 'included', 'the recording came');
		assert.equal(item.binary?.data.mimeType, 'audio/wav');
		assert.equal(item.json.transcriptStatus, 'unavailable');
		assert.match(String((item.json.transcriptError as IDataObject).error), /HTTP 500/);
		assert.deepEqual(
			[asked(METADATA, odd.cdr_uniqueid), asked(RECORDING, odd.cdr_uniqueid)],
			[3, 1],
			'the metadata at each try, the recording once, at the last',
		);
	});

	test('with the recording: a recording not written yet holds the call, its metadata asked again with it', async () => {
		const trigger = await started(10, ['recording', 'transcript']);
		const odd = recorded('0501000001');
		sandbox.control.injectFaults({
			kind: 'serviceError',
			code: 3002,
			description: 'No recording',
			operation: RECORDING,
			callId: odd.cdr_uniqueid,
		});
		assert.equal((await trigger.tick()).emitted, false, 'held for its recording');
		age(trigger.live, 30_000);
		const [item] = (await trigger.tick()).items;
		assert.equal(item.json.recordingStatus, 'included');
		assert.equal(item.json.transcriptStatus, 'included');
		assert.ok(Number(item.json.recordingHeldSec) >= 30);
		assert.ok(!('metadataStatus' in item.json), 'metadata not included');
		assert.deepEqual(
			[asked(METADATA, odd.cdr_uniqueid), asked(RECORDING, odd.cdr_uniqueid)],
			[2, 2],
		);
	});

	test('a call not answered is held for its metadata, not asked for a recording', async () => {
		const trigger = await started(10, ['recording', 'metadata']);
		const missed = recorded('0501000001', 'NOANSWER');
		sandbox.control.injectFaults({
			kind: 'http500',
			operation: METADATA,
			callId: missed.cdr_uniqueid,
		});
		assert.equal((await trigger.tick()).emitted, false);
		const [held] = heldIn(trigger.live);
		assert.equal(held.answered, false);
		age(trigger.live, 30_000);
		const [item] = (await trigger.tick()).items;
		assert.equal(item.json.recordingStatus, 'none');
		assert.equal(item.json.metadataStatus, 'included');
		assert.equal(asked(RECORDING, missed.cdr_uniqueid), 0);
		assert.equal(asked(METADATA, missed.cdr_uniqueid), 2);
	});

	test('a refused credential while reading the metadata fails the poll: nothing emitted, nothing moved', async () => {
		const trigger = await started();
		const odd = recorded('0501000001');
		sandbox.control.injectFaults({
			kind: 'unauthorized',
			text: 'Invalid Token',
			operation: METADATA,
			callId: odd.cdr_uniqueid,
		});
		recorded('0501000002');
		const before = JSON.stringify(trigger.live);
		const failed = await trigger.tick();
		assert.equal(failed.emitted, false);
		assert.match(
			String(failed.error?.message),
			new RegExp(`refused ${METADATA}: The access token is not valid`),
		);
		assert.match(String(failed.error?.description), /the trigger's position did not move/);
		assert.equal(JSON.stringify(trigger.live), before, 'the static data as it was');
		assert.deepEqual(callers(await trigger.tick()), ['0501000001', '0501000002']);
	});
});
