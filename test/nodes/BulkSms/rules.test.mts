// The Bulk SMS node's own rules (nodes/shared/limits.ts): the SMS service's limits and what a sender is.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { normalizeSmsSender, SMS_LIMITS } from '../../../nodes/shared/limits.ts';
import { readSpec } from '../../../dev/harness/spec.mts';

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
