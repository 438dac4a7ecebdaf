/**
 * Virtual Number → Update without lost updates: the number is read just before the write (inside
 * this process's per-number lock), a Virtual Number Trigger's callback URL is never sent back
 * unless the user sets Callback URL, and the number is read again after the write: a setting the
 * update did not change that differs is reported (version 1.2), and a trigger's URL the service
 * cleared is put back. Each case under both readings of update_virtualnum (only the values sent
 * change; the whole record is replaced), with the sandbox's `lateAnswer` fault holding a read's
 * answer back so that work can happen between the read and the write.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import { startSandbox, type Sandbox } from '../../../../../dev/sandbox/index.mts';
import { failure, jsons, rl, vnRequests, vnRunner } from '../../vnRun.mts';

let sandbox: Sandbox;
const run = vnRunner(() => sandbox);

const NUMBER = '0722000102';
const WEBHOOK = 'https://n8n.example.com/webhook/0f1e2d3c-4b5a-6978-8091-a2b3c4d5e6f7/webhook';
const CRM = 'https://crm.example.com/hook';
/** The URL a trigger registers: its secret, its mark, and the URL it replaced. */
const TRIGGER_URL = `${WEBHOOK}?secret=TopSecret77&vnt=live&vnt_prev=3${encodeURIComponent(CRM)}`;

const READINGS = {
	'only the values sent change': [],
	'the whole record is replaced': ['update-replaces'],
} as const;

const update = (updateFields: Record<string, unknown>, typeVersion = 1.2) =>
	run(
		{ resource: 'virtualnum', operation: 'update', virtualnum: rl(NUMBER), updateFields },
		{ typeVersion },
	);

const body = (request: { body: unknown }) => request.body as Record<string, string>;

