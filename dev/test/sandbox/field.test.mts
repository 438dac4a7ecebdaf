// The field profile: each behaviour integrators observed, switched on alone (in-process, over the
// control API, as a start option and on the CLI), and off again under the contract profile.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { FIELD_BEHAVIOURS } from '../../sandbox/index.mts';
import { control, start, startReceiver, vn, vnRaw } from './helpers.mts';
import type { Sandbox } from './helpers.mts';

let sb: Sandbox;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

before(async () => {
	sb = await start();
	receiver = await startReceiver();
});
after(async () => {
	await sb.close();
	await receiver.close();
});
beforeEach(() => {
	sb.control.reset();
	sb.control.setProfile({
		profile: 'contract',
		word: 'virtualnum',
		recordingDelayMs: 5000,
		refusalStatus: 200,
	});
	sb.control.configure({ callbackStyle: 'json' });
	receiver.received.length = 0;
});

const CUSTOM_HOURS = '0'.repeat(24) + '1'.repeat(144);

/** A number with every settable field set away from create's defaults. */
function customNumber(): string {
	const number = sb.control.virtualnums()[0].virtualnum;
	sb.control.seed({
		virtualnum: {
			virtualnum: number,
			email: 'owner@example.com',
			private_field1: 'crm-17',
			private_field10: 'last',
			sms_destination_phone: '0501112222',
			working_hours: CUSTOM_HOURS,
			out_of_time_destination_phone: '0503334444',
			callback_url: 'https://example.com/hook',
			callback_url_option: 3,
			greeting_in: 'welcome',
			dial_option: 2,
			dial_timeout_in_sec: 30,
			record_percentage: 40,
			record_option: 2,
			expose: 2,
			disallow_callback: 1,
		},
	});
	return number;
}

describe('switching the profile', () => {
	test('profile field switches every behaviour on, contract every one off', () => {
		assert.deepEqual(sb.control.profile().behaviours, []);
		assert.deepEqual(sb.control.setProfile({ profile: 'field' }).behaviours, [...FIELD_BEHAVIOURS]);
		assert.deepEqual(sb.control.setProfile({ profile: 'contract' }).behaviours, []);
	});

	test('single behaviours over HTTP; a typo is refused with the list', async () => {
		const set = await control(sb, 'POST', 'profile', {
			behaviours: ['update-replaces', 'call-no-id'],
		});
		assert.equal(set.status, 200);
		assert.deepEqual(set.body.behaviours, ['update-replaces', 'call-no-id']);
		assert.deepEqual((await control(sb, 'GET', 'profile')).body.behaviours, [
			'update-replaces',
			'call-no-id',
		]);
		const typo = await control(sb, 'POST', 'profile', { behaviours: 'update-replace' });
		assert.equal(typo.status, 400);
		assert.match(typo.body.error, /unknown field behaviour "update-replace".*callback-get/);
	});

	test('a start option: startSandbox({ profile, behaviours, word })', async () => {
		const other = await start({ behaviours: 'callback-get,refusal-texts', word: 'ddi_line' });
		try {
			assert.deepEqual(other.control.profile().behaviours, ['callback-get', 'refusal-texts']);
			assert.equal(other.control.profile().word, 'ddi_line');
		} finally {
			await other.close();
		}
		await assert.rejects(start({ profile: 'fieldish' as 'field' }), /profile must be/);
	});

	test('SANDBOX_PROFILE / SANDBOX_FIELD / SANDBOX_WORD apply when the option is not given', async () => {
		process.env.SANDBOX_FIELD = 'call-no-id';
		process.env.SANDBOX_WORD = 'did';
		try {
			const fromEnv = await start();
			const explicit = await start({ profile: 'contract', behaviours: [], word: 'virtualnum' });
			assert.deepEqual(fromEnv.control.profile().behaviours, ['call-no-id']);
			assert.equal(fromEnv.control.profile().word, 'did');
			assert.deepEqual(explicit.control.profile().behaviours, []);
			assert.equal(explicit.control.profile().word, 'virtualnum');
			await Promise.all([fromEnv.close(), explicit.close()]);
		} finally {
			delete process.env.SANDBOX_FIELD;
			delete process.env.SANDBOX_WORD;
		}
	});

	test('the profile survives reset (it is configuration, like the callback style)', () => {
		sb.control.setProfile({ profile: 'field' });
		sb.control.reset();
		assert.equal(sb.control.profile().behaviours.length, FIELD_BEHAVIOURS.length);
	});
});

