import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { InputChecks } from '../../../nodes/shared/checks.ts';
import { prng } from '../../../dev/harness/prng.mts';
import {
	checkPhone,
	checkPhoneList,
	checkVirtualnum,
	digitsOf,
	notAPhone,
	numberStyleOf,
	PHONE_RULE,
	phoneDigits,
	phoneForms,
	phoneIdentity,
	phonePatternSource,
	phoneToSend,
	readPhone,
	samePhone,
	splitPhoneList,
	type PhoneProblem,
	type PhoneReading,
} from '../../../nodes/shared/phones.ts';

const node = {
	id: '1',
	name: 'Node',
	type: 'x',
	typeVersion: 1,
	position: [0, 0] as [number, number],
	parameters: {},
};
const checks = new InputChecks(node, 2);

describe('phones: one rule for what a phone number is, digits for what is sent', () => {
	const typed: Array<[string, string]> = [
		['+972 50-333-3333', '972503333333'],
		['050-1234567', '0501234567'],
		['(03) 555.1234', '035551234'],
		['  0722000100 ', '0722000100'],
	];
	for (const [text, digits] of typed) {
		test(`"${text}" is sent as ${digits}`, () => {
			assert.equal(phoneDigits(text), digits);
			assert.equal(checkPhone(checks, 'Phone', text), digits);
		});
	}

	for (const bad of ['05x1234567', '+-', '050+1234567', 'call me', '', '++972501234567']) {
		test(`"${bad}" is not a phone number`, () => {
			assert.equal(phoneDigits(bad) === undefined || bad === '', true);
			assert.throws(
				() => checkPhone(checks, 'Phone', bad),
				/Phone: (must be a phone number|is required)/,
			);
		});
	}

	test('at most 15 digits (E.164); a virtual number has at least 5', () => {
		assert.throws(() => checkPhone(checks, 'Phone', '1234567890123456'), /at most 15 digits/);
		assert.equal(checkVirtualnum(checks, 'Virtual Number', '+972 3-555 1234'), '97235551234');
		assert.throws(() => checkVirtualnum(checks, 'Virtual Number', '1234'), /at least 5 digits/);
	});

	test('the editor validation of the number locator is the same rule', () => {
		const pattern = new RegExp(phonePatternSource(5));
		for (const ok of ['0722000100', '+972 72-200-0100', '(072) 200.0100'])
			assert.ok(pattern.test(ok), ok);
		for (const bad of ['1234', '07220x0100', '072+2000100']) assert.ok(!pattern.test(bad), bad);
	});

	test('lists: commas, semicolons, new lines or an array; each entry as digits; speed dials where allowed', () => {
		assert.deepEqual(
			checkPhoneList(checks, 'Destinations', '050-1234567, +972 52 765 4321;\n03-5551234'),
			['0501234567', '972527654321', '035551234'],
		);
		assert.deepEqual(
			checkPhoneList(checks, 'Destinations', ['0501234567', '*1234'], { speedDial: true }),
			['0501234567', '*1234'],
		);
		assert.throws(
			() => checkPhoneList(checks, 'Destinations', '0501234567, *1234'),
			/Destinations: must be phone numbers/,
		);
		assert.throws(
			() => checkPhoneList(checks, 'Destinations', ' , '),
			/needs at least one phone number/,
		);
		// Separators at the ends are ignored; an empty entry between two numbers is a value missing from a mapping.
		assert.deepEqual(checkPhoneList(checks, 'Destinations', ', 0501234567,\n'), ['0501234567']);
		assert.throws(
			() => checkPhoneList(checks, 'Destinations', '0501234567,,0507654321'),
			/has an empty entry at position 2/,
		);
	});

	test('the same line in two forms', () => {
		assert.ok(samePhone('+972-50-333-3333', '0503333333'));
		assert.ok(!samePhone('0503333333', '0504444444'));
	});

	test('phoneDigits decides as the rule written as regular expressions, on 20,000 random texts (ASCII and Unicode spaces, Arabic-Indic digits, # extensions)', () => {
		const rule = new RegExp(phonePatternSource(1, 64));
		// The rule of docs/inputs.md: other scripts' digits are digits; a whole number with .0 after
		// it is that number; an extension after the number (`#5`) is dropped; a trunk zero in
		// brackets after a digit or + (`+972 (0)50…`) is no digit of the number; a number of 8 or 9
		// digits without + that is an Israeli number without its 0 gets its 0 back.
		const reference = (typed: string) => {
			let text = typed.replace(/٣/g, '3');
			text = /^\s*(\d+)\.0+\s*$/.exec(text)?.[1] ?? text;
			text = /^(.*?\d[\s().-]*?)\s*#\s*(\d{1,6})\s*$/.exec(text)?.[1] ?? text;
			text = text.replace(/(?<=[+\d][\s.-]*)\(\s*0\s*\)/, '');
			if (!rule.test(text)) return undefined;
			const digits = text.replace(/\D/g, '');
			const dropped = /^(?:[57]\d{8}|[23489]\d{7})$/.test(digits) && !/^\s*\+/.test(text);
			return dropped ? `0${digits}` : digits;
		};
		const rng = prng(Number(process.env.FUZZ_SEED ?? 1615));
		const alphabet = [
			'0',
			'5',
			'9',
			'+',
			'(',
			')',
			'.',
			'-',
			' ',
			'\t',
			'\n',
			'a',
			'*',
			'/',
			'\u00a0',
			'\u2003',
			'٣',
			'#',
		];
		for (let i = 0; i < 20_000; i++) {
			const text = Array.from({ length: rng.int(0, 14) }, () =>
				rng.chance(0.6) ? String(rng.int(0, 9)) : rng.pick(alphabet),
			).join('');
			assert.equal(phoneDigits(text), reference(text), JSON.stringify(text));
		}
		assert.equal(phoneDigits('1'.repeat(64)), '1'.repeat(64));
		assert.equal(phoneDigits('1'.repeat(65)), undefined);
	});

	test('a single number is read as the one-entry list it is, on 20,000 random texts (results and errors alike)', () => {
		const outcome = (read: () => string[]) => {
			try {
				return read();
			} catch (error) {
				return (error as Error).message;
			}
		};
		const rng = prng(Number(process.env.FUZZ_SEED ?? 2027));
		const alphabet = ['+', '(', ')', '.', '-', ' ', '\t', 'a', '*', '\u00a0', '٣', '0'];
		for (let i = 0; i < 20_000; i++) {
			const text = Array.from({ length: rng.int(0, 19) }, () =>
				rng.chance(0.7) ? String(rng.int(0, 9)) : rng.pick(alphabet),
			).join('');
			// An array takes the list's full path; the text alone, the one-pass reading of one number.
			const asList = outcome(() => checkPhoneList(checks, 'To', [text]));
			assert.deepEqual(
				outcome(() => checkPhoneList(checks, 'To', text)),
				asList,
				JSON.stringify(text),
			);
		}
	});

	test('splitPhoneList splits on commas, semicolons and new lines, and takes arrays', () => {
		assert.deepEqual(splitPhoneList('1, 2;3\n4\r\n5,,; '), ['1', '2', '3', '4', '5']);
		assert.deepEqual(splitPhoneList(['1', '2;3', 972501234567]), ['1', '2', '3', '972501234567']);
		assert.deepEqual(splitPhoneList(undefined), []);
	});

	test('splitPhoneList reads an array as the chained form does (on 5,000 random lists)', () => {
		// A comma right between a number of 7 digits or more and up to 6 digits is an extension's (`…0010,5`).
		const entries = (text: string) =>
			text.split(/\s*[,;]\s*|\s*\n\s*/).reduce<string[]>((list, part, index, all) => {
				const separator = /\s*[,;]\s*|\s*\n\s*/g;
				const before = [...text.matchAll(separator)][index - 1]?.[0];
				const previous = list[list.length - 1];
				if (
					before === ',' &&
					/^\d{1,6}$/.test(part) &&
					/\d$/.test(previous ?? '') &&
					(previous ?? '').replace(/\D/g, '').length >= 7
				)
					list[list.length - 1] = `${previous},${part}`;
				else list.push(part);
				return list;
			}, []);
		const chained = (raw: unknown) => {
			const parts = (
				Array.isArray(raw) ? raw.map((value) => String(value ?? '')) : [String(raw ?? '')]
			)
				.flatMap(entries)
				.map((part) => part.trim());
			const first = parts.findIndex((part) => part !== '');
			if (first < 0) return [];
			const last = parts.length - 1 - [...parts].reverse().findIndex((part) => part !== '');
			return parts.slice(first, last + 1);
		};
		const rng = prng(Number(process.env.FUZZ_SEED ?? 4099));
		const pieces = ['050', '1', ' ', ',', ';', '\n', '\r\n', '\t', '+972', '', 'x', '0541110010'];
		const value = () =>
			rng.chance(0.1)
				? rng.pick([null, undefined, 972501234567])
				: Array.from({ length: rng.int(0, 6) }, () => rng.pick(pieces)).join('');
		for (let i = 0; i < 5_000; i++) {
			const raw = rng.chance(0.8) ? Array.from({ length: rng.int(0, 5) }, value) : value();
			assert.deepEqual(splitPhoneList(raw), chained(raw), JSON.stringify(raw));
		}
	});

	test('docs/inputs.md states the rule of the module', () => {
		const page = readFileSync(new URL('../../../docs/inputs.md', import.meta.url), 'utf8');
		assert.ok(page.includes(PHONE_RULE), PHONE_RULE);
	});
});

