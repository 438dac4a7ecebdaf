/**
 * Reading a received SMS's words as a person meant them, for SMS Received's opt-outs and Keywords.
 * Phones and keyboards write one word many ways: upper or lower case, punctuation and spaces
 * around it, compatibility forms (full-width `ＳＴＯＰ` from an Asian keyboard), invisible
 * characters (a zero-width space pasted with the word, the direction marks a Hebrew keyboard adds
 * next to Latin letters) and Hebrew points (הָסֵר). Each is read away before comparing; the text
 * itself stays as received in the item.
 *
 * An opt-out is a message that STARTS with one of the phrases, as whole words: "stop", "Stop!",
 * "stop please", "הסר אותי בבקשה" are; "stopwatch", "please stop", "don't stop" are not (a word
 * inside a sentence is too often something else; docs/trigger.md has the table).
 */

/**
 * Replies by which a sender asks to receive no more messages, English and Hebrew. Each also
 * matches the phrasings it starts ("stop all", "הסר אותי", "הסירו אותי מהרשימה").
 */
export const OPT_OUT_DEFAULT =
	'STOP, STOPALL, UNSUBSCRIBE, OPT OUT, OPTOUT, REMOVE ME, הסר, הסרה, להסרה, הסירו, תסירו';

/**
 * Invisible format characters (ZWSP, ZWJ, LRM/RLM, bidi embeddings and isolates, BOM, soft
 * hyphen) and nonspacing marks (Hebrew points).
 */
const INVISIBLE_OR_POINT = /[\p{Cf}\p{Mn}]/gu;
/** What separates words once read: punctuation, symbols, any kind of space or control character. */
const SEPARATORS = /[\p{P}\p{S}\p{Z}\p{Cc}\s]+/gu;

/** A text's words as compared: NFKC, without invisible characters and points, lower case, single spaces. */
function wordsOf(text: unknown): string {
	return String(text ?? '')
		.normalize('NFKC')
		.replace(INVISIBLE_OR_POINT, '')
		.toLowerCase()
		.replace(SEPARATORS, ' ')
		.trim();
}

/** Phrases as the user typed them, comma- or line-separated, read as `wordsOf` reads a message. */
export function phrasesOf(text: string): string[] {
	return [
		...new Set(
			text
				.split(/[,\n]+/)
				.map(wordsOf)
				.filter(Boolean),
		),
	];
}

/** Whether the message starts with one of the phrases, as whole words. */
export function startsWithPhrase(text: unknown, phrases: readonly string[]): boolean {
	const words = wordsOf(text);
	return phrases.some((phrase) => words === phrase || words.startsWith(`${phrase} `));
}
