// The Call Record Trigger against an odd service: rows repeated, pages overlapping or longer than
// asked for, row ids that jump, go backwards or pass 2^53, a saved position that cannot be read.
process.env.TZ = 'Asia/Jerusalem';

import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../../dev/sandbox/index.mts';
import { PollHost, type PollOutcome } from '../../../dev/harness/poll.mts';

const NUMBER = '0722000100';
const OTHER = '0722000101';
const PAST_2_53 = '9007199254740993';

describe('Virtual Number Call Record Trigger → an odd service', () => {
	let sandbox: Sandbox;
	before(async () => {
		sandbox = await startSandbox();
	});
	after(async () => {
		await sandbox.close();
	});
	beforeEach(() => sandbox.control.reset());

	const host = (parameters: IDataObject = {}, staticData?: IDataObject) =>
		PollHost.create({
			parameters,
			credentials: { virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn } },
			staticData,
		});
	/** A record written now; `startedSecondsAgo` < 0 for a call that starts later. */
	const record = (
		fields: IDataObject & { startedSecondsAgo?: number; id?: number | string } = {},
	) => {
		const { startedSecondsAgo = 0, ...rest } = fields;
		const start = DateTime.now()
			.minus({ seconds: startedSecondsAgo })
			.toFormat('yyyy-MM-dd HH:mm:ss');
		return sandbox.control.seed({ cdr: { cdr_ddi: NUMBER, start_call: start, ...rest } }).cdr!;
	};
	const records = (count: number, from = 0) =>
		Array.from({ length: count }, (_, i) =>
			record({ cdr_ani: `0502${String(from + i).padStart(6, '0')}` }),
		);
	const callers = (poll: PollOutcome) => poll.items.map((item) => item.json.callerNumber);
	const failure = (poll: PollOutcome) => {
		assert.equal(poll.emitted, false);
		assert.ok(poll.error, 'the poll failed');
		return `${poll.error.message} | ${String(poll.error.description)}`;
	};
	const started = async (parameters: IDataObject = {}) => {
		const trigger = await host(parameters);
		assert.equal((await trigger.activate()).emitted, false);
		return trigger;
	};

	test('a page that repeats each row emits each record once', async () => {
		const trigger = await started();
		records(3);
		sandbox.control.injectFaults({ kind: 'repeatRows', times: 3, operation: 'cdr_query' });
		assert.deepEqual(callers(await trigger.tick()), ['0502000000', '0502000001', '0502000002']);
		assert.equal((await trigger.tick()).emitted, false);
	});

	test('pages that overlap the last one emit only what is new', async () => {
		const trigger = await started();
		records(3);
		assert.equal((await trigger.tick()).items.length, 3);
		records(2, 3);
		sandbox.control.injectFaults({ kind: 'overlapRows', rows: 3, operation: 'cdr_query' });
		assert.deepEqual(callers(await trigger.tick()), ['0502000003', '0502000004']);
	});

	test('a service ignoring LIMIT: at most Max Records per Poll, the cursor on the last emitted', async () => {
		const trigger = await started({ options: { maxRecords: 10 } });
		const rows = records(25);
		sandbox.control.injectFaults({ kind: 'ignoreLimit', operation: 'cdr_query', count: 3 });
		const pages = [];
		for (let i = 0; i < 3; i++) pages.push((await trigger.tick()).items.length);
		assert.deepEqual(pages, [10, 10, 5]);
		assert.equal(trigger.savedCursor!.rowId, rows.at(-1)!.id);
	});

	test('row ids that jump far ahead: the rows before are emitted, then the poll fails until Start From', async () => {
		const trigger = await started();
		const before = records(2);
		const far = before[1].id + 5_000_000;
		record({ cdr_ani: '0509000001', id: far, startedSecondsAgo: -60 });
		const poll = await trigger.tick();
		assert.deepEqual(callers(poll), ['0502000000', '0502000001']);
		const text = failure(await trigger.tick());
		assert.match(text, new RegExp(`row ids jump from ${before[1].id} to ${far}`));
		assert.match(text, /did not move.*set Start From \(Options\)/);
		assert.equal(trigger.savedCursor!.rowId, before[1].id);
		// Start From after the last call received: the new numbering is accepted from there.
		trigger.deactivate();
		const startFrom = DateTime.now().plus({ seconds: 30 }).toFormat("yyyy-MM-dd'T'HH:mm:ss");
		const reset = await host({ options: { startFrom } }, trigger.saved);
		assert.deepEqual(callers(await reset.activate()), ['0509000001']);
	});

	test('a gap of ids filled by records the filters leave out is not a jump', async () => {
		const trigger = await started({ virtualNumbers: NUMBER });
		const first = record({ cdr_ani: '0501000001' });
		record({ cdr_ani: '0501000002', cdr_ddi: OTHER, id: first.id + 10 });
		record({ cdr_ani: '0501000003', id: first.id + 2_000_000 });
		assert.deepEqual(callers(await trigger.tick()), ['0501000001', '0501000003']);
	});

	test('row ids that go backwards (a call started after the last one ended, with a lower id) fail the poll', async () => {
		const trigger = await started();
		const [a] = records(1);
		const b = record({ cdr_ani: '0501000002', id: a.id + 100 });
		assert.equal((await trigger.tick()).items.length, 2);
		assert.equal((await trigger.tick()).emitted, false, 'nothing new, nothing wrong');
		record({ cdr_ani: '0509000002', id: a.id + 1, startedSecondsAgo: -600 });
		const text = failure(await trigger.tick());
		assert.match(text, new RegExp(`row ids went backwards, below ${b.id}`));
		assert.match(text, new RegExp(`has row id ${a.id + 1}`));
		assert.match(text, /set Start From/);
		assert.equal(trigger.savedCursor!.rowId, b.id);
	});

	test('row ids past 2^53 are read as text: exact in the position, the statement and the items', async () => {
		record({ cdr_ani: '0501000001', id: PAST_2_53 });
		const trigger = await started();
		assert.equal(trigger.savedCursor!.rowId, PAST_2_53);
		records(2);
		const poll = await trigger.tick();
		assert.deepEqual(callers(poll), ['0502000000', '0502000001']);
		assert.deepEqual(
			poll.items.map((item) => item.json.rowId),
			['9007199254740994', '9007199254740995'],
		);
		assert.equal(trigger.savedCursor!.rowId, '9007199254740995');
		const sql = sandbox.control
			.requests({ operation: 'cdr_query' })
			.map((request) => (request.body as Record<string, string>).sql)
			.filter((statement) => statement.includes('WHERE id >'));
		assert.match(sql[0], new RegExp(`WHERE id > ${PAST_2_53} ORDER BY`));
		assert.equal((await trigger.tick()).emitted, false);
	});

	test('a saved position that cannot be read fails the activation, and Start From starts over', async () => {
		const broken = {
			'node:Virtual Number Call Record Trigger': { rowId: 1.5, since: '', startFrom: '' },
		};
		const trigger = await host({}, broken);
		await assert.rejects(trigger.activate('init'), (error: Error & { description?: string }) => {
			assert.match(error.message, /saved position cannot be read/);
			assert.match(String(error.description), /"rowId":1\.5.*set Start From/);
			return true;
		});
		record({ cdr_ani: '0501000001', startedSecondsAgo: 60 });
		const startFrom = DateTime.now().minus({ minutes: 5 }).toFormat("yyyy-MM-dd'T'HH:mm:ss");
		const reset = await host({ options: { startFrom } }, broken);
		assert.deepEqual(callers(await reset.activate('init')), ['0501000001']);
	});

	test('a cursor saved before this version (row id a number, a time bound) keeps working', async () => {
		const [a] = records(1);
		const since = DateTime.now().minus({ hours: 1 }).toFormat('yyyy-MM-dd HH:mm:ss');
		const saved = { rowId: a.id, startTime: a.start_call, since, startFrom: '' };
		const trigger = await host({}, { 'node:Virtual Number Call Record Trigger': saved });
		records(1, 1);
		assert.deepEqual(callers(await trigger.activate('init')), ['0502000001']);
	});
});
