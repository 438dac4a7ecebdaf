/**
 * A statement checked against the rules of cdr_query's `sql` (sqlRules.ts) on MySQL's tokens
 * (sqlLexer.ts), under every reading of quoted text the server may use, so that no quote, backslash
 * or comment can hide a word from the check or make one up. The first problem in the statement is
 * reported, with the rule it breaks and what to do.
 */
import { lexMysql, type SqlReading, type SqlToken } from './sqlLexer';
import { CDR_SQL_RULES, type CdrSqlViolation, type Found } from './sqlRules';

/** The readings checked, MySQL's default first; each other one with the sql_mode that makes it. */
const READINGS: Array<{ reading: SqlReading; when?: string }> = [
	{ reading: { backslashEscapes: true, ansiQuotes: false } },
	{
		reading: { backslashEscapes: false, ansiQuotes: false },
		when: 'when the database reads \\ in quoted text as an ordinary character (sql_mode NO_BACKSLASH_ESCAPES)',
	},
	{
		reading: { backslashEscapes: true, ansiQuotes: true },
		when: 'when the database reads "…" as a name (sql_mode ANSI_QUOTES)',
	},
	{
		reading: { backslashEscapes: false, ansiQuotes: true },
		when:
			'when the database reads \\ as an ordinary character and "…" as a name ' +
			'(sql_mode NO_BACKSLASH_ESCAPES, ANSI_QUOTES)',
	},
];

const QUOTE_FIX =
	"Write a quote inside quoted text as two quotes ('It''s'), not with a backslash (\\'), and close every quote.";
/** The service's sql_mode is not shown: a statement must mean the same in each. */
const READING_FIX =
	'The statement must read the same in every sql_mode of the database: ' +
	`${QUOTE_FIX.charAt(0).toLowerCase()}${QUOTE_FIX.slice(1, -1)}; ` +
	`quote names with backticks, not "…".`;

/** The statement as it is sent: without one trailing `;` (it stacks nothing). */
export function cdrSqlToSend(sql: string): string {
	return sql.trim().replace(/;\s*$/, '');
}

/** The broken rule of a statement as sent (see cdrSqlToSend), or undefined when it may be sent. */
export function findCdrSqlViolation(sql: string): CdrSqlViolation | undefined {
	const bytes = Buffer.byteLength(sql, 'utf8');
	if (bytes > CDR_SQL_RULES.maxBytes) {
		return {
			rule: 'size',
			problem:
				`is ${bytes} bytes; cdr_query accepts at most ${CDR_SQL_RULES.maxBytes} ` +
				`bytes (letters outside English take 2-4 bytes each)`,
			fix: 'Shorten the statement: select fewer columns, use shorter lists of values, or split it into several queries.',
		};
	}
	for (const { reading, when } of READINGS) {
		const found = violationIn(sql, reading);
		if (!found) continue;
		if (!when) return { rule: found.rule, problem: found.problem, fix: found.fix };
		return {
			rule: found.rule,
			problem: `${found.problem}, ${when}`,
			fix: `${found.fix} ${READING_FIX}`,
		};
	}
	return undefined;
}

function violationIn(sql: string, reading: SqlReading): Found | undefined {
	const lexed = lexMysql(sql, reading);
	if ('nulAt' in lexed) {
		return {
			rule: 'unreadable',
			at: lexed.nulAt,
			problem: `contains a NUL character at character ${lexed.nulAt + 1}`,
			fix: 'Remove the NUL character (\\0); write CHAR(0) where a value needs one.',
		};
	}
	if ('unclosedQuote' in lexed) {
		return {
			rule: 'unreadable',
			at: lexed.at,
			problem: `has a quote ${lexed.unclosedQuote} at character ${lexed.at + 1} that is never closed`,
			fix: QUOTE_FIX,
		};
	}
	const tokens = lexed.tokens;
	const structure = checkStructure(tokens, sql.length);
	const candidates = [
		firstWordProblem(tokens),
		structure.found,
		checkQualifiedNames(tokens, structure.alias),
	];
	const found = candidates.filter((candidate): candidate is Found => candidate !== undefined);
	found.sort((a, b) => a.at - b.at || ruleOrder(a) - ruleOrder(b));
	return found[0];
}

