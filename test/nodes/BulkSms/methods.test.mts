import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import type { INodeListSearchResult, INodePropertyOptions, INodeType } from 'n8n-workflow';

import { SMS_LIMITS } from '../../../nodes/shared/limits.ts';
import { startSandbox, type Sandbox } from '../../../dev/sandbox/index.mts';
import { loadPackage } from '../../../dev/harness/engine.mts';
import { callNodeMethod } from '../../../dev/harness/methods.mts';

function callMethod<T>(
	kind: 'listSearch' | 'loadOptions',
	method: string,
	credentials: Record<string, string>,
	args: unknown[] = [],
	timezone = 'UTC',
): Promise<T> {
	return callNodeMethod<T>({
		nodeType: 'bulkSms',
		kind,
		method,
		credentials: { virtualnumSmsApi: credentials },
		args,
		parameters: { resource: 'message', operation: 'send' },
		timezone,
	});
}

describe('Bulk SMS editor methods', () => {
	let sandbox: Sandbox;
	before(async () => {
		sandbox = await startSandbox();
	});
	after(async () => await sandbox.close());
	beforeEach(() => sandbox.control.reset());

	const creds = () => ({ baseUrl: sandbox.smsUrl, accessToken: sandbox.tokens.sms });

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

	test("the Time Zone list starts with the service's and the workflow's time zones and holds the IANA zones", async () => {
		const zones = await callMethod<INodePropertyOptions[]>(
			'loadOptions',
			'getTimeZones',
			creds(),
			[],
			'Asia/Jerusalem',
		);
		assert.deepEqual(zones[0], {
			name: 'Service Time Zone (From the Credential)',
			value: 'service',
			description: "The service's clock, as the credential sets it (Asia/Jerusalem by default)",
		});
		assert.deepEqual(zones[1], {
			name: 'Workflow Time Zone (Asia/Jerusalem)',
			value: 'workflow',
			description: "The time zone in the workflow's settings",
		});
		for (const zone of ['UTC', 'Asia/Jerusalem', 'Europe/London', 'America/New_York']) {
			assert.ok(
				zones.some((z) => z.value === zone),
				zone,
			);
		}
	});

	test('the Send operation says what it does under Retry On Fail', async () => {
		const loader = await loadPackage();
		const type = loader.getNode('bulkSms').type as INodeType;
		const notice = type.description.properties.find((p) => p.name === 'retryNotice');
		assert.equal(notice?.type, 'notice');
		assert.match(
			notice!.displayName,
			/Retry On Fail.*a retry sends only the batches that never reached the service/,
		);
		assert.match(
			notice!.displayName,
			/a batch that may have reached it is never sent again, and each output item says in which try it was sent/,
		);
		const options = type.description.properties.find(
			(p) => p.name === 'options' && p.displayOptions?.show?.resource?.includes('message'),
		);
		const batchSize = (
			options?.options as Array<{ name: string; hint?: string; default?: unknown }>
		).find((o) => o.name === 'batchSize');
		assert.match(String(batchSize?.hint), /never sent again, not even by Retry On Fail/);
		assert.equal(batchSize?.default, SMS_LIMITS.batchSize.default);
	});
});
