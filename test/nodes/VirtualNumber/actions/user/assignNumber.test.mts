import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { userTest } from './userTest.mts';

const { sandbox, run, json, user, number, expr, requests, refused } = userTest();

describe('Virtual Number → User', () => {
	describe('Assign, Get Assigned Numbers, Unassign', () => {
		test('Assign Number sends set_ddi_to_user and the number is assigned', async () => {
			const result = await run({
				operation: 'assignNumber',
				userId: user(1),
				virtualnum: number('0722000102'),
			});
			assert.equal(result.error, undefined, result.error?.message);
			const [request] = requests('set_ddi_to_user');
			assert.equal(request.method, 'POST');
			assert.deepEqual(request.body, { user_id: '1', virtualnum: '0722000102' });
			const [output] = json(result);
			assert.equal(output.user_id, 1);
			assert.equal(output.virtualnum, '0722000102');
			assert.equal(output.success, true);
			const stored = sandbox.control.users().find((u) => u.user_id === 1)!;
			assert.deepEqual(stored.virtualnums, [{ virtualnum: '0722000102', status: 'active' }]);
		});

		test('assigning an already assigned number explains that it is already assigned (8006)', async () => {
			const result = await run({
				operation: 'assignNumber',
				userId: user(2),
				virtualnum: number('0722000100'),
			});
			assert.ok(result.error);
			assert.match(
				result.error.message,
				/set_ddi_to_user failed: The number is already assigned to this user \(code 8006\)/,
			);
			assert.match(String(result.error.description), /Nothing to do: the assignment exists/);
		});

		test('a typed number keeps its digits only; a number with letters is refused before any request', async () => {
			const result = await run({
				operation: 'assignNumber',
				userId: user(1),
				virtualnum: number('072-200 0103', 'id'),
			});
			assert.equal(result.error, undefined, result.error?.message);
			assert.equal((requests('set_ddi_to_user')[0].body as IDataObject).virtualnum, '0722000103');
			await refused(
				{ operation: 'assignNumber', userId: user(1), virtualnum: number(expr('07220abc'), 'id') },
				/Virtual Number: must be a phone number of at least 5 digits/,
			);
			await refused(
				{ operation: 'assignNumber', userId: user(1), virtualnum: number(expr('')) },
				/Virtual Number: is required/,
			);
			await refused(
				{ operation: 'assignNumber', userId: user(1), virtualnum: number(expr('1234'), 'id') },
				/at least 5 digits/,
			);
		});

		test('Get Assigned Numbers lists the numbers with their status, optionally filtered by status', async () => {
			const suspended = sandbox.control
				.virtualnums()
				.find((n) => Number(n.active_status) === 0)!.virtualnum;
			await run({ operation: 'assignNumber', userId: user(2), virtualnum: number(suspended) });
			const all = await run({ operation: 'getNumbers', userId: user(2) });
			assert.equal(all.error, undefined, all.error?.message);
			assert.deepEqual(requests('get_ddi_by_user_id')[0].query, {
				service: 'get_ddi_by_user_id',
				format: 'json',
				user_id: '2',
			});
			assert.deepEqual(
				json(all).map((n) => [n.user_id, n.virtualnum, n.status]),
				[
					[2, '0722000100', 'active'],
					[2, '0722000101', 'active'],
					[2, suspended, 'inactive'],
				],
			);
			const inactive = await run({
				operation: 'getNumbers',
				userId: user(2),
				numberStatus: ['inactive'],
			});
			assert.deepEqual(
				json(inactive).map((n) => n.virtualnum),
				[suspended],
			);
		});

		test('a released number is reported with the status "release" and found by the Released filter', async () => {
			const released = await fetch(
				`${sandbox.vnUrl}/api/?service=release_virtualnum&format=json&virtualnum=0722000101`,
				{
					headers: { authorization: `Bearer ${sandbox.tokens.vn}` },
				},
			);
			assert.equal(((await released.json()) as { status: { code: number } }).status.code, 200);
			const result = await run({
				operation: 'getNumbers',
				userId: user(2),
				numberStatus: ['release'],
			});
			assert.deepEqual(
				json(result).map((n) => [n.virtualnum, n.status]),
				[['0722000101', 'release']],
			);
		});

		test('a user without numbers gives no items rather than an error (8012)', async () => {
			const result = await run({ operation: 'getNumbers', userId: user(1) });
			assert.equal(result.error, undefined, result.error?.message);
			assert.equal(json(result).length, 0);
		});

		test('Unassign Number sends delete_ddi_from_user_id; a second time explains 8025', async () => {
			const result = await run({
				operation: 'unassignNumber',
				userId: user(2),
				virtualnum: number('0722000100'),
			});
			assert.equal(result.error, undefined, result.error?.message);
			const [request] = requests('delete_ddi_from_user_id');
			assert.equal(request.method, 'POST');
			assert.deepEqual(request.body, { user_id: '2', virtualnum: '0722000100' });
			assert.equal(json(result)[0].unassigned, true);
			assert.deepEqual(sandbox.control.users().find((u) => u.user_id === 2)!.virtualnums, [
				{ virtualnum: '0722000101', status: 'active' },
			]);
			const again = await run({
				operation: 'unassignNumber',
				userId: user(2),
				virtualnum: number('0722000100'),
			});
			assert.match(
				String(again.error?.message),
				/The number is not assigned to this user \(code 8025\)/,
			);
		});
	});
});
