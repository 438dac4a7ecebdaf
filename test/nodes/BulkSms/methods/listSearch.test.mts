import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { INodeListSearchResult } from 'n8n-workflow';

import { callMethod, methodTest } from './methodTest.mts';

const { sandbox, creds } = methodTest();

describe('Bulk SMS editor methods: the Sender picker', () => {
	test('the Sender picker lists only verified senders, each with its type', async () => {
		const result = await callMethod<INodeListSearchResult>('listSearch', 'searchSenders', creds());
		const verified = sandbox.control.senders().filter((s) => s.verified);
		assert.ok(
			verified.length < sandbox.control.senders().length,
			'the seed has an unverified sender',
		);
		assert.deepEqual(
			result.results.map((r) => r.value).sort(),
			verified.map((s) => s.sender).sort(),
		);
		assert.ok(result.results.some((r) => r.name === '0501234567 (phone) — Office mobile'));
		assert.ok(result.results.some((r) => r.name === 'Shop24 (text) — Online shop'));
		assert.deepEqual(sandbox.control.requests({ service: 'sms' })[0].query, {
			service: 'get_sender_list',
		});
	});

	test("the picker's filter goes to the service as search, without characters it refuses", async () => {
		const result = await callMethod<INodeListSearchResult>('listSearch', 'searchSenders', creds(), [
			'+050-123',
		]);
		assert.deepEqual(sandbox.control.requests({ service: 'sms' })[0].query, {
			service: 'get_sender_list',
			search: '050123',
		});
		assert.deepEqual(
			result.results.map((r) => r.value),
			['0501234567'],
		);
	});
});
