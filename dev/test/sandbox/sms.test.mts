// The SMS service: bulk sending with per-item results, charges and credit, sender management with
// two-step phone verification, the credit balance, and authentication.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { control, smsBulk, smsWs, start } from './helpers.mts';
import type { Sandbox } from './helpers.mts';

let sb: Sandbox;
before(async () => {
	sb = await start();
});
after(() => sb.close());
beforeEach(() => sb.control.reset());

const msg = (extra: Record<string, unknown> = {}) => ({
	service: 'send_sms',
	dest: '0541234567',
	sender: 'VirtualNum',
	message: 'Hello',
	...extra,
});

describe('send_sms batches', () => {
	test('one result per item, in order, with the success fields', async () => {
		const { status, body } = await smsBulk(sb, [
			msg(),
			msg({ dest: '0547654321', sender: '0501234567', message: 'Second' }),
		]);
		assert.equal(status, 200);
		assert.equal(body.length, 2);
		const [first, second] = body;
		assert.deepEqual(Object.keys(first), [
			'service',
			'status',
			'message_id',
			'message',
			'sender',
			'dest',
			'sendtime',
			'total_charge',
		]);
		assert.equal(first.status, 'Message in Action');
		assert.equal(first.service, 'send_sms');
		assert.equal(typeof first.message_id, 'number');
		assert.notEqual(first.message_id, second.message_id);
		assert.match(first.sendtime, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
		assert.equal(second.dest, '0547654321');
		assert.equal(second.message, 'Second');
		assert.equal(sb.control.messages().length, 2, 'each message is its own report entry');
	});

	test('charges: GSM-7 160/153, extension characters count twice, UCS-2 70/67; credit per recipient', async () => {
		const cases: Array<[string, number]> = [
			['a'.repeat(160), 1],
			['a'.repeat(161), 2],
			['a'.repeat(306), 2],
			['a'.repeat(307), 3],
			['{'.repeat(80), 1],
			['{'.repeat(81), 2],
			['ש'.repeat(70), 1],
			['ש'.repeat(71), 2],
			['ש'.repeat(134), 2],
			['ש'.repeat(135), 3],
		];
		const before = sb.control.credit();
		const { body } = await smsBulk(
			sb,
			cases.map(([message]) => msg({ message })),
		);
		assert.deepEqual(
			body.map((r: any) => r.total_charge),
			cases.map(([, n]) => n),
		);
		assert.equal(sb.control.credit(), before - cases.reduce((n, [, c]) => n + c, 0));
	});

	test('a missing Bearer token fails every item, naming token among the missing fields', async () => {
		const { status, body } = await smsBulk(sb, [msg(), msg({ dest: '' })], null);
		assert.equal(status, 200);
		assert.deepEqual(
			body.map((r: any) => r.status),
			['Error - 403 Forbidden', 'Error - 403 Forbidden'],
		);
		assert.match(body[0].description, /Missing mandatory fields: token$/);
		assert.match(body[1].description, /token, dest/);
		assert.equal(body[0].message_id, undefined);
		assert.equal(sb.control.messages().length, 0);
	});

	test("the token in either form: the Bearer header or the item's own token field; neither fails the item", async () => {
		const account = 'sms-account-token';
		const withoutBearer = await smsBulk(
			sb,
			[
				msg({ token: account }),
				msg({ dest: '0547654321' }),
				msg({ dest: '0547654322', token: 'wrong' }),
			],
			null,
		);
		assert.equal(withoutBearer.status, 200);
		assert.equal(
			withoutBearer.body[0].status,
			'Message in Action',
			'the item token alone is enough',
		);
		assert.match(withoutBearer.body[1].description, /^Missing mandatory fields: token$/);
		assert.match(withoutBearer.body[2].description, /^Invalid token/);
		const both = await smsBulk(sb, [msg({ token: account }), msg({ dest: '0547654321' })]);
		assert.deepEqual(
			both.body.map((r: any) => r.status),
			['Message in Action', 'Message in Action'],
			'the Bearer header alone is enough too',
		);
		const wrongItem = await smsBulk(sb, [msg({ token: 'wrong' })]);
		assert.match(
			wrongItem.body[0].description,
			/^Invalid token/,
			'an item token, when sent, must be the account token',
		);
		assert.equal(sb.control.messages().length, 3);
	});

	test('item errors: missing fields, bad dest, bad sendtime, unknown service, unapproved and unverified senders', async () => {
		const { body } = await smsBulk(sb, [
			msg({ sender: '', message: '' }),
			msg({ dest: '+972-54-123' }),
			msg({ sendtime: '2025-01-01 10:00' }),
			msg({ service: 'send_mms' }),
			msg({ sender: 'Stranger' }),
			msg({ sender: '0527654321' }),
			msg(),
		]);
		const descriptions = body.map((r: any) => r.description);
		assert.match(descriptions[0], /sender, message/);
		assert.match(descriptions[1], /dest/);
		assert.match(descriptions[2], /sendtime/);
		assert.match(descriptions[3], /send_mms/);
		assert.match(
			descriptions[4],
			/Authorization error: sender "Stranger" is not an approved sender/,
		);
		assert.match(descriptions[5], /Authorization error: phone sender "0527654321" is not verified/);
		assert.equal(body[6].status, 'Message in Action', 'each item is handled on its own');
		for (const failed of body.slice(0, 6)) {
			assert.equal(failed.status, 'Error - 403 Forbidden');
			assert.ok('message' in failed && 'sender' in failed && 'dest' in failed);
		}
	});

	test('insufficient credit fails the items that no longer fit', async () => {
		sb.control.setCredit(3);
		const { body } = await smsBulk(sb, [
			msg(),
			msg({ message: 'a'.repeat(200) }),
			msg({ message: 'a'.repeat(200) }),
		]);
		assert.deepEqual(
			body.map((r: any) => r.status),
			['Message in Action', 'Message in Action', 'Error - 403 Forbidden'],
		);
		assert.match(
			body[2].description,
			/Insufficient credit: the message needs 2 credit\(s\), 0 left/,
		);
		assert.equal(sb.control.credit(), 0);
	});

	test('a body that is not a JSON array, and bad tokens', async () => {
		const res = await fetch(`${sb.smsUrl}/api/ws_json_bulk.php`, {
			method: 'POST',
			headers: { authorization: `Bearer ${sb.tokens.sms}`, 'content-type': 'application/json' },
			body: JSON.stringify(msg()),
		});
		assert.equal(res.status, 400);
		assert.equal((await smsBulk(sb, [msg()], sb.tokens.vn)).body, 'Unauthorized - Invalid Token');
		assert.equal(
			(await smsBulk(sb, [msg()], sb.tokens.expired)).body,
			'Unauthorized - Token Expired',
		);
		assert.equal(
			(await smsBulk(sb, [msg()], sb.tokens.suspended)).body,
			'Unauthorized - Account Suspended',
		);
	});
});

describe('sender operations', () => {
	test('get_sender_list, with search', async () => {
		const { body } = await smsWs(sb, { service: 'get_sender_list' });
		assert.equal(body.status, 'success');
		assert.deepEqual(
			body.senders.map((s: any) => s.sender),
			['VirtualNum', 'Shop24', '0501234567', '0527654321'],
		);
		assert.deepEqual(Object.keys(body.senders[0]), ['sender', 'type', 'description', 'verified']);
		const found = await smsWs(sb, {
			service: 'get_sender_list',
			search: 'shop',
			token: sb.tokens.smsAccount,
		});
		assert.deepEqual(
			found.body.senders.map((s: any) => s.sender),
			['Shop24'],
		);
		assert.equal(
			(await smsWs(sb, { service: 'get_sender_list', search: 'a b' })).body.status,
			'error',
		);
	});

	test('add_sender_text validates the name; GET, or POST with params in the query', async () => {
		assert.equal(
			(await smsWs(sb, { service: 'add_sender_text', sender: 'NewBrand' })).body.status,
			'success',
		);
		const post = await smsWs(
			sb,
			{ service: 'add_sender_text', sender: 'Brand_2-x' },
			{ method: 'POST' },
		);
		assert.deepEqual(post.body, {
			status: 'success',
			message: 'Text sender "Brand_2-x" added',
			sender: 'Brand_2-x',
		});
		for (const bad of ['ab', 'TwelveChars1', '1Brand', 'Bad Name', 'Brand!']) {
			const { body } = await smsWs(sb, { service: 'add_sender_text', sender: bad });
			assert.equal(body.status, 'error', bad);
			assert.ok(body.description);
		}
		assert.equal(
			(await smsWs(sb, { service: 'add_sender_text', sender: 'newbrand' })).body.status,
			'error',
			'duplicate',
		);
		const { body } = await smsBulk(sb, [msg({ sender: 'NewBrand' })]);
		assert.equal(body[0].status, 'Message in Action');
	});

	test('two-step phone verification', async () => {
		const step1 = await smsWs(
			sb,
			{ service: 'add_sender_phone_step1', sender: '0539876543', otp_type: 'sms' },
			{ inBody: true },
		);
		assert.equal(step1.body.status, 'success');
		const otp = sb.control.otp('0539876543')!;
		assert.match(otp, /^\d{6}$/);
		assert.equal(
			(await control(sb, 'GET', 'otp?sender=0539876543', undefined, 'sms')).body.otp,
			otp,
		);
		assert.equal(
			(await smsBulk(sb, [msg({ sender: '0539876543' })])).body[0].status,
			'Error - 403 Forbidden',
			'not usable before step 2',
		);
		const wrong = await smsWs(
			sb,
			{
				service: 'add_sender_phone_step2',
				sender: '0539876543',
				otp_key: otp === '111111' ? '222222' : '111111',
			},
			{ inBody: true },
		);
		assert.deepEqual(wrong.body, { status: 'error', description: 'Invalid verification code' });
		const step2 = await smsWs(
			sb,
			{
				service: 'add_sender_phone_step2',
				sender: '0539876543',
				otp_key: otp,
				sender_description: 'סניף מרכז',
			},
			{ inBody: true },
		);
		assert.equal(step2.body.status, 'success');
		const sender = sb.control.senders().find((s) => s.sender === '0539876543')!;
		assert.deepEqual(sender, {
			sender: '0539876543',
			type: 'phone',
			description: 'סניף מרכז',
			verified: true,
		});
		assert.equal(
			(await smsBulk(sb, [msg({ sender: '0539876543' })])).body[0].status,
			'Message in Action',
		);
		const speedDial = await smsWs(sb, {
			service: 'add_sender_phone_step1',
			sender: '*2700',
			otp_type: 'call',
		});
		assert.equal(speedDial.body.status, 'success');
		assert.equal(
			(await smsWs(sb, { service: 'add_sender_phone_step1', sender: '050-123', otp_type: 'sms' }))
				.body.status,
			'error',
		);
		assert.equal(
			(
				await smsWs(sb, {
					service: 'add_sender_phone_step1',
					sender: '0531111111',
					otp_type: 'fax',
				})
			).body.status,
			'error',
		);
		assert.equal(
			(
				await smsWs(sb, {
					service: 'add_sender_phone_step2',
					sender: '0532222222',
					otp_key: '123456',
				})
			).body.status,
			'error',
		);
	});

	test('the optional account token must match when sent; the Bearer token is required', async () => {
		const wrong = await smsWs(sb, { service: 'get_sender_list', token: 'someone-else' });
		assert.deepEqual(wrong.body, { status: 'error', description: 'Invalid account token' });
		const missing = await smsWs(sb, { service: 'get_sender_list' }, { token: null });
		assert.equal(missing.status, 401);
		assert.equal(missing.body, 'Unauthorized - Token Required');
		assert.equal((await smsWs(sb, { service: 'fly' })).body.status, 'error');
	});
});

describe('credit', () => {
	test('GET /credit answers the balance', async () => {
		sb.control.setCredit(1234);
		const res = await fetch(`${sb.smsUrl}/credit`, {
			headers: { authorization: `Bearer ${sb.tokens.sms}` },
		});
		assert.deepEqual(await res.json(), { status: 'success', credit: 1234 });
		const anonymous = await fetch(`${sb.smsUrl}/credit`);
		assert.equal(anonymous.status, 401);
	});
});
