import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { INodeListSearchResult } from 'n8n-workflow';

import { callNodeMethod } from '../../../../dev/harness/methods.mts';
import { sandboxPerFile } from '../../../../dev/harness/nodeTest.mts';
import { vnRequests } from '../vnRun.mts';

const sandbox = sandboxPerFile();

function search(
	method: string,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return callNodeMethod<INodeListSearchResult>({
		nodeType: 'virtualNumber',
		kind: 'listSearch',
		method,
		credentials: { virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn } },
		args: [filter, paginationToken],
		parameters: { resource: 'virtualnum', operation: 'get' },
	});
}

describe('Virtual Number → resource locator list searches', () => {
	test('searchVirtualnums lists active numbers, then suspended ones, filtered by number or description', async () => {
		const first = await search('searchVirtualnums');
		assert.deepEqual(
			first.results.map((r) => r.value),
			['0722000100', '0722000101', '0722000102', '0722000103', '0722000104'],
		);
		assert.match(String(first.results[0].name), /^0722000100 — Billboard Tel Aviv 1$/);
		assert.equal(first.paginationToken, 'suspended:0');
		const second = await search('searchVirtualnums', undefined, first.paginationToken as string);
		assert.deepEqual(
			second.results.map((r) => [r.value, r.name]),
			[['0722000105', '0722000105 — Facebook leads 6 (suspended)']],
		);
		assert.equal(second.paginationToken, undefined);
		const filtered = await search('searchVirtualnums', 'billboard');
		assert.deepEqual(
			filtered.results.map((r) => r.value),
			['0722000100', '0722000101'],
		);
	});

	test('searchAvailableVirtualnums lists the pool (part of the number as filter) and allocates nothing', async () => {
		const all = await search('searchAvailableVirtualnums');
		assert.equal(all.results.length, 50);
		const filtered = await search('searchAvailableVirtualnums', '000 03');
		assert.ok(filtered.results.length > 0);
		for (const result of filtered.results) assert.match(String(result.value), /00003/);
		const request = vnRequests(sandbox, 'get_available_virtualnum').at(-1)!;
		assert.equal(request.query.virtualnum, '00003');
		assert.equal(request.query.amount, '50');
		const none = await search('searchAvailableVirtualnums', '99999999');
		assert.deepEqual(none.results, []);
	});
});
