/**
 * The one phone module: what a phone number, a virtual number and a list of them are as users
 * type them, and what the package sends. Every operation of both nodes sends phone numbers as
 * digits only (`+972 50-123 4567` → `972501234567`): the virtual number service strips
 * formatting itself on some operations but refuses it on others (remove_number_from_blacklist
 * answers 2011 "not numeric"), and the SMS service wants digits. docs/inputs.md lists the forms.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import type { InputChecks } from './checks';
import { asciiForm, NON_ASCII, shown, withAsciiDigits } from './typedText';

/** Characters a phone number may be typed with besides its digits (a + only at the start). */
const FORMATTING = '\\s().-';

/** The rule of a typed phone in the user's words, for errors and hints. */
export const PHONE_RULE = 'digits, optionally with a leading +, spaces, dashes, dots or brackets';

export const PHONE_LIMITS = {
	/** The service lists numbers of the account by their digits; update_virtualnum refuses fewer than 5 (4011). */
	virtualnumMinDigits: 5,
	/** The fewest digits a call's routing destination has (a short extension is not one). */
	destinationMinDigits: 6,
	/** ITU-T E.164: at most 15 digits. */
	maxDigits: 15,
} as const;

/** A typed phone with `min` to `max` digits, unanchored, for regular expressions of the editor's validation. */
export function phoneTextSource(min = 1, max: number = PHONE_LIMITS.maxDigits): string {
	return `\\+?[${FORMATTING}]*(?:\\d[${FORMATTING}]*){${min},${max}}`;
}

/** A whole text that is a typed phone with `min` to `max` digits, as a regular expression source. */
export function phonePatternSource(min = 1, max: number = PHONE_LIMITS.maxDigits): string {
	return `^\\s*${phoneTextSource(min, max)}$`;
}

const PHONE = new RegExp(phonePatternSource(1, 64));

/**
 * Every digit of a text, whatever else it holds (any script's digits as 0-9): a search filter, a
 * number the service echoes.
 */
export function digitsOf(text: unknown): string {
	const value = String(text ?? '');
	return NON_ASCII.test(value)
		? withAsciiDigits(value).replace(/\D/g, '')
		: value.replace(/\D/g, '');
}

/**
 * A trunk zero written in brackets inside an international number (`+972 (0)50-123-4567`,
 * `+44 (0)20…`): it is dialled only inside the country, so it is no digit of the number.
 */
const TRUNK_ZERO = /(?<=[+\d][\s.-]*)\(\s*0\s*\)/;

/**
 * The digits of a typed phone number, or undefined when the text is not one (letters, a misplaced
 * +, no digit), read as `readPhone` reads it for country code 972 without its length checks: any
 * script's digits, invisible marks and an extension (dropped) allowed, a trunk zero in brackets
 * after the country code dropped, and the leading 0 a spreadsheet drops put back (`541110010` is
 * `0541110010`).
 */
export function phoneDigits(raw: unknown): string | undefined {
	if (typeof raw !== 'string' && typeof raw !== 'number') return undefined;
	// A plain number, the usual value (10,000 recipients of a send): read in one pass.
	if (typeof raw === 'string' && !raw.includes('.0') && !raw.includes('(')) {
		const digits = asciiPhoneDigits(raw);
		if (digits !== null)
			return missingTrunkZero(digits, DEFAULT_COUNTRY_CODE) && !startsWithPlus(raw)
				? `0${digits}`
				: digits;
	}
	const typed = readTyped(raw);
	if (typeof typed === 'string') return undefined;
	return typed.international ? typed.digits : withTrunkZero(typed.digits, DEFAULT_COUNTRY_CODE);
}

/**
 * The rule of PHONE in one pass over the characters, for text in ASCII (a bulk send reads 10,000
 * numbers: about ten times faster than the two regular expressions). Null for any other text,
 * which `readUnusual` reads (Unicode, letters of an extension, a misplaced +) or refuses.
 */
function asciiPhoneDigits(text: string): string | null {
	let digits = '';
	let started = false;
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (code >= 48 && code <= 57) {
			digits += text[index];
			started = true;
		} else if (code === 43 /* + */) {
			if (started) return null;
			started = true;
		} else if (code === 32 || (code >= 9 && code <= 13)) {
			continue;
		} else if (code === 40 || code === 41 || code === 46 || code === 45 /* ( ) . - */) {
			started = true;
		} else {
			return null;
		}
	}
	return digits.length >= 1 && digits.length <= 64 ? digits : null;
}

