// Include → Recording, Transcript, Metadata, and the hold of a record whose recording is not
// written yet (the field profile's recording-delay), through n8n's PollContext.
process.env.TZ = 'Asia/Jerusalem';

import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../../dev/sandbox/index.mts';
import { PollHost, type PollOutcome } from '../../../dev/harness/poll.mts';

const NUMBER = '0722000100';
const DELAY_MS = 1200;
const NODE = 'node:Virtual Number Call Record Trigger';
const ALL = { include: ['recording', 'transcript', 'metadata'] };

describe('Virtual Number Call Record Trigger → Include, and the hold for recordings', () => {
	let sandbox: Sandbox;
	before(async () => {
		sandbox = await startSandbox({ recordingDelayMs: DELAY_MS });
	});
	after(async () => {
		await sandbox.close();
	});
	beforeEach(() => sandbox.control.reset());
	afterEach(() => sandbox.control.setProfile({ profile: 'contract' }));

	const host = (parameters: IDataObject, staticData?: IDataObject) =>
		PollHost.create({
			parameters,
			credentials: { virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn } },
			staticData,
		});
	const started = async (parameters: IDataObject) => {
		const trigger = await host(parameters);
		await trigger.activate();
		return trigger;
	};
	const call = async (caller: string, answered = true) =>
		(await sandbox.control.placeCall({ virtualnum: NUMBER, caller, answered, durationSec: 30 }))
			.call;
	const callers = (poll: PollOutcome) => poll.items.map((item) => item.json.callerNumber);
	const downloads = () => sandbox.control.requests({ operation: 'get_record_by_call_uuid' }).length;
	const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

	test('a call with its recording (binary data), transcript text and turns, and metadata sections', async () => {
		const trigger = await started({ ...ALL, recordingFormat: 'mp3' });
		let placed = await call('0501000001');
		// Even row ids carry speaker turns in the sandbox.
		if (placed.id % 2 === 1) placed = await call('0501000002');
		sandbox.control.seed({ cdr: { cdr_ddi: NUMBER, call_status: 'BUSY', cdr_ani: '0501000009' } });
		const poll = await trigger.tick();
		const item = poll.items.find((entry) => entry.json.callId === placed.cdr_uniqueid)!;
		assert.equal(item.json.recordingStatus, 'included');
		assert.equal(item.binary?.data.mimeType, 'audio/mpeg');
		assert.equal(item.binary?.data.fileName, `${placed.cdr_uniqueid}.mp3`);
		assert.match(String(item.json.transcript), /^\[0:0\d-0:0\d\] \w+: /);
		const turns = item.json.transcriptTurns as IDataObject[];
		assert.ok(turns.length >= 2 && typeof turns[0].text === 'string' && 'speaker' in turns[0]);
		assert.equal(item.json.metadata, null, 'a call with no pixel or ads data');
		const busy = poll.items.at(-1)!;
		assert.equal(busy.json.callerNumber, '0501000009');
		assert.equal(busy.json.recordingStatus, 'notAnswered');
		assert.equal(busy.binary, undefined);
		assert.equal(busy.json.transcript, null);
		assert.equal(busy.json.transcriptTurns, null);
	});

	test('a poll reads its credential once, not again for each record, download and metadata request', async () => {
		// n8n 2.x resolves a trigger's credential in a new expression isolate at every read.
		let reads = 0;
		const saved = { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn };
		const trigger = await PollHost.create({
			parameters: ALL,
			credentials: {
				get virtualnumApi() {
					reads++;
					return saved;
				},
			},
		});
		await trigger.activate();
		for (const caller of ['0501000001', '0501000002', '0501000003']) await call(caller);
		sandbox.control.clearRequests();
		reads = 0;
		const poll = await trigger.tick();
		assert.deepEqual(callers(poll), ['0501000001', '0501000002', '0501000003']);
		assert.ok(poll.items.every((item) => item.binary?.data.mimeType === 'audio/wav'));
		assert.equal(downloads(), 3);
		assert.equal(
			sandbox.control.requests({ operation: 'get_cdr_metadata_by_call_uuid' }).length,
			3,
		);
		assert.equal(reads, 1);
	});

	test('metadata: the pixel and ads sections, without the cdr and speech sections', async () => {
		const trigger = await started({ include: ['metadata'] });
		sandbox.control.seed({
			cdr: { cdr_ddi: NUMBER, cdr_meta_data: '{"utm_source":"billboard"}', gclid: 'Cj0KCQ' },
		});
		const [item] = (await trigger.tick()).items;
		const metadata = item.json.metadata as IDataObject;
		assert.deepEqual(metadata.pixel_data, { utm_source: 'billboard' });
		assert.equal((metadata.ads_data as IDataObject).gclid, 'Cj0KCQ');
		assert.ok(!('cdr' in metadata) && !('speech_recognition' in metadata));
		assert.equal(item.binary, undefined);
		assert.equal(item.json.recordingStatus, undefined);
	});

	test('recording-delay: held until the recording exists, then emitted once with it; later calls are not held up', async () => {
		sandbox.control.setProfile({ behaviours: ['recording-delay'], recordingDelayMs: DELAY_MS });
		const trigger = await started({ include: ['recording'] });
		const first = await call('0501000001');
		const first_poll = await trigger.tick();
		assert.equal(first_poll.emitted, false, 'held: its recording is not written yet');
		await call('0501000002', false);
		assert.deepEqual(
			callers(await trigger.tick()),
			['0501000002'],
			'an unanswered call is not held',
		);
		await later(DELAY_MS);
		const poll = await trigger.tick();
		assert.deepEqual(callers(poll), ['0501000001']);
		assert.equal(poll.items[0].json.callId, first.cdr_uniqueid);
		assert.equal(poll.items[0].json.recordingStatus, 'included');
		assert.equal(poll.items[0].binary?.data.mimeType, 'audio/wav');
		assert.equal((await trigger.tick()).emitted, false, 'once');
		assert.ok(!('heldRecords' in trigger.savedCursor!));
	});

	test('n8n restarted during the hold: the held record is neither lost nor doubled', async () => {
		sandbox.control.setProfile({ behaviours: ['recording-delay'], recordingDelayMs: DELAY_MS });
		const trigger = await started({ include: ['recording'] });
		await call('0501000001');
		await call('0501000002', false);
		// The unanswered call is emitted, so n8n saves the cursor with the held record beside it.
		assert.deepEqual(callers(await trigger.tick()), ['0501000002']);
		assert.equal((trigger.savedCursor!.heldRecords as IDataObject[]).length, 1);
		const again = await host({ include: ['recording'] }, trigger.saved);
		assert.equal((await again.activate('init')).emitted, false, 'still held after the restart');
		await later(DELAY_MS);
		assert.deepEqual(callers(await again.tick()), ['0501000001']);
		assert.equal((await again.tick()).emitted, false);
	});

	test('a recording that never comes: emitted after Hold Back Up To with recordingStatus notFound', async () => {
		const trigger = await started({ include: ['recording'], holdBackMinutes: 1 });
		sandbox.control.seed({ cdr: { cdr_ddi: NUMBER, cdr_ani: '0501000001', has_recording: false } });
		await call('0502000002', false);
		assert.deepEqual(callers(await trigger.tick()), ['0502000002']);
		assert.equal((await trigger.tick()).emitted, false, 'held within the minute');
		// A minute later (as the static data would say after the wait).
		const saved = structuredClone(trigger.saved);
		const held = (saved[NODE] as IDataObject).heldRecords as IDataObject[];
		held[0].since = Number(held[0].since) - 61_000;
		const resumed = await host({ include: ['recording'], holdBackMinutes: 1 }, saved);
		const poll = await resumed.activate('init');
		assert.deepEqual(callers(poll), ['0501000001']);
		assert.equal(poll.items[0].json.recordingStatus, 'notFound');
		assert.ok(Number(poll.items[0].json.recordingHeldSec) >= 61);
		assert.equal(poll.items[0].binary, undefined);
		assert.equal((await resumed.tick()).emitted, false);
	});

	test('held records count against Max Records per Poll: requests and items stay within it', async () => {
		const trigger = await started({ include: ['recording'], options: { maxRecords: 2 } });
		for (const caller of ['0501000001', '0501000002', '0501000003'])
			sandbox.control.seed({ cdr: { cdr_ddi: NUMBER, cdr_ani: caller, has_recording: false } });
		sandbox.control.clearRequests();
		assert.equal((await trigger.tick()).emitted, false);
		assert.equal(downloads(), 2, 'two records read, two downloads');
		assert.equal((await trigger.tick()).emitted, false);
		assert.equal(downloads(), 4, 'the two held tried again, no new record read');
	});

	test('With Recording Only and Include → Recording: only records emitted with their recording', async () => {
		const trigger = await started({ include: ['recording'], recordingOnly: true });
		await call('0501000001');
		await call('0501000002', false);
		const poll = await trigger.tick();
		assert.deepEqual(callers(poll), ['0501000001']);
	});

	test('Fetch Test Event includes what exists now, without holding', async () => {
		sandbox.control.setProfile({ behaviours: ['recording-delay'], recordingDelayMs: 60_000 });
		const trigger = await started({ include: ['recording', 'transcript'] });
		await call('0501000001');
		const [item] = await trigger.fetchTestEvent();
		assert.equal(item.json.recordingStatus, 'notFound');
		assert.ok(!('recordingHeldSec' in item.json));
	});
});
