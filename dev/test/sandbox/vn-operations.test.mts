// The success path of every virtual number operation the spec names (the last test checks that
// none was forgotten), with the answer shapes the spec (or sandbox/README.md) gives.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { specVirtualnumOperations } from '../../harness/spec.mts';
import { start, vn, vnRaw } from './helpers.mts';
import type { Sandbox } from './helpers.mts';

let sb: Sandbox;
const covered = new Set<string>();

async function ok(
	service: string,
	params: Record<string, string | number> = {},
	via?: 'query' | 'form' | 'json',
) {
	const answer = await vn(sb, service, params, { via });
	assert.equal(answer.status.code, 200, `${service}: ${answer.status.description}`);
	assert.equal(answer.service, service);
	covered.add(service);
	return answer;
}

const RECORD_FIELDS = [
	'description',
	'virtualnum',
	'active_status',
	'create_time',
	'email',
	...Array.from({ length: 10 }, (_, i) => `private_field${i + 1}`),
	'sms_destination_phone',
	'working_hours',
	'out_of_time_destination_phone',
	'callback_url',
	'callback_url_option',
	'greeting_in',
	'ringback_tone',
	'greeting_out',
	'call_destination_phone',
	'dial_option',
	'dial_timeout_in_sec',
	'record_percentage',
	'record_option',
	'extenstion',
	'expose',
	'disallow_callback',
	'default_dest',
];

before(async () => {
	sb = await start();
});
after(() => sb.close());
beforeEach(() => sb.control.reset());

const active = () => sb.control.virtualnums().filter((n) => n.active_status === 1)[0].virtualnum;

