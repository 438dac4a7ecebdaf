// The Additional Parameters of the tag operations (nodes/VirtualNumber/actions/tag/request.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { tagTest } from './tagTest.mts';

const { sandbox, run, rl, requests, tagId, extra, ok, refused } = tagTest();

describe('Virtual Number → Tag', () => {
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
});
