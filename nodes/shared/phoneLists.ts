/**
 * A field holding several phone numbers (To of Send and Wait, destinations, opted-out numbers, a
 * call-record filter): how the list is split, and each entry read by the rules of phones.ts.
 */
import type { InputChecks } from './checks';
import { digitsOf, phoneDigits, PHONE_LIMITS, PHONE_RULE } from './phones';

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

/** A list without the empty entries at its start and end (separators there), the same array when none. */
function withoutEmptyEnds<T>(values: T[]): T[] {
	let first = 0;
	while (first < values.length && values[first] === '') first++;
	let last = values.length - 1;
	while (last >= first && values[last] === '') last--;
	return first === 0 && last === values.length - 1 ? values : values.slice(first, last + 1);
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
	return withoutEmptyEnds(parts);
}

/**
 * A list of phone numbers as `splitPhoneList` reads it, for `readPhone` to read each: a value that
 * is not text (a numeric column's 541110010, a boolean) is kept as it is, so that what is refused
 * is what was there; an empty one (null) is an empty entry, ''. Nested arrays are flattened.
 */
export function phoneListValues(raw: unknown): unknown[] {
	if (raw === undefined || raw === null) return [];
	if (typeof raw !== 'string' && !Array.isArray(raw)) return [raw];
	// A table's 50,000 numbers (Skip Opted-Out Numbers): one array, no copy per value.
	const values: unknown[] = [];
	// Not trimmed: JavaScript's trim takes a byte-order mark with the spaces, and the reading says it saw one.
	const text = (part: string) => (part.trim() === '' ? '' : part);
	const add = (value: unknown): void => {
		if (Array.isArray(value)) for (const inner of value) add(inner);
		else if (typeof value !== 'string') values.push(value ?? '');
		else if (!LIST_SEPARATOR.test(value)) values.push(text(value));
		else for (const part of listEntries(value)) values.push(text(part));
	};
	add(raw);
	return withoutEmptyEnds(values);
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
