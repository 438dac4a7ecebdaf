import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import { startSandbox, type Sandbox } from '../../../sandbox/index.mts';
import { expr, failure, jsons, rl, vnRequests, vnRunner } from './vnRun.mts';

let sandbox: Sandbox;
const run = vnRunner(() => sandbox);

before(async () => {
	sandbox = await startSandbox();
});
after(async () => await sandbox.close());
beforeEach(() => sandbox.control.reset());

const DEFAULT_COLUMNS = ['start_call', 'call_duration', 'cdr_ani', 'cdr_ddi', 'user_phone', 'call_status', 'cdr_uniqueid'];

async function refused(parameters: Record<string, unknown>, field: RegExp, options: Parameters<typeof run>[1] = {}) {
	sandbox.control.clearRequests();
	const error = failure(await run(parameters, options));
	assert.match(error.message, field);
	assert.deepEqual(vnRequests(sandbox), [], 'no request may reach the service');
	return error;
}

function sentSql(): string {
	const requests = vnRequests(sandbox, 'cdr_query');
	assert.equal(requests.length, 1);
	assert.equal(requests[0].method, 'POST');
	return String((requests[0].body as Record<string, string>).sql);
}

describe('Virtual Number → Call Record → Query (builder)', () => {
	const query = (parameters: Record<string, unknown> = {}, timezone?: string) =>
		run({ resource: 'cdr', operation: 'query', ...parameters }, { timezone });

	test('default: the default columns, newest first, limit 50; one item per row', async () => {
		const items = jsons(await query());
		assert.equal(sentSql(), `SELECT ${DEFAULT_COLUMNS.join(', ')} FROM webserviceview ORDER BY start_call DESC LIMIT 50`);
		const all = sandbox.control.cdrs();
		assert.equal(items.length, all.length);
		for (const item of items) assert.deepEqual(Object.keys(item), DEFAULT_COLUMNS);
		const starts = items.map((item) => String(item.start_call));
		assert.deepEqual(starts, [...starts].sort().reverse());
	});

	test('every filter becomes part of one safe statement; the rows are the matching ones', async () => {
		const rows = sandbox.control.cdrs();
		const target = rows.find((row) => row.call_status === 'ANSWER')!;
		const items = jsons(
			await query({
				columns: ['cdr_uniqueid', 'cdr_ani', 'start_call', 'call_status'],
				recordingExists: true,
				from: '2024-10-01 00:00:00',
				to: '2024-12-31T23:59:59',
				statuses: ['ANSWER', 'CALLER CANCEL', 'Black List'],
				virtualnums: target.cdr_ddi,
				callers: `+${target.cdr_ani.slice(0, 3)} ${target.cdr_ani.slice(3)}, 0500000001`,
				order: 'ASC',
				limit: 5,
			}),
		);
		assert.equal(
			sentSql(),
			'SELECT start_call, cdr_ani, call_status, cdr_uniqueid, 1 AS record_file_exists FROM webserviceview' +
				" WHERE start_call >= '2024-10-01 00:00:00' AND start_call <= '2024-12-31 23:59:59'" +
				" AND call_status IN ('ANSWER', 'CALLER CANCEL', 'Black List')" +
				` AND cdr_ddi = '${target.cdr_ddi}'` +
				` AND cdr_ani IN ('${target.cdr_ani}', '0500000001')` +
				' ORDER BY start_call ASC LIMIT 5',
		);
		const expected = rows
			.filter((row) => row.cdr_ddi === target.cdr_ddi && row.cdr_ani === target.cdr_ani)
			.filter((row) => ['ANSWER', 'CALLER CANCEL', 'Black List'].includes(row.call_status))
			.sort((a, b) => a.start_call.localeCompare(b.start_call))
			.slice(0, 5);
		assert.ok(expected.length >= 1);
		assert.deepEqual(
			items.map((item) => [item.cdr_uniqueid, item.record_file_exists]),
			expected.map((row) => [row.cdr_uniqueid, row.has_recording]),
		);
		assert.deepEqual(Object.keys(items[0]), ['start_call', 'cdr_ani', 'call_status', 'cdr_uniqueid', 'record_file_exists']);
	});

	test('Recording Exists is true exactly for the calls with a recording file', async () => {
		const items = jsons(await query({ columns: ['cdr_uniqueid'], recordingExists: true, returnAll: true }));
		const truth = new Map(sandbox.control.cdrs().map((row) => [row.cdr_uniqueid, row.has_recording]));
		assert.equal(items.length, truth.size);
		assert.ok(items.some((item) => item.record_file_exists === true) && items.some((item) => item.record_file_exists === false));
		for (const item of items) assert.equal(item.record_file_exists, truth.get(String(item.cdr_uniqueid)), String(item.cdr_uniqueid));
	});

	test('Return All sends no LIMIT and returns every row; no columns selected means all columns', async () => {
		sandbox.control.seed({ cdrs: 1000 });
		const items = jsons(await query({ returnAll: true, columns: [] }));
		assert.doesNotMatch(sentSql(), /LIMIT/);
		assert.equal(items.length, sandbox.control.cdrs({ limit: 1_000_000 }).length);
		assert.deepEqual(Object.keys(items[0]), [
			'id', 'start_call', 'end_call', 'call_duration', 'cdr_ani', 'cdr_ddi', 'user_phone', 'user_name',
			'call_status', 'onetouch', 'cdr_uniqueid', 'cdr_meta_data', 'gclid',
		]);
	});

	test('dates from any input are sent as Y-m-d H:i:s in the workflow time zone', async () => {
		jsons(await query({ from: '2024-10-02T08:00:00Z', to: expr(1730000000) }, 'Asia/Jerusalem'));
		assert.match(sentSql(), /start_call >= '2024-10-02 11:00:00' AND start_call <= '2024-10-27 05:33:20'/);
		sandbox.control.clearRequests();
		jsons(await query({ from: '={{ $now.minus({ days: 1 }) }}' }, 'UTC'));
		const sent = /start_call >= '([^']+)'/.exec(sentSql())![1];
		const expected = new Date(Date.now() - 86400_000).toISOString().slice(0, 19).replace('T', ' ');
		assert.ok(Math.abs(Date.parse(`${sent}Z`) - Date.parse(`${expected}Z`)) < 60_000, `${sent} ≈ ${expected}`);
	});

	test('no matching calls: no items, no error', async () => {
		assert.deepEqual(jsons(await query({ from: '2030-01-01 00:00:00' })), []);
	});

	test("a caller number of 1' OR '1'='1 from an earlier node is refused before any request", async () => {
		const error = await refused(
			{ resource: 'cdr', operation: 'query', callers: '={{ $json.phone }}' },
			/^Caller Numbers: must be phone numbers/,
			{ input: [{ json: { phone: "1' OR '1'='1" } }] },
		);
		assert.match(error.message, /1' OR '1'='1/);
	});

	const injections: Array<[string, Record<string, unknown>, RegExp]> = [
		['a virtual number with SQL', { virtualnums: expr("0722000100') OR ('1'='1") }, /^Virtual Numbers: /],
		['a status outside the list', { statuses: expr(["ANSWER') OR ('1'='1"]) }, /^Call Statuses: must be one of/],
		['a column outside the list', { columns: expr(['cdr_ani FROM mysql.user --']) }, /^Columns: must be one of/],
		['a date with SQL', { from: expr("2024-01-01' OR '1'='1") }, /^Calls From: must be a date/],
		['an empty caller entry', { callers: '0501234567,,0507654321' }, /^Caller Numbers: has an empty entry at position 2/],
		['an end before the start', { from: '2024-12-01 00:00:00', to: '2024-11-01 00:00:00' }, /^Calls Until: must not be before Calls From/],
		['a limit of 0', { limit: 0 }, /^Limit: must be a whole number from 1/],
		['a timeout of 0', { options: { timeout: 0 } }, /^Timeout \(Seconds\): /],
	];
	for (const [name, parameters, expected] of injections) {
		test(`${name} is refused before any request`, async () => {
			await refused({ resource: 'cdr', operation: 'query', ...parameters }, expected);
		});
	}

	test('the injection attempt as input data is refused per item; other items still run (Continue On Fail)', async () => {
		const result = await run(
			{ resource: 'cdr', operation: 'query', callers: '={{ $json.phone }}', columns: ['cdr_ani'] },
			{ continueOnFail: true, input: [{ json: { phone: "1' OR '1'='1" } }, { json: { phone: sandbox.control.cdrs()[0].cdr_ani } }] },
		);
		const items = jsons(result);
		assert.match(String(items[0].error), /^Caller Numbers: /);
		assert.ok(items.slice(1).length >= 1);
		for (const item of items.slice(1)) assert.equal(item.cdr_ani, sandbox.control.cdrs()[0].cdr_ani);
		const sent = vnRequests(sandbox, 'cdr_query');
		assert.equal(sent.length, 1);
		assert.doesNotMatch(String((sent[0].body as Record<string, string>).sql), /\bOR\b|'1'='1/);
	});
});

