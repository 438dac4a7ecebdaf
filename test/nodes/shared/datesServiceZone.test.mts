/**
 * The service's clock: every date the nodes and the Call Record Trigger send or read is on the
 * credential's Service Time Zone (Asia/Jerusalem by default), whatever the workflow's zone (here
 * n8n's default, America/New_York) or the server's.
 */
// The sandbox keeps its times on the process's clock (dev/sandbox/util.mts formats and parses them
// with Date's local getters): set to the provider's zone before the sandbox loads, it writes and
// reads call times and sendtime as the real service does. The n8n workflows below run in New York.
process.env.TZ = 'Asia/Jerusalem';

import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import { DateTime } from 'luxon';
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { runWorkflow, type RunResult } from '../../../dev/harness/engine.mts';
import { PollHost } from '../../../dev/harness/poll.mts';
import {
	TriggerHost,
	selectedNumbers,
	type TriggerInstance,
} from '../../../dev/harness/trigger.mts';
import { startSandbox, type Sandbox } from '../../../dev/sandbox/index.mts';

const NEW_YORK = 'America/New_York';
const SERVICE = 'Asia/Jerusalem';
const SQL = 'yyyy-MM-dd HH:mm:ss';
const SENDTIME = 'dd/MM/yyyy HH:mm';
const NUMBER = '0722000100';
const PHONE = '972501234567';

let sandbox: Sandbox;
before(async () => {
	sandbox = await startSandbox();
});
after(async () => await sandbox.close());
beforeEach(() => sandbox.control.reset());

const vnCredentials = (extra: ICredentialDataDecryptedObject = {}) => ({
	virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn, ...extra },
});
const smsCredentials = (extra: ICredentialDataDecryptedObject = {}) => ({
	virtualnumSmsApi: { baseUrl: sandbox.smsUrl, accessToken: sandbox.tokens.sms, ...extra },
});

async function runNode(
	type: 'bulkSms' | 'virtualNumber',
	parameters: IDataObject,
	credentials: Record<string, ICredentialDataDecryptedObject>,
	input: IDataObject[] = [{}],
	continueOnFail = false,
): Promise<RunResult> {
	return await runWorkflow({
		nodes: [{ name: 'Node', type, parameters, continueOnFail }],
		input: input.map((json) => ({ json })),
		credentials,
		timezone: NEW_YORK,
	});
}

function jsonOf(result: RunResult): IDataObject[] {
	assert.equal(result.error, undefined, result.error?.message);
	return result.items('Node').map((item) => item.json);
}

/** Within a minute: `actual` and `expected` are wall clocks of the same zone, written in `format`. */
function near(actual: unknown, expected: DateTime, format: string) {
	const read = DateTime.fromFormat(String(actual), format, { zone: 'UTC' });
	const wanted = DateTime.fromFormat(expected.toFormat(format), format, { zone: 'UTC' });
	assert.ok(read.isValid, `${String(actual)} is no ${format}`);
	assert.ok(
		Math.abs(read.toMillis() - wanted.toMillis()) <= 60_000,
		`${String(actual)} ≈ ${expected.toFormat(format)}`,
	);
}

const query = (parameters: IDataObject, extra: ICredentialDataDecryptedObject = {}) =>
	runNode(
		'virtualNumber',
		{ resource: 'cdr', operation: 'query', ...parameters },
		vnCredentials(extra),
	);

const sqlSent = () =>
	String(
		(sandbox.control.requests({ operation: 'cdr_query' }).at(-1)?.body as IDataObject | undefined)
			?.sql,
	);

