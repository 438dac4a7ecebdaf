// The sandbox writes call times on the process's clock: the provider's zone, as the real service does.
process.env.TZ = 'Asia/Jerusalem';

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, beforeEach, describe, test } from 'node:test';

import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../../dev/sandbox/index.mts';
import { PollHost } from '../../../dev/harness/poll.mts';

const NUMBER = '0722000100';
const OTHER = '0722000101';

describe('Virtual Number Call Record Trigger → polling cdr_query', () => {
	let sandbox: Sandbox;
	before(async () => {
		sandbox = await startSandbox();
	});
	after(async () => {
		await sandbox.close();
	});
	beforeEach(() => sandbox.control.reset());

	const credentials = () => ({
		virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn },
	});
	const host = (parameters: IDataObject = {}, staticData?: IDataObject) =>
		PollHost.create({ parameters, credentials: credentials(), staticData });
	const call = async (caller: string, options: { virtualnum?: string; answered?: boolean } = {}) =>
		(
			await sandbox.control.placeCall({
				virtualnum: options.virtualnum ?? NUMBER,
				caller,
				answered: options.answered,
				durationSec: 30,
			})
		).call;
	/** A record written now, for a call that started `startedSecondsAgo` before (records are written at a call's end). */
	const record = (fields: IDataObject & { startedSecondsAgo?: number } = {}) => {
		const { startedSecondsAgo = 0, ...rest } = fields;
		const start = DateTime.now()
			.minus({ seconds: startedSecondsAgo })
			.toFormat('yyyy-MM-dd HH:mm:ss');
		return sandbox.control.seed({ cdr: { cdr_ddi: NUMBER, start_call: start, ...rest } }).cdr!;
	};
	const statements = () =>
		sandbox.control
			.requests({ operation: 'cdr_query' })
			.map((request) => (request.body as Record<string, string>).sql);
	const callers = (items: Array<{ json: IDataObject }>) =>
		items.map((item) => item.json.callerNumber);

	test('the first activation emits nothing and starts after the newest row id, with no clock', async () => {
		const existing = await call('0501000001'); // before activation: never emitted
		const trigger = await host();
		const first = await trigger.activate();
		assert.equal(first.emitted, false);
		const cursor = trigger.savedCursor!;
		assert.equal(cursor.rowId, existing.id, 'after the last record of the account');
		assert.equal(cursor.since, '', 'no time bound taken from any clock');
		assert.deepEqual(statements(), [
			'SELECT CAST(id AS CHAR) AS row_id_text FROM webserviceview ORDER BY id DESC LIMIT 1',
		]);
		assert.equal((await trigger.tick()).emitted, false);
	});

	test('a service whose clock is hours behind the Service Time Zone: its new calls still come', async () => {
		const trigger = await host();
		await trigger.activate();
		// Written by a service whose clock runs 3 hours behind (or a zone set wrong).
		record({ cdr_ani: '0501000007', startedSecondsAgo: 3 * 3600 });
		assert.deepEqual(callers((await trigger.tick()).items), ['0501000007']);
	});

	test('new calls are emitted once each, oldest first, in the call vocabulary', async () => {
		const trigger = await host();
		await trigger.activate();
		const placed = [
			await call('0501000001'),
			await call('0501000002'),
			await call('0501000003', { answered: false }),
		];
		const poll = await trigger.tick();
		assert.deepEqual(callers(poll.items), ['0501000001', '0501000002', '0501000003']);
		const first = poll.items[0].json;
		assert.equal(first.event, 'call.record');
		assert.equal(first.callId, placed[0].cdr_uniqueid);
		assert.equal(first.virtualNumber, NUMBER);
		assert.equal(first.callStatus, 'ANSWER');
		assert.equal(first.startTime, placed[0].start_call);
		assert.equal(first.durationSec, 30);
		assert.equal(first.recordingExists, true);
		assert.equal(first.rowId, placed[0].id);
		assert.equal(poll.items[2].json.callStatus, 'NOANSWER');
		assert.equal(poll.items[2].json.recordingExists, false);
		assert.equal((await trigger.tick()).emitted, false, 'nothing twice');
		assert.deepEqual(trigger.savedCursor, {
			rowId: placed[2].id,
			startTime: placed[2].start_call,
			endTime: placed[2].end_call,
			since: '',
			startFrom: '',
		});
		const sql = statements()
			.filter((statement) => statement.includes('WHERE id >'))
			.at(-1)!;
		assert.match(sql, new RegExp(`WHERE id > ${placed[2].id} ORDER BY id ASC LIMIT 100$`));
		assert.match(
			sql,
			/CAST\(id AS CHAR\) AS row_id_text, 1 AS record_file_exists FROM webserviceview/,
		);
	});

	test('a long call recorded after later, shorter ones is still emitted (the cursor is the row id)', async () => {
		const startFrom = DateTime.now().minus({ minutes: 10 }).toISO();
		const trigger = await host({ options: { startFrom } });
		assert.equal((await trigger.activate()).emitted, false);
		await call('0501000001');
		assert.equal((await trigger.tick()).items.length, 1);
		// Started 20 s ago, before the call already emitted, but recorded only now, when it ended.
		record({ cdr_ani: '0509999999', startedSecondsAgo: 20 });
		assert.deepEqual(callers((await trigger.tick()).items), ['0509999999']);
	});

	test('across a restart: nothing twice, nothing lost, the missed calls in order', async () => {
		const first = await host();
		await first.activate();
		await call('0501000001');
		await call('0501000002');
		assert.equal((await first.tick()).items.length, 2);
		// n8n stops: a new process starts from what the database holds.
		first.deactivate();
		await call('0501000003');
		await call('0501000004');
		const second = await host({}, first.saved);
		const caughtUp = await second.activate('init');
		assert.deepEqual(callers(caughtUp.items), ['0501000003', '0501000004']);
		assert.equal((await second.tick()).emitted, false);
		// The same host restarting after an emit (saved at the emit) repeats nothing either.
		await call('0501000005');
		assert.deepEqual(callers((await second.tick()).items), ['0501000005']);
		assert.equal((await second.restart()).emitted, false);
		await call('0501000006');
		assert.deepEqual(callers((await second.tick()).items), ['0501000006']);
	});

	test('a backlog comes in bounded pages over the polls, in order, each record once', async () => {
		const trigger = await host({ options: { maxRecords: 100 } });
		await trigger.activate();
		trigger.deactivate();
		const ids = Array.from(
			{ length: 250 },
			(_, i) => record({ cdr_ani: `05020${String(i).padStart(5, '0')}` }).id,
		);
		const pages = [(await trigger.restart()).items.length];
		for (let i = 0; i < 3; i++) pages.push((await trigger.tick()).items.length);
		assert.deepEqual(pages, [100, 100, 50, 0]);
		const reads = statements().filter((sql) => sql.includes('WHERE id >'));
		assert.equal(reads.length, 4);
		assert.ok(reads.every((sql) => sql.endsWith('ORDER BY id ASC LIMIT 100')));
		assert.equal(trigger.savedCursor!.rowId, ids.at(-1));
	});

	test('filters: numbers in any form, statuses, answered only, with recording only', async () => {
		const run = async (parameters: IDataObject) => {
			sandbox.control.reset();
			const trigger = await host(parameters);
			await trigger.activate();
			await call('0501000001');
			await call('0501000002', { virtualnum: OTHER });
			await call('0501000003', { answered: false });
			record({ cdr_ani: '0501000004', call_status: 'ANSWER', has_recording: false });
			record({ cdr_ani: '0501000005', call_status: 'BUSY' });
			return callers((await trigger.tick()).items);
		};
		assert.deepEqual(await run({ virtualNumbers: '+972 72-200-0101' }), ['0501000002']);
		assert.deepEqual(await run({ callerNumbers: '050-100-0003, 0501000005' }), [
			'0501000003',
			'0501000005',
		]);
		assert.deepEqual(await run({ answeredOnly: true }), ['0501000001', '0501000002', '0501000004']);
		assert.deepEqual(await run({ statuses: ['BUSY', 'NOANSWER'] }), ['0501000003', '0501000005']);
		assert.deepEqual(await run({ recordingOnly: true }), ['0501000001', '0501000002']);
		assert.match(statements().at(-1)!, /FROM webserviceview WHERE id > \d+ ORDER BY/);
	});

	test('a filtered-out record still moves the position: it is never read again', async () => {
		const trigger = await host({ recordingOnly: true });
		await trigger.activate();
		record({ cdr_ani: '0501000004', has_recording: false });
		assert.equal((await trigger.tick()).emitted, false);
		await call('0501000001');
		assert.deepEqual(callers((await trigger.tick()).items), ['0501000001']);
		assert.equal((await trigger.tick()).emitted, false);
	});

	test('Start From emits the calls from that time on, also those before the activation', async () => {
		const old = record({ cdr_ani: '0501000001', startedSecondsAgo: 7200 });
		record({ cdr_ani: '0501000002', startedSecondsAgo: 60 });
		// Without an offset: on the service's clock (Asia/Jerusalem), whatever the workflow's zone (America/New_York).
		const startFrom = DateTime.now()
			.minus({ minutes: 30 })
			.setZone('Asia/Jerusalem')
			.toFormat("yyyy-MM-dd'T'HH:mm:ss");
		const trigger = await host({ options: { startFrom } });
		assert.deepEqual(callers((await trigger.activate()).items), ['0501000002']);
		assert.ok(old.id > 0);
		assert.equal(trigger.savedCursor!.since, startFrom.replace('T', ' '));
		assert.equal((await trigger.tick()).emitted, false);
	});

	test('a Start From expression is read once: later polls, with a later $now, repeat nothing', async () => {
		record({ cdr_ani: '0501000001', startedSecondsAgo: 600 });
		const trigger = await host({ options: { startFrom: '={{ $now.minus({ minutes: 30 }) }}' } });
		assert.deepEqual(callers((await trigger.activate()).items), ['0501000001']);
		assert.equal(trigger.savedCursor!.startFrom, '={{ $now.minus({ minutes: 30 }) }}');
		await new Promise((resolve) => setTimeout(resolve, 1100));
		assert.equal((await trigger.tick()).emitted, false);
		assert.equal((await trigger.restart()).emitted, false);
	});

	test('overlapping polls (n8n starts the next while a slow one reads) emit each record once', async () => {
		const trigger = await host();
		await trigger.activate();
		await call('0501000001');
		sandbox.control.injectFaults({ kind: 'slow', delayMs: 400, operation: 'cdr_query' });
		const slow = trigger.tick();
		await new Promise((resolve) => setTimeout(resolve, 100));
		const overlapping = await trigger.tick();
		assert.equal(overlapping.emitted, false);
		assert.deepEqual(callers((await slow).items), ['0501000001']);
		assert.equal((await trigger.tick()).emitted, false);
		assert.ok(!('readingSince' in trigger.savedCursor!), 'the reading mark is never saved');
	});

	test('Fetch Test Event returns the latest record and leaves the position alone', async () => {
		const trigger = await host();
		await trigger.activate();
		const saved = structuredClone(trigger.saved);
		await call('0501000001');
		await call('0501000002');
		const items = await trigger.fetchTestEvent();
		assert.deepEqual(callers(items), ['0501000002']);
		assert.match(statements().at(-1)!, /ORDER BY id DESC LIMIT 1$/);
		assert.deepEqual(trigger.saved, saved);
		// The active workflow still gets both.
		assert.deepEqual(callers((await trigger.tick()).items), ['0501000001', '0501000002']);
	});

	test('Fetch Test Event with filters: the latest that passes them, or a clear error', async () => {
		await call('0501000001');
		record({ cdr_ani: '0501000002', has_recording: false });
		assert.deepEqual(callers(await (await host({ recordingOnly: true })).fetchTestEvent()), [
			'0501000001',
		]);
		await assert.rejects(
			(await host({ callerNumbers: '0507777777' })).fetchTestEvent(),
			(error: Error) => {
				assert.match(error.message, /No call record matches the filters/);
				return true;
			},
		);
	});

	test('activation fails with the reason: a refused token, a filter that is not a phone number', async () => {
		const expired = await PollHost.create({
			parameters: {},
			credentials: {
				virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: 'expired-sandbox-token' },
			},
		});
		await assert.rejects(expired.activate(), (error: Error) => {
			assert.match(
				`${error.message} ${(error as { description?: string }).description}`,
				/Token Expired/,
			);
			return true;
		});
		assert.deepEqual(expired.saved, {}, 'no cursor is saved by a failed activation');
		const before = statements().length;
		const badFilter = await host({ virtualNumbers: '0722000100, call me' });
		await assert.rejects(badFilter.activate(), /Virtual Numbers: must be phone numbers/);
		assert.equal(statements().length, before, 'nothing was sent');
	});

	test('a refused or failing service: a clear error, nothing emitted, the position kept', async () => {
		const trigger = await host();
		await trigger.activate();
		await call('0501000001');
		const before = structuredClone(trigger.saved);
		sandbox.control.injectFaults({ kind: 'http500', operation: 'cdr_query' });
		const failed = await trigger.tick();
		assert.equal(failed.emitted, false);
		assert.match(failed.error!.message, /answered cdr_query with HTTP 500/);
		assert.match(String(failed.error!.description), /position did not move/);
		assert.deepEqual(trigger.saved, before);
		assert.deepEqual(callers((await trigger.tick()).items), ['0501000001']);

		const unreachable = await PollHost.create({
			parameters: {},
			credentials: {
				virtualnumApi: { baseUrl: 'http://127.0.0.1:9', accessToken: sandbox.tokens.vn },
			},
			staticData: trigger.saved,
		});
		await assert.rejects(unreachable.activate('init'), (error: Error) => {
			assert.match(
				error.message,
				/Could not reach the Virtual Number service at http:\/\/127\.0\.0\.1:9: the connection was refused/,
			);
			return true;
		});
		assert.deepEqual(unreachable.saved, trigger.saved);
	});
});

