import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../../dev/sandbox/index.mts';
import { runWorkflow, type RunResult } from '../../../dev/harness/engine.mts';

const NODE = 'Bulk SMS';

describe('Bulk SMS → Sender', () => {
	let sandbox: Sandbox;
	before(async () => {
		sandbox = await startSandbox();
	});
	after(async () => await sandbox.close());
	beforeEach(() => sandbox.control.reset());

	async function run(
		operation: string,
		parameters: IDataObject,
		input: IDataObject[] = [{}],
		extra: { continueOnFail?: boolean; credentials?: IDataObject } = {},
	): Promise<RunResult> {
		return await runWorkflow({
			nodes: [
				{
					name: NODE,
					type: 'bulkSms',
					parameters: { resource: 'sender', operation, ...parameters },
					continueOnFail: extra.continueOnFail,
				},
			],
			input: input.map((json) => ({ json })),
			credentials: {
				virtualnumSmsApi: {
					baseUrl: sandbox.smsUrl,
					accessToken: sandbox.tokens.sms,
					...extra.credentials,
				},
			},
		});
	}
	const senderRequests = () => sandbox.control.requests({ service: 'sms' });
	const noSecrets = (result: RunResult) => {
		const text = JSON.stringify(result.run);
		assert.ok(
			!text.includes(sandbox.tokens.sms),
			'the access token must not appear in the run data',
		);
	};

	describe('List', () => {
		test('lists the senders with their type and verified flag', async () => {
			const result = await run('list', {});
			assert.equal(result.error, undefined, result.error?.message);
			const [request] = senderRequests();
			assert.equal(request.method, 'GET');
			assert.equal(request.path, '/api/ws.php');
			assert.deepEqual(request.query, { service: 'get_sender_list' });
			const senders = result.items(NODE).map((i) => i.json);
			assert.deepEqual(
				senders.map((s) => [s.sender, s.type, s.verified]),
				sandbox.control.senders().map((s) => [s.sender, s.type, s.verified]),
			);
			assert.ok(
				senders.some((s) => s.type === 'phone' && s.verified === false),
				'unverified senders are listed too',
			);
		});

		test('passes the search filter and the account token', async () => {
			const result = await run('list', { search: 'Shop' }, [{}], {
				credentials: { accountToken: sandbox.tokens.smsAccount },
			});
			assert.equal(result.error, undefined, result.error?.message);
			assert.deepEqual(senderRequests()[0].query, {
				service: 'get_sender_list',
				search: 'Shop',
				token: sandbox.tokens.smsAccount,
			});
			assert.deepEqual(
				result.items(NODE).map((i) => i.json.sender),
				['Shop24'],
			);
			assert.ok(!JSON.stringify(result.items(NODE)).includes(sandbox.tokens.smsAccount));
		});

		test('a search with other characters fails the item before any request', async () => {
			const result = await run('list', { search: 'Shop 24!' });
			assert.ok(result.error);
			assert.match(
				result.error.message,
				/Search: may contain digits and Latin letters only \(got "Shop 24!"\)/,
			);
			assert.equal(senderRequests().length, 0);
		});
	});

	describe('Add Text Sender', () => {
		test('sends add_sender_text with the name and the account token, and the new sender is listed', async () => {
			const result = await run('addText', { textSender: 'MyShop_1' }, [{}], {
				credentials: { accountToken: sandbox.tokens.smsAccount },
			});
			assert.equal(result.error, undefined, result.error?.message);
			const [request] = senderRequests();
			assert.equal(request.method, 'GET');
			assert.deepEqual(request.query, {
				service: 'add_sender_text',
				sender: 'MyShop_1',
				token: sandbox.tokens.smsAccount,
			});
			const [item] = result.items(NODE);
			assert.equal(item.json.status, 'success');
			assert.equal(item.json.sender, 'MyShop_1');
			assert.ok(
				sandbox.control.senders().some((s) => s.sender === 'MyShop_1' && s.type === 'text'),
			);
		});

		test("the service's refusal (the sender exists) is an error in the service's words", async () => {
			const result = await run('addText', { textSender: 'Shop24' });
			assert.ok(result.error);
			assert.match(
				result.error.message,
				/Bulk SMS add_sender_text failed: The sender "Shop24" already exists/,
			);
			noSecrets(result);
		});

		const bad: Array<[string, string, RegExp]> = [
			[
				'too short',
				'ab',
				/Sender Name: is not valid: a text sender must be 3-11 characters.*\(got "ab"\)/,
			],
			['too long', 'abcdefghijkl', /Sender Name: is not valid.*\(got "abcdefghijkl"\)/],
			['a digit first', '1Shop', /Sender Name: is not valid.*\(got "1Shop"\)/],
			['a space', 'My Shop', /Sender Name: is not valid.*\(got "My Shop"\)/],
			['a Hebrew letter', 'Shopש', /Sender Name: is not valid/],
			['nothing in it', '', /Sender Name: is required/],
		];
		for (const [name, value, message] of bad) {
			test(`a sender name with ${name} fails only its item, before any request`, async () => {
				const input = [{ name: 'GoodOne' }, { name: value }, { name: 'GoodTwo' }];
				const failed = await run('addText', { textSender: '={{ $json.name }}' }, [
					{ name: 'GoodOne' },
					{ name: value },
				]);
				assert.ok(failed.error);
				assert.match(failed.error.message, message);
				assert.equal((failed.error.context as IDataObject).itemIndex, 1);
				// Sender operations run item by item: item 0 was sent, item 1 failed before its request.
				assert.deepEqual(
					senderRequests().map((r) => r.query.sender),
					['GoodOne'],
				);

				sandbox.control.reset();
				const result = await run('addText', { textSender: '={{ $json.name }}' }, input, {
					continueOnFail: true,
				});
				const items = result.items(NODE);
				assert.equal(items.length, 3);
				assert.match(String(items[1].json.error), message);
				assert.deepEqual(items[1].pairedItem, { item: 1 });
				assert.deepEqual(
					senderRequests().map((r) => r.query.sender),
					['GoodOne', 'GoodTwo'],
				);
			});
		}
	});

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
