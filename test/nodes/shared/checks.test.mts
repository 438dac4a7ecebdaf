import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { InputChecks, LIMITS } from '../../../nodes/shared/checks.ts';
import { assertLimitRow, specLimits } from '../../../dev/harness/spec.mts';

const node = {
	id: '1',
	name: 'Node',
	type: 'x',
	typeVersion: 1,
	position: [0, 0] as [number, number],
	parameters: {},
};

describe('input checks: the limits held as data match the spec', () => {
	const limits = specLimits('virtual-number-service.md');
	const cases: Array<[string, RegExp, number]> = [
		['callback_url', /^511 characters$/, LIMITS.callbackUrl.maxLength],
		['upload_prompt file', /^50 MB$/, LIMITS.promptFile.maxBytes / 1024 / 1024],
	];
	for (const [subject, pattern, value] of cases) {
		test(`${subject}: ${value}`, () => assertLimitRow(limits, subject, pattern, value));
	}
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
		assert.throws(
			() => checks.integerInRange('Dial Timeout', 181, 1, 180),
			/from 1 to 180 \(got 181\)/,
		);
		assert.throws(() => checks.integerInRange('Dial Timeout', 1.5, 1, 180), /whole number/);
	});
});
