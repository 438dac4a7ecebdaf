/**
 * One change at a time per number within one n8n process: a Virtual Number → Update whose read is
 * held back while a Virtual Number Trigger is activated on the same number. Without the lock the
 * Update, having read the number before the activation, writes its old callback URL back after it:
 * the workflow shows active and no call reaches it. With it, the activation waits for the Update
 * (or the Update for the activation), and the number ends with both the trigger's URL and the
 * Update's change. Under both readings of update_virtualnum.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import { baseOf } from '../../../nodes/shared/triggerUrl.ts';
import { TriggerHost, selectedNumbers } from '../../../dev/harness/trigger.mts';
import { startSandbox, type Sandbox } from '../../../dev/sandbox/index.mts';
import { jsons, rl, vnRequests, vnRunner } from '../VirtualNumber/vnRun.mts';

let sandbox: Sandbox;
const run = vnRunner(() => sandbox);
const NUMBER = '0722000103';
const CRM = 'https://crm.example.com/calls';

const READINGS = {
	'only the values sent change': [],
	'the whole record is replaced': ['update-replaces'],
} as const;

async function waitFor(condition: () => boolean): Promise<void> {
	const deadline = Date.now() + 5000;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error('timed out waiting');
		await new Promise((resolve) => setTimeout(resolve, 2));
	}
}

for (const [reading, behaviours] of Object.entries(READINGS)) {
	describe(`Update and a trigger activation on one number at once, ${reading}`, () => {
		let host: TriggerHost;
		before(async () => {
			sandbox = await startSandbox({ profile: 'contract', behaviours: [...behaviours] });
			host = await TriggerHost.start();
		});
		after(async () => {
			await host.close();
			await sandbox.close();
		});
		beforeEach(() => {
			sandbox.control.reset();
			sandbox.control.seed({
				virtualnum: { virtualnum: NUMBER, callback_url: CRM, callback_url_option: 2 },
			});
			sandbox.control.clearRequests();
		});

		test("the number keeps the trigger's URL and the Update's change", async () => {
			sandbox.control.injectFaults({
				kind: 'lateAnswer',
				delayMs: 400,
				operation: 'get_virtualnum',
			});
			const updating = run(
				{
					resource: 'virtualnum',
					operation: 'update',
					virtualnum: rl(NUMBER),
					updateFields: { email: 'desk@example.com' },
				},
				{ typeVersion: 1.2 },
			);
			// The Update has read (its answer held back): now the workflow is activated.
			await waitFor(() => vnRequests(sandbox, 'get_virtualnum').length === 1);
			const trigger = host.add({
				parameters: {
					events: ['callStarted', 'callEnded'],
					numbers: 'selected',
					virtualnums: selectedNumbers([NUMBER]),
				},
				credentials: {
					virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn },
				},
			});
			await Promise.all([trigger.activate(), updating.then(jsons)]);
			const record = sandbox.control.virtualnum(NUMBER)!;
			assert.equal(
				baseOf(record.callback_url),
				trigger.webhookUrl,
				'the trigger receives the calls',
			);
			assert.equal(record.callback_url_option, 3);
			assert.equal(record.email, 'desk@example.com', "the Update's change stayed");
			// The trigger's check (checkExists) only reads; its registration waited for the Update's write.
			const writes = vnRequests(sandbox, 'update_virtualnum').map(
				(request) => request.body as Record<string, string>,
			);
			assert.equal(writes[0].email, 'desk@example.com', "the Update's write came first");
			assert.equal(baseOf(writes[1].callback_url), trigger.webhookUrl, "then the trigger's");
			await trigger.deactivate();
			assert.equal(sandbox.control.virtualnum(NUMBER)!.callback_url, CRM, 'deactivation restores');
		});
	});
}