describe('update-replaces', () => {
	const sent = { description: 'New name', call_destination_phone: '0509998888' };

	test('contract: only the sent fields change', async () => {
		const number = customNumber();
		const before = sb.control.virtualnum(number)!;
		const answer = await vn(sb, 'update_virtualnum', { virtualnum: number, ...sent });
		assert.equal(answer.status.code, 200);
		assert.deepEqual(sb.control.virtualnum(number), {
			...before,
			...sent,
			default_dest: '0509998888',
		});
	});

	test('field: every settable field not sent goes back to what create would set', async () => {
		sb.control.setProfile({ behaviours: ['update-replaces'] });
		const number = customNumber();
		const before = sb.control.virtualnum(number)!;
		await vn(sb, 'update_virtualnum', { virtualnum: number, ...sent });
		const after = sb.control.virtualnum(number)!;
		assert.equal(after.description, 'New name');
		for (const field of [
			'email',
			'private_field1',
			'private_field10',
			'callback_url',
			'greeting_in',
		])
			assert.equal(after[field as keyof typeof after], '', field);
		assert.equal(after.working_hours, '1'.repeat(168));
		assert.equal(after.callback_url_option, 2);
		assert.equal(after.dial_timeout_in_sec, 60);
		assert.equal(after.record_percentage, 100);
		// What the service sets itself stays.
		assert.equal(after.create_time, before.create_time);
		assert.equal(after.extenstion, before.extenstion);
	});

	test('field: a number sent back whole keeps every setting', async () => {
		sb.control.setProfile({ behaviours: ['update-replaces'] });
		const number = customNumber();
		const before = sb.control.virtualnum(number)!;
		const { create_time: _c, extenstion: _e, default_dest: _d, ...settable } = before;
		await vn(sb, 'update_virtualnum', settable as unknown as Record<string, string>);
		assert.deepEqual(sb.control.virtualnum(number), before);
	});
});

describe('call callbacks in the field', () => {
	function numberWithCallback(path: string): string {
		const number = sb.control.virtualnums()[0].virtualnum;
		sb.control.seed({
			virtualnum: {
				virtualnum: number,
				callback_url: `${receiver.url}${path}`,
				callback_url_option: 3,
				private_field2: 'lead-42',
			},
		});
		return number;
	}

	test('callback-get: GET, ?event=<word> appended as text, inside the last parameter', async () => {
		sb.control.setProfile({ behaviours: ['callback-get'] });
		const number = numberWithCallback('/hook?secret=s3cr3t');
		await sb.control.placeCall({ virtualnum: number, caller: '0541234567' });
		assert.deepEqual(
			receiver.received.map((r) => r.method),
			['GET', 'GET'],
		);
		const [started, ended] = receiver.received;
		assert.ok(started.url.startsWith('/hook?secret=s3cr3t?event=ring&'), started.url);
		assert.equal(started.query.secret, 's3cr3t?event=ring');
		assert.equal(ended.query.secret, 's3cr3t?event=hangup');
		assert.equal(ended.query.call_status, 'ANSWER');
	});

	test('callback-get on a URL without a query: event is a parameter of its own', async () => {
		sb.control.setProfile({ behaviours: ['callback-get'] });
		const number = numberWithCallback('/hook');
		await sb.control.placeCall({ virtualnum: number, caller: '0541234567' });
		assert.deepEqual(
			receiver.received.map((r) => r.query.event),
			['ring', 'hangup'],
		);
	});

	test('callback-lower: the lower-case template, NO ANSWER with a space', async () => {
		sb.control.setProfile({ behaviours: ['callback-get', 'callback-lower'] });
		const number = numberWithCallback('/hook');
		const description = sb.control.virtualnum(number)!.description;
		const { call } = await sb.control.placeCall({
			virtualnum: number,
			caller: '0541234567',
			durationSec: 33,
		});
		const ended = receiver.received[1].query;
		assert.equal(ended.cli, '054-1234567');
		assert.equal(ended.cli_unformatted, '0541234567');
		assert.equal(ended.virtualnum_unformatted, number);
		assert.equal(ended.virtualnum, `${number.slice(0, 3)}-${number.slice(3)}`);
		assert.equal(ended.destination_unformatted, call.user_phone);
		assert.equal(ended.uuid, call.cdr_uniqueid);
		assert.equal(ended.status, 'ANSWER');
		assert.equal(ended.duration, '33');
		assert.match(ended.recording, /service=get_record_by_call_uuid&call_uuid=/);
		assert.equal(ended.name, description);
		assert.equal(ended.description, description);
		assert.equal(ended.private_field2, 'lead-42');
		assert.equal(ended.private_field10, '');
		assert.equal(ended.event, 'hangup');

		receiver.received.length = 0;
		await sb.control.placeCall({ virtualnum: number, caller: '0541234567', answered: false });
		assert.equal(receiver.received[1].query.status, 'NO ANSWER');
		receiver.received.length = 0;
		await sb.control.placeCall({ virtualnum: number, caller: '0541234567', status: 'BUSY' });
		assert.equal(receiver.received[1].query.status, 'BUSY');
	});

	test('the upper-case template stays available', async () => {
		sb.control.configure({ callbackStyle: 'upper' });
		const number = numberWithCallback('/hook');
		await sb.control.placeCall({ virtualnum: number, caller: '0541234567' });
		assert.equal(receiver.received[1].query.CALLSTATUS, 'ANSWER');
		assert.equal(receiver.received[1].query.CLI, '0541234567');
	});

	test('with --word, the template names the dialled number with the word', async () => {
		sb.control.setProfile({ behaviours: ['callback-lower'], word: 'did' });
		const number = numberWithCallback('/hook');
		await sb.control.placeCall({ virtualnum: number, caller: '0541234567' });
		assert.equal(receiver.received[1].query.did_unformatted, number);
		assert.equal(receiver.received[1].query.virtualnum_unformatted, undefined);
	});
});

