import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import type { IDataObject, INodeListSearchResult } from 'n8n-workflow';

import { runWorkflow, type RunResult } from '../../../dev/harness/engine.mts';
import { callNodeMethod } from '../../../dev/harness/methods.mts';
import { jsons, refusedBeforeAnyRequest } from './vnRun.mts';
import { startSandbox, type Sandbox } from '../../../dev/sandbox/index.mts';

describe('Virtual Number → Tag', () => {
	let sandbox: Sandbox;
	before(async () => {
		sandbox = await startSandbox();
	});
	after(async () => await sandbox.close());
	beforeEach(() => sandbox.control.reset());

	const credentials = () => ({
		virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn },
	});
	const run = (parameters: IDataObject, continueOnFail = false) =>
		runWorkflow({
			nodes: [
				{
					name: 'VN',
					type: 'virtualNumber',
					parameters: { resource: 'tag', ...parameters },
					continueOnFail,
				},
			],
			credentials: credentials(),
		});
	const expr = (value: string) => `={{ ${JSON.stringify(value)} }}`;
	const rl = (value: string | number, mode = 'list') => ({
		__rl: true,
		mode,
		value: String(value),
	});
	const requests = (operation?: string) =>
		sandbox.control.requests({ service: 'vn', ...(operation ? { operation } : {}) });
	const tagId = (name: string) => sandbox.control.tags().find((t) => t.tag_name === name)!.tag_id;
	const members = (name: string) =>
		sandbox.control.tags().find((t) => t.tag_name === name)?.members;
	const extra = (...pairs: Array<[string, string]>) => ({
		parameter: pairs.map(([name, value]) => ({ name, value })),
	});

	const ok = (result: RunResult) => jsons(result);

	async function refused(parameters: IDataObject, message: RegExp) {
		return await refusedBeforeAnyRequest(sandbox, () => run(parameters), message);
	}

	describe('views', () => {
		test('Get Many sends view_tags and outputs one item per tag', async () => {
			const items = ok(await run({ operation: 'getAll', returnAll: true }));
			assert.deepEqual(requests('view_tags')[0].query, { service: 'view_tags', format: 'json' });
			assert.deepEqual(
				items.map((t) => t.tag_name),
				sandbox.control.tags().map((t) => t.tag_name),
			);
			assert.deepEqual(Object.keys(items[0]).sort(), [
				'create_time',
				'members_count',
				'tag_id',
				'tag_name',
			]);
		});

		test('Get Many filters by name on the service side and honours Limit', async () => {
			const items = ok(await run({ operation: 'getAll', returnAll: true, nameFilter: 'oo' }));
			assert.equal(requests('view_tags')[0].query.tag_name, 'oo');
			assert.deepEqual(
				items.map((t) => t.tag_name),
				['Google', 'Facebook'].filter((n) => n.includes('oo')),
			);
			const limited = ok(await run({ operation: 'getAll', returnAll: false, limit: 2 }));
			assert.equal(limited.length, 2);
		});

		test('Get Many with no match gives no items (5009), not an error', async () => {
			const items = ok(
				await run({ operation: 'getAll', returnAll: true, nameFilter: 'no such tag' }),
			);
			assert.equal(items.length, 0);
		});

		test('Get by Name sends view_tag_by_name with tag_name', async () => {
			const items = ok(await run({ operation: 'getByName', name: 'VIP' }));
			assert.deepEqual(requests('view_tag_by_name')[0].query, {
				service: 'view_tag_by_name',
				format: 'json',
				tag_name: 'VIP',
			});
			assert.deepEqual(
				items.map((t) => [t.tag_name, t.members_count]),
				[['VIP', 1]],
			);
			await refused({ operation: 'getByName', name: expr('  ') }, /Name: is required/);
		});

		test('Get sends view_tag_by_id and outputs the tag; an unknown ID explains 5003', async () => {
			const id = tagId('Google');
			const items = ok(await run({ operation: 'get', tagId: rl(id) }));
			assert.deepEqual(requests('view_tag_by_id')[0].query, {
				service: 'view_tag_by_id',
				format: 'json',
				tag_id: String(id),
			});
			assert.deepEqual(
				items.map((t) => [t.tag_id, t.tag_name, t.members_count]),
				[[id, 'Google', 2]],
			);
			const missing = await run({ operation: 'get', tagId: rl(9999, 'id') });
			assert.match(
				String(missing.error?.message),
				/view_tag_by_id failed: The tag does not exist \(code 5003\)/,
			);
			assert.match(String(missing.error?.description), /meaning is the one this package assumes/);
		});

		test('a tag ID that is not a whole number is refused before any request', async () => {
			await refused({ operation: 'get', tagId: rl(expr('Google'), 'id') }, /Tag: must be a tag ID/);
			await refused({ operation: 'get', tagId: rl(expr('')) }, /Tag: is required/);
		});

		test('Get Tags of Number sends view_tags_by_virtualnum', async () => {
			const items = ok(await run({ operation: 'getForNumber', virtualnum: rl('0722000100') }));
			assert.deepEqual(requests('view_tags_by_virtualnum')[0].query, {
				service: 'view_tags_by_virtualnum',
				format: 'json',
				virtualnum: '0722000100',
			});
			assert.deepEqual(items.map((t) => t.tag_name).sort(), ['Google', 'VIP']);
			const none = ok(await run({ operation: 'getForNumber', virtualnum: rl('0722000104') }));
			assert.equal(none.length, 0, 'a number without tags gives no items');
		});

		test('Get Members sends get_members_by_tag_id and outputs number and description', async () => {
			const items = ok(await run({ operation: 'getMembers', tagId: rl(tagId('Facebook')) }));
			assert.deepEqual(requests('get_members_by_tag_id')[0].query, {
				service: 'get_members_by_tag_id',
				format: 'json',
				tag_id: String(tagId('Facebook')),
			});
			assert.deepEqual(
				items.map((m) => m.virtualnum),
				['0722000102', '0722000103'],
			);
			assert.ok(
				items.every((m) => typeof m.description === 'string' && m.statusDescription === undefined),
			);
			const empty = ok(await run({ operation: 'getMembers', tagId: rl(tagId('Unused')) }));
			assert.equal(empty.length, 0, 'an empty tag gives no items');
		});

		test('Get Members by Tag Name sends get_members_by_tag_name', async () => {
			const items = ok(await run({ operation: 'getMembersByName', tagName: rl('Google') }));
			assert.deepEqual(requests('get_members_by_tag_name')[0].query, {
				service: 'get_members_by_tag_name',
				format: 'json',
				tag_name: 'Google',
			});
			assert.deepEqual(
				items.map((m) => m.virtualnum),
				['0722000100', '0722000101'],
			);
			const missing = await run({ operation: 'getMembersByName', tagName: rl('Nope', 'name') });
			assert.match(String(missing.error?.message), /The tag does not exist \(code 5003\)/);
		});

		test('Get Member Records sends view_virtualnum_members_by_tag_id and outputs full number records', async () => {
			const items = ok(await run({ operation: 'getMemberRecords', tagId: rl(tagId('Google')) }));
			assert.equal(
				requests('view_virtualnum_members_by_tag_id')[0].query.tag_id,
				String(tagId('Google')),
			);
			assert.deepEqual(
				items.map((n) => n.virtualnum),
				['0722000100', '0722000101'],
			);
			for (const field of ['description', 'call_destination_phone', 'active_status'])
				assert.ok(field in items[0], field);
		});
	});

	describe('writes', () => {
		test('Create sends create_tag as a POST and outputs the new tag', async () => {
			const [tag] = ok(await run({ operation: 'create', name: 'Spring Campaign' }));
			const [request] = requests('create_tag');
			assert.equal(request.method, 'POST');
			assert.deepEqual(request.body, { tag_name: 'Spring Campaign' });
			assert.equal(tag.success, true);
			assert.equal(tag.tag_name, 'Spring Campaign');
			assert.equal(tag.tag_id, tagId('Spring Campaign'));
			assert.equal(tag.members_count, 0);
		});

		test('Create with a taken name explains 5072 (the code public integrations report); an empty name is refused before any request', async () => {
			const result = await run({ operation: 'create', name: 'Google' });
			assert.match(
				String(result.error?.message),
				/create_tag failed: A tag with this name exists \(code 5072\)/,
			);
			await refused({ operation: 'create', name: expr('') }, /Name: is required/);
		});

		test('Rename sends update_tag with the tag ID and the new name', async () => {
			const id = tagId('Unused');
			const [tag] = ok(await run({ operation: 'rename', tagId: rl(id), newName: 'Summer' }));
			assert.deepEqual(requests('update_tag')[0].body, { tag_id: String(id), tag_name: 'Summer' });
			assert.equal(tag.tag_id, id);
			assert.equal(tag.tag_name, 'Summer');
			assert.equal(tagId('Summer'), id);
			await refused(
				{ operation: 'rename', tagId: rl(id), newName: expr(' ') },
				/New Name: is required/,
			);
		});

		test('Delete sends delete_tag and the tag is gone', async () => {
			const id = tagId('VIP');
			const [output] = ok(await run({ operation: 'delete', tagId: rl(id) }));
			const [request] = requests('delete_tag');
			assert.equal(request.method, 'POST');
			assert.deepEqual(request.body, { tag_id: String(id) });
			assert.equal(output.deleted, true);
			assert.equal(output.tag_id, id);
			// The service's status text under its own name: `description` is a number's description (Get Members).
			assert.equal(output.statusDescription, 'Success');
			assert.equal(output.description, undefined);
			assert.equal(members('VIP'), undefined);
		});

		test('Add Number sends add_member_to_tag; adding it again explains 5044 (the code public integrations report)', async () => {
			const id = tagId('Unused');
			const [output] = ok(
				await run({ operation: 'addMember', tagId: rl(id), virtualnum: rl('0722000104') }),
			);
			assert.deepEqual(requests('add_member_to_tag')[0].body, {
				tag_id: String(id),
				virtualnum: '0722000104',
			});
			assert.equal(output.virtualnum, '0722000104');
			assert.equal(output.members_count, 1);
			assert.equal(output.statusDescription, 'Success');
			assert.equal(output.description, undefined);
			assert.deepEqual(members('Unused'), ['0722000104']);
			const again = await run({
				operation: 'addMember',
				tagId: rl(id),
				virtualnum: rl('0722000104'),
			});
			assert.match(String(again.error?.message), /The number is already in this tag \(code 5044\)/);
		});

		test('Remove Number sends remove_member_from_tag_id', async () => {
			const id = tagId('Google');
			const [output] = ok(
				await run({ operation: 'removeMember', tagId: rl(id), virtualnum: rl('0722000101') }),
			);
			assert.deepEqual(requests('remove_member_from_tag_id')[0].body, {
				tag_id: String(id),
				virtualnum: '0722000101',
			});
			assert.equal(output.success, true);
			assert.deepEqual(members('Google'), ['0722000100']);
			const again = await run({
				operation: 'removeMember',
				tagId: rl(id),
				virtualnum: rl('0722000101'),
			});
			assert.match(String(again.error?.message), /The number is not in this tag \(code 5008\)/);
		});

		test('Remove Number by Tag Name sends remove_member_from_tag_name', async () => {
			const [output] = ok(
				await run({
					operation: 'removeMemberByName',
					tagName: rl('Facebook', 'name'),
					virtualnum: rl('0722000102'),
				}),
			);
			assert.deepEqual(requests('remove_member_from_tag_name')[0].body, {
				tag_name: 'Facebook',
				virtualnum: '0722000102',
			});
			assert.equal(output.tag_name, 'Facebook');
			assert.deepEqual(members('Facebook'), ['0722000103']);
		});

		test('a missing or malformed virtual number is refused before any request', async () => {
			await refused(
				{ operation: 'addMember', tagId: rl(1), virtualnum: rl(expr('')) },
				/Virtual Number: is required/,
			);
			await refused(
				{ operation: 'removeMember', tagId: rl(1), virtualnum: rl(expr('abc'), 'id') },
				/Virtual Number: must be a phone number of at least 5 digits/,
			);
			await refused(
				{ operation: 'removeMemberByName', tagName: rl(expr('')), virtualnum: rl('0722000100') },
				/Tag: is required/,
			);
		});
	});

	describe('Additional Parameters', () => {
		test('reach the service on a read (query string) and on a write (body)', async () => {
			ok(
				await run({
					operation: 'getAll',
					returnAll: true,
					additionalParameters: extra(['owner', 'marketing'], ['page', '2']),
				}),
			);
			const read = requests('view_tags')[0];
			assert.equal(read.method, 'GET');
			assert.equal(read.query.owner, 'marketing');
			assert.equal(read.query.page, '2');

			ok(
				await run({
					operation: 'create',
					name: 'Extra',
					additionalParameters: extra(['tag_color', '#ff0000']),
				}),
			);
			const write = requests('create_tag')[0];
			assert.equal(write.method, 'POST');
			assert.deepEqual(write.body, { tag_color: '#ff0000', tag_name: 'Extra' });
		});

		test('are sent by every tag operation', async () => {
			const id = String(tagId('Google'));
			const cases: IDataObject[] = [
				{ operation: 'addMember', tagId: rl(tagId('Unused')), virtualnum: rl('0722000104') },
				{ operation: 'create', name: 'Another' },
				{ operation: 'delete', tagId: rl(tagId('VIP')) },
				{ operation: 'get', tagId: rl(id) },
				{ operation: 'getAll', returnAll: true },
				{ operation: 'getByName', name: 'Goo' },
				{ operation: 'getForNumber', virtualnum: rl('0722000100') },
				{ operation: 'getMemberRecords', tagId: rl(id) },
				{ operation: 'getMembers', tagId: rl(id) },
				{ operation: 'getMembersByName', tagName: rl('Google') },
				{ operation: 'removeMember', tagId: rl(id), virtualnum: rl('0722000101') },
				{ operation: 'removeMemberByName', tagName: rl('Facebook'), virtualnum: rl('0722000103') },
				{ operation: 'rename', tagId: rl(tagId('Unused')), newName: 'Renamed' },
			];
			for (const parameters of cases) {
				sandbox.control.clearRequests();
				ok(
					await run({
						...parameters,
						additionalParameters: extra(['x_trace', `t-${String(parameters.operation)}`]),
					}),
				);
				const [request] = requests();
				const sent = { ...request.query, ...(request.body as IDataObject) };
				assert.equal(
					sent.x_trace,
					`t-${String(parameters.operation)}`,
					`${String(parameters.operation)} sends it`,
				);
			}
		});

		test('may not replace what the node sends, nor be unnamed or repeated (checked before any request)', async () => {
			await refused(
				{ operation: 'create', name: 'X', additionalParameters: extra(['tag_name', 'Y']) },
				/"tag_name" is already set by a field/,
			);
			await refused(
				{ operation: 'getAll', additionalParameters: extra(['service', 'delete_tag']) },
				/"service" is set by the node/,
			);
			await refused(
				{ operation: 'getAll', additionalParameters: extra(['FORMAT', 'xml']) },
				/"FORMAT" is set by the node/,
			);
			await refused(
				{ operation: 'getAll', additionalParameters: extra(['', 'x']) },
				/Parameter 1 › Name: is required/,
			);
			await refused(
				{ operation: 'getAll', additionalParameters: extra(['a', '1'], ['a', '2']) },
				/"a" is given twice/,
			);
		});
	});

	describe('resource locator lists', () => {
		test('list tags by ID, and by name, filtered on the service side', async () => {
			const byId = await listSearch('searchTags');
			assert.deepEqual(
				byId.results.map((r) => r.value),
				sandbox.control.tags().map((t) => String(t.tag_id)),
			);
			assert.ok(byId.results.some((r) => r.name === 'Google (2 numbers)'));
			sandbox.control.clearRequests();
			const byName = await listSearch('searchTagNames', 'face');
			assert.deepEqual(byName.results, [{ name: 'Facebook (2 numbers)', value: 'Facebook' }]);
			assert.equal(requests('view_tags')[0].query.tag_name, 'face');
			const none = await listSearch('searchTags', 'zzz');
			assert.deepEqual(none.results, []);
		});

		test('the virtual number list (searchVirtualnums) is registered for the number locators', async () => {
			const numbers = await listSearch('searchVirtualnums', '07220001');
			assert.deepEqual(
				numbers.results.map((r) => r.value),
				sandbox.control
					.virtualnums()
					.filter((n) => n.virtualnum.startsWith('07220001') && Number(n.active_status) === 1)
					.map((n) => n.virtualnum),
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
