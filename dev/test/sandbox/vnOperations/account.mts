// Users, tags, the blacklist and voice prompts: their success cases.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { vnRaw } from '../helpers.mts';
import { sb, ok, covered, active } from './context.mts';

export function accountSuites(): void {
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
			await ok('remove_number_from_blacklist', {
				caller_number: '052-555-0101',
				virtualnum: number,
			});
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
				await (
					await vnRaw(sb, { service: 'download_prompt', prompt_name: 'welcome' })
				).arrayBuffer(),
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
}