describe('phones: one number however it is written, and the form it is sent in', () => {
	const forms = [
		'0501234567',
		'050-123-4567',
		'(050) 123.4567',
		'+972501234567',
		'972501234567',
		'+972-50-123-4567',
		'+972 (0)50-123-4567',
		'9720501234567',
		'00972501234567',
	];

	test('every form of a number has one identity, and another number another', () => {
		const identities = forms.map((form) => phoneIdentity(phoneDigits(form) ?? ''));
		assert.deepEqual(new Set(identities), new Set(['972501234567']), identities.join(' '));
		assert.notEqual(phoneIdentity('0501234568'), '972501234567');
		// Another country's number is its own digits.
		assert.equal(phoneIdentity(phoneDigits('+44 (0)20 7946 0958') ?? ''), '442079460958');
		assert.equal(phoneIdentity('442079460958', '44'), phoneIdentity('02079460958', '44'));
	});

	test('the trunk zero in brackets after a country code is dropped, a local (0) is kept', () => {
		assert.equal(phoneDigits('+972 (0)50-123-4567'), '972501234567');
		assert.equal(phoneDigits('+972 ( 0 ) 50 123 4567'), '972501234567');
		assert.equal(phoneDigits('(0)50-123-4567'), '0501234567');
		assert.equal(phoneDigits('(03) 555-1234'), '035551234');
	});

	test('Send Numbers As: as typed, local, international', () => {
		const local = { format: 'local', countryCode: '972' } as const;
		const international = { format: 'international', countryCode: '972' } as const;
		for (const form of forms) {
			const digits = phoneDigits(form) ?? '';
			assert.equal(phoneToSend(digits, local), '0501234567', form);
			assert.equal(phoneToSend(digits, international), '972501234567', form);
		}
		assert.equal(phoneToSend('0501234567'), '0501234567');
		assert.equal(phoneToSend('9720501234567'), '972501234567');
		assert.equal(phoneToSend('00972501234567'), '00972501234567');
		assert.equal(phoneToSend('442079460958', local), '442079460958', 'another country: as typed');
	});

	test('numbers that cannot be a phone, and the reason', () => {
		assert.equal(notAPhone('0501234567'), undefined);
		assert.equal(notAPhone('035551234'), undefined);
		assert.equal(notAPhone('12345'), 'has fewer than 7 digits');
		assert.match(String(notAPhone('05012345678901')), /not a number of country code 972/);
		assert.match(String(notAPhone('1234567890123456')), /more than 15 digits/);
		assert.equal(notAPhone('442079460958'), undefined);
	});

	test("the credential's setting, with its defaults", () => {
		assert.deepEqual(numberStyleOf({}), { format: 'asTyped', countryCode: '972' });
		assert.deepEqual(numberStyleOf({ sendNumbersAs: 'local', countryCode: '44' }), {
			format: 'local',
			countryCode: '972',
		});
		assert.deepEqual(numberStyleOf({ sendNumbersAs: 'international', countryCode: '+1' }), {
			format: 'international',
			countryCode: '1',
		});
	});
});

