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
import { faultSuite, triggerFaultSuite } from './faults.mts';
import { hangSuite } from './hangs.mts';
import { nothingLostSuite } from './nothingLost.mts';
import { PASSWORD, TRIGGER_SECRET, collectedCount, findSecrets } from './support.mts';

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
