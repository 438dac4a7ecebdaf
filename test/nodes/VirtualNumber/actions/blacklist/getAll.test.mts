import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { INodeType } from 'n8n-workflow';

import { loadPackage } from '../../../../../dev/harness/engine.mts';
import { blacklistTest } from './blacklistTest.mts';

const { run, rl, requests, BOUND_TO, ok, refused } = blacklistTest();

describe('Virtual Number → Blacklist', () => {
	async function properties() {
		const loader = await loadPackage();
		return (loader.getNode('virtualNumber').type as INodeType).description.properties;
	}

	describe('Get Many', () => {
		test('without filters sends get_blacklist alone and outputs every entry', async () => {
			const items = ok(await run({ operation: 'getAll', returnAll: true }));
			const [request] = requests('get_blacklist');
			assert.equal(request.method, 'GET');
			assert.deepEqual(request.query, { service: 'get_blacklist', format: 'json' });
			assert.deepEqual(
				items.map((e) => [e.caller_number, e.virtualnum]),
				[
					['0501111111', ''],
					['0777777777', ''],
					['0502222222', BOUND_TO],
				],
			);
			assert.equal(ok(await run({ operation: 'getAll', returnAll: false, limit: 2 })).length, 2);
		});

		test('the caller filter matches by suffix and returns global and bound blocks', async () => {
			const items = ok(
				await run({ operation: 'getAll', returnAll: true, callerNumber: '2222222' }),
			);
			assert.equal(requests('get_blacklist')[0].query.caller_number, '2222222');
			assert.deepEqual(
				items.map((e) => e.caller_number),
				['0502222222'],
			);
		});

		test('the virtual number filter is sent together with a caller number', async () => {
			const items = ok(
				await run({
					operation: 'getAll',
					returnAll: true,
					callerNumber: '0502222222',
					filterByVirtualnum: true,
					virtualnum: rl(BOUND_TO),
				}),
			);
			assert.deepEqual(requests('get_blacklist')[0].query, {
				service: 'get_blacklist',
				format: 'json',
				caller_number: '0502222222',
				virtualnum: BOUND_TO,
			});
			assert.equal(items.length, 1);
			const other = ok(
				await run({
					operation: 'getAll',
					returnAll: true,
					callerNumber: '0502222222',
					filterByVirtualnum: true,
					virtualnum: rl('0722000101'),
				}),
			);
			assert.equal(other.length, 0, 'no match gives no items (2001), not an error');
		});

		test('the virtual number filter alone is refused before any request, with the reason', async () => {
			await refused(
				{
					operation: 'getAll',
					returnAll: true,
					filterByVirtualnum: true,
					virtualnum: rl(BOUND_TO),
				},
				/Virtual Number: works only together with a Caller Number \(the service ignores it alone and would return the whole list\)/,
			);
			const field = (await properties()).find(
				(p) =>
					p.name === 'virtualnum' &&
					p.displayOptions?.show?.resource?.includes('blacklist') &&
					p.displayOptions?.show?.operation?.includes('getAll'),
			);
			assert.match(String(field?.hint), /only together with a Caller Number/);
		});

		test('a caller filter with letters is refused before any request', async () => {
			await refused(
				{ operation: 'getAll', callerNumber: 'abc' },
				/Caller Number: must be a phone number/,
			);
		});
	});
});
