/**
 * What a person's SMS reply means, one reader for SMS Received's opt-outs, the trigger's Keywords
 * and the answers of Send and Wait by SMS reply. Phones and keyboards write one word many ways:
 * case, punctuation, compatibility forms (full-width `ＳＴＯＰ`), invisible and direction characters,
 * Hebrew and Arabic points, Arabic letter variants (`إلغاء`, `الغاء`), other scripts' digits (`١`),
 * repeated letters (`STOPPP`), letters spelled out (`S.T.O.P`) and the other keyboard layout (`vxr`
 * for `הסר`). Each is read away before comparing; the text itself stays as received in the item.
 *
 * A refusal is a message, or one sentence of it, made of a refusal and words that only say whom or
 * what it is about or ask politely: `stop`, `Please stop`, `הסר אותי בבקשה`, `תפסיקו לשלוח לי`,
 * `לא מעוניין`, `don't text me`, `не пишите мне`, `الغاء الاشتراك`. A refusal word inside an
 * ordinary sentence is not (`Stop by the store tomorrow?`, `please don't stop`, `stopwatch`); when it
 * could be one (`הסירו את החלב מההזמנה שלי`, `I said stop`), the reading says why a person should
 * look (`review`) instead of guessing. docs/trigger.md has the table.
 */
import { INVISIBLE, withAsciiDigits } from './typedText';
import {
	LAYOUTS,
	NOUN_BEFORE,
	REFUSAL_PHRASES,
	REPLY_WORDS,
	STOP_BY,
	type WordRole,
} from './replyWords';

/** The trigger's Opt-Out Keywords as they were by default: each is one the reader recognises. */
export const OPT_OUT_DEFAULT =
	'STOP, STOPALL, UNSUBSCRIBE, OPT OUT, OPTOUT, REMOVE ME, הסר, הסרה, להסרה, הסירו, תסירו';

// ---- reading words -----------------------------------------------------------------------------

/** Points and marks: Hebrew niqqud, Arabic harakat, combining marks, a keycap's enclosing mark, the Arabic tatweel. */
const MARKS = /[\p{Mn}\p{Me}\u0640]/gu;

/**
 * A text folded for comparing: NFKC, invisible characters, points and marks removed, digits of any
 * script in ASCII, lower case, Arabic alef, hamza, alef maqsura and ta marbuta forms as one, Russian
 * ё as е, apostrophes inside a word removed (`don't` is `dont`).
 */
