// Include → Recording against the field-data corpus of recordings (test/fixtures/field-data/recordings):
// one call's recording answers as the case says, a later call's normally. Through n8n's PollContext:
// what each poll emits (items, binary, recordingStatus, recordingError), the position and the held
// calls in the static data, and how often the service was asked for each recording.
process.env.TZ = 'Asia/Jerusalem';

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, beforeEach, describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { startSandbox, type Fault, type Sandbox } from '../../../dev/sandbox/index.mts';
import { PollHost, type PollOutcome } from '../../../dev/harness/poll.mts';

const NUMBER = '0722000100';
const CORPUS = new URL('../../fixtures/field-data/recordings/', import.meta.url);

interface Case {
	name: string;
	answer: IDataObject & { kind: string; file?: string };
	times: 'once' | 'always';
	timeoutSec?: number;
	expect: {
		recordingStatus: string;
		held: boolean;
		recordingBytes?: number | null;
		error?: string;
		errorDescription?: string;
		errorCode?: number;
	};
}

const { cases } = JSON.parse(readFileSync(new URL('cases.json', CORPUS), 'utf8')) as {
	cases: Case[];
};

/** The case's answer as a sandbox fault on that call only (a file's text as the body). */
function faultOf(entry: Case, callId: string): Fault {
	const { file, ...answer } = entry.answer;
	const text = file === undefined ? undefined : readFileSync(new URL(file, CORPUS), 'utf8');
	const body =
		text === undefined
			? {}
			: answer.kind === 'notAudio'
				? { text }
				: { text, bytes: Buffer.byteLength(text) };
	return {
		...answer,
		...body,
		operation: 'get_record_by_call_uuid',
		callId,
		count: entry.times === 'once' ? 1 : 99,
	} as Fault;
}