/** Two problems at one token: the more specific rule first (FROM mysql.user: rule 3's schema, not rule 1's table). */
const TIE_ORDER: Array<CdrSqlViolation['rule']> = ['size', 'unreadable', 3, 4, 2, 1];
function ruleOrder(found: Found): number {
	return TIE_ORDER.indexOf(found.rule);
}

const where = (token: SqlToken) => `at character ${token.at + 1}`;

/** Whether a word is read as a keyword: not right after a `.` (MySQL reads `w.union` as a column). */
function isKeyword(tokens: SqlToken[], index: number, value?: string): boolean {
	const token = tokens[index];
	if (token?.kind !== 'word' || (value !== undefined && token.value !== value)) return false;
	const before = tokens[index - 1];
	return !(before?.kind === 'symbol' && before.text === '.' && before.at + 1 === token.at);
}

/** The next token that is not a comment. */
function nextCode(tokens: SqlToken[], index: number): SqlToken | undefined {
	for (let i = index + 1; i < tokens.length; i++)
		if (tokens[i].kind !== 'comment') return tokens[i];
	return undefined;
}

const isSymbol = (token: SqlToken | undefined, text: string) =>
	token?.kind === 'symbol' && token.text === text;
/** A word or quoted name in upper case (Unicode: the database's collation folds ı and ſ as well). */
const nameOf = (token: SqlToken | undefined) =>
	token?.kind === 'name'
		? token.value.toUpperCase()
		: token?.kind === 'word'
			? token.text.toUpperCase()
			: undefined;
const called = (tokens: SqlToken[], index: number) => isSymbol(nextCode(tokens, index), '(');
const includes = (list: readonly string[], value: string | undefined) =>
	value !== undefined && list.includes(value);

/** Rules 2, 3 and 4, token by token: the first problem in the statement. */
function firstWordProblem(tokens: SqlToken[]): Found | undefined {
	const first = tokens.findIndex((token) => token.kind !== 'comment');
	for (let i = 0; i < tokens.length; i++) {
		if (i === first) {
			if (isKeyword(tokens, i, 'SELECT')) continue;
			return notSelectFirst(tokens[i]);
		}
		const found = tokenProblem(tokens, i);
		if (found) return found;
	}
	return undefined;
}

function notSelectFirst(token: SqlToken): Found {
	return {
		rule: 1,
		at: token.at,
		problem: `starts with ${token.text.slice(0, 20)} instead of SELECT`,
		fix: `Start the statement with SELECT … FROM ${CDR_SQL_RULES.view}.`,
	};
}

function tokenProblem(tokens: SqlToken[], i: number): Found | undefined {
	const token = tokens[i];
	if (token.kind === 'comment') {
		return {
			rule: 4,
			at: token.at,
			problem: `has a comment (${token.text}) ${where(token)}`,
			fix:
				"Remove the comment: the service refuses every comment, including MySQL's " +
				"/*! … */. Put notes in the node's Notes instead.",
		};
	}
	if (token.kind === 'symbol') return symbolProblem(tokens, i);
	if (isKeyword(tokens, i)) {
		const found = keywordProblem(tokens, i);
		if (found) return found;
	}
	return functionProblem(tokens, i);
}

