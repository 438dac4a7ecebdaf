/**
 * MySQL's lexical rules, as far as the rules of cdr_query need them: where quoted text, quoted
 * names and comments start and end, and which words are words. Follows the server's lexer
 * (sql/sql_lex.cc): '…' and "…" are text (doubled quotes and, unless NO_BACKSLASH_ESCAPES,
 * backslashes escape), `…` is a name (doubled backticks escape, backslashes do not), "…" is a
 * name under ANSI_QUOTES, `#`, `/* *\/` (also `/*!` and `/*+`) and `--` followed by a space or a
 * control character are comments, `1e1union` is the number 1e1 and the word union, `1union` one
 * word. Nothing here decides what is allowed: see sqlRules.ts.
 */

/** How the server reads quoted text: its sql_mode, which the node cannot see. */
export interface SqlReading {
	backslashEscapes: boolean;
	ansiQuotes: boolean;
}

type SqlTokenKind = 'word' | 'name' | 'text' | 'number' | 'symbol' | 'comment';

export interface SqlToken {
	kind: SqlTokenKind;
	/** The token as written (a comment: its opening, e.g. `--`, `#`, `/*`, `/*!`). */
	text: string;
	/** A word: upper-cased (ASCII only, as MySQL looks keywords up). A name: without its quotes. */
	value: string;
	/** Offset of the first character in the statement. */
	at: number;
}

type SqlLexResult =
	| { tokens: SqlToken[] }
	| { unclosedQuote: string; at: number }
	| { nulAt: number };

const SYMBOLS = ['<=>', '->>', ':=', '<=', '>=', '<>', '!=', '->', '&&', '||', '<<', '>>'];

function isSpace(code: number): boolean {
	return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}

/** Characters of unquoted names: ASCII letters, digits, `_`, `$` and anything beyond ASCII. */
function isWordChar(code: number): boolean {
	return (
		(code >= 0x30 && code <= 0x39) ||
		(code >= 0x41 && code <= 0x5a) ||
		(code >= 0x61 && code <= 0x7a) ||
		code === 0x5f ||
		code === 0x24 ||
		code >= 0x80
	);
}

function isDigit(code: number): boolean {
	return code >= 0x30 && code <= 0x39;
}

function asciiUpper(text: string): string {
	return text.replace(/[a-z]+/g, (part) => part.toUpperCase());
}

class Scanner {
	readonly tokens: SqlToken[] = [];
	private pos = 0;

	constructor(
		private readonly sql: string,
		private readonly reading: SqlReading,
	) {}

	/** Scans the whole statement; returns the offset and quote of an unclosed quote, if any. */
	run(): { quote: string; at: number } | undefined {
		while (this.pos < this.sql.length) {
			const code = this.sql.charCodeAt(this.pos);
			if (isSpace(code)) {
				this.pos++;
				continue;
			}
			const unclosed = this.next(code);
			if (unclosed) return unclosed;
		}
		return undefined;
	}

	private next(code: number): { quote: string; at: number } | undefined {
		const ch = this.sql[this.pos];
		if (ch === "'" || ch === '"' || ch === '`') return this.quoted(ch);
		if (this.comment()) return undefined;
		if (isDigit(code) || (ch === '.' && isDigit(this.sql.charCodeAt(this.pos + 1))))
			this.numberOrWord();
		else if (isWordChar(code)) this.word(this.pos);
		else this.symbol();
		return undefined;
	}

	private push(kind: SqlTokenKind, start: number, value?: string): void {
		const text = this.sql.slice(start, this.pos);
		this.tokens.push({
			kind,
			text,
			value: value ?? (kind === 'word' ? asciiUpper(text) : text),
			at: start,
		});
	}

	private quoted(quote: string): { quote: string; at: number } | undefined {
		const start = this.pos;
		const isName = quote === '`' || (quote === '"' && this.reading.ansiQuotes);
		const escapes = !isName && this.reading.backslashEscapes;
		let value = '';
		let i = start + 1;
		for (;;) {
			if (i >= this.sql.length) return { quote, at: start };
			const ch = this.sql[i];
			if (escapes && ch === '\\' && i + 1 < this.sql.length) {
				value += this.sql.slice(i, i + 2);
				i += 2;
			} else if (ch === quote && this.sql[i + 1] === quote) {
				value += quote;
				i += 2;
			} else if (ch === quote) {
				break;
			} else {
				value += ch;
				i++;
			}
		}
		this.pos = i + 1;
		this.push(isName ? 'name' : 'text', start, value);
		return undefined;
	}

	/** A comment runs to the end of its line (`#`, `-- `) or to `*\/` (or the end of the statement). */
	private comment(): boolean {
		const start = this.pos;
		const two = this.sql.slice(start, start + 2);
		const after = this.sql.charCodeAt(start + 2);
		const dashes = two === '--' && (Number.isNaN(after) || after <= 0x20 || after === 0x7f);
		let end: number;
		if (this.sql[start] === '#' || dashes) {
			end = this.sql.indexOf('\n', start);
		} else if (two === '/*') {
			end = this.sql.indexOf('*/', start + 2);
			if (end !== -1) end += 2;
		} else if (two === '*/') {
			end = start + 2; // a comment's end without its start: only ever seen in smuggling attempts
		} else {
			return false;
		}
		this.pos = end === -1 ? this.sql.length : end;
		const opening =
			two === '/*' && /[!+]/.test(this.sql[start + 2] ?? '')
				? this.sql.slice(start, start + 3)
				: this.sql[start] === '#'
					? '#'
					: two;
		this.tokens.push({ kind: 'comment', text: opening, value: opening, at: start });
		return true;
	}

	/** MySQL's rule: digits followed by name characters are a name, unless they form a hex, binary or exponent number. */
	private numberOrWord(): void {
		const start = this.pos;
		const rest = this.sql.slice(start);
		const match =
			/^(?:0x[0-9a-fA-F]+|0b[01]+|\d*\.\d+(?:[eE][+-]?\d+)?|\d+\.?\d*(?:[eE][+-]?\d+)?)/.exec(rest);
		const number = match ? match[0] : '';
		const plainDigits = /^(?:\d+|0x[0-9a-fA-F]+|0b[01]+)$/.test(number);
		this.pos = start + number.length;
		if (plainDigits && isWordChar(this.sql.charCodeAt(this.pos))) {
			this.word(start);
			return;
		}
		this.push('number', start);
	}

	private word(start: number): void {
		this.pos = Math.max(this.pos, start);
		while (this.pos < this.sql.length && isWordChar(this.sql.charCodeAt(this.pos))) this.pos++;
		this.push('word', start);
	}

	private symbol(): void {
		const start = this.pos;
		const multi = SYMBOLS.find((symbol) => this.sql.startsWith(symbol, start));
		this.pos += multi ? multi.length : 1;
		this.push('symbol', start);
	}
}

/** The tokens of a statement as the server reads it in the given sql_mode. */
export function lexMysql(sql: string, reading: SqlReading): SqlLexResult {
	const nul = sql.indexOf('\0');
	if (nul !== -1) return { nulAt: nul };
	const scanner = new Scanner(sql, reading);
	const unclosed = scanner.run();
	if (unclosed) return { unclosedQuote: unclosed.quote, at: unclosed.at };
	return { tokens: scanner.tokens };
}
