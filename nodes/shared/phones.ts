/**
 * The one phone module: what a phone number, a virtual number and a list of them are as users
 * type them, and what the package sends. Every operation of both nodes sends phone numbers as
 * digits only (`+972 50-123 4567` → `972501234567`): the virtual number service strips
 * formatting itself on some operations but refuses it on others (remove_number_from_blacklist
 * answers 2011 "not numeric"), and the SMS service wants digits. docs/inputs.md lists the forms.
 */
import type { InputChecks } from './checks';

/** Characters a phone number may be typed with besides its digits (a + only at the start). */
const FORMATTING = '\\s().-';

/** The rule of a typed phone in the user's words, for errors and hints. */
export const PHONE_RULE = 'digits, optionally with a leading +, spaces, dashes, dots or brackets';

export const PHONE_LIMITS = {
	/** The service lists numbers of the account by their digits; update_virtualnum refuses fewer than 5 (4011). */
	virtualnumMinDigits: 5,
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

/** The digits of a typed phone number, or undefined when the text is not one (letters, a misplaced +, no digit). */
export function phoneDigits(raw: unknown): string | undefined {
	if (typeof raw !== 'string' && typeof raw !== 'number') return undefined;
	const text = String(raw);
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

/**
 * A list of phone numbers as users type or map it: separated by commas, semicolons or new lines,
 * or an array from an expression. Returns the entries trimmed; separators at the start and the end
 * are ignored, and an empty entry between two numbers is kept as '' (a value missing from a
 * mapping), for `checkPhoneList` to refuse.
 */
export function splitPhoneList(raw: unknown): string[] {
	// One number, the usual case of a mapped list: no splitting (10,000 items of a bulk send).
	if (typeof raw === 'string' && !/[,;\n]/.test(raw)) {
		const text = raw.trim();
		return text === '' ? [] : [text];
	}
	const parts = (Array.isArray(raw) ? raw.map((value) => String(value ?? '')) : [String(raw ?? '')])
		// A comma or semicolon with the spaces and line breaks around it, or line breaks alone, is one separator.
		.flatMap((part) => part.split(/\s*[,;]\s*|\s*\n\s*/))
		.map((part) => part.trim());
	const first = parts.findIndex((part) => part !== '');
	if (first < 0) return [];
	const last = parts.length - 1 - [...parts].reverse().findIndex((part) => part !== '');
	return parts.slice(first, last + 1);
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
export function localPhoneDigits(digits: string): string {
	return digits.startsWith('972') && digits.length > 10 ? `0${digits.slice(3)}` : digits;
}

/** Whether two numbers are the same line, whatever their form (`+972-50-333-3333` and `0503333333`). */
export function samePhone(a: string, b: string): boolean {
	const left = localPhoneDigits(digitsOf(a));
	const right = localPhoneDigits(digitsOf(b));
	return left !== '' && right !== '' && (left.endsWith(right) || right.endsWith(left));
}
