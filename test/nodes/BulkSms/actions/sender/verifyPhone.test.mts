import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { runWorkflow } from '../../../../../dev/harness/engine.mts';
import { NODE, senderTest } from './senderTest.mts';

const { sandbox, run, senderRequests } = senderTest();

describe('Bulk SMS → Sender', () => {
	describe('phone sender, verified in two steps', () => {
		test('Request Phone Verification then Verify Phone Sender with the code from the sandbox; the sender can then send', async () => {
			const step1 = await run('requestPhoneVerification', {
				phoneSender: '+972-54-000 1111',
				otpType: 'call',
			});
			assert.equal(step1.error, undefined, step1.error?.message);
			const [request1] = senderRequests();
			assert.equal(request1.method, 'POST');
			assert.deepEqual(request1.query, {
				service: 'add_sender_phone_step1',
				sender: '972540001111',
				otp_type: 'call',
			});
			assert.equal(step1.items(NODE)[0].json.status, 'success');
			assert.equal(
				sandbox.control.senders().find((s) => s.sender === '972540001111')?.verified,
				false,
			);

			const code = sandbox.control.otp('972540001111');
			assert.match(String(code), /^\d{6}$/);
			sandbox.control.clearRequests();
			const step2 = await run('verifyPhone', {
				phoneSender: '+972 54 000 1111',
				otpCode: code,
				senderDescription: 'Sales line',
			});
			assert.equal(step2.error, undefined, step2.error?.message);
			const [request2] = senderRequests();
			assert.equal(request2.method, 'POST');
			assert.deepEqual(request2.query, {
				service: 'add_sender_phone_step2',
				sender: '972540001111',
				otp_key: code,
				sender_description: 'Sales line',
			});
			assert.equal(step2.items(NODE)[0].json.status, 'success');
			const sender = sandbox.control.senders().find((s) => s.sender === '972540001111');
			assert.equal(sender?.verified, true);
			assert.equal(sender?.description, 'Sales line');

			const sent = await runWorkflow({
				nodes: [
					{
						name: NODE,
						type: 'bulkSms',
						parameters: {
							resource: 'message',
							operation: 'send',
							sender: { __rl: true, mode: 'id', value: '972540001111' },
							to: '0521112222',
							message: 'From my verified number',
						},
					},
				],
				credentials: {
					virtualnumSmsApi: { baseUrl: sandbox.smsUrl, accessToken: sandbox.tokens.sms },
				},
			});
			assert.equal(sent.error, undefined, sent.error?.message);
			assert.equal(sent.items(NODE)[0].json.status, 'Message in Action');
		});

		test('a speed dial *XXXX is accepted as a phone sender, with the SMS code type by default', async () => {
			const result = await run('requestPhoneVerification', { phoneSender: '*2700' });
			assert.equal(result.error, undefined, result.error?.message);
			assert.deepEqual(senderRequests()[0].query, {
				service: 'add_sender_phone_step1',
				sender: '*2700',
				otp_type: 'sms',
			});
		});

		test("a wrong code is refused with the service's words and the sender stays unverified", async () => {
			await run('requestPhoneVerification', { phoneSender: '0549990000' });
			const code = sandbox.control.otp('0549990000')!;
			const wrong = code === '111111' ? '222222' : '111111';
			const result = await run('verifyPhone', { phoneSender: '0549990000', otpCode: wrong });
			assert.ok(result.error);
			assert.match(
				result.error.message,
				/Bulk SMS add_sender_phone_step2 failed: Invalid verification code/,
			);
			assert.equal(
				sandbox.control.senders().find((s) => s.sender === '0549990000')?.verified,
				false,
			);
		});
		const badStep2: Array<[string, IDataObject, RegExp]> = [
			[
				'a 5-digit code',
				{ phone: '0549990000', code: '12345' },
				/Verification Code: must be exactly 6 digits \(got "12345"\)/,
			],
			[
				'a 7-digit code',
				{ phone: '0549990000', code: '1234567' },
				/Verification Code: must be exactly 6 digits/,
			],
			[
				'a code with letters',
				{ phone: '0549990000', code: '12a456' },
				/Verification Code: must be exactly 6 digits \(got "12a456"\)/,
			],
			['an empty code', { phone: '0549990000', code: '' }, /Verification Code: is required/],
			['a phone with letters', { phone: 'phone', code: '123456' }, /Phone Number: is not valid/],
		];
		for (const [name, bad, message] of badStep2) {
			test(`Verify Phone Sender with ${name} fails only its item, before any request`, async () => {
				const params = { phoneSender: '={{ $json.phone }}', otpCode: '={{ $json.code }}' };
				const failed = await run('verifyPhone', params, [bad]);
				assert.ok(failed.error);
				assert.match(failed.error.message, message);
				assert.equal(senderRequests().length, 0);

				const result = await run(
					'verifyPhone',
					params,
					[bad, { phone: '0549990000', code: '123456' }],
					{ continueOnFail: true },
				);
				const items = result.items(NODE);
				assert.match(String(items[0].json.error), message);
				assert.deepEqual(items[0].pairedItem, { item: 0 });
				// The good item reached the service (which refuses it: no verification is in progress).
				assert.equal(senderRequests().length, 1);
				assert.match(String(items[1].json.error), /No verification is in progress/);
			});
		}
	});
});