function symbolProblem(tokens: SqlToken[], i: number): Found | undefined {
	const token = tokens[i];
	if (token.text === ';') {
		return {
			rule: 2,
			at: token.at,
			problem: `has a ; ${where(token)} followed by more`,
			fix: 'Send one statement per Query; use a second Query node for a second statement.',
		};
	}
	if (token.text === ':=') {
		return {
			rule: 4,
			at: token.at,
			problem: `assigns with := ${where(token)}`,
			fix: 'Remove the assignment; compute the value in the select list (… AS name) or in a later n8n node.',
		};
	}
	if (token.text === '@' && isSymbol(nextCode(tokens, i), '@')) {
		return {
			rule: 4,
			at: token.at,
			problem: `reads a service variable (@@) ${where(token)}`,
			fix: 'Remove the @@ variable: the service does not let statements read its settings.',
		};
	}
	return undefined;
}

function keywordProblem(tokens: SqlToken[], i: number): Found | undefined {
	const token = tokens[i];
	const word = token.value;
	if (word === 'SELECT') {
		const inner = isSymbol(tokens[i - 1], '(');
		return {
			rule: 2,
			at: token.at,
			problem: `has ${inner ? 'a subquery' : 'a second SELECT'} ${where(token)}`,
			fix:
				'Use one SELECT: filter with WHERE on webserviceview itself, or run a second ' +
				'Query and combine the items in n8n (Merge, Compare Datasets).',
		};
	}
	if (includes(CDR_SQL_RULES.setWords, word)) {
		return {
			rule: 2,
			at: token.at,
			problem: `combines statements with ${word} ${where(token)}`,
			fix: `Run one Query per statement and combine the items in n8n (Merge); or use OR in one WHERE.`,
		};
	}
	if (includes(CDR_SQL_RULES.subqueryWords, word)) {
		return {
			rule: 2,
			at: token.at,
			problem: `has a ${word} subquery ${where(token)}`,
			fix: 'Read webserviceview only, with one SELECT; put lists of values in IN (…).',
		};
	}
	if (includes(CDR_SQL_RULES.writingWords, word)) {
		const into = word === 'INTO' ? `INTO ${intoTarget(tokens, i)}`.trim() : word;
		const fix =
			word === 'INTO'
				? "Remove INTO …: the rows come back as the node's output items."
				: `Remove ${word}: cdr_query only reads.`;
		return { rule: 3, at: token.at, problem: `uses ${into} ${where(token)}`, fix };
	}
	if (
		word === 'LOCK' ||
		(word === 'FOR' &&
			depthAt(tokens, i) === 0 &&
			!isKeyword(tokens, codeIndexAfter(tokens, i), 'UPDATE'))
	) {
		return {
			rule: 4,
			at: token.at,
			problem: `asks for locks (${word} …) ${where(token)}`,
			fix: 'Remove the locking clause (FOR SHARE, LOCK IN SHARE MODE): like GET_LOCK(), it makes others wait.',
		};
	}
	return schemaProblem(tokens, i);
}

/** What INTO writes to, as written: OUTFILE, DUMPFILE or @name. */
function intoTarget(tokens: SqlToken[], into: number): string {
	const target = codeIndexAfter(tokens, into);
	const text = tokens[target]?.text ?? '';
	return text === '@' ? `@${tokens[codeIndexAfter(tokens, target)]?.text ?? ''}` : text;
}

/** Rule 3 for a word or quoted name: a system schema or a function the rules forbid. */
function schemaProblem(tokens: SqlToken[], i: number): Found | undefined {
	const token = tokens[i];
	const name = nameOf(token);
	const [always, dotted] = [
		CDR_SQL_RULES.systemSchemas.slice(0, 2),
		CDR_SQL_RULES.systemSchemas.slice(2),
	];
	if (includes(always, name) || (includes(dotted, name) && isSymbol(nextCode(tokens, i), '.'))) {
		return {
			rule: 3,
			at: token.at,
			problem: `reads the server's schema ${token.text} ${where(token)}`,
			fix: `Read the calls from ${CDR_SQL_RULES.view} only.`,
		};
	}
	return undefined;
}

