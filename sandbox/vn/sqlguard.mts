// cdr_query's five rules, applied to the statement with its string literals masked so that words
// inside quoted values (e.g. a description "Update team") neither trip nor dodge the checks; then a
// few rewrites so the MySQL that users commonly write runs on SQLite (see sandbox/README.md).

export const MAX_SQL_BYTES = 8192;

export type GuardResult = { ok: true; sql: string; alias: string; wantsRecordFlag: boolean } | { ok: false; reason: string };

interface Masked {
	code: string;
	literals: string[]; // literal values, unescaped
}

/** Replaces every quoted literal by \u0000<n>\u0000 and keeps its decoded value. */
function maskLiterals(sql: string): Masked | { error: string } {
	const literals: string[] = [];
	let code = '';
	let i = 0;
	while (i < sql.length) {
		const ch = sql[i];
		if (ch === "'" || ch === '"') {
			let value = '';
			let j = i + 1;
			let closed = false;
			while (j < sql.length) {
				const c = sql[j];
				if (c === '\\' && j + 1 < sql.length) {
					const next = sql[j + 1];
					value += ({ n: '\n', r: '\r', t: '\t', '0': '\0' } as Record<string, string>)[next] ?? next;
					j += 2;
				} else if (c === ch && sql[j + 1] === ch) {
					value += ch;
					j += 2;
				} else if (c === ch) {
					closed = true;
					j++;
					break;
				} else {
					value += c;
					j++;
				}
			}
			if (!closed) return { error: 'Unterminated string literal' };
			code += `\u0000${literals.length}\u0000`;
			literals.push(value);
			i = j;
		} else {
			code += ch;
			i++;
		}
	}
	return { code, literals };
}

const FORBIDDEN_WORDS = [
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
	'LOAD_FILE',
	'REPLACE INTO',
	'INTO OUTFILE',
	'INTO DUMPFILE',
	'HANDLER',
	// SQLite's own ways out of a SELECT
	'PRAGMA',
	'ATTACH',
	'DETACH',
	'VACUUM',
];

const SYSTEM_SCHEMAS = /\b(information_schema|performance_schema|mysql\s*\.|sys\s*\.|sqlite_\w+)/i;

/** The table part of the FROM clause: up to WHERE/GROUP/ORDER/LIMIT/HAVING/WINDOW or the end. */
function fromClause(code: string): string | undefined {
	const m = /\bfrom\b([\s\S]*?)(?=\bwhere\b|\bgroup\s+by\b|\border\s+by\b|\blimit\b|\bhaving\b|\bwindow\b|$)/i.exec(code);
	return m?.[1];
}

const TABLE = /^`?webserviceview`?$/i;