describe('Call Record → Query on the service clock, workflow in New York', () => {
	test('"calls of the last 2 hours" returns the calls of the last 2 hours', async () => {
		const { call } = await sandbox.control.placeCall({
			virtualnum: NUMBER,
			caller: '0501000001',
			durationSec: 30,
		});
		const items = jsonOf(
			await query({ from: '={{ $now.minus({ hours: 2 }) }}', to: '={{ $now }}', limit: 10 }),
		);
		assert.deepEqual(
			items.map((item) => item.callId),
			[call.cdr_uniqueid],
		);
		const [, from, to] = /start_call >= '([^']+)' AND start_call <= '([^']+)'/.exec(sqlSent())!;
		near(from, DateTime.now().setZone(SERVICE).minus({ hours: 2 }), SQL);
		near(to, DateTime.now().setZone(SERVICE), SQL);
		// Shown with its offset: the moment the service wrote, readable in any zone.
		const started = DateTime.fromISO(String(items[0].startedAt));
		assert.equal(
			started.toMillis(),
			DateTime.fromSQL(call.start_call, { zone: SERVICE }).toMillis(),
		);
		assert.match(String(items[0].startedAt), /[+]0[23]:00$/);
		assert.ok(Math.abs(started.toMillis() - Date.now()) < 120_000);
	});

	test('a text without an offset is the wall clock of the service; Z and offsets are converted', async () => {
		jsonOf(await query({ from: '2026-01-10 09:00:00', to: '2026-01-10T09:00:00Z' }));
		assert.match(
			sqlSent(),
			/start_call >= '2026-01-10 09:00:00' AND start_call <= '2026-01-10 11:00:00'/,
		);
		jsonOf(await query({ from: '2026-07-10T09:00:00-04:00', to: '2026-07-10T23:00:00+03:00' }));
		assert.match(
			sqlSent(),
			/start_call >= '2026-07-10 16:00:00' AND start_call <= '2026-07-10 23:00:00'/,
		);
	});

	test('the Service Time Zone of the credential decides the clock; a credential saved before it has Asia/Jerusalem', async () => {
		const at = "={{ DateTime.fromISO('2026-01-10T12:00:00Z') }}";
		jsonOf(await query({ from: at }, { serviceTimeZone: 'UTC' }));
		assert.match(sqlSent(), /start_call >= '2026-01-10 12:00:00'/);
		jsonOf(await query({ from: at }, { serviceTimeZone: 'Europe/London' }));
		assert.match(sqlSent(), /start_call >= '2026-01-10 12:00:00'/);
		jsonOf(await query({ from: at }, { serviceTimeZone: '' }));
		assert.match(sqlSent(), /start_call >= '2026-01-10 14:00:00'/);
		jsonOf(await query({ from: at }));
		assert.match(sqlSent(), /start_call >= '2026-01-10 14:00:00'/);
	});

	test('an unknown Service Time Zone fails naming the field, before any request', async () => {
		sandbox.control.clearRequests();
		const result = await query({ from: '={{ $now }}' }, { serviceTimeZone: 'Mars/Olympus' });
		assert.match(result.error?.message ?? '', /^Service Time Zone: must be an IANA time zone/);
		assert.match(result.error?.message ?? '', /Mars\/Olympus/);
		assert.deepEqual(sandbox.control.requests({ service: 'vn' }), []);
	});

	test('a Query without dates does not need the zone: with an unusable one its items have no startedAt', async () => {
		const items = jsonOf(await query({ limit: 2 }, { serviceTimeZone: 'Mars/Olympus' }));
		assert.equal(items.length, 2);
		assert.equal('startedAt' in items[0], false);
		const sql = jsonOf(
			await query(
				{ queryMode: 'sql', sql: 'SELECT start_call FROM webserviceview LIMIT 1' },
				{ serviceTimeZone: 'UTC' },
			),
		);
		assert.equal(sql[0].startedAt, `${String(sql[0].startTime).replace(' ', 'T')}Z`);
	});
});

