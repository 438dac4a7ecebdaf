import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { NODE, senderTest } from './senderTest.mts';

const { run, senderRequests } = senderTest();

describe('Bulk SMS → Sender', () => {
	describe('phone sender, verified in two steps', () => {
		const badStep1: Array<[string, IDataObject, RegExp]> = [
			[
				'a phone with letters',
				{ phone: '054-CALL-ME', type: 'sms' },
				/Phone Number: is not valid: a phone sender must be a phone number.*\(got "054-CALL-ME"\)/,
			],
			['a text value', { phone: 'MyShop', type: 'sms' }, /Phone Number: is not valid/],
			['a speed dial of 3 digits', { phone: '*270', type: 'sms' }, /Phone Number: is not valid/],
			['an empty phone', { phone: '', type: 'sms' }, /Phone Number: is required/],
			[
				'an unknown code type',
				{ phone: '0549990000', type: 'fax' },
				/Send Code By: must be one of sms, call, distributor \(got "fax"\)/,
			],
		];
		for (const [name, bad, message] of badStep1) {
			test(`Request Phone Verification with ${name} fails only its item, before any request`, async () => {
				const input = [
					{ phone: '0541110000', type: 'sms' },
					bad,
					{ phone: '0542220000', type: 'call' },
				];
				const params = { phoneSender: '={{ $json.phone }}', otpType: '={{ $json.type }}' };
				const failed = await run('requestPhoneVerification', params, input.slice(1, 2));
				assert.ok(failed.error);
				assert.match(failed.error.message, message);
				assert.equal(senderRequests().length, 0);

				const result = await run('requestPhoneVerification', params, input, {
					continueOnFail: true,
				});
				const items = result.items(NODE);
				assert.equal(items.length, 3);
				assert.match(String(items[1].json.error), message);
				assert.deepEqual(items[1].pairedItem, { item: 1 });
				assert.deepEqual(
					senderRequests().map((r) => r.query.sender),
					['0541110000', '0542220000'],
				);
			});
		}
	});
});