for (const [reading, behaviours] of Object.entries(READINGS)) {
	describe(`Virtual Number → Update, ${reading}`, () => {
		before(async () => {
			sandbox = await startSandbox({ profile: 'contract', behaviours: [...behaviours] });
		});
		after(async () => await sandbox.close());
		beforeEach(() => {
			sandbox.control.reset();
			sandbox.control.seed({
				virtualnum: { virtualnum: NUMBER, description: 'Front desk', email: 'old@example.com' },
			});
			sandbox.control.clearRequests();
		});

		test('two Updates of one number at once: both changes stay, neither reports the other', async () => {
			// The first read's answer is held back 300 ms: without the lock, both would read the
			// number as it was and the second write would undo the first change.
			sandbox.control.injectFaults({
				kind: 'lateAnswer',
				delayMs: 300,
				operation: 'get_virtualnum',
			});
			const [first, second] = await Promise.all([
				update({ description: 'Sales' }),
				update({ email: 'new@example.com' }),
			]);
			const number = sandbox.control.virtualnum(NUMBER)!;
			assert.equal(number.description, 'Sales');
			assert.equal(number.email, 'new@example.com');
			assert.deepEqual(jsons(first)[0].unexpectedChanges, []);
			assert.deepEqual(jsons(second)[0].unexpectedChanges, []);
			assert.deepEqual(
				vnRequests(sandbox).map((request) => request.operation),
				[
					...['get_virtualnum', 'update_virtualnum', 'get_virtualnum'],
					...['get_virtualnum', 'update_virtualnum', 'get_virtualnum'],
				],
				'one Update runs after the other: read, write, read again',
			);
		});

		test("a trigger's callback URL is not sent back, and stays on the number", async () => {
			sandbox.control.seed({
				virtualnum: { virtualnum: NUMBER, callback_url: TRIGGER_URL, callback_url_option: 3 },
			});
			sandbox.control.clearRequests();
			const [item] = jsons(await update({ email: 'new@example.com' }));
			const writes = vnRequests(sandbox, 'update_virtualnum').map(body);
			assert.equal(writes[0].callback_url, undefined, 'the first write leaves the URL out');
			assert.equal(writes[0].email, 'new@example.com');
			const number = sandbox.control.virtualnum(NUMBER)!;
			assert.equal(number.callback_url, TRIGGER_URL, 'the trigger still receives the calls');
			assert.equal(number.callback_url_option, 3);
			assert.equal(number.email, 'new@example.com');
			assert.equal(item.callback_url, TRIGGER_URL.replace('TopSecret77', '********'), 'masked');
			if (behaviours.length === 0) {
				assert.equal(writes.length, 1, 'nothing to put back');
				assert.deepEqual(item.unexpectedChanges, []);
				return;
			}
			// The service replaced the record: the unsent URL was cleared, then put back.
			assert.equal(writes.length, 2);
			assert.equal(writes[1].callback_url, TRIGGER_URL);
			assert.equal(writes[1].callback_url_option, '3');
			assert.equal(writes[1].email, 'new@example.com', 'the put-back keeps the change');
			assert.deepEqual(item.unexpectedChanges, [
				{
					field: 'callback_url',
					before: TRIGGER_URL.replace('TopSecret77', '********'),
					after: '',
					restored: true,
				},
			]);
			assert.doesNotMatch(JSON.stringify(item.unexpectedChanges), /TopSecret77/);
		});

		// Only where the service clears what is not sent.
		if (behaviours.length > 0)
			test("a trigger's URL that could not be put back is an error saying so and what to do", async () => {
				sandbox.control.seed({ virtualnum: { virtualnum: NUMBER, callback_url: TRIGGER_URL } });
				sandbox.control.injectFaults({ kind: 'slow', delayMs: 0, operation: 'update_virtualnum' });
				sandbox.control.injectFaults({
					kind: 'serviceError',
					code: 999,
					operation: 'update_virtualnum',
				});
				const error = failure(await update({ email: 'new@example.com' }));
				assert.match(
					error.message,
					/was updated, but the service cleared its Virtual Number Trigger/,
				);
				assert.match(String(error.description), /deactivate and activate its workflow again/);
				assert.doesNotMatch(`${error.message} ${error.description}`, /TopSecret77/);
			});

		test('Callback URL set by the user replaces the trigger’s URL', async () => {
			sandbox.control.seed({ virtualnum: { virtualnum: NUMBER, callback_url: TRIGGER_URL } });
			const [item] = jsons(await update({ callbackUrl: 'https://other.example.com/calls' }));
			assert.equal(
				sandbox.control.virtualnum(NUMBER)!.callback_url,
				'https://other.example.com/calls',
			);
			assert.equal(vnRequests(sandbox, 'update_virtualnum').length, 1);
			assert.deepEqual(item.unexpectedChanges, []);
		});

		test('a setting changed by someone else right after the write is reported (version 1.2)', async () => {
			// The read after the write waits 300 ms before it reads; meanwhile another writer changes
			// the email. (The first read takes the first fault, with no delay.)
			sandbox.control.injectFaults({ kind: 'slow', delayMs: 0, operation: 'get_virtualnum' });
			sandbox.control.injectFaults({ kind: 'slow', delayMs: 300, operation: 'get_virtualnum' });
			const updating = update({ description: 'Sales' });
			await waitFor(() => vnRequests(sandbox, 'get_virtualnum').length === 2);
			sandbox.control.seed({ virtualnum: { virtualnum: NUMBER, email: 'elsewhere@example.com' } });
			const [item] = jsons(await updating);
			assert.equal(item.description, 'Sales');
			assert.equal(item.email, 'elsewhere@example.com', 'the output is the number as it is now');
			assert.deepEqual(item.unexpectedChanges, [
				{ field: 'email', before: 'old@example.com', after: 'elsewhere@example.com' },
			]);
		});

		test('versions 1 and 1.1 output update_virtualnum’s answer, as before', async () => {
			for (const typeVersion of [1, 1.1]) {
				const [item] = jsons(await update({ description: `Sales ${typeVersion}` }, typeVersion));
				assert.equal(item.description, `Sales ${typeVersion}`);
				assert.equal(item.unexpectedChanges, undefined);
			}
		});
	});
}

/** Polls `condition` every 2 ms for up to 5 s. */
async function waitFor(condition: () => boolean): Promise<void> {
	const deadline = Date.now() + 5000;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error('timed out waiting');
		await new Promise((resolve) => setTimeout(resolve, 2));
	}
}
