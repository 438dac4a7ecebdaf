/**
 * The one phone module: what a phone number, a virtual number and a list of them are as users
 * type them, and what the package sends. Every operation of both nodes sends phone numbers as
 * digits only (`+972 50-123 4567` → `972501234567`): the virtual number service strips
 * formatting itself on some operations but refuses it on others (remove_number_from_blacklist
 * answers 2011 "not numeric"), and the SMS service wants digits. docs/inputs.md lists the forms.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import type { InputChecks } from './checks';

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

/** Every digit of a text, whatever else it holds: a search filter, a number the service echoes. */
export function digitsOf(text: unknown): string {
	return String(text ?? '').replace(/\D/g, '');
}

/**
 * A trunk zero written in brackets inside an international number (`+972 (0)50-123-4567`,
 * `+44 (0)20…`): it is dialled only inside the country, so it is no digit of the number.
 */
const TRUNK_ZERO = /(?<=[+\d][\s.-]*)\(\s*0\s*\)/;

/**
 * The digits of a typed phone number, or undefined when the text is not one (letters, a misplaced
 * +, no digit). A trunk zero in brackets after the country code is dropped.
 */
export function phoneDigits(raw: unknown): string | undefined {
	if (typeof raw !== 'string' && typeof raw !== 'number') return undefined;
	let text = String(raw);
	if (text.includes('(')) text = text.replace(TRUNK_ZERO, '');
	const ascii = asciiPhoneDigits(text);
	if (ascii !== null) return ascii;
	return PHONE.test(text) ? text.replace(/\D/g, '') : undefined;
}

/**
 * The rule of PHONE in one pass over the characters, for text in ASCII (a bulk send reads 10,000
 * numbers: about ten times faster than the two regular expressions). Null for any other text,
 * which PHONE decides (its `\s` holds Unicode spaces).
 */
function asciiPhoneDigits(text: string): string | undefined | null {
	let digits = '';
	let started = false;
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (code > 127) return null;
		if (code >= 48 && code <= 57) {
			digits += text[index];
			started = true;
		} else if (code === 43 /* + */) {
			if (started) return undefined;
			started = true;
		} else if (code === 32 || (code >= 9 && code <= 13)) {
			continue;
		} else if (code === 40 || code === 41 || code === 46 || code === 45 /* ( ) . - */) {
			started = true;
		} else {
			return undefined;
		}
	}
	return digits.length >= 1 && digits.length <= 64 ? digits : undefined;
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
		// A comma or semicolon with the spaces and line breaks around it, or line breaks alone, is one separator.
		else for (const part of text.split(/\s*[,;]\s*|\s*\n\s*/)) parts.push(part.trim());
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

/** National numbers are 6 to 13 digits (E.164: at most 15 with the country code); Israel's are 8 or 9. */
function nationalLengthFits(national: string, countryCode: string): boolean {
	if (countryCode === DEFAULT_COUNTRY_CODE) return national.length === 8 || national.length === 9;
	return national.length >= 6 && national.length + countryCode.length <= PHONE_LIMITS.maxDigits;
}

/**
 * The national digits of a number of the country `countryCode`: written local (`0501234567`),
 * international (`972501234567`, `00972…`), or international with the trunk zero kept
 * (`9720501234567`, which nobody dials). Undefined for a number of another country.
 */
function nationalDigits(
	digits: string,
	countryCode: string = DEFAULT_COUNTRY_CODE,
): string | undefined {
	let rest: string;
	if (digits.startsWith(`00${countryCode}`)) rest = digits.slice(2 + countryCode.length);
	else if (digits.startsWith('00')) return undefined;
	else if (digits.startsWith('0')) return digits.slice(1);
	else if (digits.startsWith(countryCode)) rest = digits.slice(countryCode.length);
	else return undefined;
	const national = rest.startsWith('0') ? rest.slice(1) : rest;
	// Too short after the code: a local number that only begins with the code's digits.
	return national.length >= 6 ? national : undefined;
}

/** One key per number, whatever its form: `0501234567`, `+972-50-123-4567` and `+972 (0)50…` are one. */
export function phoneIdentity(digits: string, countryCode: string = DEFAULT_COUNTRY_CODE): string {
	const national = nationalDigits(digits, countryCode);
	return national === undefined ? digits : `${countryCode}${national}`;
}

/**
 * The digits sent for a number, by Send Numbers As: As Typed keeps the form typed (a trunk zero
 * inside an international number dropped), Local is `0` and the national number, International
 * the country code and the national number. A number of another country is sent as typed.
 */
export function phoneToSend(digits: string, style: NumberStyle = DEFAULT_NUMBER_STYLE): string {
	const national = nationalDigits(digits, style.countryCode);
	if (national === undefined) return digits;
	if (style.format === 'local') return `0${national}`;
	if (style.format === 'international') return `${style.countryCode}${national}`;
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
	if (national !== undefined && !nationalLengthFits(national, countryCode))
		return `is not a number of country code ${countryCode} (${national.length} digits after the 0 or the code)`;
	return undefined;
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
