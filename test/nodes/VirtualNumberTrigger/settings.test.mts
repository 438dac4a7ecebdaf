/** The trigger's parameters, read and checked before any request. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { TRIGGER_LIMITS } from '../../../nodes/VirtualNumberTrigger/settings.ts';
import { VirtualNumberTrigger } from '../../../nodes/VirtualNumberTrigger/VirtualNumberTrigger.node.ts';
import { selectedNumbers } from '../../../dev/harness/trigger.mts';
import { CALLS, registrationSetup, settingsOf } from './lifecycle/registrationSetup.mts';

describe('Virtual Number Trigger → settings: checked before any request', () => {
	const { sandbox, trigger } = registrationSetup();

	describe('checks before any request', () => {
		const cases: Array<[string, IDataObject, RegExp]> = [
			['no event', { events: [] }, /Events: choose at least one event/],
			[
				'no number selected',
				{ events: CALLS, numbers: 'selected', virtualnums: {} },
				/Virtual Numbers: add at least one number/,
			],
			[
				'an empty locator',
				{ events: CALLS, numbers: 'selected', virtualnums: selectedNumbers(['']) },
				/Virtual Numbers, entry 1: no number chosen/,
			],
			[
				'text instead of a number',
				{ events: CALLS, numbers: 'selected', virtualnums: selectedNumbers(['07220001OO']) },
				/entry 1: "07220001OO" is not a virtual number/,
			],
			[
				'a number with 4 digits',
				{ events: CALLS, numbers: 'selected', virtualnums: selectedNumbers(['0722']) },
				/entry 1: "0722" is not a virtual number \(5 to 15 digits/,
			],
			[
				'a + in the middle',
				{ events: CALLS, numbers: 'selected', virtualnums: selectedNumbers(['072+2000100']) },
				/entry 1: "072\+2000100" is not a virtual number/,
			],
			[
				'a bad allowed IP',
				{ events: CALLS, options: { allowedIps: '10.0.0.1, 10.0.0.300, 2001:db8::/129' } },
				/Allowed IPs: not an IP address or CIDR range: "10\.0\.0\.300", "2001:db8::\/129"/,
			],
			[
				'a body limit out of range',
				{ events: CALLS, options: { maxBodyKb: 0 } },
				/Max Body Size \(KB\): must be a number from 1 to 16384/,
			],
			[
				'a callback URL over 511 characters',
				{ events: CALLS, options: { secret: 'x'.repeat(500) } },
				/Callback URL: the trigger's URL with the secret is \d+ characters long; the service accepts at most 511/,
			],
		];
		for (const [name, parameters, message] of cases) {
			test(name, async () => {
				sandbox.control.clearRequests();
				const t = trigger(parameters);
				await assert.rejects(t.activate(), message);
				assert.equal(sandbox.control.requests().length, 0, 'no request reached the service');
			});
		}
	});
});

describe('Virtual Number Trigger → settings: keywords no message can match', () => {
	const { sandbox, trigger } = registrationSetup();
	const SECRET = 'keywords-test-secret-0123456789';
	const cases: Array<[string, IDataObject, RegExp]> = [
		[
			'an emoji among the Opt-Out Keywords (SMS only: nothing registered)',
			{ events: ['smsReceived'], options: { optOutKeywords: 'STOP, 🙂', secret: SECRET } },
			/Opt-Out Keywords: no message can match "🙂"/,
		],
		[
			'punctuation as a Keyword (call events)',
			{ events: [...CALLS, 'smsReceived'], options: { keywords: 'order, !!!', secret: SECRET } },
			/Keywords: no message can match "!!!"/,
		],
	];
	for (const [name, parameters, message] of cases)
		test(`version 1.2 refuses ${name} at activation; no number is changed`, async () => {
			sandbox.control.clearRequests();
			await assert.rejects(trigger(parameters, { typeVersion: 1.2 }).activate(), message);
			// n8n's clean-up after a failed activation may read the numbers; none is updated.
			assert.deepEqual(sandbox.control.requests({ operation: 'update_virtualnum' }), []);
		});

	test('version 1.1 activates as before (the entry is left out)', async () => {
		const t = trigger(cases[0][1], { typeVersion: 1.1 });
		await t.activate();
		await t.deactivate();
	});
});

describe('Virtual Number Trigger → settings: what the parameters mean', () => {
	test('the callback option follows the call events', () => {
		const option = (events: string[]) => settingsOf({ events }).callbackOption;
		assert.equal(option(['callStarted']), 1);
		assert.equal(option(['callEnded']), 2);
		assert.equal(option(['callEnded', 'callStarted', 'smsDelivery']), 3);
		assert.equal(option(['smsDelivery']), undefined);
	});

	test("the body size option's default is the package's limit", () => {
		const options = new VirtualNumberTrigger().description.properties.find(
			(p) => p.name === 'options',
		)!.options as Array<{
			name: string;
			default: unknown;
		}>;
		assert.equal(
			options.find((o) => o.name === 'maxBodyKb')!.default,
			TRIGGER_LIMITS.maxBodyKb.default,
		);
	});
});
