import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { expr, failure, jsons, vnRequests, vnTest } from '../../vnRun.mts';

const { sandbox, run, refused } = vnTest();

const ACTIVE = ['0722000100', '0722000101', '0722000102', '0722000103', '0722000104'];
const SUSPENDED = '0722000105';

describe('Virtual Number → Virtual Number → Get Many', () => {
	const getMany = (parameters: Record<string, unknown> = {}) =>
		run({ resource: 'virtualnum', operation: 'getAll', ...parameters });

	test('default: active numbers, page 0, limit 50, one item per number', async () => {
		const items = jsons(await getMany());
		assert.deepEqual(
			items.map((item) => item.virtualnum),
			ACTIVE,
		);
		const requests = vnRequests(sandbox, 'get_virtualnum');
		assert.equal(requests.length, 1);
		assert.deepEqual(
			{
				status: requests[0].query.status,
				page: requests[0].query.page,
				limit: requests[0].query.limit,
			},
			{ status: '1', page: '0', limit: '50' },
		);
	});

	test('Status Suspended sends status=0', async () => {
		const items = jsons(await getMany({ status: 'suspended' }));
		assert.deepEqual(
			items.map((item) => item.virtualnum),
			[SUSPENDED],
		);
		assert.equal(vnRequests(sandbox, 'get_virtualnum')[0].query.status, '0');
	});

	test('Status Any asks for active, then suspended, up to the limit', async () => {
		const items = jsons(await getMany({ status: 'any', limit: 6 }));
		assert.deepEqual(
			items.map((item) => item.virtualnum),
			[...ACTIVE, SUSPENDED],
		);
		const requests = vnRequests(sandbox, 'get_virtualnum');
		assert.deepEqual(
			requests.map((r) => [r.query.status, r.query.limit]),
			[
				['1', '6'],
				['0', '1'],
			],
		);
		const few = jsons(await getMany({ status: 'any', limit: 3 }));
		assert.equal(few.length, 3);
	});

	test('Limit applies to a general request', async () => {
		const items = jsons(await getMany({ limit: 2 }));
		assert.deepEqual(
			items.map((item) => item.virtualnum),
			ACTIVE.slice(0, 2),
		);
	});

	test('Return All over 2,500 numbers pages through page/limit and returns each number once', async () => {
		sandbox.control.seed({ numbers: 2500 });
		const expected = sandbox.control
			.virtualnums()
			.filter((r) => r.active_status === 1)
			.map((r) => r.virtualnum);
		assert.ok(expected.length >= 2500);
		sandbox.control.clearRequests();
		const items = jsons(await getMany({ returnAll: true }));
		assert.equal(items.length, expected.length);
		assert.deepEqual(
			items.map((item) => item.virtualnum),
			expected,
		);
		assert.equal(new Set(items.map((item) => item.virtualnum)).size, expected.length);
		const requests = vnRequests(sandbox, 'get_virtualnum');
		const pages = Math.ceil((expected.length + 1) / 1000);
		assert.deepEqual(
			requests.map((r) => [r.query.status, r.query.page, r.query.limit]),
			Array.from({ length: pages }, (_, page) => ['1', String(page), '1000']),
		);
	});

	test('Return All with Status Any pages both statuses', async () => {
		sandbox.control.seed({ numbers: 1200 });
		const total = sandbox.control.virtualnums().length;
		const items = jsons(await getMany({ returnAll: true, status: 'any' }));
		assert.equal(items.length, total);
		assert.equal(items.at(-1)?.virtualnum, SUSPENDED);
	});

	test('a field filter sends filter_name/operator/value and no status, page or limit', async () => {
		const items = jsons(
			await getMany({
				filterBy: 'field',
				filterField: 'description',
				filterOperator: 'LIKE',
				filterValue: 'Facebook%',
			}),
		);
		// One "Facebook" number is active, one suspended: Status (Active) is applied by the node.
		assert.deepEqual(
			items.map((item) => item.virtualnum),
			['0722000102'],
		);
		const [request] = vnRequests(sandbox, 'get_virtualnum');
		assert.equal(request.query.filter_name, 'description');
		assert.equal(request.query.filter_operator, 'LIKE');
		assert.equal(request.query.filter_value, 'Facebook%');
		for (const ignored of ['status', 'page', 'limit', 'virtualnum'])
			assert.equal(request.query[ignored], undefined, ignored);
	});

	test('with a filter, Status and Limit are applied to the answer by the node, never ignored', async () => {
		const filter = {
			filterBy: 'field',
			filterField: 'description',
			filterOperator: 'LIKE',
			filterValue: '%',
		};
		assert.deepEqual(
			jsons(await getMany({ ...filter, status: 'suspended' })).map((i) => i.virtualnum),
			[SUSPENDED],
		);
		assert.equal(jsons(await getMany({ ...filter, status: 'any', returnAll: true })).length, 6);
		assert.equal(jsons(await getMany({ ...filter, status: 'any', limit: 4 })).length, 4);
		assert.equal(jsons(await getMany({ ...filter, status: 'active', limit: 50 })).length, 5);
	});

	test('a filter that matches nothing outputs no items', async () => {
		const result = await getMany({
			filterBy: 'field',
			filterField: 'email',
			filterOperator: 'EQ',
			filterValue: 'nobody@example.com',
		});
		assert.deepEqual(jsons(result), []);
	});

	test('a filter field the service does not know fails with its meaning (4030)', async () => {
		const error = failure(
			await getMany({
				filterBy: 'field',
				filterField: 'no_such_field',
				filterOperator: 'EQ',
				filterValue: 'x',
			}),
		);
		assert.match(error.message, /filter field is not valid \(code 4030\)/);
	});

	test('bad inputs are refused before any request', async () => {
		await refused(
			{
				resource: 'virtualnum',
				operation: 'getAll',
				filterBy: 'field',
				filterField: 'email',
				filterValue: expr(' '),
			},
			/^Value: is required/,
		);
		await refused(
			{
				resource: 'virtualnum',
				operation: 'getAll',
				filterBy: 'field',
				filterField: "email' OR 1",
				filterValue: 'x',
			},
			/^Field: /,
		);
		await refused(
			{
				resource: 'virtualnum',
				operation: 'getAll',
				filterBy: 'field',
				filterField: 'email',
				filterOperator: 'BETWEEN',
				filterValue: 'x',
			},
			/^Operator: must be one of EQ, NE, LT, GT, LIKE/,
		);
		await refused(
			{ resource: 'virtualnum', operation: 'getAll', limit: 0 },
			/^Limit: must be a whole number from 1 to 10000/,
		);
		await refused({ resource: 'virtualnum', operation: 'getAll', limit: 10001 }, /^Limit: /);
	});
});