describe('refusal-texts', () => {
	test('the IP text as plain text with HTTP 200, or with the status chosen', async () => {
		sb.control.setProfile({ behaviours: ['refusal-texts'] });
		sb.control.setIpAllowed(false);
		const res = await vnRaw(sb, { service: 'test' });
		assert.equal(res.status, 200);
		assert.match(res.headers.get('content-type') ?? '', /text\/plain/);
		assert.equal(await res.text(), 'The ip address is not legal for this web service 127.0.0.1');
		sb.control.setProfile({ refusalStatus: 401 });
		assert.equal((await vnRaw(sb, { service: 'test' })).status, 401);
	});

	test('token refusals start with "Token", on both services', async () => {
		sb.control.setProfile({ behaviours: ['refusal-texts'] });
		assert.equal(
			await (await vnRaw(sb, { service: 'test' }, { token: null })).text(),
			'Token missing',
		);
		assert.equal(
			await (await vnRaw(sb, { service: 'test' }, { token: sb.tokens.expired })).text(),
			'Token expired',
		);
		assert.equal(
			await (await vnRaw(sb, { service: 'test' }, { token: 'nope' })).text(),
			'Token invalid',
		);
		const sms = await fetch(`${sb.smsUrl}/credit`, { headers: { authorization: 'Bearer nope' } });
		assert.equal(sms.status, 200);
		assert.equal(await sms.text(), 'Token invalid');
	});

	test('the observed texts as a fault, on the SMS service (which has no IP check)', async () => {
		sb.control.injectFaults({ kind: 'unauthorized', text: 'IP not legal', server: 'sms' });
		const ip = await fetch(`${sb.smsUrl}/credit`, { headers: { authorization: 'Bearer x' } });
		assert.equal(ip.status, 200);
		assert.equal(await ip.text(), 'The ip address is not legal for this web service 127.0.0.1');
		sb.control.injectFaults({ kind: 'unauthorized', text: 'Token expired', status: 401 });
		const token = await vnRaw(sb, { service: 'test' });
		assert.equal(token.status, 401);
		assert.equal(await token.text(), 'Token expired');
	});

	test('contract: the 401 texts of the spec', async () => {
		const res = await vnRaw(sb, { service: 'test' }, { token: 'nope' });
		assert.equal(res.status, 401);
		assert.equal(await res.text(), 'Unauthorized - Invalid Token');
	});
});

describe('recording-delay', () => {
	test('the recording does not exist until the delay after the call has passed', async () => {
		sb.control.setProfile({ behaviours: ['recording-delay'], recordingDelayMs: 300 });
		const number = sb.control.virtualnums()[0].virtualnum;
		const { call } = await sb.control.placeCall({ virtualnum: number, caller: '0541234567' });
		assert.equal(call.has_recording, true);
		const early = await vn(sb, 'get_record_by_call_uuid', { call_uuid: call.cdr_uniqueid });
		assert.equal(early.status.code, 3002);
		assert.match(early.status.description, /Recording does not exist/);
		await new Promise((r) => setTimeout(r, 350));
		const res = await vnRaw(sb, {
			service: 'get_record_by_call_uuid',
			call_uuid: call.cdr_uniqueid,
		});
		assert.equal(res.headers.get('content-type'), 'audio/wav');
		assert.equal((await res.arrayBuffer()).byteLength, 65536);
	});

	test('contract: the recording is there at once', async () => {
		const number = sb.control.virtualnums()[0].virtualnum;
		const { call } = await sb.control.placeCall({ virtualnum: number, caller: '0541234567' });
		const res = await vnRaw(sb, {
			service: 'get_record_by_call_uuid',
			call_uuid: call.cdr_uniqueid,
		});
		assert.equal(res.headers.get('content-type'), 'audio/wav');
		await res.arrayBuffer();
	});
});