describe('testing and numbers', () => {
	test('test', async () => {
		const answer = await ok('test');
		assert.deepEqual(Object.keys(answer), ['service', 'status']);
	});

	test('get_virtualnum: general request, paging, status, one number, filters', async () => {
		const all = await ok('get_virtualnum');
		assert.equal(all.result.length, 5, 'active numbers only by default');
		assert.deepEqual(Object.keys(all.result[0]), RECORD_FIELDS);
		assert.equal('virtualnum_old' in all.result[0], false, 'two-number feature is off');
		const page = await ok('get_virtualnum', { limit: 2, page: 1 });
		assert.deepEqual(
			page.result.map((r: any) => r.virtualnum),
			all.result.slice(2, 4).map((r: any) => r.virtualnum),
		);
		const suspended = await ok('get_virtualnum', { status: 0 });
		assert.equal(suspended.result.length, 1);
		assert.equal(suspended.result[0].active_status, 0);
		const one = await ok('get_virtualnum', {
			virtualnum: suspended.result[0].virtualnum,
			limit: 1,
			page: 5,
		});
		assert.equal(one.result.length, 1, 'a single number ignores status and paging');
		const like = await ok('get_virtualnum', {
			filter_name: 'description',
			filter_value: '%1',
			filter_operator: 'LIKE',
		});
		assert.ok(like.result.every((r: any) => r.description.endsWith('1')));
		const ne = await ok('get_virtualnum', {
			filter_name: 'active_status',
			filter_value: '1',
			filter_operator: 'NE',
		});
		assert.equal(ne.result.length, 1, 'a filter returns suspended rows too');
		const gt = await ok('get_virtualnum', {
			filter_name: 'extenstion',
			filter_value: '102',
			filter_operator: 'GT',
		});
		assert.deepEqual(
			gt.result.map((r: any) => r.extenstion),
			['103', '104', '105'],
		);
		const lt = await ok('get_virtualnum', {
			filter_name: 'extenstion',
			filter_value: '102',
			filter_operator: 'LT',
		});
		assert.equal(lt.result.length, 2);
		const eq = await ok('get_virtualnum', {
			filter_name: 'private_field1',
			filter_value: all.result[0].private_field1.toUpperCase(),
		});
		assert.ok(eq.result.length >= 1, 'EQ compares case-insensitively, like MySQL');
	});

	test('get_virtualnum: limit 0 or above 10000 gives up to 10000 rows, default 1000', async () => {
		sb.control.seed({ numbers: 10500 });
		assert.equal((await ok('get_virtualnum')).result.length, 1000);
		assert.equal((await ok('get_virtualnum', { limit: 0 })).result.length, 10000);
		assert.equal((await ok('get_virtualnum', { limit: 50000 })).result.length, 10000);
		assert.equal((await ok('get_virtualnum', { limit: 10000, page: 1 })).result.length, 505);
	});

	test('get_available_virtualnum: default 5, maximum 50, prefix and part filters', async () => {
		assert.equal((await ok('get_available_virtualnum')).result.length, 5);
		assert.equal((await ok('get_available_virtualnum', { amount: 500 })).result.length, 50);
		const prefixed = await ok('get_available_virtualnum', { prefix: '073', amount: 3 });
		assert.ok(prefixed.result.every((r: any) => r.virtualnum.startsWith('073')));
		const part = await ok('get_available_virtualnum', { virtualnum: '3000004' });
		assert.ok(part.result.every((r: any) => r.virtualnum.includes('3000004')));
		const before = sb.control.pool().length;
		await ok('get_available_virtualnum');
		assert.equal(sb.control.pool().length, before, 'allocates nothing');
	});

	test('create_virtualnum: by prefix, by number, defaults, full record', async () => {
		const created = await ok(
			'create_virtualnum',
			{
				description: 'Spring campaign',
				call_destination_phone: '0501234567,0507654321',
				prefix: '077',
			},
			'form',
		);
		const record = created.result;
		assert.deepEqual(Object.keys(record), RECORD_FIELDS);
		assert.ok(record.virtualnum.startsWith('077'));
		assert.equal(record.active_status, 1);
		assert.equal(record.callback_url_option, 2, 'callback_url_option defaults to 2');
		assert.equal(record.default_dest, '0501234567');
		assert.equal(sb.control.pool().includes(record.virtualnum), false);
		const wanted = sb.control.pool()[0];
		const byNumber = await ok(
			'create_virtualnum',
			{
				description: 'Exact',
				call_destination_phone: '0501234567',
				virtualnum: wanted,
				active_status: 0,
				dial_option: 'IVR',
				record_presantge: 40,
				working_hours: '1'.repeat(24) + '0'.repeat(144),
				private_field7: 'seven',
			},
			'json',
		);
		assert.equal(byNumber.result.virtualnum, wanted);
		assert.equal(byNumber.result.active_status, 0);
		assert.equal(byNumber.result.dial_option, 3);
		assert.equal(byNumber.result.record_percentage, 40);
		assert.equal(byNumber.result.private_field7, 'seven');
		assert.equal(byNumber.result.working_hours, '1'.repeat(24) + '0'.repeat(144));
	});

	test('update_virtualnum: only sent values change; a short working_hours is silently not saved', async () => {
		const number = active();
		const before = sb.control.virtualnum(number)!;
		const updated = await ok('update_virtualnum', {
			virtualnum: number,
			description: 'Renamed',
			call_destination_phone: '0509999999',
			callback_url: 'http://127.0.0.1:9/cb',
			working_hours: '1'.repeat(167),
			dial_option: ';',
		});
		assert.deepEqual(Object.keys(updated.result), RECORD_FIELDS);
		assert.equal(updated.result.description, 'Renamed');
		assert.equal(updated.result.call_destination_phone, '0509999999');
		assert.equal(updated.result.dial_option, 2);
		assert.equal(
			updated.result.working_hours,
			before.working_hours,
			'a 167-character pattern is not saved',
		);
		assert.equal(
			updated.result.private_field1,
			before.private_field1,
			'fields not sent keep their value',
		);
		assert.equal(updated.result.email, before.email);
		const closed = await ok('update_virtualnum', {
			virtualnum: number,
			description: 'Renamed',
			call_destination_phone: '0509999999',
			working_hours: '0'.repeat(168),
			active_status: 0,
		});
		assert.equal(closed.result.working_hours, '0'.repeat(168));
		assert.equal(closed.result.active_status, 0);
	});

	test('release_virtualnum and restore_virtualnum', async () => {
		const number = active();
		const released = await ok('release_virtualnum', { virtualnum: number });
		assert.equal(released.result.virtualnum, number);
		assert.equal(sb.control.virtualnum(number), undefined);
		assert.ok(sb.control.pool().includes(number), 'the number returns to the pool');
		assert.equal(
			sb.control.blacklist().some((b) => b.virtualnum === number),
			false,
			'per-number blocks go with it',
		);
		assert.ok(
			sb.control.blacklist().some((b) => b.virtualnum === ''),
			'global blocks remain',
		);
		const restored = await ok('restore_virtualnum', { virtualnum: number });
		assert.equal(restored.result.virtualnum, number);
		assert.equal(restored.result.active_status, 1);
		assert.deepEqual(Object.keys(restored.result), RECORD_FIELDS);
		const seeded = await ok('restore_virtualnum', { virtualnum: '0779999001' });
		assert.equal(seeded.result.description, 'Old campaign (released)');
	});
});

