/**
 * The robustness suite (issue 9), in one process so that one test can sweep everything the
 * others produced: faults, hangs, no double send, nothing lost, bad input, then secrets.
 *
 * The hangs on operations without a Timeout option wait for the default 60 s; they run on their
 * own sandbox beside the other suites (concurrency 2), so the whole file takes about a minute.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { DEFAULT_TOKENS, startSandbox, type Sandbox } from '../../sandbox/index.mts';
import { badInputSuite } from './badInput.mts';
import { doubleSendSuite } from './doubleSend.mts';
import { EVERY_OPERATION, EVERY_OPERATION_SOURCE, TRIGGER_EVENT_SOURCE, everyOperationSuite } from './everyOperation.mts';
import { faultSuite, triggerFaultSuite } from './faults.mts';
import { hangSuite } from './hangs.mts';
import { nothingLostSuite } from './nothingLost.mts';
import { PASSWORD, TRIGGER_SECRET, collectedCount, findSecrets, sweptKeys } from './support.mts';
import { refusedKeys } from '../helpers/outputKeys.mts';

describe('Robustness', { concurrency: 2 }, () => {
	hangSuite();

	describe('Faults, double sends, lost items and bad input', { concurrency: 1 }, () => {
		let sandbox: Sandbox;
		before(async () => {
			sandbox = await startSandbox();
		});
		after(async () => await sandbox.close());

		faultSuite(() => sandbox);
		triggerFaultSuite(() => sandbox);
		doubleSendSuite(() => sandbox);
		nothingLostSuite(() => sandbox);
		badInputSuite(() => sandbox);
		// Issue 17 §2: every operation once, for the output-key sweep below (and the secrets sweep).
		everyOperationSuite(() => sandbox);
	});
});

describe('Secrets', () => {
	const secrets = [DEFAULT_TOKENS.vn, DEFAULT_TOKENS.sms, DEFAULT_TOKENS.smsAccount, PASSWORD, TRIGGER_SECRET];

	test('the sweep finds a secret where there is one', () => {
		const found = findSecrets(secrets, [{ source: 'planted', kind: 'error', text: `Bearer ${DEFAULT_TOKENS.vn} was refused` }]);
		assert.deepEqual(found.filter((entry) => entry.source === 'planted').map((entry) => entry.secret), [DEFAULT_TOKENS.vn]);
	});

	test('no access token, password or trigger secret in any output item, error message, error description or log line of the whole suite', () => {
		const counts = collectedCount();
		// The sweep covers the suite's work, not an empty list.
		assert.ok(counts.items > 300 && counts.errors > 300 && counts.logs > 0, `swept ${JSON.stringify(counts)}`);
		const found = findSecrets(secrets);
		assert.deepEqual(found, [], `secrets found: ${JSON.stringify(found.slice(0, 5), null, 2)}`);
	});
});

// Issue 17 §2: no output key, at any depth, that n8n refuses in expressions (n8n-workflow's own
// isSafeObjectProperty), over every output item the suite produced.
describe('Output keys', () => {
	test('the sweep finds a refused key where there is one', () => {
		assert.deepEqual(refusedKeys({ a: { caller: 1 }, list: [{ arguments: 2 }] }), ['json.a.caller', 'json.list[0].arguments']);
	});

	test('no output item of the Virtual Number or Bulk SMS node, of any operation, has a key n8n refuses', () => {
		const swept = sweptKeys((source) => !source.startsWith(TRIGGER_EVENT_SOURCE));
		const everyOperation = sweptKeys((source) => source.startsWith(EVERY_OPERATION_SOURCE));
		assert.ok(swept.items > 300 && everyOperation.items >= EVERY_OPERATION.length, `swept ${swept.items} items, ${everyOperation.items} of them from every operation`);
		assert.deepEqual(swept.refused, []);
	});

	test("no output item of the trigger's three events has a key n8n refuses", () => {
		const swept = sweptKeys((source) => source.startsWith(TRIGGER_EVENT_SOURCE));
		assert.equal(swept.items, 3, 'call started, call ended, SMS delivery');
		assert.deepEqual(swept.refused, []);
	});
});