describe('daylight saving: Israel and New York change on different dates', () => {
	// 2027: New York moves forward on 14 March and back on 7 November; Israel forward on 26 March
	// and back on 31 October. Between the changes the two are 6 hours apart instead of 7.
	const cases: Array<[string, string, string]> = [
		['winter (-05:00 / +02:00)', '2027-01-15T10:00', '2027-01-15 17:00:00'],
		['spring gap: New York changed, Israel not yet', '2027-03-20T10:00', '2027-03-20 16:00:00'],
		['summer (-04:00 / +03:00)', '2027-07-01T10:00', '2027-07-01 17:00:00'],
		[
			'autumn gap: Israel changed back, New York not yet',
			'2027-11-03T10:00',
			'2027-11-03 16:00:00',
		],
		['the hour New York skips, as an instant', '2027-03-14T03:30', '2027-03-14 09:30:00'],
	];
	for (const [name, newYork, service] of cases) {
		test(`${name}: ${newYork} in New York → ${service} on the service's clock`, async () => {
			const at = `={{ DateTime.fromISO('${newYork}', { zone: '${NEW_YORK}' }) }}`;
			jsonOf(await query({ from: at }));
			assert.match(sqlSent(), new RegExp(`start_call >= '${service}'`));
		});
	}

	test('a wall-clock time the service zone skips is refused; one New York skips is kept', async () => {
		const refused = await query({ from: '2027-03-26 02:30:00' });
		assert.match(
			refused.error?.message ?? '',
			/^Calls From: does not exist in Asia\/Jerusalem: the clocks move forward/,
		);
		jsonOf(await query({ from: '2027-03-14 02:30:00' }));
		assert.match(sqlSent(), /start_call >= '2027-03-14 02:30:00'/);
	});

	test('an hour Israel repeats (31 October 2027, 01:00-02:00) is read once, at its second offset', async () => {
		// The first 01:30 (+03:00) is before the text's (read at +02:00); both are 01:30 on the service's clock.
		jsonOf(await query({ from: '2027-10-31T01:30:00+03:00', to: '2027-10-31 01:30:00' }));
		assert.match(
			sqlSent(),
			/start_call >= '2027-10-31 01:30:00' AND start_call <= '2027-10-31 01:30:00'/,
		);
	});

	test('Send At on a change date: scheduled for the right moment', async () => {
		const result = await sendAt(
			"={{ DateTime.fromISO('2027-03-20T10:00', { zone: 'America/New_York' }) }}",
		);
		jsonOf(result);
		assert.equal(sentSendtime(), '20/03/2027 16:00');
	});
});

function sendAt(
	value: unknown,
	options: IDataObject = {},
	credentials: ICredentialDataDecryptedObject = {},
	input?: IDataObject[],
) {
	return runNode(
		'bulkSms',
		{
			resource: 'message',
			operation: 'send',
			sender: { __rl: true, mode: 'id', value: 'VirtualNum' },
			to: '={{ $json.to ?? "' + PHONE + '" }}',
			message: 'Hello',
			options: { sendAt: value, ...options },
		},
		smsCredentials(credentials),
		input,
		input !== undefined,
	);
}

function sentSendtime(): string {
	const request = sandbox.control.requests({ service: 'sms', operation: 'send_sms' }).at(-1);
	return String((request?.body as IDataObject[])[0].sendtime);
}