function functionProblem(tokens: SqlToken[], i: number): Found | undefined {
	const token = tokens[i];
	if (token.kind !== 'word' && token.kind !== 'name') return undefined;
	const name = nameOf(token);
	const schema = schemaProblem(tokens, i);
	if (schema) return schema;
	if (
		(token.kind === 'word' && name === 'CURRENT_USER') ||
		(includes(CDR_SQL_RULES.serverFunctions, name) && called(tokens, i))
	) {
		return {
			rule: 3,
			at: token.at,
			problem: `calls ${token.text}() ${where(token)}`,
			fix: `Remove ${token.text}(): it reads files or the server's own data, not the calls.`,
		};
	}
	if (includes(CDR_SQL_RULES.timingFunctions, name) && called(tokens, i)) {
		return {
			rule: 4,
			at: token.at,
			problem: `calls the timing function ${token.text}() ${where(token)}`,
			fix: `Remove ${token.text}(): the service refuses functions that wait or hold locks.`,
		};
	}
	return undefined;
}

/** Parentheses open before a token; a ) with none open is ignored. */
function depthAt(tokens: SqlToken[], index: number): number {
	let depth = 0;
	for (let i = 0; i < index; i++) {
		if (isSymbol(tokens[i], '(')) depth++;
		else if (isSymbol(tokens[i], ')')) depth = Math.max(0, depth - 1);
	}
	return depth;
}

/** Words that end the table part of FROM at depth 0. */
const CLAUSE_WORDS = [
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
];
const JOIN_WORDS = [
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
];

/**
 * Rule 1: FROM webserviceview, once, at depth 0, with at most an alias; FROM inside parentheses
 * only in EXTRACT/TRIM/SUBSTRING.
 */
function checkStructure(tokens: SqlToken[], end: number): { found?: Found; alias?: string } {
	const calls: string[] = [];
	let from: number | undefined;
	let extra: Found | undefined;
	for (let i = 0; i < tokens.length && extra === undefined; i++) {
		const token = tokens[i];
		if (isSymbol(token, '(')) calls.push(nameOf(previousCode(tokens, i)) ?? '');
		else if (isSymbol(token, ')')) calls.pop();
		else if (
			isKeyword(tokens, i, 'FROM') &&
			!includes(CDR_SQL_RULES.fromFunctions, calls[calls.length - 1])
		) {
			if (calls.length === 0 && from === undefined) from = i;
			else
				extra = {
					rule: 1,
					at: token.at,
					problem: `has a second FROM ${where(token)}`,
					fix: `Select FROM ${CDR_SQL_RULES.view} once, with no other table.`,
				};
		}
	}
	if (from === undefined) {
		const missing: Found = {
			rule: 1,
			at: end,
			problem: `has no FROM ${CDR_SQL_RULES.view}`,
			fix: `Select the calls FROM ${CDR_SQL_RULES.view}.`,
		};
		return { found: extra ?? missing };
	}
	const table = tableReference(tokens, from);
	const found = [table.found, extra]
		.filter((candidate): candidate is Found => candidate !== undefined)
		.sort((a, b) => a.at - b.at)[0];
	return { found, alias: table.alias };
}

function previousCode(tokens: SqlToken[], index: number): SqlToken | undefined {
	for (let i = index - 1; i >= 0; i--) if (tokens[i].kind !== 'comment') return tokens[i];
	return undefined;
}

function codeIndexAfter(tokens: SqlToken[], index: number): number {
	let i = index + 1;
	while (i < tokens.length && tokens[i].kind === 'comment') i++;
	return i;
}

