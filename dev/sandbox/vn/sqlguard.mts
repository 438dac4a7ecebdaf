// cdr_query's rules as the emulated service applies them, then the accepted statement translated
// from MySQL to the SQLite the sandbox runs. Written apart from the node's check on purpose: the
// sandbox stands for the service, so a hole in the node's check must not be mirrored here.
//
// How a statement is read: MySQL's lexical rules (quotes '…' "…" `…`, both backslash modes,
// ANSI_QUOTES, comments # -- /* */ /*! */, `1e1union` = 1e1 union). Every reading must pass,
// since the service's sql_mode is not shown; the first problem in the statement is the reason.
import { translateToSqlite } from './sqltranslate.mts';

export const MAX_SQL_BYTES = 8192;

export type GuardRule = 1 | 2 | 3 | 4 | 'size' | 'unreadable';

export type GuardResult =
	| { ok: true; sql: string; wantsRecordFlag: boolean }
	/** 1012: the statement breaks a rule (reason in the description). */
	| { ok: false; code: 1012; rule: GuardRule; reason: string }
	/** 1013: allowed, but the sandbox's SQLite cannot run it. */
	| { ok: false; code: 1013; reason: string };

export type LexKind = 'word' | 'quoted' | 'string' | 'number' | 'op' | 'remark';
export interface Lexeme {
	kind: LexKind;
	src: string;
	/** word: ASCII upper case; quoted: the name; string: the raw inside. */
	val: string;
	pos: number;
}

interface Dialect {
	backslash: boolean;
	ansi: boolean;
	note: string;
}

const DIALECTS: Dialect[] = [
	{ backslash: true, ansi: false, note: '' },
	{ backslash: false, ansi: false, note: ' (read with NO_BACKSLASH_ESCAPES)' },
	{ backslash: true, ansi: true, note: ' (read with ANSI_QUOTES)' },
	{ backslash: false, ansi: true, note: ' (read with NO_BACKSLASH_ESCAPES and ANSI_QUOTES)' },
];

// Atomic groups ((?=(…))\1) so that a quote is never re-paired by backtracking.
const SINGLE = { on: /'(?=((?:[^'\\]|\\[\s\S]|'')*))\1'/y, off: /'(?=((?:[^']|'')*))\1'/y };
const DOUBLE = { on: /"(?=((?:[^"\\]|\\[\s\S]|"")*))\1"/y, off: /"(?=((?:[^"]|"")*))\1"/y };
const BACKTICK = /`(?=((?:[^`]|``)*))\1`/y;
const SPACE = /[ \t\n\v\f\r]+/y;
const REMARK = /#[^\n]*|--(?=[\x00-\x20\x7f]|$)[^\n]*|\/\*[\s\S]*?(?:\*\/|$)|\*\//y;
const NUMBER =
	/\d*\.\d+(?:[eE][+-]?\d+)?|\d+\.\d*(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+|(?:0x[0-9a-fA-F]+|0b[01]+|\d+)(?![\w$\u0080-\uffff])/y;
const WORD = /[\w$\u0080-\uffff]+/y;
const OP = /<=>|->>|:=|<=|>=|<>|!=|->|&&|\|\||<<|>>|[\s\S]/y;

function sticky(pattern: RegExp, sql: string, pos: number): string | undefined {
	pattern.lastIndex = pos;
	return pattern.exec(sql)?.[0];
}

const upper = (text: string) => text.replace(/[a-z]/g, (c) => c.toUpperCase());

/** The lexemes of a statement in one dialect, or the position of a quote that never closes. */
export function lex(sql: string, dialect: Dialect): Lexeme[] | { unclosed: number } {
	const out: Lexeme[] = [];
	let pos = 0;
	while (pos < sql.length) {
		const space = sticky(SPACE, sql, pos);
		if (space) {
			pos += space.length;
			continue;
		}
		const c = sql[pos];
		let kind: LexKind;
		let src: string | undefined;
		if (c === "'" || c === '"' || c === '`') {
			const pattern =
				c === '`'
					? BACKTICK
					: (c === "'" ? SINGLE : DOUBLE)[
							dialect.backslash && !(c === '"' && dialect.ansi) ? 'on' : 'off'
						];
			src = sticky(pattern, sql, pos);
			if (src === undefined) return { unclosed: pos };
			kind = c === '`' || (c === '"' && dialect.ansi) ? 'quoted' : 'string';
		} else if ((src = sticky(REMARK, sql, pos))) kind = 'remark';
		else if ((src = sticky(NUMBER, sql, pos))) kind = 'number';
		else if ((src = sticky(WORD, sql, pos))) kind = 'word';
		else [kind, src] = ['op', sticky(OP, sql, pos) as string];
		const inner = src.slice(1, -1);
		const val =
			kind === 'word'
				? upper(src)
				: kind === 'quoted'
					? inner.split(c + c).join(c)
					: kind === 'string'
						? inner
						: src;
		out.push({ kind, src, val, pos });
		pos += src.length;
	}
	return out;
}