describe('examples/call-records-poll-to-sheet.json', () => {
	let sandbox: Sandbox;
	before(async () => {
		sandbox = await startSandbox();
	});
	after(async () => {
		await sandbox.close();
	});

	test("its trigger emits each new call, with every field its sheet's columns read", async () => {
		const workflow = JSON.parse(
			readFileSync(
				new URL('../../../examples/call-records-poll-to-sheet.json', import.meta.url),
				'utf8',
			),
		) as { nodes: Array<{ type: string; parameters: IDataObject }> };
		const [trigger, sheet] = workflow.nodes;
		assert.equal(trigger.type, 'n8n-nodes-virtualnum.virtualNumberCallRecordTrigger');
		const host = await PollHost.create({
			parameters: trigger.parameters,
			credentials: { virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn } },
		});
		await host.activate();
		await sandbox.control.placeCall({ virtualnum: NUMBER, caller: '0501234567' });
		const { items } = await host.tick();
		assert.equal(items.length, 1);
		const columns = (sheet.parameters.columns as { value: Record<string, string> }).value;
		for (const [column, expression] of Object.entries(columns)) {
			const key = /^=\{\{ \$json\.(\w+) \}\}$/.exec(expression)?.[1];
			assert.ok(key && key in items[0].json, `${column}: ${expression} reads a field of the item`);
		}
	});
});
