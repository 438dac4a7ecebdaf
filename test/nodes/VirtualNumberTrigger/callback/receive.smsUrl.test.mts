/**
 * The URL pasted by hand for SMS events (`…/webhook/<webhookId>/sms/<token>`): n8n registers it from
 * the Secret, the editor's panel shows it whole while an SMS event is chosen, and it takes SMS
 * events without `?secret=`; a wrong token is not routed, and a call's callback sent there is refused.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { vnCredential } from '../../../../dev/harness/nodeTest.mts';
import { selectedNumbers, type TriggerInstance } from '../../../../dev/harness/trigger.mts';
import { callbackSetup } from './callbackSetup.mts';

const SECRET = 'Sms-s3cret&/+= שלום 0123456789';
/** The SMS URL's token: the first 32 hex digits of the Secret's SHA-256 (docs/trigger.md). */
const smsToken = (secret: string) =>
	createHash('sha256').update(secret, 'utf8').digest('hex').slice(0, 32);
const STOP = { from: '0541234567', to: '0722000100', msg: 'STOP' };

describe('Virtual Number Trigger → the SMS URL (its secret in the path)', () => {
	const { sandbox, host, numbers, activated, post } = callbackSetup();
	const smsUrl = (t: TriggerInstance, token = smsToken(SECRET)) =>
		t.webhookUrl.replace(/\/webhook$/, `/sms/${token}`);
	const parameters = (events: string[], options: IDataObject = { secret: SECRET }) => ({
		events,
		numbers: 'selected',
		virtualnums: selectedNumbers([numbers()[0]]),
		options,
	});
	const json = (body: IDataObject) => [JSON.stringify(body), 'application/json'] as const;

	test('n8n registers sms/<the first 32 hex of the Secret’s SHA-256>, or sms without a Secret', () => {
		for (const secret of [SECRET, 'x', '🔑 long '.repeat(40)]) {
			const t = host.add({
				typeVersion: 1.1,
				credentials: { virtualnumApi: vnCredential(sandbox) },
				parameters: parameters(['smsReceived'], { secret }),
			});
			const token = smsToken(secret);
			const sms = t.webhookPaths().filter((w) => w.path.startsWith('sms'));
			assert.deepEqual(
				sms.map((w) => [w.method, w.path]),
				[
					['POST', `sms/${token}`],
					['GET', `sms/${token}`],
				],
			);
		}
		const none = host.add({
			typeVersion: 1.1,
			credentials: { virtualnumApi: vnCredential(sandbox) },
			parameters: parameters(['callStarted'], {}),
		});
		assert.deepEqual(
			none.webhookPaths().map((w) => w.path),
			['webhook', 'webhook', 'sms', 'sms'],
		);
	});

	test('the panel lists the SMS URL while an SMS event is chosen, else the call URL', () => {
		const shown = (events: string[]) =>
			host
				.add({
					typeVersion: 1.1,
					credentials: { virtualnumApi: vnCredential(sandbox) },
					parameters: parameters(events),
				})
				.webhookPaths()
				.filter((w) => w.shown)
				.map((w) => `${w.method} ${w.path.replace(/\/.*/, '/…')}`);
		assert.deepEqual(shown(['callStarted', 'callEnded']), ['POST webhook', 'GET webhook']);
		assert.deepEqual(shown(['smsReceived']), ['POST sms/…', 'GET sms/…']);
		assert.deepEqual(shown(['smsDelivery', 'callEnded']), ['POST sms/…', 'GET sms/…']);
	});

	test('an SMS to the SMS URL starts the workflow without ?secret=, by POST and by GET', async () => {
		const t = await activated(parameters(['smsReceived']), 1.1);
		assert.equal((await post(smsUrl(t), ...json(STOP))).status, 200);
		assert.equal(t.outcomes.at(-1)!.items[0].json.optOut, true);
		const query = new URLSearchParams(STOP).toString();
		assert.equal((await fetch(`${smsUrl(t)}?${query}`)).status, 200);
		assert.equal(t.outcomes.at(-1)!.started, true);
		// the call URL still needs the Secret itself
		assert.equal((await post(t.webhookUrl, ...json(STOP))).status, 401);
	});

	test('a wrong token is not a registered path (n8n answers 404); the workflow starts nothing', async () => {
		const t = await activated(parameters(['smsReceived']), 1.1);
		const answer = await post(smsUrl(t, smsToken('another secret')), ...json(STOP));
		assert.equal(answer.status, 404);
		assert.equal(t.outcomes.length, 0);
	});

	test("a call's callback sent to the SMS URL is refused (401): that URL travels with every SMS", async () => {
		const t = await activated(parameters(['smsReceived', 'callStarted']), 1.1);
		const from = host.logCount;
		const start = { event: 'start', call_uuid: 'c-1', cdr_ddi: '0722000100', cdr_ani: '0501' };
		assert.equal((await post(smsUrl(t), ...json(start))).status, 401);
		assert.equal(t.outcomes.at(-1)!.started, false);
		assert.ok(
			host.logsSince(from).some((line) => line.includes('a call callback sent to the SMS URL')),
		);
	});

	test('a delivery status to the SMS URL carries the campaign ID of its query', async () => {
		const t = await activated(parameters(['smsDelivery']), 1.1);
		const status = { message_id: '44', dest: '0541112222', status: 'DELIVERED' };
		assert.equal((await post(`${smsUrl(t)}?campaignId=spring`, ...json(status))).status, 200);
		const item = t.outcomes.at(-1)!.items[0].json;
		assert.equal(item.campaignId, 'spring');
		assert.equal(JSON.stringify(item).includes(smsToken(SECRET)), false, 'the token is in no item');
	});

	test("version 1.1 refuses the examples' placeholder Secret at activation; version 1 keeps it", async () => {
		const placeholder = { secret: 'change-me-to-a-long-random-secret' };
		await assert.rejects(
			activated(parameters(['smsReceived'], placeholder), 1.1),
			(error: Error) => {
				assert.match(error.message, /^Secret: the Secret is still the example's placeholder/);
				return true;
			},
		);
		const v1 = await activated(parameters(['smsReceived'], placeholder), 1);
		assert.equal(v1.active, true);
	});
});