describe('calls', () => {
	test('create_virtualnum_call writes an answered call record', async () => {
		const number = active();
		const answer = await ok('create_virtualnum_call', {
			virtualnum: number,
			destination: '050-765-4321',
			first_target: 'virtualnum',
		});
		assert.match(answer.result.call_uuid, /^\d+\.\d+$/);
		const row = sb.control.cdr(answer.result.call_uuid)!;
		assert.equal(row.cdr_ddi, number);
		assert.equal(row.cdr_ani, '0507654321');
		assert.equal(row.call_status, 'ANSWER');
		assert.ok(row.call_duration > 0);
		assert.equal(row.has_recording, true, 'record_percentage 100 records every call');
	});

	test('create_virtualnum_call_v2 stores additional parameters on the call', async () => {
		const [first, second] = sb.control.virtualnums().filter((n) => n.active_status === 1);
		const answer = await ok('create_virtualnum_call_v2', {
			virtualnum1: first.virtualnum,
			virtualnum2: second.virtualnum,
			destination1: '0507654321',
			destination2: '0501112222',
			lead_id: 'L-77',
			campaign: 'spring',
		});
		const row = sb.control.cdr(answer.result.call_uuid)!;
		assert.deepEqual(JSON.parse(row.cdr_meta_data), { lead_id: 'L-77', campaign: 'spring' });
		assert.equal(row.user_phone, '0501112222');
		const query = await ok('cdr_query', {
			sql: `SELECT cdr_meta_data FROM webserviceview WHERE cdr_uniqueid = '${answer.result.call_uuid}'`,
		});
		assert.deepEqual(JSON.parse(query.result[0].cdr_meta_data), {
			lead_id: 'L-77',
			campaign: 'spring',
		});
		const meta = await ok('get_cdr_metadata_by_call_uuid', { call_uuid: answer.result.call_uuid });
		assert.deepEqual(meta.result.pixel_data, { lead_id: 'L-77', campaign: 'spring' });
	});

	test('click2call_link returns a signed URL that expires; opening it places no call', async () => {
		const before = sb.control.cdrs({ limit: 100000 }).length;
		const answer = await ok('click2call_link', {
			virtualnum: active(),
			destination: '0507654321',
			expire_days: 2,
		});
		const url = new URL(answer.result.url);
		assert.equal(url.origin, sb.vnUrl);
		assert.match(url.searchParams.get('signature') ?? '', /^[0-9a-f]{64}$/);
		const expires = Number(url.searchParams.get('expires')) * 1000;
		assert.ok(Math.abs(expires - (Date.now() + 2 * 86400000)) < 60000);
		const opened = await fetch(url);
		assert.equal(opened.status, 200);
		assert.match(await opened.text(), /no call was placed/);
		url.searchParams.set('destination', '0500000000');
		assert.equal((await fetch(url)).status, 403, 'a tampered link is refused');
		assert.equal(sb.control.cdrs({ limit: 100000 }).length, before);
	});
});