function checkTables(clause: string): { alias: string } | { reason: string } {
	const parts = clause
		.split(/,|\b(?:natural\s+|left\s+|right\s+|inner\s+|outer\s+|cross\s+|full\s+)*join\b/i)
		.map((p) => p.trim())
		.filter(Boolean);
	if (parts.length === 0) return { reason: 'The statement must select FROM webserviceview' };
	let alias = 'webserviceview';
	for (const [index, part] of parts.entries()) {
		const tokens = part.split(/\s+/);
		if (!TABLE.test(tokens[0])) {
			return { reason: `Only the view webserviceview may be queried (found "${tokens[0]}")` };
		}
		if (index === 0) {
			const rest = tokens.slice(1).filter((t) => !/^as$/i.test(t));
			if (rest.length > 0 && /^`?\w+`?$/.test(rest[0]) && !/^(on|using)$/i.test(rest[0])) alias = rest[0].replace(/`/g, '');
		}
	}
	return { alias };
}

const UNIT = '(SECOND|MINUTE|HOUR|DAY|WEEK|MONTH|YEAR)';
const EXPR = `(NOW\\(\\)|CURDATE\\(\\)|\\u0000\\d+\\u0000|[\\w.\`]+)`;

function modifier(sign: string, amount: string, unit: string): string {
	const n = Number(amount) * (unit.toUpperCase() === 'WEEK' ? 7 : 1);
	const name = unit.toUpperCase() === 'WEEK' ? 'day' : unit.toLowerCase();
	const signed = sign === '-' ? -n : n;
	return `'${signed >= 0 ? '+' : ''}${signed} ${name}s'`;
}

/** MySQL idioms rewritten into SQLite (only outside string literals). */
function rewriteMysql(code: string): string {
	return code
		.replace(/\bCURRENT_TIMESTAMP\b(\s*\(\s*\))?/gi, 'NOW()')
		.replace(/\bCURRENT_DATE\b(\s*\(\s*\))?/gi, 'CURDATE()')
		.replace(/\bUNIX_TIMESTAMP\s*\(\s*\)/gi, 'UNIX_TIMESTAMP(NOW())')
		.replace(
			new RegExp(`\\b(DATE_SUB|DATE_ADD|SUBDATE|ADDDATE)\\s*\\(\\s*${EXPR}\\s*,\\s*INTERVAL\\s+(-?\\d+)\\s+${UNIT}\\s*\\)`, 'gi'),
			(_m, fn: string, expr: string, amount: string, unit: string) =>
				`datetime(${expr}, ${modifier(/SUB/i.test(fn) ? '-' : '+', amount, unit)})`,
		)
		.replace(
			new RegExp(`${EXPR}\\s*([+-])\\s*INTERVAL\\s+(\\d+)\\s+${UNIT}\\b`, 'gi'),
			(_m, expr: string, sign: string, amount: string, unit: string) => `datetime(${expr}, ${modifier(sign, amount, unit)})`,
		)
		.replace(new RegExp(`\\bTIMESTAMPDIFF\\s*\\(\\s*${UNIT}\\s*,`, 'gi'), (_m, unit: string) => `TIMESTAMPDIFF('${unit.toUpperCase()}',`)
		.replace(/\bLEFT\s*\(/gi, 'sbx_left(')
		.replace(/\bRIGHT\s*\(/gi, 'sbx_right(');
}

function unmask(code: string, literals: string[]): string {
	return code.replace(/\u0000(\d+)\u0000/g, (_m, n: string) => `'${literals[Number(n)].replace(/'/g, "''")}'`);
}

export function guardSql(sql: string): GuardResult {
	if (Buffer.byteLength(sql, 'utf8') > MAX_SQL_BYTES) {
		return { ok: false, reason: `The statement is longer than ${MAX_SQL_BYTES} bytes` };
	}
	const masked = maskLiterals(sql);
	if ('error' in masked) return { ok: false, reason: masked.error };
	let code = masked.code.trim();
	if (/--|#|\/\*|\*\//.test(code)) return { ok: false, reason: 'SQL comments (--, #, /* */) are not allowed' };
	code = code.replace(/;\s*$/, '');
	if (code.includes(';')) return { ok: false, reason: 'Only one statement is allowed (no ; stacking)' };
	if (!/^select\b/i.test(code)) return { ok: false, reason: 'The statement must start with SELECT' };
	if (/\bunion\b/i.test(code)) return { ok: false, reason: 'UNION is not allowed' };
	const selects = code.match(/\bselect\b/gi)?.length ?? 0;
	if (selects !== 1) return { ok: false, reason: 'Subqueries are not allowed: exactly one SELECT keyword is allowed' };
	for (const word of FORBIDDEN_WORDS) {
		if (new RegExp(`\\b${word.replace(' ', '\\s+')}\\b`, 'i').test(code)) {
			return { ok: false, reason: `Forbidden keyword: ${word}` };
		}
	}
	const schema = SYSTEM_SCHEMAS.exec(code);
	if (schema) return { ok: false, reason: `Access to system schemas is not allowed (${schema[1]})` };
	if (code.includes('@@')) return { ok: false, reason: 'Server variables (@@) are not allowed' };
	if (code.includes(':=')) return { ok: false, reason: 'Assignment (:=) is not allowed' };
	const timing = /\b(sleep|benchmark|get_lock)\s*\(/i.exec(code);
	if (timing) return { ok: false, reason: `Timing function ${timing[1].toUpperCase()}() is not allowed` };
	const clause = fromClause(code);
	if (clause === undefined) return { ok: false, reason: 'The statement must select FROM webserviceview' };
	const tables = checkTables(clause);
	if ('reason' in tables) return { ok: false, reason: tables.reason };
	const wantsRecordFlag = /\brecord_file_exists\b/i.test(code);
	if (wantsRecordFlag) {
		// A hidden row id lets the service check each returned row for a recording file.
		code = code.replace(/\bfrom\b/i, (from) => `, ${tables.alias}.id AS __sandbox_row_id ${from}`);
	}
	return { ok: true, sql: unmask(rewriteMysql(code), masked.literals), alias: tables.alias, wantsRecordFlag };
}
