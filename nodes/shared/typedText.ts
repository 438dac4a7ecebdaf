/**
 * What keyboards, phones and copies put into typed text besides what the person meant, for the
 * readers of phone numbers (phones.ts) and of SMS replies (replies.ts): invisible format characters
 * (a Hebrew keyboard's direction marks, a zero-width space pasted from WhatsApp, Excel's byte-order
 * mark) and digits of other scripts (Arabic-Indic `٠٥٤`, Persian `۰۵۴`, full-width `０５４`).
 */

/**
 * Invisible format characters (Unicode's Cf): direction marks (LRM, RLM, ALM), bidi embeddings,
 * overrides and isolates, zero-width spaces and joiners, the word joiner, the byte-order mark and
 * the soft hyphen.
 */
export const INVISIBLE = /\p{Cf}/gu;

/** Any character outside ASCII: the fast paths read ASCII text, anything else takes the full reading. */
export const NON_ASCII = /[\u0080-\uffff]/;

const DECIMAL = /^\p{Nd}$/u;

/** The scripts whose digits people in Israel type, by the code point of their zero. */
const SCRIPT_OF_ZERO: Record<number, string> = {
	0x0660: 'Arabic-Indic',
	0x06f0: 'Eastern Arabic-Indic (Persian)',
	0x0966: 'Devanagari',
	0xff10: 'full-width',
};

/**
 * The value of a decimal digit of any script (Unicode's Nd) and the script's name; undefined for
 * any other character. Unicode encodes each script's digits 0 to 9 in one ascending run, and runs
 * of several scripts that touch each start at a zero, so the value is the distance from the run's
 * start, modulo 10.
 */
function decimalDigit(char: string): { value: number; script: string } | undefined {
	const code = char.codePointAt(0) ?? 0;
	if (code >= 48 && code <= 57) return { value: code - 48, script: 'ASCII' };
	if (!DECIMAL.test(char)) return undefined;
	let start = code;
	while (DECIMAL.test(String.fromCodePoint(start - 1))) start--;
	const value = (code - start) % 10;
	const zero = code - value;
	return {
		value,
		script: SCRIPT_OF_ZERO[zero] ?? `non-Latin (U+${zero.toString(16).toUpperCase()})`,
	};
}

/** The text with every decimal digit of any script written 0-9. */
export function withAsciiDigits(text: string): string {
	return text.replace(/\p{Nd}/gu, (char) => String(decimalDigit(char)?.value ?? char));
}

/** Dashes of every script (Hebrew maqaf, en dash, non-breaking hyphen…) and the minus sign. */
const DASH = /[\p{Pd}\u2212]/u;

/**
 * A typed number in ASCII: invisible characters dropped, full-width forms and digits of other
 * scripts read as ASCII, any space a space and any dash a dash; letters stay (an extension's
 * `שלוחה`, or what the reader refuses). What was read is noted in `notes`, once each.
 */
export function asciiForm(text: string, notes: string[]): string {
	const note = (what: string) => {
		if (!notes.includes(what)) notes.push(what);
	};
	let ascii = '';
	for (const char of text) {
		const code = char.codePointAt(0) ?? 0;
		if (code < 128) ascii += char;
		else if (char.match(INVISIBLE)) note('invisible direction or zero-width characters ignored');
		else if (code >= 0xff01 && code <= 0xff5e) {
			ascii += String.fromCharCode(code - 0xfee0);
			note('full-width characters');
		} else if (/\s/.test(char)) ascii += ' ';
		else if (DASH.test(char)) ascii += '-';
		else {
			const digit = decimalDigit(char);
			if (digit) note(`${digit.script} digits`);
			ascii += digit ? String(digit.value) : char;
		}
	}
	return ascii;
}

const UNSEEN = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;

/**
 * A value as a person can read it in an error or a note: control and invisible characters written
 * `<U+200F>`, shortened to `max` characters.
 */
export function shown(value: unknown, max = 40): string {
	const text = (
		typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))
	).replace(
		UNSEEN,
		(char) => `<U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}>`,
	);
	return text.length > max ? `${text.slice(0, max)}…` : text;
}
