// The sandbox's own guard of cdr_query (written apart from the node's check) against the same
// corpus: every report passes and runs on the sandbox's SQLite, every forbidden statement is
// answered 1012 naming the same rule as the node.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import {
	cdrSqlToSend,
	findCdrSqlViolation,
} from '../../../nodes/VirtualNumber/actions/cdr/sqlCheck.ts';
import { guardSql } from '../../sandbox/vn/sqlguard.mts';
import {
	MUST_PASS,
	mutatedReports,
} from '../../../test/nodes/VirtualNumber/actions/cdr/sqlCorpus.mts';
import { MUST_REFUSE } from '../../../test/nodes/VirtualNumber/actions/cdr/sqlCorpusRefused.mts';
import { start, vn, type Sandbox } from './helpers.mts';

const shown = (sql: string) => JSON.stringify(sql.length > 120 ? `${sql.slice(0, 117)}...` : sql);

describe("the sandbox's guard: the corpus", () => {
	test(`${MUST_PASS.length} reports pass`, () => {
		const refused = MUST_PASS.map((entry) => [entry.sql, guardSql(entry.sql)] as const).filter(
			([, result]) => !result.ok && result.code === 1012,
		);
		assert.deepEqual(
			refused.map(([sql, result]) => `${shown(sql)}: ${result.ok ? '' : result.reason}`),
			[],
		);
	});

	test(`${MUST_REFUSE.length} statements are refused (1012), each naming the rule it breaks`, () => {
		const wrong = MUST_REFUSE.map((entry) => ({ entry, got: guardSql(entry.sql) })).filter(
			({ entry, got }) => got.ok || got.code !== 1012 || got.rule !== entry.rule,
		);
		assert.deepEqual(
			wrong.map(
				({ entry, got }) =>
					`${shown(entry.sql)} (${entry.why}): expected ${entry.rule}, got ${got.ok ? 'a pass' : got.reason}`,
			),
			[],
		);
	});

	test('20,000 reports with fragments inserted: the guard and the node give the same verdict and rule', () => {
		const disagreements: string[] = [];
		let passed = 0;
		for (const raw of mutatedReports(20_000, 13)) {
			const sql = cdrSqlToSend(raw); // what the node would send
			const node = findCdrSqlViolation(sql)?.rule ?? 'pass';
			const guard = guardSql(sql);
			const sandbox = guard.ok || guard.code === 1013 ? 'pass' : guard.rule;
			if (node === 'pass') passed++;
			if (node !== sandbox && disagreements.length < 10)
				disagreements.push(`${shown(sql)}: node ${node}, sandbox ${sandbox}`);
		}
		assert.deepEqual(disagreements, []);
		assert.ok(passed > 1000 && passed < 19_000, `a mix of passes and refusals (${passed} passed)`);
	});

	test('the reason names the rule and the place', () => {
		const result = guardSql(
			"SELECT `a'b`, id FROM webserviceview UNION SELECT user FROM mysql.user",
		);
		assert.deepEqual(result, {
			ok: false,
			code: 1012,
			rule: 2,
			reason: 'Rule 2: UNION is not allowed (at character 38)',
		});
		const escaped = guardSql(
			"SELECT 'a\\' UNION SELECT 1 FROM webserviceview WHERE 1=1 -- ' FROM webserviceview",
		);
		assert.equal(
			escaped.ok ? '' : escaped.reason,
			'Rule 2: UNION is not allowed (read with NO_BACKSLASH_ESCAPES) (at character 13)',
		);
	});
});

describe('every report runs on the sandbox (SQLite), or is answered 1013 with the reason', () => {
	let sb: Sandbox;
	before(async () => {
		sb = await start();
		sb.control.seed({ cdrs: 200 });
	});
	after(() => sb.close());

	test(`${MUST_PASS.length} reports`, async () => {
		const failed: string[] = [];
		for (const entry of MUST_PASS) {
			const answer = await vn(sb, 'cdr_query', { sql: entry.sql }, { via: 'form' });
			const ran =
				answer.status.code === 200 ||
				(answer.status.code === 1013 && answer.status.description === 'No results');
			if (ran === Boolean(entry.sandboxGap))
				failed.push(
					`${shown(entry.sql)}: ${answer.status.code} ${answer.status.description}${entry.sandboxGap ? ' (listed as not runnable)' : ''}`,
				);
		}
		assert.deepEqual(failed, []);
	});
});