describe('call data and recordings', () => {
	test('cdr_query returns the selected columns', async () => {
		const answer = await ok('cdr_query', {
			sql: "SELECT id, cdr_ddi, call_status FROM webserviceview WHERE start_call >= '2024-10-01 00:00:00' ORDER BY id LIMIT 3",
		});
		assert.equal(answer.result.length, 3);
		assert.deepEqual(Object.keys(answer.result[0]), ['id', 'cdr_ddi', 'call_status']);
	});

	test('cdr_subunique_query groups answered calls by caller', async () => {
		sb.control.seed({ cdrs: 3000 });
		const answer = await ok('cdr_subunique_query', {
			start_time: '2024-10-01 00:00:00',
			end_time: '2024-12-31 23:59:59',
		});
		assert.ok(answer.result.length > 0 && answer.result.length <= 2000);
		const top = answer.result[0];
		assert.deepEqual(Object.keys(top), [
			'cdr_ani',
			'calls_count',
			'total_duration',
			'first_call',
			'last_call',
		]);
		const check = await ok('cdr_query', {
			sql: `SELECT COUNT(*) AS n FROM webserviceview WHERE call_status = 'ANSWER' AND cdr_ani = '${top.cdr_ani}' AND start_call BETWEEN '2024-10-01 00:00:00' AND '2024-12-31 23:59:59'`,
		});
		assert.equal(check.result[0].n, top.calls_count);
	});

	test('cdr_subunique_query answers at most 2000 rows', async () => {
		sb.control.seed({ cdrs: 20000 });
		const answer = await ok('cdr_subunique_query', {
			start_time: '2024-10-01 00:00:00',
			end_time: '2024-12-31 23:59:59',
		});
		assert.equal(answer.result.length, 2000);
	});

	test('get_record_by_call_uuid streams a WAV, or an MP3 with type=mp3', async () => {
		const uuid = sb.control.cdrs({ hasRecording: true, limit: 1 })[0].cdr_uniqueid;
		const wav = await vnRaw(sb, { service: 'get_record_by_call_uuid', call_uuid: uuid });
		assert.equal(wav.headers.get('content-type'), 'audio/wav');
		const bytes = Buffer.from(await wav.arrayBuffer());
		assert.equal(bytes.length, 64 * 1024);
		assert.equal(bytes.toString('latin1', 0, 4), 'RIFF');
		assert.equal(bytes.readUInt32LE(4), bytes.length - 8);
		assert.equal(bytes.toString('latin1', 8, 16), 'WAVEfmt ');
		assert.equal(bytes.toString('latin1', 36, 40), 'data');
		const again = Buffer.from(
			await (
				await vnRaw(sb, { service: 'get_record_by_call_uuid', call_uuid: uuid })
			).arrayBuffer(),
		);
		assert.ok(again.equals(bytes), 'deterministic');
		const mp3 = await vnRaw(
			sb,
			{ service: 'get_record_by_call_uuid', call_uuid: uuid, type: 'mp3' },
			{ format: null },
		);
		assert.equal(mp3.headers.get('content-type'), 'audio/mpeg');
		const mp3Bytes = Buffer.from(await mp3.arrayBuffer());
		assert.equal(mp3Bytes.toString('latin1', 0, 3), 'ID3');
		assert.deepEqual(
			[...mp3Bytes.subarray(10, 12)],
			[0xff, 0xfb],
			'an MPEG-1 Layer III frame follows the tag',
		);
		covered.add('get_record_by_call_uuid');
	});

	test('get_record_by_call_uuid: a 50 MB recording is streamed', async () => {
		sb.control.configure({ recordingBytes: 50 * 1024 * 1024 });
		const uuid = sb.control.cdrs({ hasRecording: true, limit: 1 })[0].cdr_uniqueid;
		const res = await vnRaw(sb, { service: 'get_record_by_call_uuid', call_uuid: uuid });
		assert.equal(res.headers.get('content-length'), String(50 * 1024 * 1024));
		let size = 0;
		for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>)
			size += chunk.length;
		assert.equal(size, 50 * 1024 * 1024);
	});

	test('get_cdr_metadata_by_call_uuid returns the available sections', async () => {
		const rows = sb.control.cdrs({ limit: 1000 });
		const rich =
			rows.find((r) => r.gclid && r.cdr_meta_data && r.has_recording) ?? rows.find((r) => r.gclid)!;
		const answer = await ok('get_cdr_metadata_by_call_uuid', { call_uuid: rich.cdr_uniqueid });
		assert.equal(answer.result.cdr.cdr_uniqueid, rich.cdr_uniqueid);
		assert.equal(answer.result.ads_data.gclid, rich.gclid);
		if (rich.cdr_meta_data)
			assert.deepEqual(answer.result.pixel_data, JSON.parse(rich.cdr_meta_data));
		if (rich.has_recording) assert.match(answer.result.speech_recognition.transcript, /calling/);
		const plain = rows.find((r) => !r.gclid && !r.cdr_meta_data && !r.has_recording)!;
		const bare = await ok('get_cdr_metadata_by_call_uuid', { call_uuid: plain.cdr_uniqueid });
		assert.deepEqual(Object.keys(bare.result), ['cdr']);
	});

	test('set_ads_offline_conversion then get_ads_offline_conversion', async () => {
		const uuid = sb.control.cdrs({ limit: 1 })[0].cdr_uniqueid;
		const set = await ok('set_ads_offline_conversion', {
			call_uuid: uuid,
			conversion_value: '149.90',
		});
		assert.equal(set.result.conversion_value, 149.9);
		const got = await ok('get_ads_offline_conversion', { call_uuid: uuid });
		assert.equal(got.result.conversion_value, 149.9);
		assert.match(got.result.update_time, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
	});

	test('create_virtualnum_cdr returns cdr_uniqueid and writes the row', async () => {
		const answer = await ok('create_virtualnum_cdr', {
			cdr_ddi: active(),
			cdr_start_call: '2024-11-05 10:00:00',
			cdr_totac_sec: 95,
			cdr_ani: '+972-50-123-4567',
			cdr_destination: '03-1234567',
			cdr_metadata: '{"crm":"ivr-7"}',
		});
		const row = sb.control.cdr(answer.result.cdr_uniqueid)!;
		assert.equal(row.start_call, '2024-11-05 10:00:00');
		assert.equal(row.end_call, '2024-11-05 10:01:35');
		assert.equal(row.call_duration, 95);
		assert.equal(row.cdr_ani, '972501234567');
		assert.equal(row.cdr_meta_data, '{"crm":"ivr-7"}');
	});
});

