// Testing the token, and the numbers of the account: their success cases.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { sb, ok, active, RECORD_FIELDS } from './context.mts';

export function numberSuites(): void {
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
}