// readPhone and the module's other readers on what spreadsheets, keyboards and copies write; the
// whole field-data corpus is read in test/corpus/readers.test.mts.
const reading = (value: unknown, countryCode?: string) => {
	const result = readPhone(value, countryCode);
	assert.ok(!('problem' in result), `${JSON.stringify(value)}: ${JSON.stringify(result)}`);
	return result as PhoneReading;
};
const problem = (value: unknown) => {
	const result = readPhone(value);
	assert.ok('problem' in result, `${JSON.stringify(value)} must be refused`);
	return result as PhoneProblem;
};

describe('readPhone: one number as people and programs write it', () => {
	test('a number written plainly has no `read` note; one read differently says what was read', () => {
		assert.deepEqual(reading('054-111-0010'), {
			digits: '0541110010',
			identity: '972541110010',
		});
		assert.deepEqual(reading(541110010), {
			digits: '0541110010',
			identity: '972541110010',
			read: 'read 541110010 as 0541110010: the leading 0 was missing',
		});
		assert.equal(
			reading('\u200f٠٥٤١١١٠٠١٠ ext 5').read,
			'read <U+200F>٠٥٤١١١٠٠١٠ ext 5 as 0541110010: invisible direction or zero-width ' +
				'characters ignored; Arabic-Indic digits; extension 5 is not dialled',
		);
	});

	test('the leading 0 is put back only for an Israeli number of 8 or 9 digits written without +', () => {
		assert.equal(reading('722000100').digits, '0722000100', 'a VoIP number');
		assert.equal(reading('35551234').digits, '035551234', 'a landline');
		assert.equal(reading('+508411234').identity, '508411234', 'with +: another country');
		assert.equal(reading('+508411234').read, undefined);
		assert.equal(
			reading('541110010', '44').digits,
			'541110010',
			'another country code: as written',
		);
		assert.equal(reading('612345678').digits, '612345678', 'no Israeli number starts with 6');
	});

	test("Israel's plan: a mobile or VoIP number has 9 digits after the 0, a landline 8", () => {
		assert.equal(notAPhone('0541110010'), undefined);
		assert.equal(notAPhone('035551234'), undefined);
		assert.match(
			String(notAPhone('054111001')),
			/8 digits after the 0 or the code, starting with 5/,
		);
		assert.match(
			String(notAPhone('0312345678')),
			/9 digits after the 0 or the code, starting with 3/,
		);
		assert.equal(notAPhone('1800123456'), undefined, 'a 1-800 number has no 0 and no code');
	});

	test('values that are no phone number are refused with what was seen, never read as nothing', () => {
		assert.deepEqual(problem('0541110010 / 0541110011'), {
			problem: 'holds 2 phone numbers, not one',
			seen: '0541110010 / 0541110011',
		});
		assert.equal(problem({ phone: '0541110010' }).problem, 'is an object, not a phone number');
		assert.equal(problem(['0541110010']).problem, 'is a list of 1 values, not one number');
		assert.equal(problem(Number.NaN).problem, 'is a number that is no whole phone number');
		assert.equal(problem('x'.repeat(500)).seen, `${'x'.repeat(40)}…`, 'shortened');
		assert.equal(problem('\u202e0541110010abc').seen, '<U+202E>0541110010abc', 'printable');
	});
});

