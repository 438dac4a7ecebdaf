import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { lexMysql } from '../../../../../nodes/VirtualNumber/actions/cdr/sqlLexer.ts';
import {
	cdrSqlToSend,
	findCdrSqlViolation,
} from '../../../../../nodes/VirtualNumber/actions/cdr/sqlCheck.ts';
import {
	CDR_SQL_RULES,
	describeCdrSqlViolation,
} from '../../../../../nodes/VirtualNumber/actions/cdr/sqlRules.ts';
import { readSpec } from '../../../../../dev/harness/spec.mts';
import { MUST_PASS } from './sqlCorpus.mts';
import { MUST_REFUSE } from './sqlCorpusRefused.mts';

const verdict = (sql: string) => findCdrSqlViolation(cdrSqlToSend(sql));
const shown = (sql: string) => JSON.stringify(sql.length > 120 ? `${sql.slice(0, 117)}...` : sql);

describe("cdr_query's rules in the node: the corpus", () => {
	test(`${MUST_PASS.length} reports pass`, () => {
		const refused = MUST_PASS.map((entry) => [entry.sql, verdict(entry.sql)] as const).filter(
			([, v]) => v !== undefined,
		);
		assert.deepEqual(
			refused.map(([sql, v]) => `${shown(sql)}: ${describeCdrSqlViolation(v!)}`),
			[],
		);
	});

	test(`${MUST_REFUSE.length} statements are refused, each naming the rule it breaks`, () => {
		const wrong = MUST_REFUSE.map((entry) => ({ entry, got: verdict(entry.sql) })).filter(
			({ entry, got }) => got?.rule !== entry.rule,
		);
		assert.deepEqual(
			wrong.map(
				({ entry, got }) =>
					`${shown(entry.sql)} (${entry.why}): expected ${entry.rule}, got ${got ? `${got.rule}: ${got.problem}` : 'a pass'}`,
			),
			[],
		);
	});
});

describe('what a refusal says', () => {
	const cases: Array<[string, RegExp]> = [
		[
			'SELECT id FROM webserviceview UNION SELECT 1',
			/^combines statements with UNION at character 31 — breaks rule 2 of cdr_query: "One statement only: no ; stacking, no subqueries, no UNION \(exactly one SELECT keyword\)\."$/,
		],
		[
			'SELECT id FROM webserviceview WHERE id IN (SELECT 1)',
			/^has a subquery at character 44 — breaks rule 2/,
		],
		[
			'SELECT id FROM webserviceview, users',
			/^joins another table \(,\) at character 30 — breaks rule 1 of cdr_query: "It starts with SELECT/,
		],
		[
			'SELECT id FROM users',
			/^reads users after FROM at character 16, not webserviceview — breaks rule 1/,
		],
		[
			"SELECT id FROM webserviceview INTO OUTFILE '/tmp/x'",
			/^uses INTO OUTFILE at character 31 — breaks rule 3 of cdr_query: "Rejected: INSERT, UPDATE/,
		],
		[
			'SELECT id FROM webserviceview #x',
			/^has a comment \(#\) at character 31 — breaks rule 4 of cdr_query: "Rejected: SQL comments/,
		],
		[
			'SELECT SLEEP(1) FROM webserviceview',
			/^calls the timing function SLEEP\(\) at character 8 — breaks rule 4/,
		],
		[
			"SELECT 'a\\' UNION SELECT 1 FROM webserviceview WHERE 1=1 -- ' FROM webserviceview",
			/^combines statements with UNION at character 13, when the database reads \\ in quoted text as an ordinary character \(sql_mode NO_BACKSLASH_ESCAPES\) — breaks rule 2/,
		],
		[
			"SELECT id FROM webserviceview WHERE a = 'x",
			/^has a quote ' at character 41 that is never closed, so it cannot be checked against the rules of cdr_query$/,
		],
		[
			`SELECT id FROM webserviceview WHERE a = '${'é'.repeat(4100)}'`,
			/^is 8242 bytes; cdr_query accepts at most 8192 bytes/,
		],
	];
	for (const [sql, expected] of cases) {
		test(shown(sql), () => {
			const violation = findCdrSqlViolation(sql);
			assert.ok(violation, 'must be refused');
			assert.match(describeCdrSqlViolation(violation), expected);
			assert.ok(violation.fix.length > 20, 'says what to do');
		});
	}

	test("the rules' words are the spec's, word for word", () => {
		const spec = readSpec('virtual-number-service.md');
		const section = spec.slice(spec.indexOf('Rules for `sql`'));
		for (const rule of [1, 2, 3, 4] as const) {
			const line = section.split('\n').find((l) => l.startsWith(`${rule}. `));
			const words = (line ?? '').slice(3).replace(/`/g, '');
			assert.equal(CDR_SQL_RULES.spec[rule], words, `rule ${rule}`);
		}
	});
});

describe("MySQL's lexical rules", () => {
	const words = (sql: string, backslashEscapes = true, ansiQuotes = false) => {
		const lexed = lexMysql(sql, { backslashEscapes, ansiQuotes });
		assert.ok('tokens' in lexed);
		return lexed.tokens.map((t) => `${t.kind}:${t.kind === 'word' ? t.value : t.text}`);
	};

	test('numbers and names: 1e1union is a number and a word, 1union one word, 0x1Fz one word', () => {
		assert.deepEqual(words('1e1union 1union 1.5e-3x 0x1F 0x1Fz .5 x.5'), [
			'number:1e1',
			'word:UNION',
			'word:1UNION',
			'number:1.5e-3',
			'word:X',
			'number:0x1F',
			'word:0X1FZ',
			'number:.5',
			'word:X',
			'number:.5',
		]);
	});

	test('-- is a comment only before a space, a control character or the end', () => {
		assert.deepEqual(words('a--1'), ['word:A', 'symbol:-', 'symbol:-', 'number:1']);
		for (const after of [' 1', '\t1', '\n1', '\u00011', ''])
			assert.deepEqual(words(`a--${after}`).slice(0, 2), ['word:A', 'comment:--']);
	});

	test('quoted text and names, in both backslash modes and under ANSI_QUOTES', () => {
		assert.deepEqual(words('\'a\\\'b\' `c\'d` "e""f"'), [
			"text:'a\\'b'",
			"name:`c'd`",
			'text:"e""f"',
		]);
		assert.deepEqual(lexMysql("'a\\'b'", { backslashEscapes: false, ansiQuotes: false }), {
			unclosedQuote: "'",
			at: 5,
		});
		assert.deepEqual(words('"a\\" b', true, true), ['name:"a\\"', 'word:B']);
		assert.deepEqual(words('# x\n/*! y */ z */'), [
			'comment:#',
			'comment:/*!',
			'word:Z',
			'comment:*/',
		]);
	});
});