// ---- the rules ----

const RULE3_WORDS = new Set([
	'INSERT',
	'UPDATE',
	'DELETE',
	'DROP',
	'ALTER',
	'CREATE',
	'TRUNCATE',
	'RENAME',
	'GRANT',
	'REVOKE',
	'INTO',
	'PROCEDURE',
	'HANDLER',
]);
const SCHEMAS_ANYWHERE = new Set(['INFORMATION_SCHEMA', 'PERFORMANCE_SCHEMA']);
const SCHEMAS_DOTTED = new Set(['MYSQL', 'SYS', 'NDBINFO']);
const SERVER_CALLS = new Set([
	'LOAD_FILE',
	'DATABASE',
	'SCHEMA',
	'USER',
	'CURRENT_USER',
	'SESSION_USER',
	'SYSTEM_USER',
	'VERSION',
	'CONNECTION_ID',
	'CURRENT_ROLE',
	'ROLES_GRAPHML',
]);
const WAITING_CALLS = new Set([
	'SLEEP',
	'BENCHMARK',
	'GET_LOCK',
	'RELEASE_LOCK',
	'RELEASE_ALL_LOCKS',
	'IS_FREE_LOCK',
	'IS_USED_LOCK',
	'MASTER_POS_WAIT',
	'SOURCE_POS_WAIT',
	'WAIT_FOR_EXECUTED_GTID_SET',
	'WAIT_UNTIL_SQL_THREAD_AFTER_GTIDS',
]);
const SET_OPERATORS = new Set(['UNION', 'EXCEPT', 'INTERSECT']);
const NESTING = new Set(['TABLE', 'VALUES']);
const FROM_INSIDE = new Set(['EXTRACT', 'TRIM', 'SUBSTRING', 'SUBSTR', 'MID']);
const CLAUSES = new Set([
	'WHERE',
	'GROUP',
	'HAVING',
	'ORDER',
	'LIMIT',
	'WINDOW',
	'FOR',
	'LOCK',
	'INTO',
	'PROCEDURE',
	'UNION',
	'EXCEPT',
	'INTERSECT',
]);
const JOINS = new Set([
	'JOIN',
	'INNER',
	'CROSS',
	'LEFT',
	'RIGHT',
	'NATURAL',
	'STRAIGHT_JOIN',
	'OUTER',
	'FULL',
	'ON',
	'USING',
]);
const NOT_ALIASES = new Set([
	...CLAUSES,
	...JOINS,
	'AS',
	'USE',
	'FORCE',
	'IGNORE',
	'PARTITION',
	'TABLESAMPLE',
]);

interface Problem {
	rule: GuardRule;
	pos: number;
	text: string;
}

/** The statement without its comments, each lexeme with what the rules need to know about it. */
class Statement {
	readonly code: Lexeme[];
	constructor(
		readonly all: Lexeme[],
		/** Characters in the statement: where a missing FROM is reported. */
		readonly length: number,
	) {
		this.code = all.filter((l) => l.kind !== 'remark');
	}
	/** A word MySQL reads as a keyword (a word glued to a preceding `.` is a column name). */
	keyword(i: number, value?: string): boolean {
		const l = this.code[i];
		if (!l || l.kind !== 'word' || (value && l.val !== value)) return false;
		const dot = this.code[i - 1];
		return !(dot?.kind === 'op' && dot.src === '.' && dot.pos + 1 === l.pos);
	}
	op(i: number, src: string): boolean {
		return this.code[i]?.kind === 'op' && this.code[i].src === src;
	}
	/** A word or quoted name, upper case (Unicode: the database's collation folds ı and ſ too). */
	name(i: number): string | undefined {
		const l = this.code[i];
		return l?.kind === 'word' || l?.kind === 'quoted'
			? (l.kind === 'word' ? l.src : l.val).toUpperCase()
			: undefined;
	}
}

