import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { DateTime } from 'luxon';

import { description as queryDescription } from '../../../../../nodes/VirtualNumber/actions/cdr/query.operation.ts';
import { expr, failure, jsons, vnRequests, vnTest } from '../../vnRun.mts';

const { sandbox, run, refused } = vnTest();

/** The default columns, in the order the builder selects them (the vocabulary's), and their names when simplified. */
const DEFAULT_COLUMNS = [
	'cdr_uniqueid',
	'cdr_ddi',
	'cdr_ani',
	'user_phone',
	'call_status',
	'start_call',
	'call_duration',
];
const DEFAULT_KEYS = [
	'callId',
	'virtualNumber',
	'callerNumber',
	'destinationPhone',
	'callStatus',
	'startTime',
	'startedAt',
	'durationSec',
];

function sentSql(): string {
	const requests = vnRequests(sandbox, 'cdr_query');
	assert.equal(requests.length, 1);
	assert.equal(requests[0].method, 'POST');
	return String((requests[0].body as Record<string, string>).sql);
}

describe('Virtual Number → Call Record → Query (builder)', () => {
	const query = (parameters: Record<string, unknown> = {}, timezone?: string) =>
		run({ resource: 'cdr', operation: 'query', ...parameters }, { timezone });

	test("default: the default columns, newest first, limit 50; one item per row under the call fields' names", async () => {
		const items = jsons(await query());
		assert.equal(
			sentSql(),
			`SELECT ${DEFAULT_COLUMNS.join(', ')} FROM webserviceview ORDER BY start_call DESC LIMIT 50`,
		);
		const all = sandbox.control.cdrs();
		assert.equal(items.length, all.length);
		for (const item of items) assert.deepEqual(Object.keys(item), DEFAULT_KEYS);
		const starts = items.map((item) => String(item.startTime));
		assert.deepEqual(starts, [...starts].sort().reverse());
		const row = all.find((r) => r.cdr_uniqueid === items[0].callId)!;
		assert.deepEqual(items[0], {
			callId: row.cdr_uniqueid,
			virtualNumber: row.cdr_ddi,
			callerNumber: row.cdr_ani,
			destinationPhone: row.user_phone,
			callStatus: row.call_status,
			startTime: row.start_call,
			// The same moment with the offset of the service's clock (the credential's Service Time Zone).
			startedAt: DateTime.fromSQL(row.start_call, { zone: 'Asia/Jerusalem' }).toISO({
				suppressMilliseconds: true,
			}),
			durationSec: row.call_duration,
		});
	});

	test("Simplify off: the service's rows as they are", async () => {
		const items = jsons(await query({ simplify: false, recordingExists: true, limit: 3 }));
		for (const item of items)
			assert.deepEqual(Object.keys(item), [...DEFAULT_COLUMNS, 'record_file_exists']);
		assert.ok(
			items.every((item) => item.record_file_exists === 1 || item.record_file_exists === ''),
			'record_file_exists as the service gives it',
		);
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
			'SELECT cdr_uniqueid, cdr_ani, call_status, start_call, 1 AS record_file_exists FROM webserviceview' +
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
			items.map((item) => [item.callId, item.recordingExists]),
			expected.map((row) => [row.cdr_uniqueid, row.has_recording]),
		);
		assert.deepEqual(Object.keys(items[0]), [
			'callId',
			'callerNumber',
			'callStatus',
			'startTime',
			'startedAt',
			'recordingExists',
		]);
	});

	test('Recording Exists is true exactly for the calls with a recording file', async () => {
		const items = jsons(
			await query({ columns: ['cdr_uniqueid'], recordingExists: true, returnAll: true }),
		);
		const truth = new Map(
			sandbox.control.cdrs().map((row) => [row.cdr_uniqueid, row.has_recording]),
		);
		assert.equal(items.length, truth.size);
		assert.ok(
			items.some((item) => item.recordingExists === true) &&
				items.some((item) => item.recordingExists === false),
		);
		for (const item of items)
			assert.equal(item.recordingExists, truth.get(String(item.callId)), String(item.callId));
	});

	test('Return All sends no LIMIT and returns every row; no columns selected means all columns', async () => {
		sandbox.control.seed({ cdrs: 1000 });
		const items = jsons(await query({ returnAll: true, columns: [] }));
		assert.doesNotMatch(sentSql(), /LIMIT/);
		assert.equal(items.length, sandbox.control.cdrs({ limit: 1_000_000 }).length);
		assert.deepEqual(Object.keys(items[0]), [
			'callId',
			'virtualNumber',
			'callerNumber',
			'destinationPhone',
			'numberDescription',
			'callStatus',
			'startTime',
			'startedAt',
			'endTime',
			'endedAt',
			'durationSec',
			'agentRating',
			'marketingMetadata',
			'adClickId',
			'rowId',
		]);
		assert.equal(typeof items[0].rowId, 'number');
	});

	test('the column list is the vocabulary of call fields, by display name', () => {
		const columns = queryDescription.find((property) => property.name === 'columns')!;
		const options = (columns.options ?? []) as Array<{ name: string; value: string }>;
		assert.deepEqual(
			options.map((option) => option.name),
			[...options.map((option) => option.name)].sort(),
		);
		assert.deepEqual(
			options.find((option) => option.value === 'user_phone'),
			{
				name: 'Destination Phone',
				value: 'user_phone',
				description: 'Column user_phone (output as destinationPhone when simplified)',
			},
		);
		assert.equal(options.length, 13);
	});

	test("dates from any input are sent as Y-m-d H:i:s on the service's clock (Asia/Jerusalem)", async () => {
		jsons(await query({ from: '2024-10-02T08:00:00Z', to: expr(1730000000) }, 'UTC'));
		assert.match(
			sentSql(),
			/start_call >= '2024-10-02 11:00:00' AND start_call <= '2024-10-27 05:33:20'/,
		);
		sandbox.control.clearRequests();
		jsons(await query({ from: '={{ $now.minus({ days: 1 }) }}' }, 'UTC'));
		const sent = /start_call >= '([^']+)'/.exec(sentSql())![1];
		const expected = DateTime.now()
			.setZone('Asia/Jerusalem')
			.minus({ days: 1 })
			.toFormat('yyyy-MM-dd HH:mm:ss');
		assert.ok(
			Math.abs(Date.parse(`${sent}Z`) - Date.parse(`${expected}Z`)) < 60_000,
			`${sent} ≈ ${expected}`,
		);
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
		[
			'a virtual number with SQL',
			{ virtualnums: expr("0722000100') OR ('1'='1") },
			/^Virtual Numbers: /,
		],
		[
			'a status outside the list',
			{ statuses: expr(["ANSWER') OR ('1'='1"]) },
			/^Call Statuses: must be one of/,
		],
		[
			'a column outside the list',
			{ columns: expr(['cdr_ani FROM mysql.user --']) },
			/^Columns: must be one of/,
		],
		['a date with SQL', { from: expr("2024-01-01' OR '1'='1") }, /^Calls From: must be a date/],
		[
			'an empty caller entry',
			{ callers: '0501234567,,0507654321' },
			/^Caller Numbers: has an empty entry at position 2/,
		],
		[
			'an end before the start',
			{ from: '2024-12-01 00:00:00', to: '2024-11-01 00:00:00' },
			/^Calls Until: must not be before Calls From/,
		],
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
			{
				continueOnFail: true,
				input: [
					{ json: { phone: "1' OR '1'='1" } },
					{ json: { phone: sandbox.control.cdrs()[0].cdr_ani } },
				],
			},
		);
		const items = jsons(result);
		assert.match(String(items[0].error), /^Caller Numbers: /);
		assert.ok(items.slice(1).length >= 1);
		for (const item of items.slice(1))
			assert.equal(item.callerNumber, sandbox.control.cdrs()[0].cdr_ani);
		const sent = vnRequests(sandbox, 'cdr_query');
		assert.equal(sent.length, 1);
		assert.doesNotMatch(String((sent[0].body as Record<string, string>).sql), /\bOR\b|'1'='1/);
	});
});

