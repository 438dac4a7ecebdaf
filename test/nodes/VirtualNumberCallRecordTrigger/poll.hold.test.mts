// Include → Recording, Transcript, Metadata, and the hold of a call whose recording is not written
// yet (the field profile's recording-delay), through n8n's PollContext: held by its ids, asked for
// again after growing pauses, never holding up the calls after it. The pauses are passed by ageing
// the held calls' times in the static data, as they would read after that long.
process.env.TZ = 'Asia/Jerusalem';

import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../../dev/sandbox/index.mts';
import { PollHost, type PollOutcome } from '../../../dev/harness/poll.mts';

const NUMBER = '0722000100';
const OTHER = '0722000101';
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
	const heldIn = (data: IDataObject | undefined) => (data?.heldRecords ?? []) as IDataObject[];
	/** The held calls as they would read `ms` later (their times that much earlier). */
	const age = (data: IDataObject | undefined, ms: number) => {
		for (const held of heldIn(data)) {
			held.heldSince = Number(held.heldSince) - ms;
			held.nextTry = Number(held.nextTry) - ms;
		}
	};

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
		assert.equal(busy.json.recordingStatus, 'none');
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

	test('recording-delay: held until the recording exists, asked again after a pause, then emitted once with it; later calls are not held up', async () => {
		sandbox.control.setProfile({ behaviours: ['recording-delay'], recordingDelayMs: DELAY_MS });
		const trigger = await started({ include: ['recording'] });
		const first = await call('0501000001');
		sandbox.control.clearRequests();
		const first_poll = await trigger.tick();
		assert.equal(first_poll.emitted, false, 'held: its recording is not written yet');
		assert.equal(downloads(), 1);
		await call('0501000002', false);
		assert.deepEqual(
			callers(await trigger.tick()),
			['0501000002'],
			'an unanswered call is not held, and not held up',
		);
		await later(DELAY_MS);
		assert.equal((await trigger.tick()).emitted, false, 'not asked again before its pause');
		assert.equal(downloads(), 1);
		age(trigger.live, 30_000);
		const poll = await trigger.tick();
		assert.equal(downloads(), 2);
		assert.deepEqual(callers(poll), ['0501000001']);
		assert.equal(poll.items[0].json.callId, first.cdr_uniqueid);
		assert.equal(poll.items[0].json.recordingStatus, 'included');
		assert.ok(Number(poll.items[0].json.recordingHeldSec) >= 30);
		assert.equal(poll.items[0].binary?.data.mimeType, 'audio/wav');
		assert.equal((await trigger.tick()).emitted, false, 'once');
		assert.ok(!('heldRecords' in trigger.savedCursor!));
	});

	test('n8n restarted during the hold: the held record is neither lost nor doubled', async () => {
		sandbox.control.setProfile({ behaviours: ['recording-delay'], recordingDelayMs: DELAY_MS });
		const trigger = await started({ include: ['recording'] });
		const placed = await call('0501000001');
		await call('0501000002', false);
		// The unanswered call is emitted, so n8n saves the cursor with the held record beside it.
		assert.deepEqual(callers(await trigger.tick()), ['0501000002']);
		const [held] = heldIn(trigger.savedCursor);
		assert.deepEqual(Object.keys(held).sort(), ['callId', 'heldSince', 'nextTry', 'rowId']);
		assert.deepEqual([held.rowId, held.callId], [String(placed.id), placed.cdr_uniqueid]);
		const again = await host({ include: ['recording'] }, trigger.saved);
		assert.equal((await again.activate('init')).emitted, false, 'still held after the restart');
		await later(DELAY_MS);
		age(again.live, 30_000);
		assert.deepEqual(callers(await again.tick()), ['0501000001']);
		assert.equal((await again.tick()).emitted, false);
	});

	test('a recording that never comes: emitted after Hold Back Up To with recordingStatus notFound', async () => {
		const trigger = await started({ include: ['recording'], holdBackMinutes: 1 });
		sandbox.control.seed({ cdr: { cdr_ddi: NUMBER, cdr_ani: '0501000001', has_recording: false } });
		await call('0502000002', false);
		assert.deepEqual(callers(await trigger.tick()), ['0502000002']);
		age(trigger.live, 30_000);
		assert.equal((await trigger.tick()).emitted, false, 'held within the minute');
		// A minute later (as the static data would say after the wait).
		const saved = structuredClone(trigger.saved);
		age(saved[NODE] as IDataObject, 61_000);
		sandbox.control.clearRequests();
		const resumed = await host({ include: ['recording'], holdBackMinutes: 1 }, saved);
		const poll = await resumed.activate('init');
		assert.deepEqual(callers(poll), ['0501000001']);
		assert.equal(poll.items[0].json.recordingStatus, 'notFound');
		assert.ok(Number(poll.items[0].json.recordingHeldSec) >= 61);
		assert.equal(poll.items[0].binary, undefined);
		assert.equal(downloads(), 1, 'asked once more when the hold ended');
		assert.equal((await resumed.tick()).emitted, false);
	});

	test('held calls never hold up new ones: a full page held, the next calls still read and emitted', async () => {
		const trigger = await started({ include: ['recording'], options: { maxRecords: 2 } });
		for (const caller of ['0501000001', '0501000002', '0501000003'])
			sandbox.control.seed({ cdr: { cdr_ddi: NUMBER, cdr_ani: caller, has_recording: false } });
		sandbox.control.clearRequests();
		assert.equal((await trigger.tick()).emitted, false);
		assert.equal(downloads(), 2, 'two records read, two downloads');
		assert.equal((await trigger.tick()).emitted, false);
		assert.equal(downloads(), 3, 'the third record read; the two held wait for their pause');
		await call('0501000004');
		assert.deepEqual(callers(await trigger.tick()), ['0501000004'], 'emitted at once');
		assert.equal(heldIn(trigger.savedCursor).length, 3);
		assert.equal(downloads(), 4);
	});

	test('a held call is asked for again after growing pauses, within a page per poll', async () => {
		const trigger = await started({ include: ['recording'], holdBackMinutes: 60 });
		sandbox.control.seed({ cdr: { cdr_ddi: NUMBER, cdr_ani: '0501000001', has_recording: false } });
		sandbox.control.clearRequests();
		await trigger.tick();
		const pauses: number[] = [];
		for (let i = 0; i < 8; i++) {
			const [held] = heldIn(trigger.live);
			const pause = Number(held.nextTry) - Date.now();
			pauses.push(Math.round(pause / 10_000) * 10);
			age(trigger.live, pause);
			assert.equal((await trigger.tick()).emitted, false);
		}
		// Asked when it has waited 30 s, 1, 2, 4, 8, 16, 31, 46 minutes (then when the hour ends).
		assert.deepEqual(pauses, [30, 30, 60, 120, 240, 480, 900, 900], 'seconds (to the 10)');
		assert.equal(downloads(), 9, 'once when read, once after each pause');
	});

	test('1,000 calls held: the static data keeps their ids (about 100 bytes each), new calls still come', async () => {
		// Row ids of 16 digits, as a busy service's: the held calls' rows take several statements to read again.
		const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
		const start = `${twoHoursAgo.toLocaleDateString('sv')} ${twoHoursAgo.toLocaleTimeString('sv')}`;
		sandbox.control.seed({
			cdr: { id: 10 ** 15, cdr_ddi: OTHER, call_status: 'BUSY', start_call: start },
		});
		const trigger = await started({ include: ['recording'], options: { maxRecords: 1000 } });
		sandbox.control.addCalls({ count: 1000, virtualnum: NUMBER, hasRecording: false });
		sandbox.control.clearRequests();
		assert.equal((await trigger.tick()).emitted, false);
		assert.equal(downloads(), 1000);
		await call('0501000001');
		assert.deepEqual(callers(await trigger.tick()), ['0501000001']);
		assert.equal(downloads(), 1001, 'the held calls are not asked for at every poll');
		const saved = JSON.stringify(trigger.saved);
		assert.equal(heldIn(trigger.savedCursor).length, 1000);
		assert.ok(saved.length < 120_000, `static data ${saved.length} bytes`);
		assert.ok(!saved.includes('cdr_ani') && !saved.includes(NUMBER), 'no row fields');
		// Include → Recording taken off: every held call goes out, its row read again by id.
		sandbox.control.clearRequests();
		const plain = await host({ options: { maxRecords: 1000 } }, trigger.saved);
		const poll = await plain.activate('init');
		assert.equal(poll.items.length, 1000);
		const ids = poll.items.map((item) => BigInt(String(item.json.rowId)));
		assert.ok(
			ids.every((id, i) => i === 0 || id > ids[i - 1]),
			'in row order',
		);
		assert.ok(poll.items.every((item) => item.json.virtualNumber === NUMBER));
		const reads = sandbox.control
			.requests({ operation: 'cdr_query' })
			.map((request) => String((request.body as IDataObject).sql))
			.filter((sql) => sql.includes(' IN ('));
		assert.ok(reads.length >= 2, `${reads.length} statements`);
		assert.ok(reads.every((sql) => Buffer.byteLength(sql) <= 8192));
		assert.equal(downloads(), 0);
		assert.ok(!('heldRecords' in plain.savedCursor!));
	});

	test('a poll out of its budget for downloads holds the rest untried, asked for at the next poll', async () => {
		const trigger = await started({ include: ['recording'] });
		await call('0501000001', false);
		await call('0501000002');
		sandbox.control.clearRequests();
		trigger.pollBudgetMs = 0;
		assert.deepEqual(callers(await trigger.tick()), ['0501000001'], 'the unanswered call goes out');
		assert.equal(downloads(), 0);
		assert.equal(heldIn(trigger.live).length, 1);
		trigger.pollBudgetMs = undefined;
		const poll = await trigger.tick();
		assert.deepEqual(callers(poll), ['0501000002']);
		assert.equal(poll.items[0].json.recordingStatus, 'included');
		assert.equal(downloads(), 1);
	});

	test('a call held whole by an earlier build is asked for at once and emitted with its row read again', async () => {
		const trigger = await started({ include: ['recording'] });
		const placed = await call('0501000001');
		const saved = structuredClone(trigger.saved);
		const cursor = saved[NODE] as IDataObject;
		cursor.rowId = placed.id;
		cursor.heldRecords = [
			{
				row: { id: placed.id, cdr_uniqueid: placed.cdr_uniqueid, cdr_ani: 'stale' },
				since: Date.now(),
			},
		];
		const resumed = await host({ include: ['recording'] }, saved);
		const poll = await resumed.activate('init');
		assert.deepEqual(callers(poll), ['0501000001'], 'the row as the service has it now');
		assert.equal(poll.items[0].json.recordingStatus, 'included');
		assert.ok(!('heldRecords' in resumed.savedCursor!));
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
		// One try: "not written yet" (notFound only comes after a hold).
		assert.equal(item.json.recordingStatus, 'notYet');
		assert.ok(!('recordingHeldSec' in item.json));
	});
});
