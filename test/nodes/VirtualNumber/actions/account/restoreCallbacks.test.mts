/**
 * Account → Restore Callback URLs: after a package (or an n8n) was removed while trigger workflows
 * were published, the numbers still call dead webhooks. The operation finds every number whose
 * callback URL is proven a Virtual Number Trigger's (the restore data a trigger writes, whatever
 * n8n; or, with Instance Address, under that address), and puts back what that URL says it
 * replaced, keeping every other setting; Instance Address and Numbers narrow it, Dry Run changes
 * nothing. URLs that only look like a trigger's: restoreCallbacksProof.test.mts.
 * Under both readings of update_virtualnum, and once with a real activation through the trigger's
 * lifecycle that is never deactivated.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { TriggerHost, selectedNumbers } from '../../../../../dev/harness/trigger.mts';
import { startSandbox, type Sandbox } from '../../../../../dev/sandbox/index.mts';
import { failure, jsons, vnRequests, vnRunner } from '../../vnRun.mts';

let sandbox: Sandbox;
const run = vnRunner(() => sandbox);

const N8N_A = 'https://n8n-a.example.com';
const N8N_B = 'http://10.0.0.9:5678';
const CRM = 'https://crm.example.com/hook?token=CrmSecret1';
const hook = (origin: string, id: string, query: string) =>
	`${origin}/webhook/${id}-4b5a-4978-8091-a2b3c4d5e6f7/webhook?${query}`;
const A_LIVE = hook(
	N8N_A,
	'0f1e2d3c',
	`secret=TopSecret77&vnt=live&vnt_prev=3${encodeURIComponent(CRM)}`,
);
const B_TEST = hook(N8N_B, '1a2b3c4d', 'vnt=test&vnt_prev=2');
/** Registered by version 0.1: no marks, the previous URL was kept in the workflow. */
const OLD = `${N8N_A}/webhook/2b3c4d5e-4b5a-4978-8091-a2b3c4d5e6f7/webhook`;
const CHAINED = hook(N8N_B, '3c4d5e6f', `vnt=live&vnt_prev=1${encodeURIComponent(A_LIVE)}`);

const SEEDED: Record<string, { url: string; option: number }> = {
	'0722000100': { url: A_LIVE, option: 3 },
	'0722000101': { url: B_TEST, option: 1 },
	'0722000102': { url: CRM, option: 2 },
	'0722000103': { url: OLD, option: 3 },
	'0722000105': { url: CHAINED, option: 3 }, // suspended
};

const restore = (parameters: IDataObject = {}, typeVersion = 1.2) =>
	run({ resource: 'account', operation: 'restoreCallbacks', ...parameters }, { typeVersion });

const callback = (number: string) => {
	const record = sandbox.control.virtualnum(number)!;
	return { url: record.callback_url, option: record.callback_url_option };
};

const READINGS = {
	'only the values sent change': [],
	'the whole record is replaced': ['update-replaces'],
} as const;