describe('Virtual Number Call Record Trigger → recordings as the field answers them', () => {
	let sandbox: Sandbox;
	before(async () => {
		sandbox = await startSandbox();
	});
	after(async () => {
		await sandbox.close();
	});
	beforeEach(() => sandbox.control.reset());

	const started = async (timeoutSec = 10) => {
		const trigger = await PollHost.create({
			parameters: { include: ['recording'], holdBackMinutes: 1, options: { timeout: timeoutSec } },
			credentials: { virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn } },
		});
		assert.equal((await trigger.activate()).emitted, false);
		return trigger;
	};
	/** An answered call with a recording (the sandbox records most answered calls). */
	const answered = async (caller: string) => {
		for (;;) {
			const { call } = await sandbox.control.placeCall({ virtualnum: NUMBER, caller });
			if (call.has_recording) return call;
		}
	};
	const asked = (callId: string) =>
		sandbox.control
			.requests({ operation: 'get_record_by_call_uuid' })
			.filter((request) => JSON.stringify([request.query, request.body]).includes(callId)).length;
	const callers = (poll: PollOutcome) => poll.items.map((item) => item.json.callerNumber);
	const heldIn = (data: IDataObject | undefined) => (data?.heldRecords ?? []) as IDataObject[];
	const age = (data: IDataObject | undefined, ms: number) => {
		for (const held of heldIn(data)) {
			held.heldSince = Number(held.heldSince) - ms;
			held.nextTry = Number(held.nextTry) - ms;
		}
	};

	function checkItem(entry: Case, item: PollOutcome['items'][number]) {
		const { expect } = entry;
		assert.equal(item.json.recordingStatus, expect.recordingStatus);
		if (expect.recordingStatus === 'included') {
			assert.equal(item.binary?.data.mimeType, 'audio/wav');
			assert.equal(item.json.recordingError, undefined);
			return;
		}
		assert.equal(item.binary, undefined, 'no binary data');
		const error = item.json.recordingError as IDataObject;
		assert.match(String(error.error), new RegExp(escape(expect.error ?? '')));
		assert.match(String(error.errorDescription), new RegExp(escape(expect.errorDescription ?? '')));
		if (expect.errorCode !== undefined) assert.equal(error.errorCode, expect.errorCode);
		if ('recordingBytes' in expect) assert.equal(item.json.recordingBytes, expect.recordingBytes);
	}
	const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

	for (const entry of cases) {
		test(`${entry.name}: ${entry.expect.held ? 'held, then' : 'at once'} ${entry.expect.recordingStatus}; the later call is not held up`, async () => {
			const trigger = await started(entry.timeoutSec);
			const odd = await answered('0501000001');
			sandbox.control.injectFaults(faultOf(entry, odd.cdr_uniqueid));
			const normal = await answered('0501000002');
			const first = await trigger.tick();
			assert.equal(first.error, undefined, first.error?.message);
			const later = first.items.find((item) => item.json.callId === normal.cdr_uniqueid)!;
			assert.equal(
				later.json.recordingStatus,
				'included',
				'the later call comes with its recording',
			);
			assert.equal(later.binary?.data.mimeType, 'audio/wav');
			assert.equal(trigger.savedCursor!.rowId, normal.id, 'the position moved past both');
			assert.equal(asked(odd.cdr_uniqueid), 1);
			if (!entry.expect.held) {
				assert.deepEqual(callers(first), ['0501000001', '0501000002'], 'in row order');
				checkItem(entry, first.items[0]);
				assert.equal(heldIn(trigger.savedCursor).length, 0);
				assert.equal((await trigger.tick()).emitted, false, 'once');
				assert.equal(asked(odd.cdr_uniqueid), 1, 'never asked again');
				return;
			}
			assert.deepEqual(callers(first), ['0501000002'], 'the odd call is held');
			const [held] = heldIn(trigger.savedCursor);
			assert.deepEqual([held.rowId, held.callId], [String(odd.id), odd.cdr_uniqueid]);
			age(trigger.live, 30_000);
			let poll = await trigger.tick();
			assert.equal(asked(odd.cdr_uniqueid), 2, 'asked again after its pause');
			if (entry.times === 'always') {
				assert.equal(poll.emitted, false, 'still held');
				age(trigger.live, 31_000);
				poll = await trigger.tick();
				assert.equal(asked(odd.cdr_uniqueid), 3, 'asked a last time when the hold ended');
			}
			assert.deepEqual(callers(poll), ['0501000001']);
			checkItem(entry, poll.items[0]);
			assert.ok(Number(poll.items[0].json.recordingHeldSec) >= 30);
			assert.ok(!('heldRecords' in trigger.savedCursor!));
			assert.equal((await trigger.tick()).emitted, false, 'once');
		});

		test(`${entry.name}: Fetch Test Event tries once and says what came`, async () => {
			const trigger = await started(entry.timeoutSec);
			const odd = await answered('0501000001');
			sandbox.control.injectFaults(faultOf(entry, odd.cdr_uniqueid));
			const [item] = await trigger.fetchTestEvent();
			assert.equal(item.json.callId, odd.cdr_uniqueid);
			const once = entry.expect.held ? 'unavailable' : entry.expect.recordingStatus;
			assert.equal(item.json.recordingStatus, once);
			assert.equal(item.binary, undefined);
			assert.equal(asked(odd.cdr_uniqueid), 1);
		});
	}

	test('a refused credential while reading a recording fails the poll: nothing emitted, nothing moved', async () => {
		const trigger = await started();
		const odd = await answered('0501000001');
		sandbox.control.injectFaults({
			kind: 'unauthorized',
			text: 'Invalid Token',
			operation: 'get_record_by_call_uuid',
			callId: odd.cdr_uniqueid,
		});
		await answered('0501000002');
		const before = JSON.stringify(trigger.live);
		const failed = await trigger.tick();
		assert.equal(failed.emitted, false);
		assert.match(
			String(failed.error?.message),
			/refused get_record_by_call_uuid: The access token is not valid/,
		);
		assert.match(String(failed.error?.description), /the trigger's position did not move/);
		assert.equal(JSON.stringify(trigger.live), before, 'the static data as it was');
		assert.deepEqual(callers(await trigger.tick()), ['0501000001', '0501000002']);
	});
});