describe('Virtual Number → Call Record → Query (SQL)', () => {
	const sql = (
		statement: string,
		options: Record<string, unknown> = {},
		extra: Record<string, unknown> = {},
	) =>
		run({
			resource: 'cdr',
			operation: 'query',
			queryMode: 'sql',
			sql: statement,
			options,
			...extra,
		});

	test("a valid statement is sent as written (POST); known columns come out under the call fields' names", async () => {
		const statement =
			"SELECT cdr_uniqueid, call_status FROM webserviceview WHERE call_status = 'ANSWER' ORDER BY id LIMIT 3";
		const items = jsons(await sql(statement));
		assert.equal(sentSql(), statement);
		const expected = sandbox.control
			.cdrs()
			.filter((row) => row.call_status === 'ANSWER')
			.sort((a, b) => a.id - b.id)
			.slice(0, 3);
		assert.deepEqual(
			items,
			expected.map((row) => ({ callId: row.cdr_uniqueid, callStatus: 'ANSWER' })),
		);
	});

	test('aliases and expressions keep the names the service gives them; Simplify off keeps every name', async () => {
		const statement =
			'SELECT cdr_ani, cdr_ani AS phone, COUNT(*), SUM(call_duration) AS seconds FROM webserviceview GROUP BY cdr_ani ORDER BY cdr_ani LIMIT 1';
		const [simplified] = jsons(await sql(statement));
		assert.deepEqual(Object.keys(simplified), ['callerNumber', 'phone', 'COUNT(*)', 'seconds']);
		const [raw] = jsons(await sql(statement, {}, { simplify: false }));
		assert.deepEqual(Object.keys(raw), ['cdr_ani', 'phone', 'COUNT(*)', 'seconds']);
		assert.equal(raw.cdr_ani, simplified.callerNumber);
	});

	test('a trailing semicolon is dropped (it stacks nothing)', async () => {
		jsons(await sql('SELECT id FROM webserviceview LIMIT 1;  '));
		assert.equal(sentSql(), 'SELECT id FROM webserviceview LIMIT 1');
	});

	test('"1 AS record_file_exists": recordingExists true or false (Simplify off: the service\'s 1 or "")', async () => {
		const truth = new Map(
			sandbox.control.cdrs().map((row) => [row.cdr_uniqueid, row.has_recording]),
		);
		const items = jsons(
			await sql('SELECT cdr_uniqueid, 1 AS record_file_exists FROM webserviceview'),
		);
		for (const item of items) assert.equal(item.recordingExists, truth.get(String(item.callId)));
		const raw = jsons(
			await sql(
				'SELECT cdr_uniqueid, 1 AS record_file_exists FROM webserviceview',
				{},
				{ simplify: false },
			),
		);
		for (const item of raw)
			assert.equal(item.record_file_exists, truth.get(String(item.cdr_uniqueid)) ? 1 : '');
	});

	test('statements the old check refused wrongly are sent: EXTRACT/TRIM … FROM, a # in a name, call_duration--1', async () => {
		for (const statement of [
			'SELECT EXTRACT(HOUR FROM start_call) AS h, COUNT(*) AS n FROM webserviceview GROUP BY h',
			"SELECT TRIM(LEADING '0' FROM cdr_ani) AS caller_digits FROM webserviceview LIMIT 2",
			'SELECT cdr_ani AS `caller#1` FROM webserviceview LIMIT 2',
			'SELECT call_duration--1 AS d FROM webserviceview LIMIT 2',
		]) {
			sandbox.control.clearRequests();
			assert.ok(jsons(await sql(statement)).length > 0, statement);
			assert.equal(sentSql(), statement);
		}
	});

	test('no rows: no items, no error', async () => {
		assert.deepEqual(
			jsons(await sql("SELECT id FROM webserviceview WHERE start_call > '2030-01-01 00:00:00'")),
			[],
		);
	});

	test('an invalid statement (1013 with a reason) stays an error', async () => {
		const error = failure(await sql('SELECT no_such_column FROM webserviceview'));
		assert.match(error.message, /code 1013/);
		assert.match(String(error.description), /no_such_column|Invalid statement/);
	});

	test("the service's own rejection (1012) shows its reason", async () => {
		sandbox.control.injectFaults({
			kind: 'serviceError',
			code: 1012,
			description: 'Statement rejected: too heavy',
			operation: 'cdr_query',
		});
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
		[
			'more than 8192 bytes',
			`${ok} WHERE user_name = '${'א'.repeat(4100)}'`,
			/^SQL Statement: is 8250 bytes; cdr_query accepts at most 8192 bytes/,
		],
		[
			'another table after a comma (issue 13)',
			`${ok}, users`,
			/^SQL Statement: joins another table \(,\) at character 30 — breaks rule 1 of cdr_query: "It starts with SELECT and selects FROM webserviceview; direct access to underlying tables is rejected\."$/,
		],
		[
			"a UNION hidden behind a ' in a backtick name (issue 13)",
			"SELECT `a'b`, id FROM webserviceview UNION SELECT user FROM mysql.user",
			/^SQL Statement: combines statements with UNION at character 38 — breaks rule 2 of cdr_query: "One statement only/,
		],
		[
			'a subquery',
			`${ok} WHERE id IN (SELECT id FROM webserviceview)`,
			/^SQL Statement: has a subquery at character 44 — breaks rule 2/,
		],
		[
			'INTO @x (issue 13)',
			`${ok} INTO @x`,
			/^SQL Statement: uses INTO @x at character 31 — breaks rule 3 of cdr_query: "Rejected: INSERT, UPDATE, DELETE/,
		],
		[
			'PROCEDURE ANALYSE() (issue 13)',
			`${ok} PROCEDURE ANALYSE()`,
			/^SQL Statement: uses PROCEDURE at character 31 — breaks rule 3/,
		],
		[
			'a /*! */ comment hidden behind a backtick quote (issue 13)',
			"SELECT `a'` FROM webserviceview WHERE /*!50000 SLEEP(10) */ 1",
			/^SQL Statement: has a comment \(\/\*!\) at character 39 — breaks rule 4 of cdr_query: "Rejected: SQL comments/,
		],
		[
			'LOCK IN SHARE MODE (issue 13)',
			`${ok} LOCK IN SHARE MODE`,
			/^SQL Statement: asks for locks \(LOCK …\) at character 31 — breaks rule 4/,
		],
		[
			"\\' read as an escape (issue 13)",
			`SELECT 'a\\' UNION SELECT 1 FROM webserviceview WHERE 1=1 -- ' FROM webserviceview`,
			/^SQL Statement: combines statements with UNION at character 13, when the database reads \\ in quoted text as an ordinary character \(sql_mode NO_BACKSLASH_ESCAPES\) — breaks rule 2/,
		],
		[
			'an unterminated quote',
			`${ok} WHERE cdr_ani = '05`,
			/^SQL Statement: has a quote ' at character 47 that is never closed, so it cannot be checked against the rules of cdr_query$/,
		],
	];
	for (const [name, statement, expected] of rules) {
		test(`${name} is refused before sending, naming the rule and what to do`, async () => {
			const error = await refused(
				{ resource: 'cdr', operation: 'query', queryMode: 'sql', sql: statement },
				expected,
			);
			assert.match(
				String(error.description),
				/ Fix the "SQL Statement" field of item 0 and run the node again; nothing was sent\.$/,
			);
		});
	}

	test('under Continue On Fail a refused statement is an error item of its own; the other items run', async () => {
		const result = await run(
			{ resource: 'cdr', operation: 'query', queryMode: 'sql', sql: '={{ $json.sql }}' },
			{
				continueOnFail: true,
				input: [{ json: { sql: `${ok} # all` } }, { json: { sql: `${ok} LIMIT 1` } }],
			},
		);
		const items = jsons(result);
		assert.match(
			String(items[0].error),
			/^SQL Statement: has a comment \(#\) at character 31 — breaks rule 4 of cdr_query/,
		);
		assert.match(
			String(items[0].errorDescription),
			/^Remove the comment: .* Fix the "SQL Statement" field of item 0/,
		);
		assert.equal(items.length, 2);
		assert.equal(typeof items[1].rowId, 'number');
		assert.equal(vnRequests(sandbox, 'cdr_query').length, 1);
	});

	test('an empty statement is refused before sending', async () => {
		await refused(
			{ resource: 'cdr', operation: 'query', queryMode: 'sql', sql: expr(' ') },
			/^SQL Statement: is required/,
		);
	});
});