describe('users', () => {
	test('set_user creates a user, its personal tag, and never returns the password', async () => {
		const answer = await ok('set_user', {
			email: 'new.agent@example.com',
			password: 'Secr3t-pass',
			user_phone: '050-123-4567',
		});
		const id = answer.result.user_id;
		const user = await ok('get_user_by_id', { user_id: id });
		assert.equal(user.result.user_login, 'new.agent');
		assert.equal(user.result.user_phone, '972501234567');
		assert.equal(user.result.timezone, 'Asia/Jerusalem');
		assert.ok(user.result.permissions);
		assert.equal(JSON.stringify(user.result).includes('Secr3t'), false);
		assert.equal('password' in user.result, false);
		assert.ok(sb.control.tags().some((t) => t.tag_name === '#new.agent@example.com'));
	});

	test('update_user, get_users, delete_user', async () => {
		const updated = await ok('update_user', {
			user_id: 2,
			user_status: 0,
			user_login: 'agent-x',
			user_phone: '0521234567',
			password: 'N3w-password',
		});
		assert.equal(updated.result.user_status, 0);
		assert.equal(updated.result.user_login, 'agent-x');
		const users = await ok('get_users');
		assert.equal(users.result.length, 2);
		assert.ok(users.result.every((u: any) => !('password' in u) && Array.isArray(u.virtualnums)));
		await ok('delete_user', { user_id: 2 });
		assert.equal(sb.control.users().length, 1);
	});

	test('set_ddi_to_user, get_ddi_by_user_id (active, inactive, release), delete_ddi_from_user_id', async () => {
		const suspended = sb.control.virtualnums().find((n) => n.active_status === 0)!.virtualnum;
		await ok('set_ddi_to_user', { user_id: 2, virtualnum: suspended });
		const [first] = sb.control.users()[1].virtualnums as Array<{ virtualnum: string }>;
		await ok('release_virtualnum', { virtualnum: first.virtualnum });
		const ddi = await ok('get_ddi_by_user_id', { user_id: 2 });
		const status = Object.fromEntries(ddi.result.map((r: any) => [r.virtualnum, r.status]));
		assert.equal(status[first.virtualnum], 'release');
		assert.equal(status[suspended], 'inactive');
		assert.ok(Object.values(status).includes('active'));
		await ok('delete_ddi_from_user_id', { user_id: 2, virtualnum: suspended });
		const after = await ok('get_ddi_by_user_id', { user_id: 2 });
		assert.equal(
			after.result.some((r: any) => r.virtualnum === suspended),
			false,
		);
	});

	test('get_users_access_log: newest first, filters, start_time alone runs to now', async () => {
		const all = await ok('get_users_access_log');
		const times = all.result.map((r: any) => r.access_log_time);
		assert.deepEqual(times, [...times].sort().reverse());
		assert.deepEqual(Object.keys(all.result[0]), [
			'access_log_user_id',
			'access_log_name',
			'access_log_time',
			'access_log_status',
			'access_log_ip',
		]);
		const mine = await ok('get_users_access_log', { user_id: 2 });
		assert.ok(mine.result.every((r: any) => r.access_log_user_id === 2));
		const since = await ok('get_users_access_log', { start_time: '2024-12-01 00:00:00' });
		assert.ok(since.result.every((r: any) => r.access_log_time >= '2024-12-01 00:00:00'));
	});
});