// ---- a number as people and programs write it ----------------------------------------------

/** A typed number's digits as written, and what was read away from it. */
interface TypedNumber {
	digits: string;
	/** Written with a leading +: a 9-digit number then is no national number missing its 0. */
	international: boolean;
	extension?: string;
	/** What was read differently from what was written, in the user's words. */
	notes: string[];
}

/** A whole number with `.0` after it: what a spreadsheet or a numeric column makes of a number. */
const FLOAT_TEXT = /^\s*(\d+)\.0+\s*$/;
/** A number a spreadsheet shows in scientific notation (`9.72541E+11`): its last digits may be lost. */
const SCIENTIFIC = /^\s*\d(?:\.\d+)?e\+?\d+\s*$/i;
/**
 * An extension written after the number (`ext 5`, `ext. 5`, `x5`, `#5`, `,5`, Hebrew `שלוחה 5`,
 * Russian `доб. 5`): the number is the part before it.
 */
const EXTENSION =
	/^(.*?\d[\s().-]*?)\s*(?:ext(?:ension)?\.?|x|#|,|שלוחה|доб(?:авочный)?\.?)\s*:?\s*(\d{1,6})\s*$/iu;
/** Longer than any number with an extension: not read further (a note, a pasted paragraph). */
const MAX_TYPED_LENGTH = 100;

/**
 * A typed number's digits as written, or why it is none (a problem in the user's words). Plain
 * ASCII numbers, the usual value, take one pass; anything else `readUnusual`.
 */
function readTyped(value: unknown): TypedNumber | string {
	let text: string;
	if (typeof value === 'string') text = value;
	else if (typeof value === 'number') {
		if (!Number.isSafeInteger(value) || value < 0)
			return 'is a number that is no whole phone number';
		text = String(value);
	} else if (typeof value === 'bigint') text = String(value);
	else if (value === undefined || value === null) return 'is empty';
	else if (Array.isArray(value)) return `is a list of ${value.length} values, not one number`;
	else
		return `is ${typeof value === 'object' ? 'an object' : `a ${typeof value}`}, not a phone number`;
	const notes: string[] = [];
	text = withoutDecimalZero(text, notes);
	if (text.includes('(')) text = text.replace(TRUNK_ZERO, '');
	const digits = asciiPhoneDigits(text);
	if (digits === null) return readUnusual(text, notes);
	return { digits, international: startsWithPlus(text), notes };
}

/** Whether the first character that is not a space is a +. */
function startsWithPlus(text: string): boolean {
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (code !== 32 && (code < 9 || code > 13)) return code === 43;
	}
	return false;
}

/** The number without the `.0` a spreadsheet or a numeric column adds to it (`541110010.0`). */
function withoutDecimalZero(text: string, notes: string[]): string {
	const whole = text.includes('.0') ? FLOAT_TEXT.exec(text) : null;
	if (!whole) return text;
	notes.push('the .0 a spreadsheet adds to a number was dropped');
	return whole[1];
}

/** A number with other characters than ASCII digits and formatting, read or refused. */
function readUnusual(typed: string, notes: string[]): TypedNumber | string {
	if (typed.trim() === '') return 'is empty';
	if (typed.length > MAX_TYPED_LENGTH)
		return `is ${typed.length} characters long, too long for a phone number`;
	let text = NON_ASCII.test(typed) ? withoutDecimalZero(asciiForm(typed, notes), notes) : typed;
	text = text.replace(/^\s*tel:/i, '');
	if (SCIENTIFIC.test(text))
		return (
			'is in scientific notation, which a spreadsheet shows for a long number and which may have ' +
			'lost its last digits: format the column as text'
		);
	const extension = EXTENSION.exec(text);
	if (extension) {
		text = extension[1];
		notes.push(`extension ${extension[2]} is not dialled`);
	}
	if (text.includes('(')) text = text.replace(TRUNK_ZERO, '');
	if (!PHONE.test(text)) return whyNotOneNumber(text);
	const digits = text.replace(/\D/g, '');
	if (digits.length > 64) return `has ${digits.length} digits`;
	return { digits, international: startsWithPlus(text), extension: extension?.[2], notes };
}

