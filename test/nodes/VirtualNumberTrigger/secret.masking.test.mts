/** Every secret masked in every URL the trigger prints, whosever it is. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { maskSecrets } from '../../../nodes/shared/masking.ts';

describe('Virtual Number Trigger → masking', () => {
	describe('secrets are masked in every URL, whosever it is', () => {
		const cases: Array<[string, string]> = [
			[
				'https://n8n.example.com/webhook/x/webhook?secret=abc123&vnt=live',
				'https://n8n.example.com/webhook/x/webhook?secret=********&vnt=live',
			],
			[
				'https://crm.example.com/in?token=t0k&api_key=k3y&x=1',
				'https://crm.example.com/in?token=********&api_key=********&x=1',
			],
			['https://user:pa55@crm.example.com/in', 'https://user:********@crm.example.com/in'],
			// another workflow's secret inside a previous URL (URL-encoded once, and twice)
			[
				'https://n8n/webhook/x/webhook?vnt=live&vnt_prev=1https%3A%2F%2Fcrm%2Fin%3Fsecret%3Dinner%26a%3D1',
				'https://n8n/webhook/x/webhook?vnt=live&vnt_prev=1https%3A%2F%2Fcrm%2Fin%3Fsecret%3D********%26a%3D1',
			],
			['a%3Fsecret%253Ddouble%2526b', 'a%3Fsecret%253D********%2526b'],
			[
				'JSON: {"callback_url":"https://h/w?signature=sig1&x=2"}',
				'JSON: {"callback_url":"https://h/w?signature=********&x=2"}',
			],
		];
		for (const [input, expected] of cases)
			test(input, () => assert.equal(maskSecrets(input), expected));

		test("the trigger's own secret in any form, even where no parameter names it", () => {
			const secret = 'Ab3$ecret+/=';
			const text = `as typed ${secret}, encoded ${encodeURIComponent(secret)}, twice ${encodeURIComponent(encodeURIComponent(secret))}, in JSON ${JSON.stringify(secret)}`;
			const masked = maskSecrets(text, [secret]);
			assert.ok(!masked.includes('ecret'), masked);
		});
	});
});
