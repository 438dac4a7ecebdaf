import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { INodeType } from 'n8n-workflow';

import { loadPackage } from '../../../../../dev/harness/engine.mts';
import { SMS_LIMITS } from '../../../../../nodes/shared/limits.ts';

describe('Bulk SMS → Message → Send: its fields', () => {
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
