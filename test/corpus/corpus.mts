/**
 * The field-data corpus (test/fixtures/field-data/, its README says what each file holds), read
 * for the tests that put every reader of such input against it.
 */
import { readFileSync } from 'node:fs';

const read = <T,>(file: string): T =>
	JSON.parse(readFileSync(new URL(`../fixtures/field-data/${file}`, import.meta.url), 'utf8')) as T;

/** One way a number is written, what it is read as, and what Send sends As Typed. */
export interface Spelling {
	/** A number where a numeric column holds it. */
	value: string | number;
	from: string;
	digits: string;
	sent: string;
	/** Words of the `read` note the reading must have. */
	read?: string;
	extension?: string;
}

export interface PhoneCorpus {
	countryCode: string;
	numbers: Array<{ identity: string; number: string; spellings: Spelling[] }>;
	refused: Array<{ value: unknown; from: string; problem: string }>;
}

export interface Message {
	text: string;
	language: 'he' | 'ar' | 'ru' | 'en';
	why: string;
}

export interface RefusalCorpus {
	optOut: Message[];
	notOptOut: Message[];
	review: Message[];
}

export interface AnswerCorpus {
	options: Array<{ value: string; words: string[] }>;
	replies: Array<{ text: string; answer: string | null; why: string }>;
}

export interface ClockDay {
	zone: string;
	date: string;
	weekday: string;
	change: 'forward' | 'back';
	from: string;
	to: string;
	offsetBefore: string;
	offsetAfter: string;
	skipped?: string;
	repeated?: string;
}

export interface ClockCorpus {
	transitions: ClockDay[];
	fixedHalfHour: Array<{ zone: string; offset: string; year: number }>;
}

export const phones = read<PhoneCorpus>('phones.json');
export const refusals = read<RefusalCorpus>('refusals.json');
export const answers = read<AnswerCorpus>('answers.json');
export const clockDays = read<ClockCorpus>('clock-days.json');

/** Every spelling of the corpus with the number it is. */
export const spellings = phones.numbers.flatMap(({ identity, spellings: list }) =>
	list.map((spelling) => ({ ...spelling, identity })),
);

/** Israeli numbers only (country code 972): their every spelling has one international form. */
export const israeliSpellings = spellings.filter(({ identity }) => identity.startsWith('972'));
