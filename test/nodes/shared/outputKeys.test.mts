import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { isSafeObjectProperty } from 'n8n-workflow';

import { safeOutputKey, withSafeKeys } from '../../../nodes/shared/outputKeys.ts';
import { refusedKeys } from '../../../dev/harness/outputKeys.mts';

describe('output keys n8n refuses are renamed, at any depth', () => {
	test('a refused name gets a trailing _, every other name stays', () => {
		assert.equal(safeOutputKey('caller'), 'caller_');
		assert.equal(safeOutputKey('__proto__'), '__proto___');
		assert.equal(safeOutputKey('callerNumber'), 'callerNumber');
		for (const name of [
			'caller',
			'callee',
			'arguments',
			'constructor',
			'prototype',
			'mainModule',
			'binding',
		]) {
			assert.equal(isSafeObjectProperty(safeOutputKey(name)), true, name);
		}
	});

	test('nested objects and arrays', () => {
		const json = {
			call_uuid: '1.2',
			custom_parameters: { caller: 'crm' },
			rows: [{ arguments: 1, ok: 2 }],
		};
		const safe = withSafeKeys(json);
		assert.deepEqual(safe, {
			call_uuid: '1.2',
			custom_parameters: { caller_: 'crm' },
			rows: [{ arguments_: 1, ok: 2 }],
		});
		assert.deepEqual(refusedKeys(safe), []);
	});

	test('an item without a refused key is the same object (no copy of large results)', () => {
		const json = { rows: [{ a: 1 }, { b: [1, 2] }], when: new Date(0) };
		assert.equal(withSafeKeys(json), json);
	});
});