describe("MySQL that the sandbox translates gives MySQL's answers", () => {
	let sb: Sandbox;
	let id: number;
	before(async () => {
		sb = await start();
		const seeded = sb.control.seed({
			cdr: {
				start_call: '2024-01-31 10:15:00',
				end_call: '2024-01-31 10:17:05',
				call_duration: 125,
				cdr_ani: '0050123',
				user_name: 'Sales_North',
				call_status: 'ANSWER',
			},
		});
		id = seeded.cdr!.id;
	});
	after(() => sb.close());

	const cases: Array<[string, string, unknown]> = [
		['EXTRACT(HOUR FROM x)', 'EXTRACT(HOUR FROM start_call)', 10],
		["TRIM(LEADING '0' FROM x)", "TRIM(LEADING '0' FROM cdr_ani)", '50123'],
		["TRIM(TRAILING '3' FROM x)", "TRIM(TRAILING '3' FROM cdr_ani)", '005012'],
		['SUBSTRING(x FROM 3 FOR 2)', 'SUBSTRING(cdr_ani FROM 3 FOR 2)', '50'],
		[
			'DATE_ADD(x, INTERVAL 1 MONTH): the end of a shorter month',
			'DATE_ADD(start_call, INTERVAL 1 MONTH)',
			'2024-02-29 10:15:00',
		],
		['x - INTERVAL 2 HOUR', 'start_call - INTERVAL 2 HOUR', '2024-01-31 08:15:00'],
		[
			"'2024-03-01' - INTERVAL 1 DAY: a date stays a date",
			"'2024-03-01' - INTERVAL 1 DAY",
			'2024-02-29',
		],
		['x / 60 is a decimal', 'call_duration / 50', 2.5],
		['x DIV 60 and x MOD 60', "CONCAT(call_duration DIV 60, ':', call_duration MOD 60)", '2:5'],
		["adjacent literals 'a' 'b'", "'a' 'b'", 'ab'],
		[
			'\'It\'\'s\' and "say \\"hi\\""',
			'CONCAT(\'It\'\'s\', " ", "say \\"hi\\"")',
			'It\'s say "hi"',
		],
		["LIKE 'Sales\\_%' matches an underscore", "user_name LIKE 'Sales\\_%'", 1],
		["= compares without case, as MySQL's collation", "call_status = 'answer'", 1],
		["GROUP_CONCAT(x SEPARATOR '|')", "GROUP_CONCAT(cdr_ani SEPARATOR '|')", '0050123'],
		['CAST(x AS DATE)', 'CAST(start_call AS DATE)', '2024-01-31'],
		['CAST(x AS UNSIGNED)', "CAST('42abc' AS UNSIGNED)", 42],
	];
	for (const [name, expression, expected] of cases) {
		test(name, async () => {
			const answer = await vn(
				sb,
				'cdr_query',
				{ sql: `SELECT ${expression} AS v FROM webserviceview WHERE id = ${id}` },
				{ via: 'form' },
			);
			assert.equal(answer.status.code, 200, answer.status.description);
			assert.deepEqual(answer.result[0].v, expected);
		});
	}

	test('CURRENT_TIMESTAMP is local time, as NOW()', async () => {
		const answer = await vn(
			sb,
			'cdr_query',
			{ sql: `SELECT CURRENT_TIMESTAMP AS a, NOW() AS b FROM webserviceview WHERE id = ${id}` },
			{ via: 'form' },
		);
		assert.equal(answer.result[0].a, answer.result[0].b);
	});

	test('what SQLite cannot run is answered 1013 with the reason', async () => {
		const answer = await vn(
			sb,
			'cdr_query',
			{ sql: 'SELECT id FROM webserviceview GROUP BY id WITH ROLLUP' },
			{ via: 'form' },
		);
		assert.deepEqual(answer.status, {
			code: 1013,
			description: 'Invalid statement: WITH ROLLUP is not supported by the sandbox',
		});
	});
});
