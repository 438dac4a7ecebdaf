// readPhone and the phone module's other readers on what spreadsheets, keyboards and copies write
// (nodes/shared/phones.ts); the whole field-data corpus is read in test/corpus/readers.test.mts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { InputChecks } from '../../../nodes/shared/checks.ts';
import {
	checkPhone,
	checkPhoneList,
	digitsOf,
	notAPhone,
	phoneDigits,
	phoneForms,
	phoneIdentity,
	phoneToSend,
	readPhone,
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
const checks = new InputChecks(node, 0);

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
