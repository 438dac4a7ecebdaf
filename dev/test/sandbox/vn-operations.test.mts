// The success path of every virtual number operation the spec names (the last test checks that
// none was forgotten), with the answer shapes the spec (or sandbox/README.md) gives.
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { specVirtualnumOperations } from '../../harness/spec.mts';
import { start } from './helpers.mts';
import { accountSuites } from './vnOperations/account.mts';
import { callSuites } from './vnOperations/calls.mts';
import { covered, sb, useSandbox } from './vnOperations/context.mts';
import { numberSuites } from './vnOperations/numbers.mts';

before(async () => {
	useSandbox(await start());
});
after(() => sb.close());
beforeEach(() => sb.control.reset());

numberSuites();
callSuites();
accountSuites();

test('every operation of the spec has a success case', () => {
	const missing = specVirtualnumOperations().filter((op) => !covered.has(op));
	assert.deepEqual(missing, []);
	assert.equal(specVirtualnumOperations().length, 47);
});