/** Why a text that is not a typed number is none, in the user's words. */
function whyNotOneNumber(text: string): string {
	const numbers = text.split(/[^\d\s().+-]+/).filter((part) => digitsOf(part).length >= 7);
	if (numbers.length > 1) return `holds ${numbers.length} phone numbers, not one`;
	const letters = text.match(/\p{L}+/u);
	if (letters) return `has letters ("${shown(letters[0], 20)}")`;
	if (!/\d/.test(text)) return 'has no digits';
	if (/\S\s*\+/.test(text)) return 'has a + that is not at the start';
	const other = text.match(/[^\d\s().+-]/u);
	return `has a character a phone number does not have ("${shown(other?.[0] ?? text, 10)}")`;
}

/**
 * Israel's national numbers without their leading 0: a mobile or VoIP number (5X or 7X and 7
 * digits) or a landline (2, 3, 4, 8 or 9 and 7 digits), what a spreadsheet or a numeric column
 * keeps of `0541110010`. Other countries' plans are not known here: their numbers are read as
 * written.
 */
function missingTrunkZero(digits: string, countryCode: string): boolean {
	if (countryCode !== DEFAULT_COUNTRY_CODE) return false;
	const first = digits.charCodeAt(0);
	if (digits.length === 9) return first === 53 /* 5 */ || first === 55; /* 7 */
	if (digits.length === 8) return first === 50 || first === 51 || first === 52 || first >= 56;
	return false;
}

/** The digits with the leading 0 a spreadsheet dropped put back (`missingTrunkZero`). */
function withTrunkZero(digits: string, countryCode: string): string {
	return missingTrunkZero(digits, countryCode) ? `0${digits}` : digits;
}

/** What `readPhone` read: the number, its identity, an extension and what was read differently. */
export interface PhoneReading {
	/**
	 * ASCII digits of the number as written (national or international), extension removed, a
	 * dropped leading 0 put back.
	 */
	digits: string;
	/** One key per number, the same for every spelling (`phoneIdentity`: `972541110010`). */
	identity: string;
	/** Digits of an extension written after the number: reported, never dialled. */
	extension?: string;
	/** What was read, in the user's words, when it differs from what was written. */
	read?: string;
}

/** A value that cannot be one phone number: why, and the value as seen (printable, shortened). */
export interface PhoneProblem {
	problem: string;
	seen: string;
}

/**
 * One phone number as people and programs write it, read as the number it is, or refused with
 * what was seen (never silently matched to nothing):
 * - spreadsheets and numeric columns: `541110010` (the leading 0 dropped; Israeli numbers only, for
 *   country code 972), `541110010.0`;
 * - any script's digits (`٠٥٤١١١٠٠١٠`, `۰۵۴…`, `０５４…`), invisible and direction characters,
 *   any dash or space;
 * - an extension after the number (`ext 5`, `x5`, `#5`, `,5`): reported, not dialled;
 * - `+972 (0)54…`, `tel:+972…`.
 * Refused: letters, two numbers in one value, too few or too many digits, a number of country code
 * `countryCode` whose national part is not 8 or 9 digits, scientific notation.
 */
export function readPhone(
	value: unknown,
	countryCode: string = DEFAULT_COUNTRY_CODE,
): PhoneReading | PhoneProblem {
	const typed = readTyped(value);
	if (typeof typed === 'string') return { problem: typed, seen: shown(value) };
	const { international, extension, notes } = typed;
	const digits = international ? typed.digits : withTrunkZero(typed.digits, countryCode);
	if (digits !== typed.digits) notes.push('the leading 0 was missing');
	const why = notAPhone(digits, countryCode);
	if (why)
		return {
			problem: digits.length > PHONE_LIMITS.maxDigits ? `${why} (two numbers in one value?)` : why,
			seen: shown(value),
		};
	const reading: PhoneReading = {
		digits,
		identity: phoneIdentity(digits, countryCode, international),
	};
	if (extension !== undefined) reading.extension = extension;
	if (notes.length > 0) reading.read = `read ${shown(value)} as ${digits}: ${notes.join('; ')}`;
	return reading;
}

