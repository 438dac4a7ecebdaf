// The control API over HTTP (both servers), the request log, and the CLI.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { control, smsBulk, start, startReceiver, vn } from './helpers.mts';
import type { Sandbox } from './helpers.mts';

let sb: Sandbox;
before(async () => {
	sb = await start();
});
after(() => sb.close());
beforeEach(() => sb.control.reset());

describe('control API over HTTP', () => {
	test('index, reset with seed options, seed, state getters, on both servers', async () => {
		const index = await control(sb, 'GET', '');
		assert.equal(index.body.tokens.vn, 'vn-sandbox-token');
		assert.equal(index.body.smsUrl, sb.smsUrl);
		await control(sb, 'POST', 'reset', { numbers: 2, poolNumbers: 3, users: 1, credit: 77 }, 'sms');
		assert.equal(
			(await control(sb, 'GET', 'state/virtualnums')).body.length,
			3,
			'2 active + 1 suspended',
		);
		assert.equal(
			(await control(sb, 'GET', 'state/pool', undefined, 'sms')).body.length,
			4,
			'3 + the restorable one',
		);
		assert.equal((await control(sb, 'GET', 'credit')).body.credit, 77);
		const seeded = await control(sb, 'POST', 'seed', {
			numbers: 2,
			virtualnum: { description: 'From a test', call_destination_phone: '0501110000' },
			cdr: { call_status: 'BUSY' },
		});
		assert.equal(seeded.body.numbers.length, 2);
		assert.equal(seeded.body.virtualnum.description, 'From a test');
		assert.equal(seeded.body.virtualnum.default_dest, '0501110000');
		assert.equal(seeded.body.cdr.call_status, 'BUSY');
		assert.equal(seeded.body.cdr.has_recording, false);
		const one = await control(
			sb,
			'GET',
			`state/virtualnum?virtualnum=${seeded.body.virtualnum.virtualnum}`,
		);
		assert.equal(one.body.description, 'From a test');
		const cdr = await control(sb, 'GET', `state/cdr?call_uuid=${seeded.body.cdr.cdr_uniqueid}`);
		assert.equal(cdr.body.call_status, 'BUSY');
		for (const name of [
			'users',
			'tags',
			'blacklist',
			'prompts',
			'senders',
			'messages',
			'cdrs?hasRecording=true&limit=2',
		]) {
			const got = await control(sb, 'GET', `state/${name}`);
			assert.equal(got.status, 200, name);
			assert.ok(Array.isArray(got.body), name);
		}
		assert.equal((await control(sb, 'GET', 'nothing-here')).status, 404);
		assert.equal((await control(sb, 'POST', 'seed', { cdrs: -1 })).status, 400);
	});

	test('seeding is deterministic', async () => {
		sb.control.reset();
		const first = {
			numbers: sb.control.virtualnums(),
			cdrs: sb.control.cdrs(),
			users: sb.control.users(),
			pool: sb.control.pool(),
		};
		sb.control.reset();
		assert.deepEqual(
			{
				numbers: sb.control.virtualnums(),
				cdrs: sb.control.cdrs(),
				users: sb.control.users(),
				pool: sb.control.pool(),
			},
			first,
		);
		assert.equal(first.numbers.length, 6);
		assert.equal(first.pool.length, 51);
		assert.equal(first.cdrs.length, 20);
		assert.equal(first.users.length, 2);
		assert.equal(sb.control.prompts().length, 3);
		assert.equal(sb.control.senders().filter((s) => s.type === 'text' && s.verified).length, 2);
		assert.deepEqual(
			sb.control
				.senders()
				.filter((s) => s.type === 'phone')
				.map((s) => s.verified),
			[true, false],
		);
		assert.equal(sb.control.credit(), 10000);
	});

	test('the request log: every service request, in order, without file bytes', async () => {
		await vn(sb, 'get_virtualnum', { limit: 1 }, { via: 'form' });
		await smsBulk(sb, [
			{ service: 'send_sms', dest: '0541234567', sender: 'VirtualNum', message: 'Hi' },
		]);
		const form = new FormData();
		form.set('service', 'upload_prompt');
		form.set('prompt_file', new Blob([Buffer.from('RIFF\0\0\0\0WAVEfmt ')]), 'tiny.wav');
		await fetch(`${sb.vnUrl}/api/?format=json`, {
			method: 'POST',
			headers: { authorization: `Bearer ${sb.tokens.vn}` },
			body: form,
		});
		await control(sb, 'GET', 'state/users'); // control requests are not logged
		const all = (await control(sb, 'GET', 'requests')).body;
		assert.deepEqual(
			all.map((r: any) => [r.server, r.operation]),
			[
				['vn', 'get_virtualnum'],
				['sms', 'send_sms'],
				['vn', 'upload_prompt'],
			],
		);
		const [get, send, upload] = all;
		assert.equal(get.method, 'POST');
		assert.equal(get.path, '/api/');
		assert.deepEqual(get.body, { service: 'get_virtualnum', limit: '1', format: 'json' });
		assert.equal(get.headers['content-type'], 'application/x-www-form-urlencoded');
		assert.equal(get.headers.authorization, 'Bearer vn-sandbox-token');
		assert.ok(get.rawBodySize > 0);
		assert.match(get.receivedAt, /^\d{4}-\d{2}-\d{2}T/);
		assert.equal(send.body[0].dest, '0541234567');
		assert.deepEqual(upload.query, { format: 'json' });
		assert.equal(upload.files[0].filename, 'tiny.wav');
		assert.equal(upload.files[0].size, 16);
		assert.match(upload.files[0].sha256, /^[0-9a-f]{64}$/);
		assert.equal('data' in upload.files[0], false);
		const filtered = await control(sb, 'GET', 'requests?service=sms&operation=send_sms');
		assert.equal(filtered.body.length, 1);
		assert.equal(sb.control.requests({ service: 'vn' }).length, 2);
		await control(sb, 'DELETE', 'requests');
		assert.deepEqual(sb.control.requests(), []);
	});

	test('calls, callbacks, ip, credit, config, tokens, flush and settle over HTTP', async () => {
		const receiver = await startReceiver();
		try {
			const number = sb.control.virtualnums()[0].virtualnum;
			sb.control.seed({
				virtualnum: {
					virtualnum: number,
					callback_url: `${receiver.url}/c`,
					callback_url_option: 3,
				},
			});
			const placed = await control(sb, 'POST', 'calls', {
				virtualnum: number,
				caller: '0541234567',
				answered: true,
				durationSec: 30,
			});
			assert.equal(placed.body.call.call_duration, 30);
			assert.equal(placed.body.callbacks.length, 2);
			assert.equal((await control(sb, 'GET', 'callbacks?kind=call.end')).body.length, 1);
			await control(sb, 'DELETE', 'callbacks');
			assert.equal(sb.control.callbacks().length, 0);
			assert.equal(
				(await control(sb, 'POST', 'calls', { virtualnum: '0799999999', caller: '1' })).status,
				400,
			);

			await control(sb, 'POST', 'ip', { allowed: false });
			const denied = await fetch(`${sb.vnUrl}/api/?service=test`, {
				headers: { authorization: `Bearer ${sb.tokens.vn}` },
			});
			assert.equal(denied.status, 401);
			assert.equal(
				(await smsBulk(sb, [])).status,
				200,
				"the IP rule is the virtual number service's",
			);
			await control(sb, 'POST', 'ip', { allowed: true });

			assert.equal((await control(sb, 'POST', 'credit', { credit: 5 })).body.credit, 5);
			const config = await control(sb, 'POST', 'config', {
				callbackStyle: 'form',
				callbackDelayMs: 0,
			});
			assert.equal(config.body.callbackStyle, 'form');
			assert.equal((await control(sb, 'POST', 'config', { callbackStyle: 'smoke' })).status, 400);
			const token = (await control(sb, 'POST', 'tokens', { user_id: 2 })).body.token;
			assert.equal((await vn(sb, 'test', {}, { token })).status.code, 200);
			await smsBulk(sb, [
				{
					service: 'send_sms',
					dest: '0541234567',
					sender: 'VirtualNum',
					message: 'Hi',
					callback_url: `${receiver.url}/d`,
				},
			]);
			const flushed = await control(sb, 'POST', 'flush', {});
			assert.ok(Array.isArray(flushed.body.callbacks));
			assert.equal((await control(sb, 'POST', 'settle', {})).body.ok, true);
			assert.equal(sb.control.messages()[0].status, 'DELIVERED');
			assert.equal((await control(sb, 'GET', 'otp?sender=0500000000')).status, 404);
		} finally {
			sb.control.configure({ callbackStyle: 'json', callbackDelayMs: 10 });
			await receiver.close();
		}
	});
});