describe('Virtual Number → Call Record → Query (SQL)', () => {
	const sql = (statement: string, options: Record<string, unknown> = {}) =>
		run({ resource: 'cdr', operation: 'query', queryMode: 'sql', sql: statement, options });

	test('a valid statement is sent as written (POST) and gives one item per row', async () => {
		const statement = "SELECT cdr_uniqueid, call_status FROM webserviceview WHERE call_status = 'ANSWER' ORDER BY id LIMIT 3";
		const items = jsons(await sql(statement));
		assert.equal(sentSql(), statement);
		const expected = sandbox.control.cdrs().filter((row) => row.call_status === 'ANSWER').sort((a, b) => a.id - b.id).slice(0, 3);
		assert.deepEqual(items, expected.map((row) => ({ cdr_uniqueid: row.cdr_uniqueid, call_status: 'ANSWER' })));
	});

	test('a trailing semicolon is dropped (it stacks nothing)', async () => {
		jsons(await sql('SELECT id FROM webserviceview LIMIT 1;  '));
		assert.equal(sentSql(), 'SELECT id FROM webserviceview LIMIT 1');
	});

	test('"1 AS record_file_exists" reaches the service and its answer is passed through', async () => {
		const items = jsons(await sql('SELECT cdr_uniqueid, 1 AS record_file_exists FROM webserviceview'));
		const truth = new Map(sandbox.control.cdrs().map((row) => [row.cdr_uniqueid, row.has_recording]));
		for (const item of items) assert.equal(item.record_file_exists !== '', truth.get(String(item.cdr_uniqueid)));
	});

	test('no rows: no items, no error', async () => {
		assert.deepEqual(jsons(await sql("SELECT id FROM webserviceview WHERE start_call > '2030-01-01 00:00:00'")), []);
	});

	test('an invalid statement (1013 with a reason) stays an error', async () => {
		const error = failure(await sql('SELECT no_such_column FROM webserviceview'));
		assert.match(error.message, /code 1013/);
		assert.match(String(error.description), /no_such_column|Invalid statement/);
	});

	test("the service's own rejection (1012) shows its reason", async () => {
		sandbox.control.injectFaults({ kind: 'serviceError', code: 1012, description: 'Statement rejected: too heavy', operation: 'cdr_query' });
		const error = failure(await sql('SELECT id FROM webserviceview'));
		assert.match(error.message, /The statement was rejected \(code 1012\)/);
		assert.match(String(error.description), /too heavy/);
	});

	test('the Timeout option bounds the wait', async () => {
		sandbox.control.injectFaults({ kind: 'hang', operation: 'cdr_query' });
		const error = failure(await sql('SELECT id FROM webserviceview', { timeout: 1 }));
		assert.match(error.message, /did not answer cdr_query within 1 s/);
	});

	const ok = 'SELECT id FROM webserviceview';
	const rules: Array<[string, string, RegExp]> = [
		['more than 8192 bytes', `${ok} WHERE user_name = '${'א'.repeat(4100)}'`, /Rule 1: the statement is \d+ bytes; the limit is 8192 bytes/],
		['not starting with SELECT', `WITH x AS (SELECT 1) ${ok}`, /Rule 1: the statement must start with SELECT/],
		['without FROM webserviceview', 'SELECT 1', /Rule 1: the statement must select FROM webserviceview/],
		['another table', 'SELECT * FROM cdr', /Rule 1: only webserviceview may be read, not cdr/],
		['a JOIN', `${ok} w JOIN users u ON u.id = w.id`, /Rule 1: only webserviceview may be read/],
		['a subquery', `${ok} WHERE id IN (SELECT id FROM webserviceview)`, /Rule 2: exactly one SELECT/],
		['UNION', `${ok} UNION ALL SELECT id FROM webserviceview`, /Rule 2: /],
		['stacked statements', `${ok}; DELETE FROM webserviceview`, /Rule 2: one statement only \(no ;\)/],
		['INSERT', `${ok} WHERE id = 1 OR INSERT`, /Rule 3: INSERT is not allowed/],
		['UPDATE', `${ok} WHERE UPDATE = 1`, /Rule 3: UPDATE is not allowed/],
		['DELETE', `${ok} WHERE DELETE = 1`, /Rule 3: DELETE is not allowed/],
		['DROP', `${ok} WHERE DROP = 1`, /Rule 3: DROP is not allowed/],
		['ALTER', `${ok} WHERE ALTER = 1`, /Rule 3: ALTER is not allowed/],
		['CREATE', `${ok} WHERE CREATE = 1`, /Rule 3: CREATE is not allowed/],
		['TRUNCATE', `${ok} WHERE TRUNCATE = 1`, /Rule 3: TRUNCATE is not allowed/],
		['RENAME', `${ok} WHERE RENAME = 1`, /Rule 3: RENAME is not allowed/],
		['GRANT', `${ok} WHERE GRANT = 1`, /Rule 3: GRANT is not allowed/],
		['REVOKE', `${ok} WHERE REVOKE = 1`, /Rule 3: REVOKE is not allowed/],
		['LOAD_FILE', `SELECT LOAD_FILE('/etc/passwd') FROM webserviceview`, /Rule 3: LOAD_FILE is not allowed/],
		['INTO OUTFILE', `${ok} INTO OUTFILE '/tmp/x'`, /Rule 3: INTO OUTFILE is not allowed/],
		['information_schema', `SELECT id FROM webserviceview WHERE information_schema.x = 1`, /Rule 3: INFORMATION_SCHEMA is not allowed/],
		['a -- comment', `${ok} -- all`, /Rule 4: SQL comments \(--\) are not allowed/],
		['a # comment', `${ok} # all`, /Rule 4: SQL comments \(#\) are not allowed/],
		['a /* */ comment', `SELECT /* x */ id FROM webserviceview`, /Rule 4: SQL comments \(\/\* \*\/\) are not allowed/],
		['@@ variables', 'SELECT @@version FROM webserviceview', /Rule 4: service variables \(@@\) are not allowed/],
		['assignment :=', 'SELECT @a := id FROM webserviceview', /Rule 4: assignment \(:=\) are not allowed|Rule 4: assignment/],
		['SLEEP()', `${ok} WHERE SLEEP(5) = 0`, /Rule 4: the timing function SLEEP\(\) is not allowed/],
		['BENCHMARK()', `SELECT BENCHMARK(1000000, MD5(1)) FROM webserviceview`, /Rule 4: the timing function BENCHMARK\(\) is not allowed/],
		['GET_LOCK()', `SELECT GET_LOCK('a', 10) FROM webserviceview`, /Rule 4: the timing function GET_LOCK\(\) is not allowed/],
		['an unterminated quote', `${ok} WHERE cdr_ani = '05`, /unterminated quote/],
	];
	for (const [name, statement, expected] of rules) {
		test(`a statement with ${name} is refused before sending, naming the rule`, async () => {
			const error = await refused({ resource: 'cdr', operation: 'query', queryMode: 'sql', sql: statement }, /^SQL Statement: breaks a rule of the service: /);
			assert.match(error.message, expected);
		});
	}

	test('an empty statement is refused before sending', async () => {
		await refused({ resource: 'cdr', operation: 'query', queryMode: 'sql', sql: expr(' ') }, /^SQL Statement: is required/);
	});
});

describe('Virtual Number → Call Record → Get Unique Callers Report', () => {
	const report = (parameters: Record<string, unknown>, timezone?: string) =>
		run({ resource: 'cdr', operation: 'getUniqueCallers', ...parameters }, { timezone });

	test('sends start and end as Y-m-d H:i:s and outputs one item per caller', async () => {
		sandbox.control.seed({ cdrs: 500 });
		const items = jsons(await report({ startTime: '2024-10-01T00:00:00', endTime: '2024-12-31 23:59:59' }));
		const [request] = vnRequests(sandbox, 'cdr_subunique_query');
		assert.equal(request.query.start_time, '2024-10-01 00:00:00');
		assert.equal(request.query.end_time, '2024-12-31 23:59:59');
		const answered = sandbox.control.cdrs().filter((row) => row.call_status === 'ANSWER');
		const callers = new Set(answered.map((row) => row.cdr_ani));
		assert.equal(items.length, Math.min(callers.size, 2000));
		const counts = new Map<string, number>();
		for (const row of answered) counts.set(row.cdr_ani, (counts.get(row.cdr_ani) ?? 0) + 1);
		for (const item of items) assert.equal(Number(item.calls_count), counts.get(String(item.cdr_ani)));
	});

	test('dates from luxon, JS dates and ISO with offsets are converted to the workflow time zone', async () => {
		jsons(
			await report(
				{ startTime: "={{ DateTime.fromISO('2024-10-01T00:00:00Z') }}", endTime: "={{ new Date('2024-11-01T12:00:00+02:00') }}" },
				'Asia/Jerusalem',
			),
		);
		const [request] = vnRequests(sandbox, 'cdr_subunique_query');
		assert.equal(request.query.start_time, '2024-10-01 03:00:00');
		assert.equal(request.query.end_time, '2024-11-01 12:00:00');
	});

	test('no answered calls in the range: no items, no error', async () => {
		assert.deepEqual(jsons(await report({ startTime: '2031-01-01 00:00:00', endTime: '2031-01-02 00:00:00' })), []);
	});

	test('bad dates are refused before any request', async () => {
		const base = { resource: 'cdr', operation: 'getUniqueCallers' };
		await refused({ ...base, startTime: expr('soon'), endTime: '2024-12-31 00:00:00' }, /^Start Time: must be a date/);
		await refused({ ...base, startTime: '2024-10-01 00:00:00', endTime: expr('') }, /^End Time: is required/);
		await refused({ ...base, startTime: '2024-10-01 00:00:00', endTime: expr('2024-02-30 10:00:00') }, /^End Time: must be a date/);
		await refused({ ...base, startTime: '2024-12-01 00:00:00', endTime: '2024-10-01 00:00:00' }, /^End Time: must not be before Start Time \(2024-12-01 00:00:00\)/);
	});
});

describe('Virtual Number → Call Record → Get Metadata', () => {
	test('outputs the metadata sections of the call', async () => {
		const call = sandbox.control.cdrs().find((row) => row.gclid !== '')!;
		const items = jsons(await run({ resource: 'cdr', operation: 'getMetadata', callUuid: call.cdr_uniqueid }));
		assert.equal(vnRequests(sandbox, 'get_cdr_metadata_by_call_uuid')[0].query.call_uuid, call.cdr_uniqueid);
		assert.equal(items.length, 1);
		assert.equal(items[0].call_uuid, call.cdr_uniqueid);
		assert.equal((items[0].cdr as Record<string, unknown>).cdr_uniqueid, call.cdr_uniqueid);
		assert.equal((items[0].ads_data as Record<string, unknown>).gclid, call.gclid);
	});

	test('an unknown call fails with the meaning of 1015', async () => {
		const error = failure(await run({ resource: 'cdr', operation: 'getMetadata', callUuid: '1.999999' }));
		assert.match(error.message, /No metadata for this call \(code 1015\)/);
	});

	test('an empty call ID is refused before any request', async () => {
		await refused({ resource: 'cdr', operation: 'getMetadata', callUuid: expr('') }, /^Call ID: is required/);
	});
});

describe('Virtual Number → Call Record → Create Manual Record', () => {
	const create = (additionalFields: Record<string, unknown>, timezone?: string) =>
		run({ resource: 'cdr', operation: 'createManual', virtualnum: rl('0722000102'), additionalFields }, { timezone });

	test('sends every field in the service format and outputs the new call ID', async () => {
		const items = jsons(
			await create(
				{
					startTime: '2024-11-05T09:30:00',
					duration: 125,
					callerNumber: '050-123-4567',
					destination: '+972 52 765 4321',
					metadata: '{"source":"ivr","lead":17}',
				},
				'Asia/Jerusalem',
			),
		);
		const [request] = vnRequests(sandbox, 'create_virtualnum_cdr');
		assert.equal(request.method, 'POST');
		assert.deepEqual(request.body, {
			cdr_ddi: '0722000102',
			cdr_start_call: '2024-11-05 09:30:00',
			cdr_totac_sec: '125',
			cdr_ani: '0501234567',
			cdr_destination: '972527654321',
			cdr_metadata: '{"source":"ivr","lead":17}',
		});
		assert.match(String(items[0].cdr_uniqueid), /^\d+\.\d+$/);
		const record = sandbox.control.cdr(String(items[0].cdr_uniqueid));
		assert.equal(record?.start_call, '2024-11-05 09:30:00');
		assert.equal(record?.end_call, '2024-11-05 09:32:05');
		assert.equal(record?.cdr_ani, '0501234567');
		assert.equal(record?.cdr_meta_data, '{"source":"ivr","lead":17}');
	});

	test('metadata given as an object from an expression is sent as JSON', async () => {
		jsons(await create({ metadata: '={{ { "utm_source": "crm" } }}' }));
		assert.equal((vnRequests(sandbox, 'create_virtualnum_cdr')[0].body as Record<string, string>).cdr_metadata, '{"utm_source":"crm"}');
	});

	test('only the number: nothing else is sent', async () => {
		jsons(await create({}));
		assert.deepEqual(vnRequests(sandbox, 'create_virtualnum_cdr')[0].body, { cdr_ddi: '0722000102' });
	});

	test('a caller number the service does not accept fails with the meaning of 2027', async () => {
		const error = failure(await create({ callerNumber: '12345' }));
		assert.match(error.message, /The caller number is invalid \(code 2027\)/);
		assert.match(String(error.description), /valid Israeli number/);
	});

	const bad: Array<[string, Record<string, unknown>, RegExp]> = [
		['a duration of 0', { duration: 0 }, /^Duration \(Seconds\): must be a whole number from 1 to 3599/],
		['a duration of 3600', { duration: 3600 }, /^Duration \(Seconds\): must be a whole number from 1 to 3599/],
		['a duration of 1.5', { duration: 1.5 }, /^Duration \(Seconds\): /],
		['a start that is no date', { startTime: expr('last tuesday') }, /^Call Start: must be a date/],
		['metadata that is not JSON', { metadata: '{"source": ivr}' }, /^Metadata \(JSON\): must be valid JSON/],
		['a caller that is no phone number', { callerNumber: 'anonymous' }, /^Caller Number: must be a phone number/],
		['a destination that is no phone number', { destination: "0' OR 1" }, /^Destination: must be a phone number/],
	];
	for (const [name, fields, expected] of bad) {
		test(`${name} is refused before any request`, async () => {
			await refused({ resource: 'cdr', operation: 'createManual', virtualnum: rl('0722000102'), additionalFields: fields }, expected);
		});
	}
});
