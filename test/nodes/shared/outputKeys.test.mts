import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { isSafeObjectProperty, type IDataObject } from 'n8n-workflow';

import { itemsWithSafeKeys } from '../../../nodes/shared/outputKeys.ts';

/** An output item's json as the router hands it to n8n (nodes/shared/router.ts). */
const withSafeKeys = (json: unknown) => itemsWithSafeKeys([{ json: json as IDataObject }])[0].json;

/** The name a key comes out under. */
const safeOutputKey = (key: string) =>
	Object.keys(withSafeKeys(JSON.parse(JSON.stringify({ [key]: 1 })) as object))[0];
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

	test('a renamed key never takes the name of another key of the object', () => {
		const safe = withSafeKeys({ caller: 1, caller_: 2 }) as Record<string, number>;
		assert.deepEqual(safe, { caller__: 1, caller_: 2 });
	});

	test('nesting deeper than 32 is passed on as its JSON text', () => {
		let deep: object = { caller: 1 };
		for (let i = 0; i < 40; i++) deep = { inner: deep };
		let value = withSafeKeys(deep) as Record<string, unknown>;
		for (let i = 0; i < 32; i++) value = value.inner as Record<string, unknown>;
		assert.equal(typeof value, 'string');
	});
});