/** Every problem of one reading, in no particular order. */
function problemsOf(st: Statement): Problem[] {
	const found: Problem[] = [];
	for (const remark of st.all.filter((l) => l.kind === 'remark'))
		found.push({
			rule: 4,
			pos: remark.pos,
			text: `comments are not allowed (${remark.src.slice(0, 3)})`,
		});
	if (!st.keyword(0, 'SELECT'))
		found.push({
			rule: 1,
			pos: st.code[0]?.pos ?? 0,
			text: 'the statement must start with SELECT',
		});
	let depth = 0;
	for (let i = 1; i < st.code.length; i++) {
		if (st.op(i, '(')) depth++;
		if (st.op(i, ')')) depth = Math.max(0, depth - 1);
		const problem = lexemeProblem(st, i, depth);
		if (problem) found.push(problem);
	}
	found.push(...fromProblems(st));
	return found;
}

function lexemeProblem(st: Statement, i: number, depth: number): Problem | undefined {
	const l = st.code[i];
	const at = (rule: GuardRule, text: string): Problem => ({ rule, pos: l.pos, text });
	if (st.op(i, ';')) return at(2, 'only one statement is allowed (no ; stacking)');
	if (st.op(i, ':=')) return at(4, 'assignment (:=) is not allowed');
	if (st.op(i, '@') && st.op(i + 1, '@')) return at(4, 'service variables (@@) are not allowed');
	const calls = st.op(i + 1, '(');
	const name = st.name(i);
	if (st.keyword(i)) {
		if (l.val === 'SELECT') return at(2, 'exactly one SELECT is allowed (no subqueries)');
		if (SET_OPERATORS.has(l.val)) return at(2, `${l.val} is not allowed`);
		if (NESTING.has(l.val)) return at(2, `subqueries are not allowed (${l.val})`);
		if (RULE3_WORDS.has(l.val)) {
			const target = st.op(i + 1, '@')
				? `@${st.code[i + 2]?.src ?? ''}`
				: (st.code[i + 1]?.src ?? '');
			return at(3, `${l.val === 'INTO' ? `INTO ${target}`.trim() : l.val} is not allowed`);
		}
		if (l.val === 'LOCK' || (l.val === 'FOR' && depth === 0 && !st.keyword(i + 1, 'UPDATE')))
			return at(4, `locking reads are not allowed (${l.val})`);
	}
	if (name === undefined) return undefined;
	if (SCHEMAS_ANYWHERE.has(name) || (SCHEMAS_DOTTED.has(name) && st.op(i + 1, '.')))
		return at(3, `access to the schema ${l.src} is not allowed`);
	if ((l.kind === 'word' && name === 'CURRENT_USER') || (SERVER_CALLS.has(name) && calls))
		return at(3, `${name}() is not allowed`);
	if (WAITING_CALLS.has(name) && calls)
		return at(4, `the timing function ${name}() is not allowed`);
	return undefined;
}

/** Rule 1: where FROM stands, what follows it, and which names qualify columns. */
function fromProblems(st: Statement): Problem[] {
	const found: Problem[] = [];
	const open: string[] = [];
	let from = -1;
	for (let i = 0; i < st.code.length; i++) {
		if (st.op(i, '(')) open.push(st.name(i - 1) ?? '');
		else if (st.op(i, ')')) open.pop();
		else if (st.keyword(i, 'FROM') && !FROM_INSIDE.has(open[open.length - 1] ?? '')) {
			if (open.length === 0 && from === -1) from = i;
			else
				found.push({
					rule: 1,
					pos: st.code[i].pos,
					text: 'only one FROM webserviceview is allowed',
				});
		}
	}
	if (from === -1) {
		found.push({ rule: 1, pos: st.length, text: 'the statement must select FROM webserviceview' });
		return [...found, ...qualifierProblems(st, ['webserviceview'])];
	}
	const { problem, alias } = afterFrom(st, from);
	if (problem) found.push(problem);
	return [...found, ...qualifierProblems(st, ['webserviceview', ...(alias ? [alias] : [])])];
}

