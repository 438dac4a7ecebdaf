// An accepted cdr_query statement, rewritten from MySQL into the SQLite (sql.js) the sandbox runs
// it on. Works on the lexemes of MySQL's default reading, so quoted text is never touched by a
// rewrite. What SQLite cannot do is answered 1013 with a sentence saying so (see sandbox/README.md).
import type { GuardResult, Lexeme } from './sqlguard.mts';

interface Piece {
	/** SQLite text. */
	sql: string;
	/** Upper case when the piece is a keyword-able word (not a quoted name, not after a `.`). */
	word?: string;
	/** The value of a string literal. */
	text?: string;
	/** Written without a space before it (kept, so that unnamed columns are named as in MySQL: COUNT(*)). */
	glue?: boolean;
}

class Unsupported extends Error {}

const UNITS = new Set([
	'MICROSECOND',
	'SECOND',
	'MINUTE',
	'HOUR',
	'DAY',
	'WEEK',
	'MONTH',
	'QUARTER',
	'YEAR',
]);
const DROPPED = new Set([
	'SQL_NO_CACHE',
	'SQL_CACHE',
	'SQL_CALC_FOUND_ROWS',
	'HIGH_PRIORITY',
	'SQL_SMALL_RESULT',
	'SQL_BIG_RESULT',
	'SQL_BUFFER_RESULT',
]);
const RENAMED: Record<string, string> = {
	RLIKE: 'REGEXP',
	DISTINCTROW: 'DISTINCT',
	DIV: '/',
	LOCALTIME: 'NOW()',
	LOCALTIMESTAMP: 'NOW()',
	CURRENT_TIMESTAMP: 'NOW()',
	CURRENT_DATE: 'CURDATE()',
	CURRENT_TIME: 'CURTIME()',
};
const OPERATORS: Record<string, string> = {
	'||': 'OR',
	'&&': 'AND',
	'<=>': 'IS',
	'!': 'NOT',
	'/': '* 1.0 /',
};
const ESCAPES: Record<string, string> = {
	'0': '\0',
	b: '\b',
	n: '\n',
	r: '\r',
	t: '\t',
	Z: '\x1a',
	'%': '\\%',
	_: '\\_',
};

const literal = (text: string): Piece => ({ sql: `'${text.replace(/'/g, "''")}'`, text });

