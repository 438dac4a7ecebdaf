import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
	InputChecks,
	LIMITS,
	promptNameFromFileName,
} from '../../../nodes/shared/checks.ts';
import { readSpec } from '../../helpers/spec.mts';

const node = { id: '1', name: 'Node', type: 'x', typeVersion: 1, position: [0, 0] as [number, number], parameters: {} };

/** The spec's "Limits" table as subject → limit text. */
function specLimits(): Map<string, string> {
	const spec = readSpec('virtual-number-service.md');
	const section = spec.slice(spec.indexOf('## Limits'));
	const rows = section.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| Subject'));
	return new Map(rows.map((row) => row.split('|').slice(1, 3).map((cell) => cell.trim()) as [string, string]));
}

describe('input checks: the limits held as data match the spec', () => {
	const limits = specLimits();
	const cases: Array<[string, RegExp, number]> = [
		['description', /^199 characters$/, LIMITS.description.maxLength],
		['call_destination_phone', /^150 characters$/, LIMITS.callDestinationPhone.maxLength],
		['private_field1 to 10', /^254 characters each$/, LIMITS.privateField.maxLength],
		['callback_url', /^511 characters$/, LIMITS.callbackUrl.maxLength],
		['working_hours', /^exactly 168 characters$/, LIMITS.workingHours.length],
		['blacklist note', /^truncated to 149 characters$/, LIMITS.blacklistNote.maxLength],
		['get_users_access_log', /^up to 1000 rows$/, LIMITS.accessLogRows.max],
		['cdr_subunique_query', /^up to 2000 rows$/, LIMITS.cdrSubuniqueRows.max],
		['cdr_query `sql`', /^8192 bytes$/, LIMITS.cdrSql.maxBytes],
		['upload_prompt file', /^50 MB$/, LIMITS.promptFile.maxBytes / 1024 / 1024],
	];
	for (const [subject, pattern, value] of cases) {
		test(`${subject}: ${value}`, () => {
			const text = limits.get(subject);
			assert.ok(text, `the spec has no limit row "${subject}"`);
			assert.match(text, pattern);
			assert.ok(text.includes(String(value)), `${text} vs ${value}`);
		});
	}
	test('ranges: dial timeout 1-180, record percentage 0-100, duration 1-3599, amount max 50', () => {
		assert.equal(limits.get('dial_timeout_in_sec'), `${LIMITS.dialTimeoutInSec.min}-${LIMITS.dialTimeoutInSec.max}`);
		assert.equal(limits.get('record_percentage'), `${LIMITS.recordPercentage.min}-${LIMITS.recordPercentage.max}`);
		assert.match(limits.get('cdr_totac_sec')!, new RegExp(`^${LIMITS.cdrTotacSec.min}-${LIMITS.cdrTotacSec.max}`));
		assert.match(limits.get('get_available_virtualnum `amount`')!, new RegExp(`maximum ${LIMITS.availableAmount.max}$`));
		assert.match(limits.get('set_user email')!, new RegExp(`${LIMITS.userEmail.maxLength} characters; password at least ${LIMITS.userPassword.minLength}`));
		assert.match(limits.get('update_user user_phone')!, new RegExp(`at least ${LIMITS.userPhone.minLength}`));
	});
});

describe('input checks: failures name the item, the field, the rule and the value', () => {
	test('maxLength', () => {
		const checks = new InputChecks(node, 3);
		assert.throws(
			() => checks.maxLength('Description', 'x'.repeat(200), 199),
			(error: Error & { description?: string; context?: { itemIndex?: number } }) => {
				assert.match(error.message, /^Description: must be at most 199 characters \(got "x+/);
				assert.match(String(error.description), /item 3/);
				assert.equal(error.context?.itemIndex, 3);
				return true;
			},
		);
		assert.equal(checks.maxLength('Description', 'x'.repeat(199), 199).length, 199);
	});
	test('exactLength explains that the service would silently ignore the value', () => {
		assert.throws(
			() => new InputChecks(node, 0).exactLength('Working Hours', '1'.repeat(100), 168),
			/exactly 168 characters \(the service silently ignores any other length\) \(got "100 characters"\)/,
		);
	});
	test('integerInRange', () => {
		const checks = new InputChecks(node, 0);
		assert.equal(checks.integerInRange('Dial Timeout', '180', 1, 180), 180);
		assert.throws(() => checks.integerInRange('Dial Timeout', 181, 1, 180), /from 1 to 180 \(got 181\)/);
		assert.throws(() => checks.integerInRange('Dial Timeout', 1.5, 1, 180), /whole number/);
	});
});

describe('prompt names', () => {
	test('prompt names follow upload rule 1', () => {
		assert.equal(promptNameFromFileName('Welcome Message.v2.wav'), 'welcome_message');
		assert.equal(promptNameFromFileName('Día #1.wav'), 'da_1');
		assert.equal(promptNameFromFileName('IVR_Main-1.mp3'), 'ivr_main-1');
	});
});