/** A required phone number of `field`, returned as digits; fails naming the field and the value. */
export function checkPhone(
	checks: InputChecks,
	field: string,
	value: unknown,
	limits: { minDigits?: number; maxDigits?: number } = {},
): string {
	const text = checks.required(field, value);
	const min = limits.minDigits ?? 1;
	const max = limits.maxDigits ?? PHONE_LIMITS.maxDigits;
	const digits = phoneDigits(text);
	if (digits === undefined || digits.length < min) {
		checks.fail(
			field,
			`must be a phone number${min > 1 ? ` of at least ${min} digits` : ''} (${PHONE_RULE})`,
			value,
		);
	}
	if (digits.length > max)
		checks.fail(field, `must be a phone number of at most ${max} digits`, value);
	return digits;
}

/** An optional phone number: '' when empty, else as `checkPhone`. */
export function checkOptionalPhone(
	checks: InputChecks,
	field: string,
	value: unknown,
	limits?: { minDigits?: number },
): string {
	const text = value === undefined || value === null ? '' : String(value).trim();
	return text === '' ? '' : checkPhone(checks, field, text, limits);
}

/** A virtual number as typed (`+972 3-555 1234`), returned as the digits the service lists it by. */
export function checkVirtualnum(checks: InputChecks, field: string, value: unknown): string {
	return checkPhone(checks, field, value, { minDigits: PHONE_LIMITS.virtualnumMinDigits });
}

/** What separates the numbers of a list. */
const LIST_SEPARATOR = /[,;\n]/;

/** An extension written with a comma (`0541110010,5`): up to 6 digits, of any script. */
const COMMA_EXTENSION = /^\p{Nd}{1,6}$/u;

/**
 * The entries of a text with separators. A comma or semicolon with the spaces and line breaks
 * around it, or line breaks alone, is one separator; a comma right between a number and up to 6
 * digits (`0541110010,5`, a dialler's pause before an extension) is part of the number.
 */
function listEntries(text: string): string[] {
	const pieces = text.split(/(\s*[,;]\s*|\s*\n\s*)/);
	const entries = [pieces[0]];
	for (let index = 1; index < pieces.length; index += 2) {
		const next = pieces[index + 1];
		const previous = entries[entries.length - 1];
		if (
			pieces[index] === ',' &&
			COMMA_EXTENSION.test(next) &&
			/\p{Nd}$/u.test(previous) &&
			digitsOf(previous).length >= 7
		)
			entries[entries.length - 1] = `${previous},${next}`;
		else entries.push(next);
	}
	return entries;
}

/**
 * A list of phone numbers as users type or map it: separated by commas, semicolons or new lines,
 * or an array from an expression. Returns the entries trimmed; separators at the start and the end
 * are ignored, and an empty entry between two numbers is kept as '' (a value missing from a
 * mapping), for `checkPhoneList` to refuse.
 */
export function splitPhoneList(raw: unknown): string[] {
	// One number, the usual case of a mapped list: no splitting (10,000 items of a bulk send).
	if (typeof raw === 'string' && !LIST_SEPARATOR.test(raw)) {
		const text = raw.trim();
		return text === '' ? [] : [text];
	}
	// An array may be a table's 50,000 numbers (Skip Opted-Out Numbers): one pass, no copy per step.
	const parts: string[] = [];
	for (const value of Array.isArray(raw) ? raw : [raw]) {
		const text = String(value ?? '');
		if (!LIST_SEPARATOR.test(text)) parts.push(text.trim());
		else for (const part of listEntries(text)) parts.push(part.trim());
	}
	let first = 0;
	while (first < parts.length && parts[first] === '') first++;
	let last = parts.length - 1;
	while (last >= first && parts[last] === '') last--;
	return first === 0 && last === parts.length - 1 ? parts : parts.slice(first, last + 1);
}

/**
 * A required list of phone numbers, each returned as digits. `speedDial` also accepts `*1234`
 * entries (kept as they are), for the destinations of a virtual number.
 */
