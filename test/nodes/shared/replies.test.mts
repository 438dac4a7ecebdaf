// The reply reader (nodes/shared/replies.ts): what the readings say beside optOut, extra keywords,
// the keyword check, answers with the user's own options, and the trigger's Keywords phrases. Every
// refusal, non-refusal and answer of the field-data corpus is read in test/corpus/readers.test.mts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { prng } from '../../../dev/harness/prng.mts';
import {
	OPT_OUT_DEFAULT,
	phrasesOf,
	readAnswer,
	readRefusal,
	refusalKeywordProblem,
	startsWithPhrase,
} from '../../../nodes/shared/replies.ts';

describe('readRefusal: what the reading says', () => {
	test('a refusal names the words read as one, and how when a rule forgave them', () => {
		assert.deepEqual(readRefusal('Please STOP!'), { optOut: true, matched: 'stop' });
		assert.deepEqual(readRefusal('תורידו אותי מהרשימה'), { optOut: true, matched: 'תורידו' });
		assert.deepEqual(readRefusal("I'm not interested"), {
			optOut: true,
			matched: 'not interested',
		});
		assert.deepEqual(readRefusal('vxr'), {
			optOut: true,
			matched: 'vxr (הסר typed with the English keyboard layout)',
		});
	});

	test('a message a person should read says why, and is no opt-out', () => {
		assert.deepEqual(readRefusal('הסירו את החלב מההזמנה שלי'), {
			optOut: false,
			review: '"הסירו" with other words ("החלב מההזמנה"): a refusal, or about something else?',
		});
		assert.deepEqual(readRefusal('לא רוצה'), {
			optOut: false,
			review:
				'"לא רוצה" without saying what it refuses: a refusal, or an answer to something else?',
		});
	});

	test('nothing to read is no refusal, whatever the value', () => {
		for (const value of [undefined, null, '', '   ', 12, { text: 'stop' }, '🙂🙂'])
			assert.deepEqual(readRefusal(value), { optOut: false }, JSON.stringify(value));
	});

	test("extra keywords (the trigger's Opt-Out Keywords) are refusals too, read with the same care", () => {
		const extra = ['BASTA', 'Cancel subscription'];
		assert.equal(readRefusal('basta', extra).optOut, true);
		assert.equal(readRefusal('ＢＡＳＴＡ please', extra).optOut, true, 'full-width, courtesy');
		assert.equal(readRefusal('bastaaa', extra).optOut, true, 'repeated letters');
		assert.equal(readRefusal('CANCEL SUBSCRIPTION now', extra).optOut, true);
		assert.match(
			String(readRefusal('basta, who are you', extra).review),
			/"basta" with other words/,
		);
		assert.equal(readRefusal('pasta basta', extra).optOut, false, 'not at the start, not alone');
		assert.equal(readRefusal('basta').optOut, false, 'without the keyword: no refusal');
		assert.equal(readRefusal('STOP', extra).optOut, true, 'the built-in refusals stay');
	});

	test('never throws, on 5,000 random texts of letters, marks, digits and punctuation of every script here', () => {
		const rng = prng(Number(process.env.FUZZ_SEED ?? 44));
		const alphabet = [..."stop הסר стоп الغاء ١ ,.!?\u200f\u202e\u0640\u05b8\n'-"];
		for (let i = 0; i < 5_000; i++) {
			const text = Array.from({ length: rng.int(0, 30) }, () => rng.pick(alphabet)).join('');
			const reading = readRefusal(text);
			assert.equal(typeof reading.optOut, 'boolean', JSON.stringify(text));
			if (reading.optOut) assert.equal(reading.review, undefined, JSON.stringify(text));
		}
	});
});

describe('refusalKeywordProblem: a reply keyword the reader recognises as written', () => {
	test("the law's keyword and every default Opt-Out Keyword are recognised", () => {
		for (const keyword of ['הסר', ...OPT_OUT_DEFAULT.split(', '), 'إلغاء', 'стоп', 'לא מעוניין'])
			assert.equal(refusalKeywordProblem(keyword), undefined, keyword);
	});

	test('a keyword read only by forgiving it, or not at all, is refused, naming the rule', () => {
		const cases: Array<[string, RegExp]> = [
			['STOPPP', /only by forgiving repeated letters/],
			['S.T.O.P', /only by forgiving letters spelled out/],
			['vxr', /only by forgiving the other keyboard layout/],
			['BASTA', /is not a refusal the reader recognises/],
			['stop by', /is not a refusal the reader recognises/],
			['🛑', /has no letters or digits/],
		];
		for (const [keyword, problem] of cases) {
			const text = String(refusalKeywordProblem(keyword));
			assert.match(text, problem, keyword);
			assert.match(text, /in Hebrew, Arabic, Russian or English/, `${keyword}: the rule`);
		}
	});
});

describe('readAnswer: the option a reply chose', () => {
	test('the options the user set, several words each, the longest read first', () => {
		const options = [
			{ value: 'coming', words: ['מגיע', 'מאשר', 'OK'] },
			{ value: 'notComing', words: ['לא מגיע', 'can not come'] },
		];
		assert.equal(readAnswer('לא מגיע', options), 'notComing', 'not "לא" then "מגיע"');
		assert.equal(readAnswer('מגיע!', options), 'coming');
		assert.equal(readAnswer('ok', options), 'coming', 'an option word that is also courtesy');
		assert.equal(readAnswer('Can not come, sorry', options), 'notComing');
		assert.equal(readAnswer('מגיע מאשר', options), 'coming', 'two words of one option');
		assert.equal(readAnswer('מגיע, לא מגיע', options), undefined, 'two options');
		assert.equal(readAnswer('אולי', options), undefined);
	});

	test('nothing to read, or no options, is no answer', () => {
		const options = [{ value: 'approved', words: ['1'] }];
		for (const value of [undefined, null, '', { text: '1' }])
			assert.equal(readAnswer(value, options), undefined);
		assert.equal(readAnswer(1, options), 'approved', 'a number');
		assert.equal(readAnswer('1', []), undefined);
	});
});

describe("the trigger's Keywords: phrases, and whether a message starts with one", () => {
	test('phrases are read as messages are: case, punctuation, full-width letters, points, invisible characters', () => {
		assert.deepEqual(phrasesOf('INFO, join us\nＩＮＦＯ,, הָסֵר'), ['info', 'join us', 'הסר']);
		assert.equal(startsWithPhrase('Join us!', ['join us']), true);
		assert.equal(startsWithPhrase('I\u200bNFO please', ['info']), true);
		assert.equal(startsWithPhrase('join', ['join us']), false, 'the whole phrase');
		assert.equal(startsWithPhrase('information', ['info']), false, 'whole words');
		assert.equal(startsWithPhrase(null, ['info']), false);
	});
});