describe('Bulk SMS → Send At on the service clock, workflow in New York', () => {
	test('"Send At: now + 1 hour" is scheduled for that moment, not sent at once', async () => {
		const result = await sendAt('={{ $now.plus({ hours: 1 }) }}');
		const [item] = jsonOf(result);
		const expected = DateTime.now().setZone(SERVICE).plus({ hours: 1 });
		near(sentSendtime(), expected, SENDTIME);
		// The sandbox (on the provider's clock) holds it for later: nothing delivered yet.
		const [message] = sandbox.control.messages();
		assert.equal(message.status, 'QUEUED');
		near(message.sendtime, expected, SQL);
		assert.equal(sandbox.control.callbacks({ kind: 'sms.delivery' }).length, 0);
		assert.equal(item.error, undefined);
	});

	test('a text without an offset is the wall clock sent; Z is converted; the Time Zone option is honoured', async () => {
		jsonOf(await sendAt('2030-01-15 09:30'));
		assert.equal(sentSendtime(), '15/01/2030 09:30');
		jsonOf(await sendAt('2030-01-15T09:30:00Z'));
		assert.equal(sentSendtime(), '15/01/2030 11:30');
		jsonOf(await sendAt('2030-01-15 09:30', { timeZone: 'workflow' }));
		assert.equal(sentSendtime(), '15/01/2030 16:30');
		jsonOf(await sendAt('2030-01-15 09:30', { timeZone: 'UTC' }));
		assert.equal(sentSendtime(), '15/01/2030 11:30');
		jsonOf(await sendAt('2030-01-15 09:30', { timeZone: 'service' }));
		assert.equal(sentSendtime(), '15/01/2030 09:30');
	});

	test("the SMS credential's Service Time Zone decides the clock sent", async () => {
		const at = "={{ DateTime.fromISO('2030-01-15T12:00:00Z') }}";
		jsonOf(await sendAt(at, {}, { serviceTimeZone: 'UTC' }));
		assert.equal(sentSendtime(), '15/01/2030 12:00');
		jsonOf(await sendAt(at, {}, { serviceTimeZone: 'Asia/Tokyo' }));
		assert.equal(sentSendtime(), '15/01/2030 21:00');
		jsonOf(await sendAt(at));
		assert.equal(sentSendtime(), '15/01/2030 14:00');
		const bad = await sendAt(at, {}, { serviceTimeZone: 'Nowhere/City' });
		assert.match(
			bad.error?.message ?? '',
			/^Service Time Zone: must be an IANA time zone.*Nowhere\/City/,
		);
		// A run without Send At does not read the zone: it sends.
		jsonOf(
			await runNode(
				'bulkSms',
				{
					resource: 'message',
					operation: 'send',
					sender: { __rl: true, mode: 'id', value: 'VirtualNum' },
					to: PHONE,
					message: 'Now',
				},
				smsCredentials({ serviceTimeZone: 'Nowhere/City' }),
			),
		);
	});

	test('a Send At in the past is refused naming the item and the value; the other items are sent', async () => {
		sandbox.control.clearRequests();
		const result = await sendAt('={{ $json.when }}', {}, {}, [
			{ to: PHONE, when: DateTime.now().plus({ hours: 1 }).toISO() },
			{ to: '972501234568', when: DateTime.now().minus({ hours: 1 }).toISO() },
		]);
		const items = result.items('Node').map((item) => item.json);
		assert.equal(items.length, 2);
		const failed = items.find((item) => item.error !== undefined)!;
		assert.match(
			String(failed.error),
			/^Send At: is in the past \(.*\+0[23]:00, Asia\/Jerusalem; now it is/,
		);
		assert.match(String(failed.errorDescription ?? ''), /item 1/);
		const sent = sandbox.control.requests({ service: 'sms', operation: 'send_sms' });
		assert.equal(sent.length, 1);
		assert.deepEqual(
			(sent[0].body as IDataObject[]).map((message) => message.dest),
			[PHONE],
		);
	});
});

describe('Get Access Log and Create Manual Record on the service clock', () => {
	test('access log bounds go in the service zone', async () => {
		jsonOf(
			await runNode(
				'virtualNumber',
				{
					resource: 'user',
					operation: 'getAccessLog',
					startTime: "={{ DateTime.fromISO('2026-02-01T08:00:00', { zone: 'America/New_York' }) }}",
					endTime: '2026-02-02 10:00:00',
				},
				vnCredentials(),
			),
		);
		const [request] = sandbox.control.requests({ operation: 'get_users_access_log' });
		const params = { ...request.query, ...(request.body as IDataObject) };
		assert.equal(params.start_time, '2026-02-01 15:00:00');
		assert.equal(params.end_time, '2026-02-02 10:00:00');
	});

	test("a manual record's Call Start of now is the service's now, and is output with its offset", async () => {
		const [item] = jsonOf(
			await runNode(
				'virtualNumber',
				{
					resource: 'cdr',
					operation: 'createManual',
					virtualnum: { __rl: true, mode: 'id', value: NUMBER },
					additionalFields: { startTime: '={{ $now }}' },
				},
				vnCredentials(),
			),
		);
		near(item.startTime, DateTime.now().setZone(SERVICE), SQL);
		assert.equal(
			DateTime.fromISO(String(item.startedAt)).toMillis(),
			DateTime.fromSQL(String(item.startTime), { zone: SERVICE }).toMillis(),
		);
		assert.equal(sandbox.control.cdr(String(item.callId))?.start_call, item.startTime);
	});
});

describe('Call Record Trigger on the service clock', () => {
	const host = (options: IDataObject = {}, extra: ICredentialDataDecryptedObject = {}) =>
		PollHost.create({
			parameters: { options },
			credentials: vnCredentials(extra),
			timezone: NEW_YORK,
		});

	test('call times come out as the service wrote them and with its offset', async () => {
		const trigger = await host();
		await trigger.activate();
		const { call } = await sandbox.control.placeCall({
			virtualnum: NUMBER,
			caller: '0501000001',
			durationSec: 30,
		});
		const { items } = await trigger.tick();
		assert.equal(items.length, 1);
		const item = items[0].json;
		assert.equal(item.startTime, call.start_call);
		assert.equal(
			DateTime.fromISO(String(item.startedAt)).toMillis(),
			DateTime.fromSQL(call.start_call, { zone: SERVICE }).toMillis(),
		);
		assert.ok(Math.abs(DateTime.fromISO(String(item.startedAt)).toMillis() - Date.now()) < 120_000);
	});

	test('the first activation compares no clock, whatever the zones: it starts after the newest row', async () => {
		const read = async (options: IDataObject, extra: ICredentialDataDecryptedObject) => {
			const trigger = await host(options, extra);
			await trigger.activate();
			return trigger.savedCursor!;
		};
		const newest = sandbox.control.cdrs().reduce((max, row) => Math.max(max, row.id), 0);
		for (const [options, extra] of [
			[{}, {}],
			[{}, { serviceTimeZone: 'UTC' }],
			[{ serviceTimeZone: 'Asia/Tokyo' }, { serviceTimeZone: 'UTC' }],
		] as const) {
			const cursor = await read(options, extra);
			assert.equal(cursor.since, '');
			assert.equal(cursor.rowId, newest);
		}
	});

	test('Start From with an offset is converted; without one it is the service wall clock', async () => {
		const since = async (startFrom: string) => {
			const trigger = await host({ startFrom });
			await trigger.activate();
			return trigger.savedCursor!.since;
		};
		assert.equal(await since('2026-01-10T09:00:00-05:00'), '2026-01-10 16:00:00');
		assert.equal(await since('2026-01-10T09:00:00'), '2026-01-10 09:00:00');
	});
});

describe('Virtual Number Trigger: call times with the offset of the credential zone', () => {
	let host: TriggerHost;
	const active: TriggerInstance[] = [];
	before(async () => {
		host = await TriggerHost.start();
	});
	after(async () => {
		for (const t of active.splice(0)) await t.deactivate().catch(() => undefined);
		await host.close();
	});

	for (const [saved, zone] of [
		[undefined, SERVICE],
		['UTC', 'UTC'],
		['Not/AZone', undefined],
	] as const) {
		test(`Service Time Zone ${saved ?? '(a credential saved before the field)'} → ${zone ?? 'no startedAt, the callback still starts the workflow'}`, async () => {
			sandbox.control.configure({ callbackStyle: 'json', callStartRepeats: 1 });
			const [number] = sandbox.control
				.virtualnums()
				.filter((r) => r.active_status === 1)
				.map((r) => r.virtualnum);
			const extra: ICredentialDataDecryptedObject = saved ? { serviceTimeZone: saved } : {};
			const t = host.add({
				parameters: {
					events: ['callStarted', 'callEnded'],
					numbers: 'selected',
					virtualnums: selectedNumbers([number]),
				},
				credentials: vnCredentials(extra),
			});
			await t.activate();
			active.push(t);
			const { call } = await sandbox.control.placeCall({
				virtualnum: number,
				caller: '0541234567',
				durationSec: 30,
			});
			assert.equal(t.executions.length, 2);
			const ended = t.executions[1][0].json;
			assert.equal(ended.startTime, call.start_call);
			if (zone === undefined) {
				assert.equal('startedAt' in ended, false);
			} else {
				const expected = (time: string) =>
					DateTime.fromSQL(time, { zone }).toISO({ suppressMilliseconds: true });
				assert.equal(ended.startedAt, expected(call.start_call));
				assert.equal(ended.endedAt, expected(call.end_call));
			}
			await t.deactivate();
			active.splice(active.indexOf(t), 1);
		});
	}
});