/** What follows FROM: webserviceview, then AS alias / alias, then a clause or the end. */
function tableReference(tokens: SqlToken[], from: number): { found?: Found; alias?: string } {
	const view = CDR_SQL_RULES.view;
	const fromToken = tokens[from];
	let i = codeIndexAfter(tokens, from);
	const table = tokens[i];
	const tableName =
		table?.kind === 'word' || table?.kind === 'name' ? table.value.toLowerCase() : undefined;
	if (
		tableName !== view ||
		isSymbol(nextCode(tokens, i), '.') ||
		isSymbol(nextCode(tokens, i), '(')
	) {
		const what = table ? `reads ${table.text.slice(0, 40)}` : 'names no table';
		return {
			found: {
				rule: 1,
				at: (table ?? fromToken).at,
				problem: `${what} after FROM ${where(table ?? fromToken)}, not ${view}`,
				fix: `Select FROM ${view}: the service lets statements read that view only.`,
			},
		};
	}
	i = codeIndexAfter(tokens, i);
	if (isKeyword(tokens, i, 'AS')) i = codeIndexAfter(tokens, i);
	let alias: string | undefined;
	const candidate = tokens[i];
	if (
		candidate &&
		(candidate.kind === 'name' ||
			(candidate.kind === 'word' && isKeyword(tokens, i) && !isReserved(candidate.value)))
	) {
		alias =
			candidate.kind === 'name' ? candidate.value.toLowerCase() : candidate.text.toLowerCase();
		i = codeIndexAfter(tokens, i);
	}
	const after = tokens[i];
	if (
		after === undefined ||
		isSymbol(after, ';') ||
		(isKeyword(tokens, i) && includes(CLAUSE_WORDS, after.value)) ||
		after.kind === 'comment'
	) {
		return { alias };
	}
	const joined =
		isSymbol(after, ',') || (after.kind === 'word' && includes(JOIN_WORDS, after.value));
	const problem = joined
		? `joins another table (${after.text}) ${where(after)}`
		: `has ${after.text.slice(0, 20)} after FROM ${view} ${where(after)}`;
	const fix = joined
		? `Read ${view} alone: no JOIN and no second table after a comma.`
		: `After FROM ${view} only an alias may follow (FROM ${view} AS w), then WHERE, GROUP BY, ORDER BY or LIMIT.`;
	return { found: { rule: 1, at: after.at, problem, fix }, alias };
}

function isReserved(word: string): boolean {
	return (
		includes(CLAUSE_WORDS, word) ||
		includes(JOIN_WORDS, word) ||
		['AS', 'USE', 'FORCE', 'IGNORE', 'PARTITION', 'TABLESAMPLE'].includes(word)
	);
}

/**
 * Rule 1 for `a.b`: a name may be qualified by webserviceview or its alias only; no
 * `db.table.column`, no `db.function()`.
 */
function checkQualifiedNames(tokens: SqlToken[], alias: string | undefined): Found | undefined {
	const allowed = [CDR_SQL_RULES.view, alias].filter((name): name is string => name !== undefined);
	const code = tokens.filter((token) => token.kind !== 'comment');
	for (let i = 1; i < code.length; i++) {
		if (!isSymbol(code[i], '.')) continue;
		const left = code[i - 1];
		if (left.kind !== 'name' && left.kind !== 'word') continue;
		const qualifier = (left.kind === 'name' ? left.value : left.text).toLowerCase();
		if (includes(CDR_SQL_RULES.systemSchemas, qualifier.toUpperCase())) continue; // rule 3 names it
		const right = code[i + 1];
		const shown = `${qualifier}.${right?.text ?? ''}`;
		if (isSymbol(code[i - 2], '.') || !allowed.includes(qualifier)) {
			return {
				rule: 1,
				at: left.at,
				problem: `reads ${shown} ${where(left)}, outside ${CDR_SQL_RULES.view}`,
				fix: `Qualify columns with ${allowed.join(' or ')} only, or not at all.`,
			};
		}
		if (isSymbol(code[i + 2], '(')) {
			return {
				rule: 1,
				at: left.at,
				problem: `calls ${shown}() ${where(left)}, a stored function`,
				fix: "Use MySQL's own functions only, unqualified.",
			};
		}
	}
	return undefined;
}