describe('the CLI', () => {
	const main = fileURLToPath(new URL('../../sandbox/main.mts', import.meta.url));

	test('prints credentials, logs requests without tokens, stops on SIGINT', async () => {
		const child = spawn(
			process.execPath,
			['--import', 'tsx', main, '--vn-port', '0', '--sms-port', '0', '--seed-cdrs', '5'],
			{ stdio: ['ignore', 'pipe', 'pipe'] },
		);
		let out = '';
		child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
		const exited = new Promise<number | null>((resolve) =>
			child.on('exit', (code) => resolve(code)),
		);
		try {
			const until = Date.now() + 15000;
			while (!out.includes('Press Ctrl+C') && Date.now() < until)
				await new Promise((r) => setTimeout(r, 50));
			assert.match(
				out,
				/Credential "Virtual Number API"\s+Base URL\s+http:\/\/127\.0\.0\.1:\d+\s+Access Token\s+vn-sandbox-token/,
			);
			assert.match(
				out,
				/Credential "Virtual Number SMS API"\s+Base URL\s+http:\/\/127\.0\.0\.1:\d+\s+Access Token\s+sms-sandbox-token/,
			);
			assert.match(out, /sms-account-token/);
			const vnUrl = /Virtual Number API"\s+Base URL\s+(\S+)/.exec(out)![1];
			const res = await fetch(
				`${vnUrl}/api/?service=get_virtualnum&virtualnum=0799999999&format=json`,
				{ headers: { authorization: 'Bearer vn-sandbox-token' } },
			);
			assert.equal(((await res.json()) as any).status.code, 4031);
			const mark = out.length;
			await fetch(`${vnUrl}/api/?service=test`, {
				headers: { authorization: 'Bearer vn-sandbox-token' },
			});
			while (!out.slice(mark).includes('vn  test 200') && Date.now() < until)
				await new Promise((r) => setTimeout(r, 20));
			const logLines = out
				.slice(out.indexOf('Press Ctrl+C'))
				.split('\n')
				.filter((l) => l.includes(' vn '));
			assert.ok(
				logLines.some((l) => /get_virtualnum 200 code=4031/.test(l)),
				logLines.join('\n'),
			);
			assert.ok(
				logLines.every((l) => !l.includes('sandbox-token')),
				'no token in request lines',
			);
			child.kill('SIGINT');
			assert.equal(await exited, 0);
			assert.match(out, /SIGINT: stopping the sandbox/);
		} finally {
			child.kill('SIGKILL');
		}
	});

	test('rejects a bad flag value', async () => {
		const child = spawn(
			process.execPath,
			['--import', 'tsx', main, '--callback-style', 'smoke-signals'],
			{ stdio: ['ignore', 'pipe', 'pipe'] },
		);
		let err = '';
		child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
		const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
		assert.equal(code, 2);
		assert.match(err, /--callback-style must be json, form, query, upper or lower/);
	});
});