describe("the phone module's other readers follow the same rules", () => {
	test('phoneIdentity: every spelling of one number is one key', () => {
		for (const digits of [
			'0541110010',
			'541110010',
			'972541110010',
			'00972541110010',
			'9720541110010',
		])
			assert.equal(phoneIdentity(digits), '972541110010', digits);
		assert.equal(phoneIdentity('00442079460958'), '442079460958', '00 is the +');
		assert.equal(phoneIdentity('442079460958'), '442079460958');
		assert.equal(phoneIdentity('508411234', '972', true), '508411234', 'written with +');
	});

	test("phoneDigits: any script's digits, invisible marks and an extension; the dropped 0 put back", () => {
		assert.equal(phoneDigits('٠٥٤١١١٠٠١٠'), '0541110010');
		assert.equal(phoneDigits('\u202a+972 54-111-0010\u202c'), '972541110010');
		assert.equal(phoneDigits('054-111-0010 ext 5'), '0541110010');
		assert.equal(phoneDigits('541110010'), '0541110010');
		assert.equal(phoneDigits('call me'), undefined);
		assert.equal(phoneDigits(5.5), undefined, 'a fraction is no number');
	});

	test("digitsOf reads any script's digits", () => {
		assert.equal(digitsOf('٠٥٤-١١١'), '054111');
		assert.equal(digitsOf('tel: 054'), '054');
	});

	test('Send Numbers As: a number without its 0 is sent as the local number it is', () => {
		assert.equal(phoneToSend('541110010'), '0541110010');
		assert.equal(phoneToSend('541110010', { format: 'local', countryCode: '972' }), '0541110010');
		assert.equal(
			phoneToSend('541110010', { format: 'international', countryCode: '972' }),
			'972541110010',
		);
		assert.deepEqual(phoneForms('541110010'), ['541110010', '0541110010', '972541110010']);
	});

	test('checks and lists: an extension after a comma belongs to its number, a second number does not', () => {
		assert.equal(checkPhone(checks, 'Phone', '054-111-0010 x5'), '0541110010');
		assert.deepEqual(splitPhoneList('054-111-0010,5; 0521234567'), [
			'054-111-0010,5',
			'0521234567',
		]);
		assert.deepEqual(checkPhoneList(checks, 'To', '054-111-0010,5'), ['0541110010']);
		assert.deepEqual(checkPhoneList(checks, 'To', '0541110010,0521234567'), [
			'0541110010',
			'0521234567',
		]);
		assert.deepEqual(checkPhoneList(checks, 'To', '123,45'), ['123', '45'], 'no number before');
		assert.deepEqual(checkPhoneList(checks, 'To', ['٠٥٤١١١٠٠١٠', 541110010]), [
			'0541110010',
			'0541110010',
		]);
	});
});