export function checkPhoneList(
	checks: InputChecks,
	field: string,
	value: unknown,
	options: { speedDial?: boolean } = {},
): string[] {
	// One number, the usual value of a mapped column (10,000 items of a bulk send): read in one
	// pass, without the list's splitting; anything else, or a number refused, takes the full path.
	if (typeof value === 'string' && !LIST_SEPARATOR.test(value)) {
		const digits = phoneDigits(value);
		if (digits !== undefined && digits.length <= PHONE_LIMITS.maxDigits) return [digits];
	}
	const parts = splitPhoneList(
		checks.required(field, Array.isArray(value) ? value.join(',') : value),
	);
	if (parts.length === 0) checks.fail(field, 'needs at least one phone number', value);
	return parts.map((part, index) => {
		if (part === '')
			checks.fail(field, `has an empty entry at position ${index + 1} of the list`, value);
		if (options.speedDial && /^\*\d{1,15}$/.test(part)) return part;
		const digits = phoneDigits(part);
		if (digits === undefined)
			checks.fail(
				field,
				`must be phone numbers separated by commas, semicolons or new lines, each ` +
					`with digits and no letters (${PHONE_RULE})`,
				part,
			);
		if (digits.length > PHONE_LIMITS.maxDigits)
			checks.fail(
				field,
				`must be phone numbers of at most ${PHONE_LIMITS.maxDigits} digits each`,
				part,
			);
		return digits;
	});
}

/** Digits with the international prefix 972 read as the local 0, the form the service stores Israeli numbers in. */
function localPhoneDigits(digits: string): string {
	return digits.startsWith('972') && digits.length > 10 ? `0${digits.slice(3)}` : digits;
}

/** Whether two numbers are the same line, whatever their form (`+972-50-333-3333` and `0503333333`). */
export function samePhone(a: string, b: string): boolean {
	const left = localPhoneDigits(digitsOf(a));
	const right = localPhoneDigits(digitsOf(b));
	return left !== '' && right !== '' && (left.endsWith(right) || right.endsWith(left));
}

// ---- one number however it is written, and the form it is sent in ---------------------------

/** The provider's country: local numbers (`05…`) are read as numbers of this country code. */
export const DEFAULT_COUNTRY_CODE = '972';

/** Send Numbers As, a setting of both credentials. */
type NumberFormat = 'asTyped' | 'local' | 'international';

export interface NumberStyle {
	format: NumberFormat;
	/** The country code of local numbers and of the International form, digits only. */
	countryCode: string;
}

export const DEFAULT_NUMBER_STYLE: NumberStyle = {
	format: 'asTyped',
	countryCode: DEFAULT_COUNTRY_CODE,
};

/**
 * Israel's national numbers (after the 0 or 972): mobile and VoIP numbers are 9 digits starting
 * with 5 or 7, landlines 8 starting with 2, 3, 4, 8 or 9 (routeAllowList.ts has the plan's sources).
 */
const ISRAELI_NATIONAL = /^(?:[57]\d{8}|[23489]\d{7})$/;

/** National numbers are 6 to 13 digits (E.164: at most 15 with the country code); Israel's as its plan has them. */
function nationalLengthFits(national: string, countryCode: string): boolean {
	if (countryCode === DEFAULT_COUNTRY_CODE) return ISRAELI_NATIONAL.test(national);
	return national.length >= 6 && national.length + countryCode.length <= PHONE_LIMITS.maxDigits;
}

/**
 * The national digits of a number of the country `countryCode`: written local (`0501234567`),
 * international (`972501234567`, `00972…`), international with the trunk zero kept
 * (`9720501234567`, which nobody dials), or, for 972, local without its leading 0 (`501234567`,
 * unless written with a +). Undefined for a number of another country.
 */
function nationalDigits(
	digits: string,
	countryCode: string = DEFAULT_COUNTRY_CODE,
	international = false,
): string | undefined {
	let rest: string;
	if (digits.startsWith(`00${countryCode}`)) rest = digits.slice(2 + countryCode.length);
	else if (digits.startsWith('00')) return undefined;
	else if (digits.startsWith('0')) return digits.slice(1);
	else if (digits.startsWith(countryCode)) rest = digits.slice(countryCode.length);
	else return !international && missingTrunkZero(digits, countryCode) ? digits : undefined;
	const national = rest.startsWith('0') ? rest.slice(1) : rest;
	// Too short after the code: a local number that only begins with the code's digits.
	if (national.length >= 6) return national;
	return !international && missingTrunkZero(digits, countryCode) ? digits : undefined;
}

/**
 * One key per number, whatever its form: `0501234567`, `+972-50-123-4567`, `+972 (0)50…` and
 * `501234567` (the 0 dropped) are one. `international`: the digits were written with a +, so a
 * short number is another country's, never a national one missing its 0.
 */
