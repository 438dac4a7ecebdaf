/** The URL the trigger registers on a number, and the service's limit on a callback URL. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { LIMITS } from '../../../nodes/shared/checks.ts';
import {
	DEFAULT_OPTION,
	baseOf,
	isTriggerUrl,
	marksOf,
	registeredUrl,
} from '../../../nodes/shared/triggerUrl.ts';
import { checkTriggerUrl } from '../../../nodes/VirtualNumberTrigger/secret.ts';
import { NODE as node } from './lifecycle/registrationSetup.mts';

describe('Virtual Number Trigger → callback URL', () => {
	test("the callback URL limit is the spec's 511 characters", () => {
		const hook = 'https://n8n.example.com/webhook/abc/webhook';
		// The shortest URL the trigger registers (on a number without a callback) is what is checked.
		const withSecret = (length: number) => 'x'.repeat(length);
		const shortest = registeredUrl(hook, withSecret(1), 'live', {
			url: '',
			option: DEFAULT_OPTION,
		});
		const fits = withSecret(1 + LIMITS.callbackUrl.maxLength - shortest.length);
		assert.equal(
			registeredUrl(hook, fits, 'live', { url: '', option: DEFAULT_OPTION }).length,
			LIMITS.callbackUrl.maxLength,
		);
		assert.doesNotThrow(() => checkTriggerUrl(node, hook, fits, 'live'));
		assert.throws(
			() => checkTriggerUrl(node, hook, `${fits}x`, 'live'),
			(error: Error) =>
				error.message ===
				"Callback URL: the trigger's URL with the secret is 512 characters long; the service accepts at most 511",
		);
		assert.throws(
			() => checkTriggerUrl(node, 'ftp://x/y', '', 'live'),
			/Callback URL: the trigger's URL must be an http:\/\/ or https:\/\/ address/,
		);
	});

	describe('the URL the trigger registers', () => {
		const hook = 'https://n8n.example.com/webhook/4b1f8c2e-9d3a-4f6b-8e2a-1c5d7e9f0a3b/webhook';
		test('carries the previous callback, read back exactly, whatever it holds', () => {
			for (const previous of [
				{ url: '', option: 2 },
				{ url: 'https://crm.example.com/calls?source=vn&token=a%2Bb#frag', option: 1 },
				{ url: 'http://x/y?vnt=live&vnt_prev=3http%3A%2F%2Fz&secret=s', option: 3 },
				{ url: 'https://שלום.example/?q=ü 😀+%', option: 2 },
			]) {
				for (const secret of ['', 'Ab3$ecret+/=&#']) {
					const url = registeredUrl(hook, secret, 'live', previous);
					const marks = marksOf(url);
					assert.deepEqual(marks.previous, previous, url);
					assert.equal(marks.mode, 'live');
					assert.equal(marks.secret, secret);
					assert.equal(baseOf(url), hook);
					assert.equal(isTriggerUrl(url), true);
				}
			}
			assert.equal(
				registeredUrl(hook, 'x', 'test', { url: '', option: 2 }),
				`${hook}?secret=x&vnt=test&vnt_prev=2`,
			);
		});

		test("tells a trigger's URL from any other", () => {
			assert.equal(isTriggerUrl(hook), true, 'registered by version 0.1 (no marks): its path');
			assert.equal(isTriggerUrl(`${hook}?secret=abc`), true);
			assert.equal(isTriggerUrl('https://crm.example.com/webhook'), false);
			assert.equal(isTriggerUrl('https://crm.example.com/hooks/calls?x=1'), false);
			assert.equal(
				marksOf('https://crm.example.com/?vnt_prev=9abc').previous,
				undefined,
				'an option outside 1-3 is not a previous callback',
			);
			assert.equal(marksOf('not a url at all').previous, undefined);
		});
	});
});