for (const [reading, behaviours] of Object.entries(READINGS)) {
	describe(`Account → Restore Callback URLs, ${reading}`, () => {
		before(async () => {
			sandbox = await startSandbox({ profile: 'contract', behaviours: [...behaviours] });
		});
		after(async () => await sandbox.close());
		beforeEach(() => {
			sandbox.control.reset();
			for (const [virtualnum, { url, option }] of Object.entries(SEEDED))
				sandbox.control.seed({
					virtualnum: {
						virtualnum,
						callback_url: url,
						callback_url_option: option,
						email: `${virtualnum}@example.com`,
					},
				});
			sandbox.control.clearRequests();
		});

		test("every URL with a trigger's restore data, of any n8n, gives back what it replaced; the rest untouched", async () => {
			const items = jsons(await restore());
			assert.deepEqual(
				items.map((item) => item.virtualnum),
				['0722000100', '0722000101', '0722000105'],
			);
			assert.deepEqual(callback('0722000100'), { url: CRM, option: 3 });
			assert.deepEqual(callback('0722000101'), { url: '', option: 2 });
			assert.deepEqual(
				callback('0722000103'),
				{ url: OLD, option: 3 },
				'version 0.1 wrote no restore data: without Instance Address nothing proves it is ours',
			);
			assert.deepEqual(
				callback('0722000105'),
				{ url: CRM, option: 3 },
				'followed back to the first',
			);
			assert.deepEqual(
				callback('0722000102'),
				{ url: CRM, option: 2 },
				'not a trigger: left alone',
			);
			for (const number of Object.keys(SEEDED))
				assert.equal(sandbox.control.virtualnum(number)!.email, `${number}@example.com`);
			assert.deepEqual(items[0], {
				virtualnum: '0722000100',
				restored: true,
				before: {
					callback_url: A_LIVE.replace('TopSecret77', '********').replace('CrmSecret1', '********'),
					callback_url_option: 3,
				},
				after: { callback_url: CRM.replace('CrmSecret1', '********'), callback_url_option: 3 },
				previousKnown: true,
			});
			assert.doesNotMatch(JSON.stringify(items), /TopSecret77|CrmSecret1/);
		});

		test('Instance Address: only the triggers of that n8n, each giving back what it replaced', async () => {
			const items = jsons(await restore({ n8nAddress: `${N8N_B}/` }));
			assert.deepEqual(
				items.map((item) => item.virtualnum),
				['0722000101', '0722000105'],
			);
			assert.equal(callback('0722000100').url, A_LIVE);
			// B's trigger had replaced A's, which is not under the address: A's is put back, not its CRM.
			assert.deepEqual(callback('0722000105'), { url: A_LIVE, option: 1 });
		});

		test('Instance Address: a URL of version 0.1 under it is ours, and cleared', async () => {
			const items = jsons(await restore({ n8nAddress: N8N_A }));
			assert.deepEqual(
				items.map((item) => [item.virtualnum, item.previousKnown]),
				[
					['0722000100', true],
					['0722000103', false],
				],
			);
			assert.deepEqual(callback('0722000103'), { url: '', option: 2 });
			assert.deepEqual(callback('0722000100'), { url: CRM, option: 3 });
		});

		test('Numbers: only those; a number not in the account is named', async () => {
			const items = jsons(await restore({ numbers: '0722000101, 0722000102' }));
			assert.deepEqual(
				items.map((item) => item.virtualnum),
				['0722000101'],
			);
			assert.equal(callback('0722000100').url, A_LIVE);
			const error = failure(await restore({ numbers: '0799999999' }));
			assert.match(error.message, /0799999999 is not in this account/);
		});

		test('Dry Run lists the same numbers and changes nothing', async () => {
			const items = jsons(await restore({ dryRun: true }));
			assert.equal(items.length, 3);
			assert.ok(items.every((item) => item.restored === false));
			assert.deepEqual(vnRequests(sandbox, 'update_virtualnum'), []);
			assert.equal(callback('0722000100').url, A_LIVE);
		});

		test('a refused update names the number and those restored before it; a second run finishes', async () => {
			sandbox.control.injectFaults({ kind: 'slow', delayMs: 0, operation: 'update_virtualnum' });
			sandbox.control.injectFaults({
				kind: 'serviceError',
				code: 999,
				description: 'Internal error',
				operation: 'update_virtualnum',
			});
			const error = failure(await restore());
			assert.match(error.message, /^Could not restore the callback URL of 0722000101: /);
			assert.match(
				String(error.description),
				/^Restored before it: 0722000100\. Run the operation again/,
			);
			const items = jsons(await restore());
			assert.deepEqual(
				items.map((item) => item.virtualnum),
				['0722000101', '0722000105'],
			);
		});

		test('run again, it finds nothing left to do (safe under Retry On Fail)', async () => {
			jsons(await restore());
			sandbox.control.clearRequests();
			assert.deepEqual(jsons(await restore()), []);
			assert.deepEqual(vnRequests(sandbox, 'update_virtualnum'), []);
		});
	});
}

describe('Account → Restore Callback URLs after a real activation that was never undone', () => {
	let host: TriggerHost;
	before(async () => {
		sandbox = await startSandbox();
		host = await TriggerHost.start();
	});
	after(async () => {
		await host.close();
		await sandbox.close();
	});

	test('the trigger took the number; n8n went away; Restore puts the CRM back', async () => {
		sandbox.control.seed({
			virtualnum: { virtualnum: '0722000104', callback_url: CRM, callback_url_option: 1 },
		});
		const trigger = host.add({
			parameters: {
				events: ['callStarted', 'callEnded'],
				numbers: 'selected',
				virtualnums: selectedNumbers(['0722000104']),
			},
			credentials: { virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn } },
		});
		await trigger.activate();
		assert.notEqual(callback('0722000104').url, CRM, 'the trigger holds the number');
		// The package is removed: no deactivation runs.
		const items = jsons(await restore({ n8nAddress: host.webhookBaseUrl }));
		assert.deepEqual(
			items.map((item) => item.virtualnum),
			['0722000104'],
		);
		assert.deepEqual(callback('0722000104'), { url: CRM, option: 1 });
	});
});
