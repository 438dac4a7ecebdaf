// Every reader of people's input against the whole field-data corpus (test/fixtures/field-data/):
// phone numbers (readPhone, and one identity for all spellings of a number through the readers the
// nodes use), refusals (readRefusal), answers (readAnswer), and the clock-change days as luxon
// (n8n's) has them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { DateTime } from 'luxon';

import { phoneDigits, phoneIdentity, readPhone } from '../../nodes/shared/phones.ts';
import { readAnswer, readRefusal } from '../../nodes/shared/replies.ts';
import { answers, clockDays, phones, refusals, spellings } from './corpus.mts';

const shown = (value: unknown) => JSON.stringify(value);

describe('field data: phone numbers', () => {
	test('every spelling is read as its number: the digits, the identity, the extension, what was read', () => {
		for (const spelling of spellings) {
			const reading = readPhone(spelling.value, phones.countryCode);
			const why = `${shown(spelling.value)} (${spelling.from})`;
			assert.ok(!('problem' in reading), `${why}: ${shown(reading)}`);
			assert.equal(reading.digits, spelling.digits, why);
			assert.equal(reading.identity, spelling.identity, why);
			assert.equal(reading.extension, spelling.extension, why);
			if (spelling.read)
				assert.ok(reading.read?.includes(spelling.read), `${why}: ${reading.read}`);
			else assert.equal(reading.read, undefined, why);
		}
	});

	test('all spellings of one number are one identity through phoneDigits and phoneIdentity, and no two numbers share one', () => {
		const identities = new Map<string, string>();
		for (const { identity, spellings: list } of phones.numbers) {
			for (const { value } of list) {
				const digits = phoneDigits(value);
				assert.ok(digits !== undefined, shown(value));
				assert.equal(phoneIdentity(digits), identity, shown(value));
			}
			assert.equal(identities.has(identity), false, identity);
			identities.set(identity, identity);
		}
	});

	test('a value that cannot be one number is refused, saying why and what was seen', () => {
		for (const { value, from, problem } of phones.refused) {
			const reading = readPhone(value, phones.countryCode);
			assert.ok(
				'problem' in reading,
				`${shown(value)} (${from}) must be refused: ${shown(reading)}`,
			);
			assert.ok(reading.problem.includes(problem), `${shown(value)}: ${reading.problem}`);
			assert.equal(typeof reading.seen, 'string');
			assert.ok(reading.seen.length <= 41, reading.seen);
		}
	});
});

describe('field data: refusals in Hebrew, Arabic, Russian and English', () => {
	test('every refusal is an opt-out', () => {
		for (const { text, language, why } of refusals.optOut) {
			const reading = readRefusal(text);
			assert.equal(reading.optOut, true, `${shown(text)} (${language}, ${why}): ${shown(reading)}`);
			assert.ok(reading.matched, shown(text));
		}
	});

	test('an ordinary message that merely contains a word is no opt-out and needs no review', () => {
		for (const { text, language, why } of refusals.notOptOut)
			assert.deepEqual(
				readRefusal(text),
				{ optOut: false },
				`${shown(text)} (${language}, ${why})`,
			);
	});

	test('a message that may be a refusal is no opt-out, and says why a person should look', () => {
		for (const { text, language, why } of refusals.review) {
			const reading = readRefusal(text);
			assert.equal(reading.optOut, false, `${shown(text)} (${language}, ${why})`);
			assert.ok(reading.review, `${shown(text)} (${language}, ${why}): ${shown(reading)}`);
		}
	});

	test('every language of the corpus has refusals, messages that are none and messages for review', () => {
		for (const language of ['he', 'ar', 'ru', 'en'])
			for (const list of [refusals.optOut, refusals.notOptOut])
				assert.ok(
					list.some((message) => message.language === language),
					language,
				);
	});
});

describe('field data: answers to "1 to confirm, 2 to cancel"', () => {
	test('each reply chooses its option, or none', () => {
		for (const { text, answer, why } of answers.replies)
			assert.equal(
				readAnswer(text, answers.options),
				answer ?? undefined,
				`${shown(text)}: ${why}`,
			);
	});
});

describe('field data: the clock-change days are as luxon (n8n) has them', () => {
	const at = (zone: string, date: string, time: string) =>
		DateTime.fromISO(`${date}T${time}`, { zone });

	test('each transition: the offsets before and after, the hour skipped or repeated', () => {
		for (const day of clockDays.transitions) {
			const name = `${day.zone} ${day.date}`;
			const before = at(day.zone, day.date, '00:30');
			const after = at(day.zone, day.date, '12:00');
			assert.equal(before.toFormat('ZZ'), day.offsetBefore, name);
			assert.equal(after.toFormat('ZZ'), day.offsetAfter, name);
			assert.equal(before.weekdayLong, day.weekday, name);
			// The instant of the change: the clock reads `from` in the old offset and `to` in the new one.
			const change = DateTime.fromISO(`${day.date}T${day.from}${day.offsetBefore}`).setZone(
				day.zone,
			);
			assert.equal(change.toFormat('HH:mm ZZ'), `${day.to} ${day.offsetAfter}`, name);
			assert.equal(change.minus({ minutes: 1 }).toFormat('ZZ'), day.offsetBefore, name);
			const hour = (day.skipped ?? day.repeated ?? '').split('-')[0];
			if (day.skipped)
				assert.notEqual(
					at(day.zone, day.date, hour).toFormat('HH:mm'),
					hour,
					`${name}: ${hour} skipped`,
				);
			else {
				const first = DateTime.fromISO(`${day.date}T${hour}${day.offsetBefore}`).setZone(day.zone);
				assert.equal(first.plus({ hours: 1 }).toFormat('HH:mm'), hour, `${name}: ${hour} twice`);
			}
		}
	});

	test('a half-hour offset that never changes', () => {
		for (const { zone, offset, year } of clockDays.fixedHalfHour)
			for (let month = 1; month <= 12; month++)
				assert.equal(
					DateTime.fromObject({ year, month, day: 15 }, { zone }).toFormat('ZZ'),
					offset,
				);
	});
});
