/**
 * Reading a reply's words as a person meant them: compatibility forms folded (NFKC), invisible
 * characters and Hebrew points removed, case ignored, punctuation and spaces read as one space.
 */
const INVISIBLE_OR_POINT = /[\p{Cf}\p{Mn}]/gu;
const SEPARATORS = /[\p{P}\p{S}\p{Z}\p{Cc}\s]+/gu;

function wordsOf(text: unknown): string {
	return String(text ?? '')
		.normalize('NFKC')
		.replace(INVISIBLE_OR_POINT, '')
		.toLowerCase()
		.replace(SEPARATORS, ' ')
		.trim();
}

/**
 * The value of the first option one of whose words the reply starts with, as whole words
 * ("כן", "Yes!", "1 please"); undefined when it matches none (an empty reply, emoji alone).
 */
export function readAnswer(
	text: string,
	options: Array<{ value: string; words: string[] }>,
): string | undefined {
	const words = wordsOf(text);
	if (words === '') return undefined;
	for (const option of options) {
		for (const word of option.words.map(wordsOf).filter(Boolean))
			if (words === word || words.startsWith(`${word} `)) return option.value;
	}
	return undefined;
}
