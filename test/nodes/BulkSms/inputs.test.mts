// The input helpers the Bulk SMS node appended to the shared modules, and its batching rule.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { makeBatches } from '../../../nodes/BulkSms/actions/message/send.operation.ts';
import { LIMITS, normalizeSmsSender } from '../../../nodes/shared/checks.ts';
import { splitPhoneList } from '../../../nodes/shared/phones.ts';
import { isSmsSent } from '../../../nodes/shared/transport/smsApi.ts';
import { readSpec } from '../../helpers/spec.mts';

describe('Bulk SMS input helpers', () => {
	test('splitPhoneList splits on commas, semicolons and new lines, and takes arrays', () => {
		assert.deepEqual(splitPhoneList('1, 2;3\n4\r\n5,,; '), ['1', '2', '3', '4', '5']);
		assert.deepEqual(splitPhoneList(['1', '2;3', 972501234567]), ['1', '2', '3', '972501234567']);
		assert.deepEqual(splitPhoneList(undefined), []);
	});

	const senders: Array<[string, ReturnType<typeof normalizeSmsSender>]> = [
		['VirtualNum', { kind: 'text', value: 'VirtualNum' }],
		['a_b-C', { kind: 'text', value: 'a_b-C' }],
		['abcdefghijk', { kind: 'text', value: 'abcdefghijk' }],
		['+972-50-123 4567', { kind: 'phone', value: '972501234567' }],
		['(050) 123.4567', { kind: 'phone', value: '0501234567' }],
		['*2700', { kind: 'speedDial', value: '*2700' }],
		['ab', undefined],
		['abcdefghijkl', undefined],
		['_abc', undefined],
		['My Shop', undefined],
		['050-CALL', undefined],
		['*27', undefined],
		['', undefined],
	];
	for (const [raw, expected] of senders) {
		test(`sender ${JSON.stringify(raw)} → ${JSON.stringify(expected)}`, () => assert.deepEqual(normalizeSmsSender(raw), expected));
	}

	test('the text sender limits are the spec\'s (3-11 characters)', () => {
		const spec = readSpec('sms-service.md');
		assert.match(spec, /\| Text sender \| 3-11 characters, Latin letter first, no spaces, characters `a-z A-Z 0-9 _ -` \|/);
		assert.equal(LIMITS.textSender.minLength, 3);
		assert.equal(LIMITS.textSender.maxLength, 11);
		assert.match(spec, /\| Verification code \| 6 digits \|/);
	});

	test('a result counts as sent with a message id and a status that is not an error', () => {
		assert.equal(isSmsSent({ status: 'Message in Action', message_id: 5 }), true);
		assert.equal(isSmsSent({ status: 'Queued', message_id: '77' }), true);
		assert.equal(isSmsSent({ status: 'Error - 403 Forbidden', description: 'x' }), false);
		assert.equal(isSmsSent({ status: 'Error - 500', message_id: 5 }), false);
		assert.equal(isSmsSent({ status: 'Message in Action' }), false);
	});

	describe('batches', () => {
		const entries = (sizes: number[]) => sizes.map((batchSize, i) => ({ i, item: { batchSize } }));
		const shape = (batches: Array<Array<{ i: number }>>) => batches.map((b) => b.map((e) => e.i));

		test('equal Batch Sizes: full batches in order, the rest last', () => {
			assert.deepEqual(shape(makeBatches(entries([2, 2, 2, 2, 2]))), [[0, 1], [2, 3], [4]]);
		});
		test('a smaller Batch Size closes the batch early; no batch exceeds the size of any of its items', () => {
			const batches = makeBatches(entries([3, 3, 1, 3, 3, 3, 3]));
			assert.deepEqual(shape(batches), [[0, 1], [2], [3, 4, 5], [6]]);
			for (const batch of batches) for (const entry of batch) assert.ok(batch.length <= entry.item.batchSize);
		});
		test('no messages, no batch', () => assert.deepEqual(makeBatches([]), []));
	});
});