function fold(text: string): string {
	return withAsciiDigits(text.normalize('NFKC'))
		.replace(INVISIBLE, '')
		.replace(MARKS, '')
		.toLowerCase()
		.replace(/[أإآٱ]/g, 'ا')
		.replace(/ى|ئ/g, 'ي')
		.replace(/ة/g, 'ه')
		.replace(/ؤ/g, 'و')
		.replace(/ё/g, 'е')
		.replace(/(?<=\p{L})['’ʼ`׳](?=\p{L})/gu, '');
}

/** A word as compared: repeated letters as one (`stooop`, `STOPPP` and `stop` are one). */
function keyOf(word: string): string {
	return word.replace(/(\p{L})\1+/gu, '$1');
}

interface Word {
	/** The word folded. */
	text: string;
	/** The word as compared. */
	key: string;
	/** What separates it from the word before. */
	gap: string;
	spelled?: boolean;
}

const WORD = /[\p{L}\p{N}]+/gu;

/** The words of a folded text; single letters spelled out (`s.t.o.p`, `s t o p`) joined into one. */
function wordsOf(folded: string): Word[] {
	const words: Word[] = [];
	let end = 0;
	for (const match of folded.matchAll(WORD)) {
		words.push({ text: match[0], key: keyOf(match[0]), gap: folded.slice(end, match.index) });
		end = (match.index ?? 0) + match[0].length;
	}
	return joinSpelled(words);
}

function joinSpelled(words: Word[]): Word[] {
	const joined: Word[] = [];
	for (let index = 0; index < words.length; ) {
		let last = index;
		while (
			last + 1 < words.length &&
			isLetter(words[last]) &&
			isLetter(words[last + 1]) &&
			/^[^\n]{1,2}$/.test(words[last + 1].gap)
		)
			last++;
		if (last - index >= 2 && isLetter(words[index])) {
			const text = words
				.slice(index, last + 1)
				.map((word) => word.text)
				.join('');
			joined.push({ text, key: keyOf(text), gap: words[index].gap, spelled: true });
			index = last + 1;
		} else joined.push(words[index++]);
	}
	return joined;
}

function isLetter(word: Word): boolean {
	return word.text.length === 1 && /\p{L}/u.test(word.text);
}

/** Where a new sentence starts: after ! ? ؟ or a new line, or a full stop or semicolon and a space. */
const SENTENCE_GAP = /[!?؟\n]|[.;…]\s/u;

function sentencesOf(words: Word[]): Word[][] {
	const sentences: Word[][] = [];
	for (const word of words) {
		if (sentences.length === 0 || SENTENCE_GAP.test(word.gap)) sentences.push([]);
		sentences[sentences.length - 1].push(word);
	}
	return sentences;
}

// ---- the vocabulary ------------------------------------------------------------------------------

interface Known {
	role: WordRole;
	/** The folded spellings the vocabulary has for this key: any other was read with repeated letters forgiven. */
	spellings: Set<string>;
}

const VOCABULARY = new Map<string, Known>();
for (const [role, words] of Object.entries(REPLY_WORDS) as Array<[WordRole, string]>) {
	for (const word of words.split(' ')) {
		const text = fold(word);
		const key = keyOf(text);
		const known = VOCABULARY.get(key);
		if (known) known.spellings.add(text);
		else VOCABULARY.set(key, { role, spellings: new Set([text]) });
	}
}
const PHRASES = REFUSAL_PHRASES.map((phrase) => wordsOf(fold(phrase)).map((word) => word.key));
const STOP_BY_WORDS = new Set(STOP_BY.split(' '));
const NOUN_BEFORE_WORDS = new Set(NOUN_BEFORE.split(' '));

/**
 * A word's vocabulary entry; a Hebrew or Arabic "and"/"that" prefix (ו, ש, و) read off when the
 * word is not known whole; digits are a number the message is about.
 */
function knownWord(word: Word): Known | undefined {
	const known = VOCABULARY.get(word.key);
	if (known) return known;
	if (word.key.length > 2 && /^[ושو]/.test(word.key)) return VOCABULARY.get(word.key.slice(1));
	if (/^\d+$/.test(word.key)) return { role: 'object', spellings: new Set([word.text]) };
	return undefined;
}

/** Words that only say whom or what a refusal is about, or ask politely. */
const FILLER: ReadonlySet<WordRole | undefined> = new Set<WordRole | undefined>([
	'object',
	'courtesy',
	'messages',
	'send',
	'more',
	'want',
]);

// ---- refusals ------------------------------------------------------------------------------------

/** What a person's SMS reply says about further messages. */
interface RefusalReading {
	/** The message refuses further messages. */
	optOut: boolean;
	/** Why a person should look: the message may be a refusal, but the reader is not sure. */
	review?: string;
	/** The words read as the refusal. */
	matched?: string;
}

/** A refusal found in a sentence, and the words it spans. */
interface Refusal {
	kind: 'refusal' | 'refusalWord' | 'negation' | 'ifMessages' | 'keyword';
	from: number;
	to: number;
}

interface Reading extends RefusalReading {
	/** A forgiving rule the refusal needed (repeated letters, spelled out, the other layout). */
	forgiven?: string;
}

/** Whether `keys` are the words of `words` from `at` on. */
function startsAt(words: Word[], at: number, keys: readonly string[]): boolean {
	return keys.length > 0 && keys.every((key, offset) => words[at + offset]?.key === key);
}

/** Refusals of several words: the configured keywords, then the built-in phrases. */
function phraseRefusals(words: Word[], keywords: string[][], used: boolean[]): Refusal[] {
	const found: Refusal[] = [];
	for (let at = 0; at < words.length; at++) {
		const keyword = keywords.find((keys) => startsAt(words, at, keys));
		const phrase = keyword ?? PHRASES.find((keys) => startsAt(words, at, keys));
		if (!phrase) continue;
		found.push({ kind: keyword ? 'keyword' : 'refusal', from: at, to: at + phrase.length });
		for (let index = at; index < at + phrase.length; index++) used[index] = true;
		at += phrase.length - 1;
	}
	return found;
}

/**
 * A negation and the word right after it (no punctuation between): "don't text", "לא מעוניין" and
 * "no more" refuse; "don't stop", "אל תסירו" negate the refusal, so they are no refusal at all.
 */
function negations(words: Word[], roles: Array<WordRole | undefined>, used: boolean[]): Refusal[] {
	const found: Refusal[] = [];
	for (let at = 0; at + 1 < words.length; at++) {
		if (used[at] || used[at + 1] || !/^\s*$/.test(words[at + 1].gap)) continue;
		const [role, next] = [roles[at], roles[at + 1]];
		let kind: Refusal['kind'] | 'negated' | undefined;
		if (role === 'not' && (next === 'refusal' || next === 'refusalWord')) kind = 'negated';
		else if (role === 'not' && (next === 'send' || next === 'interested')) kind = 'negation';
		else if ((role === 'not' && next === 'want') || (role === 'no' && next === 'more'))
			kind = 'ifMessages';
		if (kind === undefined) continue;
		used[at] = used[at + 1] = true;
		if (kind !== 'negated') found.push({ kind, from: at, to: at + 2 });
		at++;
	}
	return found;
}

/** Single refusal words; `stop` before `by`, `over`… is a visit ("stop by the store") and no refusal. */
function wordRefusals(
	words: Word[],
	roles: Array<WordRole | undefined>,
	used: boolean[],
): Refusal[] {
	const found: Refusal[] = [];
	roles.forEach((role, at) => {
		if (used[at]) return;
		if (role === 'refusalWord' && words[at].key === 'stop' && STOP_BY_WORDS.has(words[at + 1]?.key))
			used[at] = true;
		else if (role === 'refusal' || role === 'refusalWord' || role === 'enough') {
			used[at] = true;
			found.push({ kind: role === 'enough' ? 'ifMessages' : role, from: at, to: at + 1 });
		}
	});
	return found;
}

const textOf = (words: Word[]) => words.map((word) => word.text).join(' ');

/** The forgiving rule the words of a refusal needed, if any. */
function forgivenIn(words: Word[]): string | undefined {
	if (words.some((word) => word.spelled)) return 'letters spelled out';
	const exact = (word: Word) => {
		const known = knownWord(word);
		return !known || known.spellings.has(word.text) || known.spellings.has(word.text.slice(1));
	};
	return words.every(exact) ? undefined : 'repeated letters';
}

/** One sentence read: a refusal, a refusal a person should look at, or neither. */
function readSentence(words: Word[], keywords: string[][]): Reading {
	const roles = words.map((word) => knownWord(word)?.role);
	const used = words.map(() => false);
	const refusals = [
		...phraseRefusals(words, keywords, used),
		...negations(words, roles, used),
		...wordRefusals(words, roles, used),
	];
	if (refusals.length === 0) return { optOut: false };
	const other = words.filter((_, at) => !used[at] && !FILLER.has(roles[at]));
	const namesMessages = roles.some((role) => role === 'messages' || role === 'send');
	const clear = refusals.find((refusal) => refusal.kind !== 'ifMessages' || namesMessages);
	if (clear && other.length === 0) {
		const span = words.slice(clear.from, clear.to);
		return { optOut: true, matched: textOf(span), forgiven: forgivenIn(span) };
	}
	const unsure = refusals.find((refusal) => unsureOf(refusal, words, roles, other.length));
	if (!unsure) return { optOut: false };
	const said = textOf(words.slice(unsure.from, unsure.to));
	return {
		optOut: false,
		review:
			other.length === 0
				? `"${said}" without saying what it refuses: a refusal, or an answer to something else?`
				: `"${said}" with other words ("${textOf(other)}"): a refusal, or about something else?`,
	};
}

/**
 * Whether a refusal among other words may still be one: a refusal of its own kind anywhere, a
 * refusal word at the start of the sentence or at its end ("I said stop"; not "the end").
 */
function unsureOf(
	refusal: Refusal,
	words: Word[],
	roles: Array<WordRole | undefined>,
	others: number,
): boolean {
	if (others === 0 || (refusal.kind !== 'refusalWord' && refusal.kind !== 'keyword')) return true;
	const atStart = roles.slice(0, refusal.from).every((role) => FILLER.has(role));
	const atEnd = refusal.to === words.length && !NOUN_BEFORE_WORDS.has(words[refusal.from - 1]?.key);
	return atStart || atEnd;
}

/** A whole message read: a refusal when one sentence is one; else the first sentence a person should look at. */
function readFolded(folded: string, keywords: string[][]): Reading {
	let unsure: Reading | undefined;
	for (const sentence of sentencesOf(wordsOf(folded))) {
		const reading = readSentence(sentence, keywords);
		if (reading.optOut) return reading;
		unsure ??= reading.review ? reading : undefined;
	}
	return unsure ?? { optOut: false };
}

const keywordsRead = new Map<string, string[][]>();

/**
 * The keywords as the reader compares them, leaving out those it recognises on its own: read as
 * phrases they would take over its care (`stop` would make "Stop by the store" a refusal to look at).
 */
function keywordKeys(keywords: readonly string[] | undefined): string[][] {
	if (!keywords?.length) return [];
	const id = keywords.join('\n');
	let keys = keywordsRead.get(id);
	if (!keys) {
		keys = keywords
			.filter((keyword) => !readFolded(fold(String(keyword)), []).optOut)
			.map((keyword) => wordsOf(fold(String(keyword))).map((word) => word.key))
			.filter((words) => words.length > 0);
		// A trigger's list is read once per message: a few lists are kept, never an unbounded number.
		if (keywordsRead.size >= 32) keywordsRead.clear();
		keywordsRead.set(id, keys);
	}
	return keys;
}

// ---- the other keyboard layout -------------------------------------------------------------------

type Layout = keyof typeof LAYOUTS;
const LAYOUT_NAMES = Object.keys(LAYOUTS) as Layout[];
const LAYOUT_TITLES: Record<Layout, string> = {
	english: 'English',
	hebrew: 'Hebrew',
	russian: 'Russian',
};
const SCRIPT_OF_LAYOUT: Record<Layout, RegExp> = {
	english: /[a-z]/,
	hebrew: /[\u05d0-\u05ea]/,
	russian: /[\u0430-\u044f]/,
};

/**
 * The text as typed on the layout `to`: every key of `from` read as the same key of `to`. From
 * Hebrew or Russian, only their letters (their punctuation is on other keys); from English, every
 * key, since `,` `.` `;` are Hebrew letters (`tu,h` is אותי).
 */
function retyped(text: string, from: Layout, to: Layout): string {
	let converted = '';
	for (const char of text) {
		const key = LAYOUTS[from].indexOf(char);
		const letter = from === 'english' || SCRIPT_OF_LAYOUT[from].test(char);
		converted += key < 0 || !letter ? char : LAYOUTS[to][key];
	}
	return converted;
}

/** The text as typed on each other layout, when its letters are of one layout's script. */
function otherLayouts(folded: string): Array<[Layout, string]> {
	const scripts = LAYOUT_NAMES.filter((name) => SCRIPT_OF_LAYOUT[name].test(folded));
	if (scripts.length !== 1) return [];
	const [typedIn] = scripts;
	return LAYOUT_NAMES.filter((name) => name !== typedIn).map((name) => [
		typedIn,
		retyped(folded, typedIn, name),
	]);
}

/** A reply read, with the other keyboard layouts tried when none of its words is known. */
function readReply(text: unknown, keywords: string[][]): Reading {
	const folded = fold(String(text ?? ''));
	const reading = readFolded(folded, keywords);
	if (reading.optOut || reading.review) return reading;
	if (wordsOf(folded).some((word) => knownWord(word))) return reading;
	for (const [layout, converted] of otherLayouts(folded)) {
		const guess = readFolded(converted, keywords);
		if (guess.optOut)
			return {
				optOut: true,
				matched: `${folded.trim()} (${guess.matched} typed with the ${LAYOUT_TITLES[layout]} keyboard layout)`,
				forgiven: 'the other keyboard layout',
			};
	}
	return reading;
}

/**
 * What an SMS reply says about further messages: `optOut` for a refusal in Hebrew, Arabic,
 * Russian or English (`extraKeywords` too, read the same way); `review` with the reason when it
 * may be one and a person should look. Never throws.
 */
export function readRefusal(text: unknown, extraKeywords?: readonly string[]): RefusalReading {
	const { optOut, review, matched } = readReply(text, keywordKeys(extraKeywords));
	const reading: RefusalReading = { optOut };
	if (review !== undefined) reading.review = review;
	if (matched !== undefined) reading.matched = matched;
	return reading;
}

/** The rule a reply keyword follows, for the refusals of `refusalKeywordProblem`. */
const KEYWORD_RULE =
	'use a word recipients reply with to refuse, in Hebrew, Arabic, Russian or English ' +
	'(הסר, STOP, UNSUBSCRIBE, стоп, إلغاء; docs/trigger.md lists what the reader recognises)';

/**
 * Why the reader would not recognise this keyword as a refusal (undefined when it does): for
 * option checks. A keyword read only by forgiving it (repeated letters, letters spelled out, the
 * other keyboard layout) is refused too: recipients copy it as written.
 */
export function refusalKeywordProblem(keyword: string): string | undefined {
	if (wordsOf(fold(String(keyword ?? ''))).length === 0)
		return `has no letters or digits, so no reply can match it: ${KEYWORD_RULE}`;
	const reading = readReply(keyword, []);
	if (!reading.optOut)
		return `is not a refusal the reader recognises${reading.review ? ` (${reading.review})` : ''}: ${KEYWORD_RULE}`;
	if (reading.forgiven)
		return `is read as a refusal only by forgiving ${reading.forgiven} ("${reading.matched}"): ${KEYWORD_RULE}`;
	return undefined;
}

// ---- answers -------------------------------------------------------------------------------------

/**
 * Which answer option a reply chose (Send and Wait by SMS reply), read with the refusal reader's
 * care (case, punctuation, points, invisible characters, other scripts' digits: `١` is `1`,
 * repeated letters: `yesss`, the other keyboard layout). The reply must be one option's words,
 * optionally with courtesy (`כן תודה`, `yes please`, `1.`); a reply with words of two options
 * (`כן לא`) or any other word (`כן אבל מחר`) chose none: undefined.
 */
export function readAnswer(
	text: unknown,
	options: ReadonlyArray<{ value: string; words: readonly string[] }>,
): string | undefined {
	const choices = options.flatMap(({ value, words }) =>
		words.map((word) => ({ value, keys: wordsOf(fold(String(word))).map((w) => w.key) })),
	);
	choices.sort((a, b) => b.keys.length - a.keys.length);
	const folded = fold(String(text ?? ''));
	const answer = answerIn(folded, choices);
	if (answer !== 'unknown') return answer;
	for (const [, converted] of otherLayouts(folded)) {
		const guess = answerIn(converted, choices);
		if (guess !== 'unknown') return guess;
	}
	return undefined;
}

/** The option a folded reply chose; undefined for none or two; 'unknown' when a word is no option's and no courtesy. */
function answerIn(
	folded: string,
	choices: Array<{ value: string; keys: string[] }>,
): string | undefined | 'unknown' {
	const words = wordsOf(folded);
	let chosen: string | undefined;
	for (let at = 0; at < words.length; ) {
		const choice = choices.find(({ keys }) => startsAt(words, at, keys));
		if (choice) {
			if (chosen !== undefined && chosen !== choice.value) return undefined;
			chosen = choice.value;
			at += choice.keys.length;
		} else if (knownWord(words[at])?.role === 'courtesy') at++;
		else return 'unknown';
	}
	return chosen;
}

// ---- the trigger's Keywords --------------------------------------------------------------------

/** Invisible format characters and nonspacing marks (Hebrew points). */
const INVISIBLE_OR_POINT = /[\p{Cf}\p{Mn}]/gu;
/** What separates words once read: punctuation, symbols, any kind of space or control character. */
const SEPARATORS = /[\p{P}\p{S}\p{Z}\p{Cc}\s]+/gu;

/** A text as Keywords compare it: NFKC, without invisible characters and points, lower case, single spaces. */
function phraseText(text: unknown): string {
	return String(text ?? '')
		.normalize('NFKC')
		.replace(INVISIBLE_OR_POINT, '')
		.toLowerCase()
		.replace(SEPARATORS, ' ')
		.trim();
}

/** The trigger's Keywords: phrases typed comma- or line-separated, read as `startsWithPhrase` reads a message. */
export function phrasesOf(text: string): string[] {
	return [
		...new Set(
			text
				.split(/[,\n]+/)
				.map(phraseText)
				.filter(Boolean),
		),
	];
}

/**
 * The entries of a Keywords text that no message can match (`!!!`, `🙂`): only punctuation,
 * symbols or spaces, which a reply's words are read without. `phrasesOf` leaves them out.
 */
export function unmatchablePhrases(text: string): string[] {
	return text
		.split(/[,\n]+/)
		.filter((entry) => entry.trim() !== '' && phraseText(entry) === '')
		.map((entry) => entry.trim());
}

/** Whether the message starts with one of the phrases, as whole words. */
export function startsWithPhrase(text: unknown, phrases: readonly string[]): boolean {
	const words = phraseText(text);
	return phrases.some((phrase) => words === phrase || words.startsWith(`${phrase} `));
}