describe('tags', () => {
	test('create, view, rename, members, delete', async () => {
		const [a, b] = sb.control.virtualnums().map((n) => n.virtualnum);
		const created = await ok('create_tag', { tag_name: 'Summer', unrelated_extra: 'ignored' });
		const id = created.result.tag_id;
		assert.deepEqual(Object.keys(created.result), [
			'tag_id',
			'tag_name',
			'create_time',
			'members_count',
		]);
		assert.equal((await ok('view_tag_by_id', { tag_id: id })).result.tag_name, 'Summer');
		assert.ok((await ok('view_tags')).result.length >= 5);
		assert.deepEqual(
			(await ok('view_tag_by_name', { tag_name: 'umm' })).result.map((t: any) => t.tag_name),
			['Summer'],
		);
		assert.equal(
			(await ok('update_tag', { tag_id: id, tag_name: 'Summer 2025' })).result.tag_name,
			'Summer 2025',
		);
		assert.equal(
			(await ok('add_member_to_tag', { tag_id: id, virtualnum: a })).result.members_count,
			1,
		);
		await ok('add_member_to_tag', { tag_id: id, virtualnum: b });
		assert.ok(
			(await ok('view_tags_by_virtualnum', { virtualnum: a })).result.some(
				(t: any) => t.tag_id === id,
			),
		);
		const records = await ok('view_virtualnum_members_by_tag_id', { tag_id: id });
		assert.deepEqual(
			records.result.map((r: any) => r.virtualnum),
			[a, b],
		);
		assert.ok('working_hours' in records.result[0], 'full virtual number records');
		const members = await ok('get_members_by_tag_id', { tag_id: id });
		assert.deepEqual(Object.keys(members.result[0]), ['virtualnum', 'description']);
		assert.equal(
			(await ok('get_members_by_tag_name', { tag_name: 'summer 2025' })).result.length,
			2,
		);
		assert.equal(
			(await ok('remove_member_from_tag_id', { tag_id: id, virtualnum: a })).result.members_count,
			1,
		);
		assert.equal(
			(await ok('remove_member_from_tag_name', { tag_name: 'Summer 2025', virtualnum: b })).result
				.members_count,
			0,
		);
		await ok('delete_tag', { tag_id: id });
		assert.equal(
			sb.control.tags().some((t) => t.tag_id === id),
			false,
		);
	});
});

