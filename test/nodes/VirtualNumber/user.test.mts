import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import type {
	IDataObject,
	INodeListSearchResult,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { loadPackage, runWorkflow, type RunResult } from '../../../dev/harness/engine.mts';
import { callNodeMethod } from '../../../dev/harness/methods.mts';
import { workflowIssuesRefusal } from '../../../dev/harness/n8nCompat.mts';
import { refusedBeforeAnyRequest } from './vnRun.mts';
import { startSandbox, type Sandbox } from '../../../dev/sandbox/index.mts';

const PASSWORD = 'Sup3r-Secret-Pa55';

/**
 * The run as text, without the workflow's own node definitions: n8n keeps the node (its
 * parameters, as the user typed them) in the execution stack and on the error, like any workflow
 * JSON. Everything the node produced — items, error message, description, data — stays in.
 */
function producedText(result: RunResult): string {
	return (
		JSON.stringify(result.run, (key, value: unknown) =>
			(key === 'node' || key === 'nodes') && value && typeof value === 'object'
				? '[workflow node]'
				: value,
		) + result.logs.join('\n')
	);
}

describe('Virtual Number → User', () => {
	let sandbox: Sandbox;
	before(async () => {
		sandbox = await startSandbox();
	});
	after(async () => await sandbox.close());
	beforeEach(() => sandbox.control.reset());

	const credentials = () => ({
		virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn },
	});
	const run = (
		parameters: IDataObject,
		options: { continueOnFail?: boolean; timezone?: string } = {},
	) =>
		runWorkflow({
			nodes: [
				{
					name: 'VN',
					type: 'virtualNumber',
					parameters: { resource: 'user', ...parameters },
					continueOnFail: options.continueOnFail,
				},
			],
			credentials: credentials(),
			timezone: options.timezone,
		});
	const json = (result: RunResult) => result.items('VN').map((item) => item.json);
	const user = (value: string | number, mode: 'list' | 'id' = 'id') => ({
		__rl: true,
		mode,
		value: String(value),
	});
	const number = (value: string, mode: 'list' | 'id' = 'list') => ({ __rl: true, mode, value });
	/** A value given as an expression: n8n's own editor checks (required, regex) do not see it, the node's checks do. */
	const expr = (value: string) => `={{ ${JSON.stringify(value)} }}`;
	const requests = (operation?: string) =>
		sandbox.control.requests({ service: 'vn', ...(operation ? { operation } : {}) });

	/** Runs a workflow that must fail before any request reaches the service. */
	async function refused(parameters: IDataObject, message: RegExp) {
		return await refusedBeforeAnyRequest(sandbox, () => run(parameters), message);
	}

	describe('Create', () => {
		test('sends set_user as a POST with every field, outputs the new user and never the password', async () => {
			const result = await run({
				operation: 'create',
				email: 'dana@example.com',
				password: PASSWORD,
				additionalFields: {
					user_login: 'dana',
					user_phone: '050-1234567',
					user_phone_sms: '0527654321',
				},
			});
			assert.equal(result.error, undefined, result.error?.message);
			const [request] = requests('set_user');
			assert.equal(request.method, 'POST');
			assert.deepEqual(
				request.query,
				{ service: 'set_user', format: 'json' },
				'the password stays out of the URL',
			);
			assert.deepEqual(request.body, {
				email: 'dana@example.com',
				password: PASSWORD,
				user_login: 'dana',
				user_phone: '0501234567',
				user_phone_sms: '0527654321',
			});
			const [output] = json(result);
			assert.equal(output.success, true);
			assert.equal(output.email, 'dana@example.com');
			assert.equal(output.user_login, 'dana');
			assert.equal(typeof output.user_id, 'number');
			assert.ok(!('password' in output));
			assert.ok(
				!JSON.stringify(result.run).includes(PASSWORD),
				'the password must not appear anywhere in the run',
			);
			assert.ok(!result.logs.join('\n').includes(PASSWORD), 'nor in a log line');
			const created = sandbox.control.users().find((u) => u.email === 'dana@example.com');
			assert.ok(created, 'the sandbox has the user');
			assert.equal(created.user_phone, '972501234567');
		});

		test('sends only email and password when no additional field is set', async () => {
			const result = await run({
				operation: 'create',
				email: 'min@example.com',
				password: PASSWORD,
			});
			assert.equal(result.error, undefined, result.error?.message);
			assert.deepEqual(requests('set_user')[0].body, {
				email: 'min@example.com',
				password: PASSWORD,
			});
			assert.equal(
				json(result)[0].user_login,
				'min',
				"the service's default login (from the email) is in the output",
			);
		});

		test('a password the service quotes back in its error is masked in the message, description and data', async () => {
			sandbox.control.injectFaults({
				kind: 'serviceError',
				operation: 'set_user',
				code: 7002,
				description: `the password ${PASSWORD} fails the policy`,
			});
			const result = await run({
				operation: 'create',
				email: 'dana@example.com',
				password: PASSWORD,
			});
			assert.ok(result.error);
			assert.match(
				result.error.message,
				/password is shorter than 8 characters or fails the password policy \(code 7002\)/,
			);
			assert.match(String(result.error.description), /the password \*+ fails the policy/);
			assert.ok(
				!producedText(result).includes(PASSWORD),
				'the password must not appear in the error or anything the node produced',
			);
		});

		test('with Continue On Fail, the error item does not carry the password either', async () => {
			sandbox.control.injectFaults({
				kind: 'serviceError',
				operation: 'set_user',
				code: 7002,
				description: `bad: ${PASSWORD}`,
			});
			const result = await run(
				{ operation: 'create', email: 'dana@example.com', password: PASSWORD },
				{ continueOnFail: true },
			);
			assert.equal(result.error, undefined);
			const [item] = json(result);
			assert.match(String(item.error), /code 7002/);
			assert.ok(!JSON.stringify(item).includes(PASSWORD));
			assert.ok(!producedText(result).includes(PASSWORD));
		});

		test('a password shorter than 8 characters is refused before any request, without quoting it', async () => {
			const result = await refused(
				{ operation: 'create', email: 'a@example.com', password: 'Ab1-xyz' },
				/Password: must be at least 8 characters/,
			);
			assert.ok(!producedText(result).includes('Ab1-xyz'));
		});

		test('an empty, invalid or over-long email is refused before any request', async () => {
			await refused(
				{ operation: 'create', email: expr(''), password: PASSWORD },
				/Email: is required/,
			);
			await refused(
				{ operation: 'create', email: 'not-an-email', password: PASSWORD },
				/Email: must be an email address/,
			);
			await refused(
				{ operation: 'create', email: `${'a'.repeat(90)}@example.com`, password: PASSWORD },
				/Email: must be at most 99 characters/,
			);
		});

		test("n8n's own parameter checks also stop a missing email or a typed user ID that is not a number", async () => {
			sandbox.control.clearRequests();
			// (n8n 1.x refuses the run too, without naming the issue)
			const noEmail = await workflowIssuesRefusal(/Parameter "Email" is required/);
			const notANumber = await workflowIssuesRefusal(/A user ID is a whole number/);
			await assert.rejects(run({ operation: 'create', email: '', password: PASSWORD }), noEmail);
			await assert.rejects(run({ operation: 'get', userId: user('abc') }), notANumber);
			assert.equal(requests().length, 0);
		});

		test('a phone with letters is refused before any request', async () => {
			await refused(
				{
					operation: 'create',
					email: 'a@example.com',
					password: PASSWORD,
					additionalFields: { user_phone: 'call me' },
				},
				/Phone: must be a phone number/,
			);
		});

		test('the Password field is a password field', async () => {
			const properties = (await nodeDescription()).properties;
			const create = properties.find(
				(p) => p.name === 'password' && p.displayOptions?.show?.operation?.includes('create'),
			);
			assert.equal(create?.typeOptions?.password, true);
			const update = properties.find(
				(p) => p.name === 'updateFields' && p.displayOptions?.show?.resource?.includes('user'),
			);
			const updatePassword = update?.options?.find((o) => 'name' in o && o.name === 'password') as {
				typeOptions?: IDataObject;
			};
			assert.equal(updatePassword?.typeOptions?.password, true);
		});
	});

	describe('Update', () => {
		test('sends only the fields set, and sets the status', async () => {
			const result = await run({
				operation: 'update',
				userId: user(2, 'list'),
				updateFields: { user_status: 0, user_phone: '0509998877' },
			});
			assert.equal(result.error, undefined, result.error?.message);
			const [request] = requests('update_user');
			assert.equal(request.method, 'POST');
			assert.deepEqual(request.body, { user_id: '2', user_status: '0', user_phone: '0509998877' });
			const [output] = json(result);
			assert.equal(output.user_id, 2);
			assert.deepEqual(output.updated_fields, ['user_phone', 'user_status']);
			const stored = sandbox.control.users().find((u) => u.user_id === 2)!;
			assert.equal(stored.user_status, 0);
			assert.equal(stored.user_phone, '972509998877');
		});

		test('a new password is sent but never output', async () => {
			const result = await run({
				operation: 'update',
				userId: user(2),
				updateFields: { password: PASSWORD },
			});
			assert.equal(result.error, undefined, result.error?.message);
			assert.deepEqual(requests('update_user')[0].body, { user_id: '2', password: PASSWORD });
			assert.deepEqual(json(result)[0].updated_fields, ['password (not shown)']);
			assert.ok(!JSON.stringify(result.run).includes(PASSWORD));
		});

		test('an error quoting the new password is masked', async () => {
			sandbox.control.injectFaults({
				kind: 'serviceError',
				operation: 'update_user',
				code: 7013,
				description: `rejected ${PASSWORD}`,
			});
			const result = await run({
				operation: 'update',
				userId: user(2),
				updateFields: { password: PASSWORD },
			});
			assert.match(
				String(result.error?.message),
				/password fails the password policy \(code 7013\)/,
			);
			assert.ok(!producedText(result).includes(PASSWORD));
		});

		test('nothing to update, a short phone, a short password or a bad user ID are refused before any request', async () => {
			await refused(
				{ operation: 'update', userId: user(2), updateFields: {} },
				/Update Fields: add at least one field/,
			);
			await refused(
				{ operation: 'update', userId: user(2), updateFields: { user_phone: '12345' } },
				/Phone: must be a phone number of at least 6 digits/,
			);
			const short = await refused(
				{ operation: 'update', userId: user(2), updateFields: { password: 'short1' } },
				/Password: must be at least 8/,
			);
			assert.ok(!producedText(short).includes('short1'));
			await refused(
				{ operation: 'update', userId: user(expr('abc')), updateFields: { user_status: 1 } },
				/User: must be a user ID/,
			);
			await refused(
				{ operation: 'update', userId: user(expr('')), updateFields: { user_status: 1 } },
				/User: is required/,
			);
		});
	});

	describe('Delete', () => {
		test('deletes the user with delete_user and says so', async () => {
			const result = await run({ operation: 'delete', userId: user(2) });
			assert.equal(result.error, undefined, result.error?.message);
			const [request] = requests('delete_user');
			assert.equal(request.method, 'POST');
			assert.deepEqual(request.body, { user_id: '2' });
			assert.deepEqual(json(result)[0], {
				success: true,
				user_id: 2,
				statusDescription: 'Success',
				deleted: true,
			});
			assert.equal(
				sandbox.control.users().some((u) => u.user_id === 2),
				false,
			);
		});

		test('an unknown user gives the 7022 explanation', async () => {
			const result = await run({ operation: 'delete', userId: user(999) });
			assert.match(
				String(result.error?.message),
				/delete_user failed: The user does not exist \(code 7022\)/,
			);
		});

		test('the field warns that deletion is irreversible and invalidates the tokens', async () => {
			const notice = (await nodeDescription()).properties.find(
				(p) =>
					p.type === 'notice' &&
					p.displayOptions?.show?.resource?.includes('user') &&
					p.displayOptions?.show?.operation?.includes('delete'),
			);
			assert.match(String(notice?.displayName), /irreversible/);
			assert.match(String(notice?.displayName), /token/);
		});
	});

	describe('Get and Get Many', () => {
		test('Get reads one user by ID', async () => {
			const result = await run({ operation: 'get', userId: user(2) });
			assert.equal(result.error, undefined, result.error?.message);
			assert.deepEqual(requests('get_user_by_id')[0].query, {
				service: 'get_user_by_id',
				format: 'json',
				user_id: '2',
			});
			const items = json(result);
			assert.equal(items.length, 1);
			assert.equal(items[0].user_id, 2);
			assert.equal(items[0].email, 'agent1@example.com');
			assert.ok(Array.isArray(items[0].virtualnums));
		});

		test('Get of an unknown user gives the 7032 explanation', async () => {
			const result = await run({ operation: 'get', userId: user(999) });
			assert.match(String(result.error?.message), /The user does not exist \(code 7032\)/);
		});

		test('Get Many outputs one item per user, and Limit cuts the list', async () => {
			const all = await run({ operation: 'getAll', returnAll: true });
			assert.deepEqual(
				json(all).map((u) => u.user_id),
				[1, 2],
			);
			assert.equal(requests('get_users')[0].method, 'GET');
			const one = await run({ operation: 'getAll', returnAll: false, limit: 1 });
			assert.deepEqual(
				json(one).map((u) => u.user_id),
				[1],
			);
		});

		test('the user list of the resource locator comes from get_users and filters on login or email', async () => {
			const all = await listSearch('searchUsers');
			assert.deepEqual(all.results, [
				{ name: 'admin — admin@example.com', value: '1' },
				{ name: 'agent1 — agent1@example.com', value: '2' },
			]);
			const filtered = await listSearch('searchUsers', 'AGENT');
			assert.deepEqual(
				filtered.results.map((r) => r.value),
				['2'],
			);
		});
	});

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

	describe('Get Access Log', () => {
		test('formats the time range as Y-m-d H:i:s and filters by user', async () => {
			const result = await run({
				operation: 'getAccessLog',
				logUserId: user(2),
				startTime: '2024-11-01T00:00:00',
				endTime: '2024-12-15 23:59:59',
			});
			assert.equal(result.error, undefined, result.error?.message);
			assert.deepEqual(requests('get_users_access_log')[0].query, {
				service: 'get_users_access_log',
				format: 'json',
				user_id: '2',
				start_time: '2024-11-01 00:00:00',
				end_time: '2024-12-15 23:59:59',
			});
			const rows = json(result);
			assert.ok(rows.length > 0);
			for (const row of rows) {
				assert.equal(row.access_log_user_id, 2);
				assert.ok(
					String(row.access_log_time) >= '2024-11-01 00:00:00' &&
						String(row.access_log_time) <= '2024-12-15 23:59:59',
				);
			}
			const times = rows.map((row) => String(row.access_log_time));
			assert.deepEqual(times, [...times].sort().reverse(), 'newest first, as the service answers');
		});

		test('reads dates with an offset, and converts them to the workflow time zone', async () => {
			await run(
				{
					operation: 'getAccessLog',
					startTime: '2024-11-01T00:00:00Z',
					endTime: '2024-11-02T12:30:00+01:00',
				},
				{ timezone: 'Asia/Jerusalem' },
			);
			const { query } = requests('get_users_access_log')[0];
			assert.equal(query.start_time, '2024-11-01 02:00:00');
			assert.equal(query.end_time, '2024-11-02 13:30:00');
			assert.equal(query.user_id, undefined, 'no user filter when the user is empty');
		});

		test('without a time range all rows come back (up to the cap the hint states)', async () => {
			const result = await run({ operation: 'getAccessLog' });
			assert.equal(result.error, undefined, result.error?.message);
			assert.deepEqual(requests('get_users_access_log')[0].query, {
				service: 'get_users_access_log',
				format: 'json',
			});
			assert.equal(json(result).length, 40);
			const properties = (await nodeDescription()).properties;
			const start = properties.find(
				(p) => p.name === 'startTime' && p.displayOptions?.show?.resource?.includes('user'),
			);
			assert.match(String(start?.hint), /At most 1000 rows/);
		});

		test('no rows in the range gives no items (6001)', async () => {
			const result = await run({ operation: 'getAccessLog', startTime: '2030-01-01 00:00:00' });
			assert.equal(result.error, undefined, result.error?.message);
			assert.equal(json(result).length, 0);
		});

		test('an invalid date or an end before the start is refused before any request', async () => {
			await refused(
				{ operation: 'getAccessLog', startTime: 'yesterday-ish' },
				/Start Time: must be a date/,
			);
			await refused(
				{
					operation: 'getAccessLog',
					startTime: '2024-12-01 00:00:00',
					endTime: '2024-11-01 00:00:00',
				},
				/End Time: must not be before Start Time/,
			);
			await refused(
				{ operation: 'getAccessLog', logUserId: user(expr('x1')) },
				/User: must be a user ID/,
			);
		});
	});

	function listSearch(method: string, filter?: string): Promise<INodeListSearchResult> {
		return callNodeMethod<INodeListSearchResult>({
			nodeType: 'virtualNumber',
			kind: 'listSearch',
			method,
			credentials: credentials(),
			args: [filter],
		});
	}
});

async function nodeDescription(): Promise<INodeTypeDescription> {
	const loader = await loadPackage();
	return (loader.getNode('virtualNumber').type as INodeType).description;
}
