// The oracle: a well-kept SQL parser (node-sql-parser, MySQL dialect; a devDependency only) reads
// every statement the rules let through and must find one SELECT from webserviceview and nothing
// else: no other table anywhere, no subquery, no UNION. Where it cannot read a statement that
// MySQL can, the corpus says why (oracleGap), and the test checks that it still cannot.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import sqlParser from 'node-sql-parser';

import {
	cdrSqlToSend,
	findCdrSqlViolation,
} from '../../../../../nodes/VirtualNumber/actions/cdr/sqlCheck.ts';
import { MUST_PASS, mutatedReports } from './sqlCorpus.mts';

const parser = new sqlParser.Parser();
const MYSQL = { database: 'MySQL' };

/** How many SELECTs an AST holds (the statement itself, subqueries, UNION parts). */
function selects(node: unknown): number {
	if (Array.isArray(node)) return node.reduce((n: number, child) => n + selects(child), 0);
	if (node === null || typeof node !== 'object') return 0;
	const own = (node as { type?: unknown }).type === 'select' ? 1 : 0;
	return own + Object.values(node).reduce((n: number, child) => n + selects(child), 0);
}

/** What the oracle finds wrong with a statement that must pass, or undefined. */
function oracleProblem(sql: string): string | undefined {
	let ast: unknown;
	let tables: string[];
	try {
		ast = parser.astify(sql, MYSQL);
		tables = parser.tableList(sql, MYSQL);
	} catch (error) {
		return `cannot parse: ${(error as Error).message.slice(0, 80)}`;
	}
	const statements = Array.isArray(ast) ? ast : [ast];
	if (statements.length !== 1) return `${statements.length} statements`;
	const select = statements[0] as {
		type?: string;
		from?: Array<{ table?: string; db?: string | null; join?: string }>;
		_next?: unknown;
	};
	if (select.type !== 'select') return `a ${select.type} statement`;
	if (select._next) return 'a UNION';
	const count = selects(select);
	if (count !== 1) return `${count} SELECTs`;
	const from = select.from ?? [];
	if (
		from.length !== 1 ||
		from[0].table?.toLowerCase() !== 'webserviceview' ||
		from[0].db ||
		from[0].join
	)
		return `reads ${JSON.stringify(from)}`;
	const other = tables.filter((table) => !/^select::null::webserviceview$/i.test(table));
	return other.length > 0 ? `also reads ${other.join(', ')}` : undefined;
}

describe('the oracle (node-sql-parser, MySQL) on every statement the rules let through', () => {
	const read = MUST_PASS.filter((entry) => !entry.oracleGap);
	const gaps = MUST_PASS.filter((entry) => entry.oracleGap);

	test(`${read.length} statements: one SELECT from webserviceview only`, () => {
		const problems = read
			.map((entry) => [entry.sql, oracleProblem(entry.sql)] as const)
			.filter(([, problem]) => problem !== undefined);
		assert.deepEqual(
			problems.map(([sql, problem]) => `${sql.slice(0, 100)}: ${problem}`),
			[],
		);
	});

	test(`${gaps.length} statements MySQL reads and the oracle does not (listed with the reason)`, () => {
		for (const entry of gaps)
			assert.notEqual(
				oracleProblem(entry.sql),
				undefined,
				`the oracle now reads ${entry.sql}: drop its oracleGap`,
			);
	});

	test('reports with fragments inserted that the rules let through: the oracle, where it reads them, finds nothing else either', () => {
		const problems: string[] = [];
		let read = 0;
		for (const raw of mutatedReports(6000, 7)) {
			const sql = cdrSqlToSend(raw);
			// The oracle takes -- without a following space for a comment (MySQL does not): its reading is not MySQL's.
			if (findCdrSqlViolation(sql) || sql.includes('--')) continue;
			const problem = oracleProblem(sql);
			if (problem === undefined) read++;
			else if (!problem.startsWith('cannot parse'))
				problems.push(`${sql.slice(0, 100)}: ${problem}`);
		}
		assert.deepEqual(problems, []);
		assert.ok(read > 300, `the oracle read ${read} of them`);
	});
});