describe('blacklist', () => {
	test('global and bound blocks, suffix search, normalisation, note truncation, removal', async () => {
		const number = active();
		const all = await ok('get_blacklist');
		assert.equal(all.result.length, 3);
		assert.deepEqual(Object.keys(all.result[0]), [
			'caller_number',
			'virtualnum',
			'note',
			'create_time',
		]);
		await ok('add_number_to_blacklist', {
			caller_number: '+972 (52) 555-0101',
			note: 'n'.repeat(300),
		});
		const added = await ok('add_number_to_blacklist', {
			caller_number: '0525550101',
			virtualnum: number,
			note: 'bound',
		});
		assert.equal(added.result.caller_number, '0525550101');
		const bySuffix = await ok('get_blacklist', { caller_number: '5550101' });
		assert.equal(bySuffix.result.length, 2, 'global and bound blocks both match');
		assert.equal(bySuffix.result.find((e: any) => e.virtualnum === '').note.length, 149);
		const bound = await ok('get_blacklist', { caller_number: '5550101', virtualnum: number });
		assert.deepEqual(
			bound.result.map((e: any) => e.virtualnum),
			[number],
		);
		const ignored = await ok('get_blacklist', { virtualnum: number });
		assert.equal(ignored.result.length, 5, 'virtualnum alone does not filter');
		await ok('remove_number_from_blacklist', { caller_number: '052-555-0101', virtualnum: number });
		await ok('remove_number_from_blacklist', { caller_number: '0525550101' });
		assert.equal(sb.control.blacklist().length, 3);
	});
});

describe('voice prompts', () => {
	test('get_prompts_list', async () => {
		const answer = await ok('get_prompts_list');
		assert.deepEqual(
			answer.result.map((p: any) => p.name),
			['welcome', 'after_hours', 'hold_music'],
		);
		assert.deepEqual(Object.keys(answer.result[0]), ['name', 'create_date', 'size', 'length']);
		assert.ok(answer.result[0].length > 1);
	});

	test('upload_prompt, download_prompt, delete_prompt', async () => {
		const wav = Buffer.from(
			await (await vnRaw(sb, { service: 'download_prompt', prompt_name: 'welcome' })).arrayBuffer(),
		).subarray(0, 48044);
		const form = new FormData();
		form.set('service', 'upload_prompt');
		form.set('format', 'json');
		form.set('file_name', 'Menu Main.wav');
		form.set('prompt_file', new Blob([wav]), 'Menu Main.v2.WAV');
		const up = await fetch(`${sb.vnUrl}/api/`, {
			method: 'POST',
			headers: { authorization: `Bearer ${sb.tokens.vn}` },
			body: form,
		});
		const answer = (await up.json()) as any;
		assert.equal(answer.status.code, 200);
		assert.equal(answer.status.prompt_name, 'menu_main');
		assert.deepEqual(Object.keys(answer.status), ['code', 'description', 'prompt_name']);
		covered.add('upload_prompt');
		const downloaded = await vnRaw(sb, { service: 'download_prompt', prompt_name: 'menu_main' });
		assert.equal(downloaded.status, 200);
		covered.add('download_prompt');
		await ok('delete_prompt', { prompt_name: 'menu_main' });
		assert.equal(
			sb.control.prompts().some((p) => p.name === 'menu_main'),
			false,
		);
	});

	test('recording_studio saves a prompt after a short while', async () => {
		const answer = await ok('recording_studio', { destination: '0501234567' });
		const name = answer.result.prompt_name;
		await sb.control.flushScheduled();
		assert.ok(sb.control.prompts().some((p) => p.name === name));
	});
});

test('every operation of the spec has a success case', () => {
	const missing = specVirtualnumOperations().filter((op) => !covered.has(op));
	assert.deepEqual(missing, []);
	assert.equal(specVirtualnumOperations().length, 47);
});