describe('call-no-id', () => {
	test('Click to Call and Two-Leg Call answer a status only', async () => {
		const number = sb.control.virtualnums()[0].virtualnum;
		const withId = await vn(sb, 'create_virtualnum_call', {
			virtualnum: number,
			destination: '0541234567',
		});
		assert.match(withId.result.call_uuid, /^\d+\.\d+$/);
		sb.control.setProfile({ behaviours: ['call-no-id'] });
		const one = await vn(sb, 'create_virtualnum_call', {
			virtualnum: number,
			destination: '0541234567',
		});
		assert.equal(one.status.code, 200);
		assert.equal(one.result, undefined);
		const two = await vn(sb, 'create_virtualnum_call_v2', {
			virtualnum1: number,
			destination1: '0541234567',
			destination2: '0547654321',
		});
		assert.equal(two.status.code, 200);
		assert.equal(two.result, undefined);
		await sb.control.settle();
		assert.equal(
			sb.control.cdrs({ virtualnum: number, limit: 100000 }).at(-1)?.cdr_ani,
			'0541234567',
		);
	});
});

describe('word', () => {
	test('services and parameters named with the word; the contract names are unknown', async () => {
		sb.control.setProfile({ word: 'ddi_number' });
		const number = sb.control.virtualnums()[0].virtualnum;
		const got = await vn(sb, 'get_ddi_number', { ddi_number: number });
		assert.equal(got.status.code, 200);
		assert.equal(got.result[0].ddi_number, number);
		assert.equal(got.result[0].virtualnum, undefined);
		assert.equal((await vn(sb, 'get_virtualnum', { virtualnum: number })).status.code, 999);
		// The old parameter name is not read: update finds no number.
		const update = await vn(sb, 'update_ddi_number', {
			virtualnum: number,
			description: 'x',
			call_destination_phone: '0501234567',
		});
		assert.equal(update.status.code, 4011);
		const two = await vn(sb, 'create_ddi_number_call_v2', {
			ddi_number1: number,
			destination1: '0541234567',
			destination2: '0547654321',
		});
		assert.equal(two.status.code, 200);
		const list = await vn(sb, 'get_ddi_number', {
			filter_name: 'ddi_number',
			filter_value: number,
		});
		assert.equal(list.result.length, 1);
		await sb.control.settle();
	});

	test('a word that cannot be a parameter name is refused', () => {
		assert.throws(() => sb.control.setProfile({ word: 'a b' }), /word must be/);
	});
});

describe('the CLI', () => {
	const main = fileURLToPath(new URL('../../sandbox/main.mts', import.meta.url));

	test('--profile field --word prints the behaviours; a bad --field exits 2', async () => {
		const child = spawn(
			process.execPath,
			[
				'--import',
				'tsx',
				main,
				'--vn-port',
				'0',
				'--sms-port',
				'0',
				'--profile',
				'field',
				'--word',
				'did',
			],
			{ stdio: ['ignore', 'pipe', 'pipe'] },
		);
		let out = '';
		child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
		const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
		try {
			const until = Date.now() + 15000;
			while (!out.includes('Press Ctrl+C') && Date.now() < until)
				await new Promise((r) => setTimeout(r, 50));
			assert.match(out, /Profile: update-replaces, callback-get, .*call-no-id; word "did"/);
			const vnUrl = /Virtual Number API"\s+Base URL\s+(\S+)/.exec(out)![1];
			const profile = (await (await fetch(`${vnUrl}/_sandbox/profile`)).json()) as { word: string };
			assert.equal(profile.word, 'did');
			child.kill('SIGINT');
			assert.equal(await exited, 0);
		} finally {
			child.kill('SIGKILL');
		}
		const bad = spawn(process.execPath, ['--import', 'tsx', main, '--field', 'callback-post'], {
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let err = '';
		bad.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
		assert.equal(await new Promise((resolve) => bad.on('exit', resolve)), 2);
		assert.match(err, /unknown field behaviour "callback-post"/);
	});
});
