/** The limits of both nodes (nodes/shared/limits.ts) are the rows of the specs: the Virtual Number Limits table, the SMS sender rules. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { normalizeSmsSender, SMS_LIMITS, VN_LIMITS } from '../../../nodes/shared/limits.ts';
import { assertLimitRow, readSpec, specLimits } from '../../../dev/harness/spec.mts';

describe("Virtual Number node limits: the spec's Limits table as data", () => {
	const limits = specLimits('virtual-number-service.md');
	const cases: Array<[string, RegExp, number]> = [
		['description', /^199 characters$/, VN_LIMITS.description.maxLength],
		['call_destination_phone', /^150 characters$/, VN_LIMITS.callDestinationPhone.maxLength],
		['private_field1 to 10', /^254 characters each$/, VN_LIMITS.privateField.maxLength],
		['working_hours', /^exactly 168 characters$/, VN_LIMITS.workingHours.length],
		['blacklist note', /^truncated to 149 characters$/, VN_LIMITS.blacklistNote.maxLength],
		['get_users_access_log', /^up to 1000 rows$/, VN_LIMITS.accessLogRows.max],
		['cdr_subunique_query', /^up to 2000 rows$/, VN_LIMITS.cdrSubuniqueRows.max],
		['cdr_query `sql`', /^8192 bytes$/, VN_LIMITS.cdrSql.maxBytes],
		['click2call_link expire_days', /^default 365$/, VN_LIMITS.click2callExpireDays.default],
		['Request run time', /^up to 10 minutes/, VN_LIMITS.requestRunTimeMs / 60_000],
	];
	for (const [subject, pattern, value] of cases) {
		test(`${subject}: ${value}`, () => assertLimitRow(limits, subject, pattern, value));
	}

	test('ranges: dial timeout 1-180, record percentage 0-100, duration 1-3599, amount default 5 and max 50, users', () => {
		assert.equal(
			limits.get('dial_timeout_in_sec'),
			`${VN_LIMITS.dialTimeoutInSec.min}-${VN_LIMITS.dialTimeoutInSec.max}`,
		);
		assert.equal(
			limits.get('record_percentage'),
			`${VN_LIMITS.recordPercentage.min}-${VN_LIMITS.recordPercentage.max}`,
		);
		assert.match(
			limits.get('cdr_totac_sec')!,
			new RegExp(`^${VN_LIMITS.cdrTotacSec.min}-${VN_LIMITS.cdrTotacSec.max}`),
		);
		assert.equal(
			limits.get('get_available_virtualnum `amount`'),
			`default ${VN_LIMITS.availableAmount.default}, maximum ${VN_LIMITS.availableAmount.max}`,
		);
		assert.match(
			limits.get('set_user email')!,
			new RegExp(
				`${VN_LIMITS.userEmail.maxLength} characters; password at least ${VN_LIMITS.userPassword.minLength}`,
			),
		);
		assert.match(
			limits.get('update_user user_phone')!,
			new RegExp(`at least ${VN_LIMITS.userPhone.minLength}`),
		);
	});
});

// The Bulk SMS node's own rules (nodes/shared/limits.ts): the SMS service's limits and what a sender is.
describe('Bulk SMS rules', () => {
	const senders: Array<[string, ReturnType<typeof normalizeSmsSender>]> = [
		['VirtualNum', { kind: 'text', value: 'VirtualNum' }],
		['a_b-C', { kind: 'text', value: 'a_b-C' }],
		['abcdefghijk', { kind: 'text', value: 'abcdefghijk' }],
		['+972-50-123 4567', { kind: 'phone', value: '972501234567' }],
		['(050) 123.4567', { kind: 'phone', value: '0501234567' }],
		['*2700', { kind: 'speedDial', value: '*2700' }],
		['ab', undefined],
		['abcdefghijkl', undefined],
		['_abc', undefined],
		['My Shop', undefined],
		['050-CALL', undefined],
		['*27', undefined],
		['', undefined],
	];
	for (const [raw, expected] of senders) {
		test(`sender ${JSON.stringify(raw)} → ${JSON.stringify(expected)}`, () =>
			assert.deepEqual(normalizeSmsSender(raw), expected));
	}

	test("the limits held as data are the spec's: text sender 3-11 characters, Latin letter first; 6-digit code", () => {
		const spec = readSpec('sms-service.md');
		assert.match(
			spec,
			/\| Text sender \| 3-11 characters, Latin letter first, no spaces, characters `a-z A-Z 0-9 _ -` \|/,
		);
		assert.equal(SMS_LIMITS.textSender.minLength, 3);
		assert.equal(SMS_LIMITS.textSender.maxLength, 11);
		assert.ok(SMS_LIMITS.textSender.pattern.test('Shop_1'));
		assert.ok(!SMS_LIMITS.textSender.pattern.test('1Shop'));
		assert.ok(!SMS_LIMITS.textSender.pattern.test('ab'));
		assert.ok(!SMS_LIMITS.textSender.pattern.test('abcdefghijkl'));
		assert.match(spec, /\| Verification code \| 6 digits \|/);
		assert.ok(SMS_LIMITS.otpCode.pattern.test('123456'));
		assert.ok(!SMS_LIMITS.otpCode.pattern.test('12345'));
		assert.match(spec, /\| otp_type \| string \| yes \| `sms`, `call` or `distributor` \|/);
		assert.deepEqual([...SMS_LIMITS.otpTypes].sort(), ['call', 'distributor', 'sms']);
	});

	test('the spec shows no maximum batch size: the package allows 1-1000, 100 by default', () => {
		assert.match(
			readSpec('sms-service.md'),
			/Maximum batch size, message length and request rate: not shown\./,
		);
		assert.deepEqual(SMS_LIMITS.batchSize, { min: 1, max: 1000, default: 100 });
	});
});
