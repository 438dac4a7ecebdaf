/** The Virtual Number node's limits (nodes/shared/limits.ts) are the rows of the spec's Limits table. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { VN_LIMITS } from '../../../nodes/shared/limits.ts';
import { assertLimitRow, specLimits } from '../../../dev/harness/spec.mts';

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