/** A MySQL string literal's value (default mode: backslash escapes). */
function decode(l: Lexeme): string {
	const quote = l.src[0];
	return l.val.replace(
		/\\([\s\S])|(['"])\2/g,
		(m, escaped: string | undefined, doubled: string | undefined) =>
			escaped !== undefined ? (ESCAPES[escaped] ?? escaped) : doubled === quote ? doubled : m,
	);
}

function adjacent(a: Lexeme | undefined, b: Lexeme): boolean {
	return a !== undefined && a.pos + a.src.length === b.pos;
}

/** `CURRENT_TIMESTAMP()`: the () after a word renamed to a call such as NOW(). */
function emptyParensOfRenamed(lexemes: Lexeme[], i: number): boolean {
	const renamedCall = (l: Lexeme | undefined) =>
		l?.kind === 'word' && (RENAMED[l.val] ?? '').endsWith('()');
	const src = lexemes[i].src;
	if (lexemes[i].kind !== 'op') return false;
	if (src === '(') return renamedCall(lexemes[i - 1]) && lexemes[i + 1]?.src === ')';
	return src === ')' && lexemes[i - 1]?.src === '(' && renamedCall(lexemes[i - 2]);
}

/** Lexemes to pieces: literals decoded (adjacent ones joined, as MySQL does), names quoted, operators mapped. */
function toPieces(lexemes: Lexeme[]): Piece[] {
	const pieces: Piece[] = [];
	lexemes.forEach((l, i) => {
		const before = lexemes[i - 1];
		const piece = pieceOf(lexemes, i, pieces);
		if (piece) pieces.push({ ...piece, glue: adjacent(before, l) });
	});
	return pieces;
}

/** The piece of one lexeme, or undefined when it is dropped or merged into the previous piece. */
function pieceOf(lexemes: Lexeme[], i: number, pieces: Piece[]): Piece | undefined {
	const l = lexemes[i];
	const before = lexemes[i - 1];
	if (l.kind === 'string') {
		if (before?.kind === 'word' && adjacent(before, l) && /^(_\w+|N|X)$/i.test(before.src)) {
			pieces.pop();
			if (/^X$/i.test(before.src)) return { sql: `X'${l.val}'` };
		}
		const previous = pieces[pieces.length - 1];
		if (previous?.text === undefined) return literal(decode(l));
		pieces.splice(-1, 1, { ...literal(previous.text + decode(l)), glue: previous.glue });
		return undefined;
	}
	if (l.kind === 'quoted' || (l.kind === 'word' && before?.src === '.' && adjacent(before, l))) {
		return { sql: `"${(l.kind === 'quoted' ? l.val : l.src).replace(/"/g, '""')}"` };
	}
	if (l.kind === 'op' && l.src === '@')
		throw new Unsupported('user variables (@name) are not supported by the sandbox');
	if (emptyParensOfRenamed(lexemes, i)) return undefined;
	if (l.kind !== 'word') return { sql: l.kind === 'op' ? (OPERATORS[l.src] ?? l.src) : l.src };
	if (DROPPED.has(l.val)) return undefined;
	if (l.val === 'MOD' && lexemes[i + 1]?.src !== '(') return { sql: '%' };
	return RENAMED[l.val] ? { sql: RENAMED[l.val] } : { sql: l.src, word: l.val };
}

/** SQLite text of the pieces: glued where the statement was, spaced where gluing would make other tokens (-- /* 1a). */
function joined(pieces: Piece[]): string {
	let out = '';
	for (const piece of pieces) {
		const pair = (out.slice(-1) + piece.sql.slice(0, 1)).replace(/[\w$\u0080-\uffff]/g, 'a');
		const risky = ['--', '/*', '*/', 'aa'].includes(pair);
		out += out === '' || (piece.glue && !risky) ? piece.sql : ` ${piece.sql}`;
	}
	return out;
}

const isOpen = (p: Piece | undefined) => p?.sql === '(';
const isClose = (p: Piece | undefined) => p?.sql === ')';

function closing(pieces: Piece[], open: number): number {
	let depth = 0;
	for (let i = open; i < pieces.length; i++) {
		if (isOpen(pieces[i])) depth++;
		else if (isClose(pieces[i]) && --depth === 0) return i;
	}
	throw new Unsupported('unbalanced parentheses');
}

/** Indices of the pieces of `inner` outside any parentheses. */
function topLevel(inner: Piece[]): number[] {
	const indices: number[] = [];
	let depth = 0;
	inner.forEach((p, i) => {
		if (isOpen(p)) depth++;
		else if (isClose(p)) depth--;
		else if (depth === 0) indices.push(i);
	});
	return indices;
}

const findWord = (inner: Piece[], word: string) =>
	topLevel(inner).find((i) => inner[i].word === word);
const call = (name: string, args: Piece[], glue?: boolean): Piece[] => [
	{ sql: name, word: name.toUpperCase(), glue },
	{ sql: '(', glue: true },
	...args,
	{ sql: ')', glue: true },
];
const comma: Piece = { sql: ',', glue: true };

function unitOf(piece: Piece | undefined): string {
	const unit = piece?.word ?? '';
	if (!UNITS.has(unit))
		throw new Unsupported(
			`the INTERVAL unit ${piece?.sql ?? '(none)'} is not supported by the sandbox`,
		);
	return unit;
}

/** `INTERVAL amount UNIT` as the arguments `amount, 'UNIT'` of the sandbox's DATE_ADD/DATE_SUB. */
function intervalArgs(pieces: Piece[]): Piece[] {
	return [...pieces.slice(1, -1), comma, literal(unitOf(pieces[pieces.length - 1]))];
}

/** MySQL's special argument syntax (FROM, FOR, SEPARATOR, AS type, INTERVAL) as plain SQLite arguments; undefined: as written. */
function rewriteCall(name: Piece, inner: Piece[]): Piece[] | undefined {
	const word = name.word ?? '';
	const from = findWord(inner, 'FROM');
	if (word === 'EXTRACT' && from === 1)
		return call('EXTRACT', [literal(unitOf(inner[0])), comma, ...inner.slice(2)]);
	if (word === 'TRIM' && from !== undefined) {
		const side = ['LEADING', 'TRAILING', 'BOTH'].includes(inner[0]?.word ?? '')
			? (inner[0].word as string)
			: undefined;
		const removed = inner.slice(side ? 1 : 0, from);
		return call('sbx_trim', [
			literal(side ?? 'BOTH'),
			comma,
			...(removed.length ? removed : [literal(' ')]),
			comma,
			...inner.slice(from + 1),
		]);
	}
	if (['SUBSTRING', 'SUBSTR', 'MID'].includes(word)) {
		const forAt = findWord(inner, 'FOR');
		const args = inner.map((p, i) => (i === from || i === forAt ? comma : p));
		return call('substr', args);
	}
	if (word === 'GROUP_CONCAT') return call('group_concat', groupConcatArgs(inner));
	if (word === 'CAST') {
		const as = findWord(inner, 'AS');
		const type = as === undefined ? '' : (inner[as + 1]?.word ?? '');
		if (as !== undefined && (type === 'DATE' || type === 'TIME'))
			return call(type.toLowerCase(), inner.slice(0, as));
		return call('CAST', castArgs(inner));
	}
	if (['DATE_ADD', 'DATE_SUB', 'ADDDATE', 'SUBDATE'].includes(word)) {
		const at = findWord(inner, 'INTERVAL');
		const fn = word === 'DATE_ADD' || word === 'ADDDATE' ? 'DATE_ADD' : 'DATE_SUB';
		return call(
			fn,
			at === undefined
				? [...inner, comma, literal('DAY')]
				: [...inner.slice(0, at), ...intervalArgs(inner.slice(at))],
		);
	}
	if ((word === 'TIMESTAMPDIFF' || word === 'TIMESTAMPADD') && inner[1]?.sql === ',')
		return call(word, [literal(unitOf(inner[0])), ...inner.slice(1)]);
	if (word === 'UNIX_TIMESTAMP' && inner.length === 0) return call(word, [{ sql: 'NOW()' }]);
	if (word === 'LEFT' || word === 'RIGHT') return call(`sbx_${word.toLowerCase()}`, inner);
	return undefined;
}

/** SQLite: group_concat(x, sep ORDER BY y); MySQL: GROUP_CONCAT(x ORDER BY y SEPARATOR sep). */
function groupConcatArgs(inner: Piece[]): Piece[] {
	const separator = findWord(inner, 'SEPARATOR');
	const body = separator === undefined ? inner : inner.slice(0, separator);
	const sep = separator === undefined ? [literal(',')] : inner.slice(separator + 1);
	const order = findWord(body, 'ORDER');
	return order === undefined
		? [...body, comma, ...sep]
		: [...body.slice(0, order), comma, ...sep, ...body.slice(order)];
}

function castArgs(inner: Piece[]): Piece[] {
	const as = findWord(inner, 'AS');
	if (as === undefined) return inner;
	const type = inner[as + 1]?.word ?? '';
	const sqliteType = /^(SIGNED|UNSIGNED|INT|INTEGER)$/.test(type)
		? 'INTEGER'
		: /^(DECIMAL|FLOAT|DOUBLE|REAL)$/.test(type)
			? 'REAL'
			: 'TEXT';
	return [...inner.slice(0, as + 1), { sql: sqliteType }];
}

/** Rewrites the calls of a range, innermost first, then its `x ± INTERVAL n UNIT`. */
function rewriteRange(pieces: Piece[]): Piece[] {
	const out: Piece[] = [];
	for (let i = 0; i < pieces.length; i++) {
		if (!isOpen(pieces[i])) {
			out.push(pieces[i]);
			continue;
		}
		const close = closing(pieces, i);
		const inner = rewriteRange(pieces.slice(i + 1, close));
		const name = out[out.length - 1];
		const rewritten = name?.word !== undefined ? rewriteCall(name, inner) : undefined;
		if (rewritten) out.splice(-1, 1, { ...rewritten[0], glue: name.glue }, ...rewritten.slice(1));
		else out.push(pieces[i], ...withLikeEscape(inner), pieces[close]);
		i = close;
	}
	return rewriteIntervals(withLikeEscape(out));
}

/** MySQL's LIKE reads \\_ and \\% as a plain _ and %; SQLite only with ESCAPE '\\'. */
function withLikeEscape(pieces: Piece[]): Piece[] {
	const out: Piece[] = [];
	pieces.forEach((piece, i) => {
		out.push(piece);
		const pattern = pieces[i - 1]?.word === 'LIKE' && piece.text?.includes('\\');
		if (pattern && pieces[i + 1]?.word !== 'ESCAPE') out.push({ sql: 'ESCAPE' }, literal('\\'));
	});
	return out;
}

/** Words before a parenthesis that are not the name of a call. */
const NOT_CALLS = new Set([
	'AND',
	'OR',
	'NOT',
	'XOR',
	'IN',
	'IS',
	'ON',
	'BY',
	'WHERE',
	'HAVING',
	'SELECT',
	'WHEN',
	'THEN',
	'ELSE',
	'CASE',
	'BETWEEN',
	'LIKE',
	'REGEXP',
	'AS',
]);

/** The operand that ends at `end`: a name, a value, `a.b`, or a call or parenthesis. */
function operandStart(pieces: Piece[], end: number): number {
	if (isClose(pieces[end])) {
		let depth = 0;
		for (let i = end; i >= 0; i--) {
			if (isClose(pieces[i])) depth++;
			else if (isOpen(pieces[i]) && --depth === 0)
				return pieces[i - 1]?.word && !NOT_CALLS.has(pieces[i - 1].word as string) ? i - 1 : i;
		}
	}
	return pieces[end - 1]?.sql === '.' ? end - 2 : end;
}

/** `x + INTERVAL n UNIT` and `x - INTERVAL n UNIT` as DATE_ADD/DATE_SUB calls (other INTERVALs are left for the caller). */
function rewriteIntervals(pieces: Piece[]): Piece[] {
	for (let i = 2; i < pieces.length; i++) {
		const sign = pieces[i - 1].sql;
		if (pieces[i].word !== 'INTERVAL' || (sign !== '+' && sign !== '-')) continue;
		const unitAt = i + 2 + (pieces[i + 1]?.sql === '-' ? 1 : 0);
		const start = operandStart(pieces, i - 2);
		const replaced = call(sign === '+' ? 'DATE_ADD' : 'DATE_SUB', [
			...pieces.slice(start, i - 1),
			comma,
			...intervalArgs(pieces.slice(i, unitAt + 1)),
		]);
		replaced[0].glue = pieces[start].glue;
		pieces.splice(start, unitAt + 1 - start, ...replaced);
		i = start + replaced.length - 1;
	}
	return pieces;
}

/** Where the hidden row id goes: before the FROM outside parentheses, qualified by the alias if any. */
function withRowId(pieces: Piece[]): Piece[] {
	const from = topLevel(pieces).find((i) => pieces[i].word === 'FROM') as number;
	let next = from + 2;
	if (pieces[next]?.word === 'AS') next++;
	const alias =
		pieces[next] &&
		!['WHERE', 'GROUP', 'HAVING', 'ORDER', 'LIMIT', 'WINDOW'].includes(pieces[next].word ?? '') &&
		pieces[next].sql !== ';'
			? pieces[next].sql
			: 'webserviceview';
	return [
		...pieces.slice(0, from),
		{ sql: `, ${alias}.id AS __sandbox_row_id` },
		...pieces.slice(from),
	];
}

export function translateToSqlite(lexemes: Lexeme[]): GuardResult {
	try {
		if (lexemes.some((l, i) => l.val === 'ROLLUP' && lexemes[i - 1]?.val === 'WITH'))
			throw new Unsupported('WITH ROLLUP is not supported by the sandbox');
		let pieces = rewriteRange(toPieces(lexemes).filter((p) => p.sql !== ';'));
		if (pieces.some((p) => p.word === 'INTERVAL')) {
			throw new Unsupported(
				'INTERVAL is supported by the sandbox in DATE_ADD/DATE_SUB(date, INTERVAL n UNIT) and after "date +" or "date -" only',
			);
		}
		const wantsRecordFlag = lexemes.some(
			(l) =>
				(l.kind === 'word' || l.kind === 'quoted') && l.val.toLowerCase() === 'record_file_exists',
		);
		if (wantsRecordFlag) pieces = withRowId(pieces);
		return { ok: true, sql: joined(pieces), wantsRecordFlag };
	} catch (error) {
		if (error instanceof Unsupported)
			return { ok: false, code: 1013, reason: `Invalid statement: ${error.message}` };
		throw error;
	}
}
