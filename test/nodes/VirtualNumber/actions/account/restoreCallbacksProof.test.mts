/**
 * Account → Restore Callback URLs changes only URLs it can prove are this n8n's: under the Instance
 * Address, or, with none given, carrying the restore data a Virtual Number Trigger writes into its
 * URL (`vnt=` and `vnt_prev=`). A URL that merely looks like a trigger's (a CRM's
 * `https://hooks.crm.example/<uuid>/webhook`, another n8n's webhook, a host that only starts like
 * the address) is left alone, and from version 1.3 Dry Run lists it with why.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../../../../dev/sandbox/index.mts';
import { jsons, vnRequests, vnRunner } from '../../vnRun.mts';

let sandbox: Sandbox;
const run = vnRunner(() => sandbox);

const N8N = 'https://n8n-a.example.com';
const uuid = (first: string) => `${first}-4b5a-4978-8091-a2b3c4d5e6f7`;
/** The case: a CRM's webhook whose path happens to be a trigger's (an id, then `webhook`). */
const CRM_SHAPED = `https://hooks.crm.example/${uuid('0a0b0c0d')}/webhook`;
/** Another n8n's webhook, no restore data. */
const OTHER_N8N = `https://n8n.other.example/webhook/${uuid('1a1b1c1d')}/webhook`;
/** Marked, on a host that only starts like this n8n's address. */
const LOOKALIKE_HOST = `${N8N}.evil.example/webhook/${uuid('2a2b2c2d')}/webhook?vnt=live&vnt_prev=2`;
/** This n8n's trigger registered by version 0.1: no restore data. */
const OURS_OLD = `${N8N}/webhook/${uuid('3a3b3c3d')}/webhook`;
/** This n8n's trigger that replaced the CRM-shaped URL. */
const OURS_OVER_CRM =
	`${N8N}/webhook/${uuid('4a4b4c4d')}/webhook?secret=Sec4&vnt=live&vnt_prev=2` +
	encodeURIComponent(CRM_SHAPED);
/** A trigger's mark without the previous callback a trigger always writes beside it. */
const MARK_ONLY = 'https://hooks.crm.example/calls?vnt=live';

const SEEDED: Record<string, string> = {
	'0722000100': CRM_SHAPED,
	'0722000101': OTHER_N8N,
	'0722000102': LOOKALIKE_HOST,
	'0722000103': OURS_OLD,
	'0722000104': OURS_OVER_CRM,
	'0722000106': MARK_ONLY,
};

const restore = (parameters: IDataObject, typeVersion = 1.3) =>
	run({ resource: 'account', operation: 'restoreCallbacks', ...parameters }, { typeVersion });
const urlOf = (number: string) => sandbox.control.virtualnum(number)!.callback_url;
const byNumber = (items: IDataObject[]) =>
	Object.fromEntries(items.map((item) => [String(item.virtualnum), item]));
const unchanged = (numbers: string[]) => {
	for (const number of numbers) assert.equal(urlOf(number), SEEDED[number], `${number} untouched`);
};

describe('Account → Restore Callback URLs changes only what it can prove is ours', () => {
	before(async () => {
		sandbox = await startSandbox({ profile: 'contract' });
	});
	after(async () => await sandbox.close());
	beforeEach(() => {
		sandbox.control.reset();
		for (const [virtualnum, url] of Object.entries(SEEDED))
			sandbox.control.seed({
				virtualnum: { virtualnum, callback_url: url, callback_url_option: 2 },
			});
		sandbox.control.clearRequests();
	});

	test("Instance Address empty: only the URLs with a trigger's restore data change", async () => {
		const items = jsons(await restore({}));
		assert.deepEqual(
			items.map((item) => item.virtualnum),
			['0722000102', '0722000104'],
		);
		assert.equal(urlOf('0722000102'), '');
		// What the trigger replaced is put back as it was, though it looks like a trigger's URL.
		assert.equal(urlOf('0722000104'), CRM_SHAPED);
		unchanged(['0722000100', '0722000101', '0722000103', '0722000106']);
		assert.equal(vnRequests(sandbox, 'update_virtualnum').length, 2);
	});

	test('Instance Address empty, Dry Run: what it would restore, then what it leaves alone and why', async () => {
		const items = byNumber(jsons(await restore({ dryRun: true })));
		assert.deepEqual(Object.keys(items).sort(), [
			'0722000100',
			'0722000101',
			'0722000102',
			'0722000103',
			'0722000104',
			'0722000106',
		]);
		assert.deepEqual(items['0722000104'].after, {
			callback_url: CRM_SHAPED,
			callback_url_option: 2,
		});
		assert.equal(items['0722000104'].leftAlone, undefined);
		for (const number of ['0722000100', '0722000101', '0722000103']) {
			assert.equal(items[number].restored, false);
			assert.equal(items[number].leftAlone, true);
			assert.match(
				String(items[number].reason),
				/^Left alone: it only has the shape of a Virtual Number Trigger's URL .* without the restore data a trigger writes into its URL \(vnt=\), so nothing proves it is this n8n's: set Instance Address/,
			);
			assert.deepEqual(items[number].before, {
				callback_url: SEEDED[number],
				callback_url_option: 2,
			});
		}
		assert.match(
			String(items['0722000106'].reason),
			/mark \(vnt=\) but no readable previous callback \(vnt_prev=\)/,
		);
		assert.deepEqual(vnRequests(sandbox, 'update_virtualnum'), []);
		unchanged(Object.keys(SEEDED));
	});

	test('Instance Address given: only URLs under it; look-alike hosts and other n8ns are left alone', async () => {
		const dry = byNumber(jsons(await restore({ n8nAddress: N8N, dryRun: true })));
		const leftAlone = Object.keys(dry).filter((number) => dry[number].leftAlone === true);
		assert.deepEqual(leftAlone, ['0722000100', '0722000101', '0722000102', '0722000106']);
		assert.equal(
			dry['0722000102'].reason,
			`Left alone: it is not under the Instance Address (${N8N}).`,
		);
		const items = jsons(await restore({ n8nAddress: N8N }));
		assert.deepEqual(
			items.map((item) => [item.virtualnum, item.previousKnown]),
			[
				['0722000103', false],
				['0722000104', true],
			],
		);
		assert.equal(urlOf('0722000103'), '', 'version 0.1 of this n8n: cleared');
		assert.equal(urlOf('0722000104'), CRM_SHAPED);
		unchanged(['0722000100', '0722000101', '0722000102', '0722000106']);
	});

	test('versions before 1.3: the same rule; Dry Run lists only what it would restore', async () => {
		const items = jsons(await restore({ dryRun: true }, 1.2));
		assert.deepEqual(
			items.map((item) => item.virtualnum),
			['0722000102', '0722000104'],
		);
		jsons(await restore({}, 1.2));
		unchanged(['0722000100', '0722000101', '0722000103', '0722000106']);
		assert.equal(urlOf('0722000104'), CRM_SHAPED);
	});
});