export function phoneIdentity(
	digits: string,
	countryCode: string = DEFAULT_COUNTRY_CODE,
	international = false,
): string {
	const national = nationalDigits(digits, countryCode, international);
	if (national !== undefined) return `${countryCode}${national}`;
	// Another country's number dialled with 00 is the same number as with its +.
	return digits.startsWith('00') ? digits.slice(2) : digits;
}

/**
 * The digits sent for a number, by Send Numbers As: As Typed keeps the form typed (a trunk zero
 * inside an international number dropped, a dropped leading 0 put back), Local is `0` and the
 * national number, International the country code and the national number. A number of another
 * country is sent as typed.
 */
export function phoneToSend(digits: string, style: NumberStyle = DEFAULT_NUMBER_STYLE): string {
	const national = nationalDigits(digits, style.countryCode);
	if (national === undefined) return digits;
	if (style.format === 'local') return `0${national}`;
	if (style.format === 'international') return `${style.countryCode}${national}`;
	if (national === digits) return `0${national}`;
	if (digits.startsWith('0') && !digits.startsWith('00')) return digits;
	return `${digits.startsWith('00') ? '00' : ''}${style.countryCode}${national}`;
}

/**
 * Why digits cannot be a phone number one can send to, or undefined when they can: too few or too
 * many digits, or a national number of the wrong length.
 */
export function notAPhone(
	digits: string,
	countryCode: string = DEFAULT_COUNTRY_CODE,
): string | undefined {
	if (digits.length < 7) return 'has fewer than 7 digits';
	if (digits.length > PHONE_LIMITS.maxDigits)
		return `has more than ${PHONE_LIMITS.maxDigits} digits`;
	const national = nationalDigits(digits, countryCode);
	if (national === undefined || nationalLengthFits(national, countryCode)) return undefined;
	if (countryCode === DEFAULT_COUNTRY_CODE)
		return (
			`is not a number of country code 972 (${national.length} digits after the 0 or the code, ` +
			`starting with ${national[0]}: a mobile or VoIP number has 9 starting with 5 or 7, a landline 8 ` +
			'starting with 2, 3, 4, 8 or 9)'
		);
	return `is not a number of country code ${countryCode} (${national.length} digits after the 0 or the code)`;
}

/** The fix of a number `notAPhone` refused, in the user's words. */
export const PHONE_FIX =
	'write each number with its area or mobile prefix, locally (0501234567) or ' +
	'with the country code (+972 50-123-4567)';

/** The phone forms every operation accepts, told to a model when a node is an AI agent's tool. */
export const PHONES_FOR_MODEL = `Phone numbers: ${PHONE_RULE}; ${PHONE_FIX}.`;

/** Send Numbers As and the country code beside it, as the credential holds them. */
export function numberStyleOf(credentials: object | undefined): NumberStyle {
	const { sendNumbersAs: format, countryCode } = (credentials ?? {}) as Record<string, unknown>;
	const code = digitsOf(countryCode);
	return {
		format: format === 'local' || format === 'international' ? format : 'asTyped',
		countryCode: format === 'international' && code !== '' ? code : DEFAULT_COUNTRY_CODE,
	};
}

/**
 * A required phone number a node sends the service to dial or to text, checked, in the form the
 * node's credential asks (Send Numbers As). A credential that cannot be read here fails at the
 * request, as it always did; until then the number stays as typed.
 */
export async function checkPhoneToSend(
	this: IExecuteFunctions,
	credentialType: string,
	checks: InputChecks,
	field: string,
	value: unknown,
): Promise<string> {
	const digits = checkPhone(checks, field, value);
	let style = DEFAULT_NUMBER_STYLE;
	try {
		style = numberStyleOf(await this.getCredentials(credentialType, checks.itemIndex));
	} catch {
		// The request reports the credential's problem.
	}
	return phoneToSend(digits, style);
}

/**
 * The forms the service may store a number in, for a match on its columns: as typed, local
 * (`0…`) and international (`972…`).
 */
export function phoneForms(digits: string, countryCode: string = DEFAULT_COUNTRY_CODE): string[] {
	const national = nationalDigits(digits, countryCode);
	if (national === undefined) return [digits];
	return [...new Set([digits, `0${national}`, `${countryCode}${national}`])];
}