function afterFrom(st: Statement, from: number): { problem?: Problem; alias?: string } {
	let i = from + 1;
	const table = st.code[i];
	const tableName =
		table && (table.kind === 'word' || table.kind === 'quoted') ? table.val.toLowerCase() : '';
	if (tableName !== 'webserviceview' || st.op(i + 1, '.') || st.op(i + 1, '(')) {
		return {
			problem: {
				rule: 1,
				pos: (table ?? st.code[from]).pos,
				text: `only the view webserviceview may be queried (found ${table ? table.src.slice(0, 40) : 'nothing'})`,
			},
		};
	}
	i++;
	if (st.keyword(i, 'AS')) i++;
	let alias: string | undefined;
	const next = st.code[i];
	if (next?.kind === 'quoted' || (st.keyword(i) && !NOT_ALIASES.has(next.val))) {
		alias = next.kind === 'quoted' ? next.val.toLowerCase() : next.src.toLowerCase();
		i++;
	}
	const after = st.code[i];
	if (!after || st.op(i, ';') || (st.keyword(i) && CLAUSES.has(after.val))) return { alias };
	const joined = st.op(i, ',') || (after.kind === 'word' && JOINS.has(after.val));
	const text = joined
		? `only the view webserviceview may be queried (no JOIN or comma list: ${after.src})`
		: `only an alias may follow FROM webserviceview (found ${after.src.slice(0, 20)})`;
	return { problem: { rule: 1, pos: after.pos, text }, alias };
}

function qualifierProblems(st: Statement, allowed: string[]): Problem[] {
	for (let i = 1; i < st.code.length; i++) {
		const q = st.code[i - 1];
		if (!st.op(i, '.') || (q.kind !== 'word' && q.kind !== 'quoted')) continue;
		const qualifier = (q.kind === 'quoted' ? q.val : q.src).toLowerCase();
		if (
			SCHEMAS_ANYWHERE.has(qualifier.toUpperCase()) ||
			SCHEMAS_DOTTED.has(qualifier.toUpperCase())
		)
			continue;
		if (st.op(i - 2, '.') || !allowed.includes(qualifier)) {
			return [
				{
					rule: 1,
					pos: q.pos,
					text: `only webserviceview may be read (found ${qualifier}.${st.code[i + 1]?.src ?? ''})`,
				},
			];
		}
		if (st.op(i + 2, '('))
			return [
				{
					rule: 1,
					pos: q.pos,
					text: `stored functions are not allowed (${qualifier}.${st.code[i + 1]?.src ?? ''})`,
				},
			];
	}
	return [];
}

// At one position the more specific rule wins: FROM mysql.user is rule 3 (schema), not rule 1 (table).
const RANK: Record<string, number> = { size: 0, unreadable: 0, 3: 1, 4: 2, 2: 3, 1: 4 };

/** The first problem of the statement over every reading, or the lexemes of MySQL's default reading. */
function check(sql: string): Problem | Lexeme[] {
	if (sql.includes('\0'))
		return {
			rule: 'unreadable',
			pos: sql.indexOf('\0'),
			text: 'the statement contains a NUL character',
		};
	let accepted: Lexeme[] | undefined;
	for (const dialect of DIALECTS) {
		const lexemes = lex(sql, dialect);
		if (!Array.isArray(lexemes))
			return {
				rule: 'unreadable',
				pos: lexemes.unclosed,
				text: `unterminated quote at character ${lexemes.unclosed + 1}${dialect.note}`,
			};
		const problems = problemsOf(new Statement(lexemes, sql.length)).sort(
			(a, b) => a.pos - b.pos || RANK[a.rule] - RANK[b.rule],
		);
		if (problems.length > 0) return { ...problems[0], text: problems[0].text + dialect.note };
		accepted ??= lexemes;
	}
	return accepted as Lexeme[];
}

export function guardSql(sql: string): GuardResult {
	const statement = sql.replace(/;[ \t\n\v\f\r]*$/, '');
	if (Buffer.byteLength(statement, 'utf8') > MAX_SQL_BYTES) {
		return {
			ok: false,
			code: 1012,
			rule: 'size',
			reason: `The statement is longer than ${MAX_SQL_BYTES} bytes`,
		};
	}
	const checked = check(statement);
	if (!Array.isArray(checked)) {
		const rule = typeof checked.rule === 'number' ? `Rule ${checked.rule}: ` : '';
		return {
			ok: false,
			code: 1012,
			rule: checked.rule,
			reason: `${rule}${checked.text} (at character ${checked.pos + 1})`,
		};
	}
	return translateToSqlite(checked);
}
