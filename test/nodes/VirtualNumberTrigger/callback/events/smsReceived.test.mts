/**
 * SMS Received: the service calls the URL set on a number with GET `from`, `to`, `msg`, `time`
 * (POST read the same way); the Secret and Allowed IPs apply; opt-out replies are marked; Keywords
 * filter. Requests go through the harness's HTTP server, as n8n's webhook server would parse them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { TriggerHost } from '../../../../../dev/harness/trigger.mts';

const SMS = {
	from: '0541234567',
	to: '0722000100',
	msg: 'Hello there',
	time: '2026-11-24 12:30:05',
};

describe('Virtual Number Trigger → SMS Received', () => {
	let host: TriggerHost;
	before(async () => {
		host = await TriggerHost.start();
	});
	after(async () => await host.close());

	const trigger = (options: IDataObject = {}, events = ['smsReceived']) =>
		host.add({
			parameters: { events, options },
			// nothing is registered for SMS events: the credential is never used
			credentials: { virtualnumApi: { baseUrl: 'http://127.0.0.1:9', accessToken: 'unused' } },
		});
	async function send(url: string, fields: Record<string, string>, method = 'GET') {
		const query = new URLSearchParams(fields).toString();
		const answer =
			method === 'GET'
				? await fetch(`${url}${url.includes('?') ? '&' : '?'}${query}`)
				: await fetch(url, {
						method,
						headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
						body: query,
					});
		return answer.status;
	}

	test('a message of spaces only is an SMS Received with its text as sent, not an unknown event', async () => {
		const t = trigger();
		assert.equal(await send(t.webhookUrl, { ...SMS, msg: '   ' }), 200);
		const outcome = t.outcomes.at(-1)!;
		assert.equal(outcome.started, true);
		assert.equal(outcome.items[0].json.event, 'sms.received');
		assert.equal(outcome.items[0].json.text, '   ');
		assert.equal(outcome.items[0].json.optOut, false);
	});

	for (const method of ['GET', 'POST']) {
		test(`a ${method} callback becomes one sms.received item in the package's words`, async () => {
			const t = trigger();
			assert.equal(await send(t.webhookUrl, SMS, method), 200);
			const outcome = t.outcomes.at(-1)!;
			assert.equal(outcome.started, true);
			const item = outcome.items[0].json;
			assert.equal(item.event, 'sms.received');
			assert.equal(item.from, SMS.from);
			assert.equal(item.to, SMS.to);
			assert.equal(item.text, SMS.msg);
			assert.equal(item.receivedAt, SMS.time, "the service's time of the message");
			assert.equal(item.optOut, false);
			assert.equal(item.method, method);
		});
	}

	test('opt-out replies are marked (STOP, הסר, הסרה…; Opt-Out Keywords add to them), and still start the workflow', async () => {
		const t = trigger();
		for (const [msg, optOut] of [
			['STOP', true],
			['stop!', true],
			['הסר', true],
			['הסרה בבקשה', true],
			['Please stop', true],
			['STOPPED', false],
		] as const) {
			await send(t.webhookUrl, { ...SMS, msg });
			assert.equal(t.outcomes.at(-1)!.items[0].json.optOut, optOut, msg);
		}
		const custom = trigger({ optOutKeywords: 'UNSUBSCRIBE, BASTA' });
		await send(custom.webhookUrl, { ...SMS, msg: 'basta' });
		assert.equal(custom.outcomes.at(-1)!.items[0].json.optOut, true);
		await send(custom.webhookUrl, { ...SMS, msg: 'STOP' });
		assert.equal(custom.outcomes.at(-1)!.items[0].json.optOut, true, 'a refusal is never lost');
	});

	test('Keywords: only messages starting with one of them start the workflow; opt-outs always do', async () => {
		const t = trigger({ keywords: 'INFO, join' });
		await send(t.webhookUrl, { ...SMS, msg: 'info please' });
		assert.equal(t.outcomes.at(-1)!.started, true);
		assert.equal(
			await send(t.webhookUrl, { ...SMS, msg: 'hello' }),
			200,
			'answered, as the service expects',
		);
		assert.equal(t.outcomes.at(-1)!.started, false);
		await send(t.webhookUrl, { ...SMS, msg: 'STOP' });
		assert.equal(t.outcomes.at(-1)!.started, true);
	});

	test('the Secret and Allowed IPs are honoured', async () => {
		const t = trigger({ secret: 'inbound-secret' });
		assert.equal(await send(t.webhookUrl, SMS), 401);
		assert.equal(t.outcomes.at(-1)!.started, false);
		assert.equal(await send(`${t.webhookUrl}?secret=inbound-secret`, SMS), 200);
		const item = t.outcomes.at(-1)!.items[0].json;
		assert.equal(item.event, 'sms.received');
		assert.equal(
			(item.query as IDataObject).secret,
			undefined,
			'the secret never reaches the item',
		);

		const far = trigger({ allowedIps: '203.0.113.0/24' });
		assert.equal(await send(far.webhookUrl, SMS), 401, 'the harness calls from 127.0.0.1');
		const near = trigger({ allowedIps: '127.0.0.1' });
		assert.equal(await send(near.webhookUrl, SMS), 200);
		assert.equal(near.outcomes.at(-1)!.started, true);
	});

	test('not chosen: an inbound SMS starts nothing on a trigger for SMS delivery statuses only', async () => {
		const t = trigger({}, ['smsDelivery']);
		assert.equal(await send(t.webhookUrl, SMS), 200);
		assert.equal(t.outcomes.at(-1)!.started, false);
	});
});
