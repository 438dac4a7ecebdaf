/** What a callback request gets: the checks it must pass, whether it starts the workflow, and the answer. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { setCallbackAtService } from '../../../../dev/harness/serviceCalls.mts';
import { TriggerHost, selectedNumbers } from '../../../../dev/harness/trigger.mts';
import { CALLS, SECRET, callbackSetup } from './callbackSetup.mts';

describe('Virtual Number Trigger → receiving callbacks: the checks and the answer', () => {
	const { sandbox, host, numbers, activated, post, expectedCall, stable } = callbackSetup();

	for (const style of ['json', 'form', 'query'] as const) {
		test(`a call placed on the sandbox fires start and end callbacks that come out as normalized items (${style})`, async () => {
			sandbox.control.configure({ callbackStyle: style });
			const [number] = numbers();
			const t = await activated({
				events: CALLS,
				numbers: 'selected',
				virtualnums: selectedNumbers([number]),
			});

			const { call, callbacks } = await sandbox.control.placeCall({
				virtualnum: number,
				caller: '0541234567',
				durationSec: 95,
			});

			assert.deepEqual(
				callbacks.map((c) => [c.kind, c.method, c.responseStatus]),
				[
					['call.start', style === 'query' ? 'GET' : 'POST', 200],
					['call.end', style === 'query' ? 'GET' : 'POST', 200],
				],
			);
			assert.equal(t.executions.length, 2);
			const [started, ended] = t.executions.map((items) => {
				assert.equal(items.length, 1, 'one item per callback');
				// as n8n stores it (query and form bodies are parsed into null-prototype objects)
				return JSON.parse(JSON.stringify(items[0].json)) as IDataObject;
			});
			assert.deepEqual(stable(started), expectedCall(call, 'call.started'));
			assert.deepEqual(stable(ended), expectedCall(call, 'call.ended'));
			assert.equal(ended.durationSec, 95);
			assert.equal(ended.method, style === 'query' ? 'GET' : 'POST');
			// the untouched request: the fields as sent, in the query (GET) or the body (POST)
			const sent = callbacks[1];
			if (style === 'query') {
				const { vnt, vnt_prev: previous, ...fields } = sent.query;
				assert.deepEqual(
					[vnt, previous],
					['live', '2'],
					"the trigger's own parameters travel with the callback",
				);
				assert.deepEqual(ended.query, fields, "and are left out of the item's query");
				assert.deepEqual(ended.body, {});
			} else {
				assert.deepEqual(ended.body, sent.body);
				assert.deepEqual(ended.query, {});
			}
		});
	}

	test('a filtered-out event is answered 200 and starts nothing', async () => {
		const [number] = numbers();
		const t = await activated({
			events: ['callEnded'],
			numbers: 'selected',
			virtualnums: selectedNumbers([number]),
		});
		// Someone makes the number report the start too (its URL kept): the trigger still starts only on the end.
		const { callback_url: url } = sandbox.control.virtualnum(number)!;
		await setCallbackAtService(sandbox, number, url, 3);
		const { callbacks } = await sandbox.control.placeCall({
			virtualnum: number,
			caller: '0541234567',
		});
		assert.deepEqual(
			callbacks.map((c) => [c.kind, c.responseStatus, c.responseBody]),
			[
				['call.start', 200, ''],
				['call.end', 200, ''],
			],
			'callbacks are answered with an empty body, started or not',
		);
		assert.equal(t.executions.length, 1);
		assert.equal(t.executions[0][0].json.event, 'call.ended');
		assert.equal(t.outcomes[0].started, false);
		assert.equal(t.outcomes[0].result?.workflowData, undefined);
	});

	test('with a secret: the registered URL carries it, callbacks pass, the item does not show it', async () => {
		const [number] = numbers();
		const t = await activated({
			events: CALLS,
			numbers: 'selected',
			virtualnums: selectedNumbers([number]),
			options: { secret: SECRET },
		});
		const { callbacks } = await sandbox.control.placeCall({
			virtualnum: number,
			caller: '0541234567',
		});
		assert.deepEqual(
			callbacks.map((c) => c.responseStatus),
			[200, 200],
		);
		assert.equal(t.executions.length, 2);
		for (const [item] of t.executions) {
			assert.deepEqual(item.json.query, {}, 'the secret is taken out of the query');
			assert.ok(!JSON.stringify(item.json).includes(SECRET));
		}
	});

	test('a request without the secret, or with a wrong one, gets 401 and starts nothing', async () => {
		const t = await activated({ events: CALLS, options: { secret: SECRET } });
		const logsFrom = host.logCount;
		const body = JSON.stringify({
			event: 'call.start',
			call_uuid: '1.1',
			cdr_ddi: '0722000100',
			cdr_ani: '0541234567',
		});
		const attempts = [
			await post(t.webhookUrl, body, 'application/json'),
			await post(`${t.webhookUrl}?secret=wrong`, body, 'application/json'),
			await post(`${t.webhookUrl}?secret=${encodeURIComponent(SECRET)}x`, body, 'application/json'),
			await post(
				`${t.webhookUrl}?secret=${encodeURIComponent(SECRET)}&secret=${encodeURIComponent(SECRET)}`,
				body,
				'application/json',
			),
			// the right value under another parameter name
			await fetch(
				`${t.webhookUrl}?${new URLSearchParams({ event: 'start', call_uuid: '1.2', Secret: SECRET })}`,
			),
		];
		for (const answer of attempts) {
			assert.equal(answer.status, 401);
			assert.equal(await answer.text(), 'Unauthorized');
		}
		assert.equal(t.executions.length, 0, 'nothing started');
		assert.ok(
			t.outcomes.every(
				(o) => o.result?.noWebhookResponse === true && o.result.workflowData === undefined,
			),
		);
		const logs = host.logsSince(logsFrom).join('\n');
		assert.match(logs, /refused a request without the right secret/);
		assert.ok(!logs.includes(SECRET), 'the secret is never logged');

		const ok = await post(
			`${t.webhookUrl}?secret=${encodeURIComponent(SECRET)}`,
			body,
			'application/json',
		);
		assert.equal(ok.status, 200);
		assert.equal(t.executions.length, 1);
	});

	test('a body over the size limit gets 413 and starts nothing', async () => {
		const t = await activated({ events: CALLS, options: { maxBodyKb: 2 } });
		const big = JSON.stringify({
			event: 'call.start',
			call_uuid: '1.1',
			padding: 'x'.repeat(3000),
		});
		const answer = await post(t.webhookUrl, big, 'application/json');
		assert.equal(answer.status, 413);
		assert.equal(await answer.text(), 'Payload Too Large');
		const small = await post(
			t.webhookUrl,
			JSON.stringify({ event: 'call.start', call_uuid: '1.1' }),
			'application/json',
		);
		assert.equal(small.status, 200);
		assert.equal(t.executions.length, 1);
		// the default limit (64 KB), on a trigger that registers nothing (only one trigger can hold a number)
		const byDefault = await activated({ events: ['smsDelivery'] });
		const huge = await post(
			byDefault.webhookUrl,
			JSON.stringify({ event: 'end', padding: 'x'.repeat(70 * 1024) }),
			'application/json',
		);
		assert.equal(huge.status, 413);
		assert.equal(byDefault.executions.length, 0);
	});

	test('listening for a test event: the test URL receives one call, then the number goes back', async () => {
		const [number] = numbers();
		const t = host.add({
			parameters: {
				events: ['callStarted'],
				numbers: 'selected',
				virtualnums: selectedNumbers([number]),
			},
			credentials: { virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn } },
		});
		await t.listen();
		assert.ok(t.holds(sandbox.control.virtualnum(number)!.callback_url, 'test'));
		const { callbacks } = await sandbox.control.placeCall({
			virtualnum: number,
			caller: '0541234567',
		});
		assert.deepEqual(
			callbacks.map((c) => [c.kind, c.responseStatus, c.responseBody]),
			[['call.start', 200, '']],
		);
		// n8n answers first, then deregisters and runs the execution
		for (let i = 0; i < 100 && (t.executions.length === 0 || t.listening); i++)
			await new Promise((resolve) => setTimeout(resolve, 20));
		assert.equal(t.executions.length, 1);
		assert.equal(t.outcomes[0].mode, 'test');
		assert.equal(t.listening, false);
		assert.deepEqual(
			{
				url: sandbox.control.virtualnum(number)!.callback_url,
				option: sandbox.control.virtualnum(number)!.callback_url_option,
			},
			{ url: '', option: 2 },
		);
	});
});

describe('Virtual Number Trigger → receiving callbacks, without a service behind', () => {
	let host: TriggerHost;
	before(async () => (host = await TriggerHost.start()));
	after(async () => await host.close());
	const credentials = { virtualnumApi: { baseUrl: 'http://127.0.0.1:9', accessToken: 'unused' } };
	const CALL = { event: 'end', call_uuid: '77.1', cdr_ddi: '0722000100' };

	test('the secret is compared in full', async () => {
		const t = host.add({
			parameters: { events: ['callEnded'], options: { secret: 'abc' } },
			credentials,
		});
		assert.equal((await t.receive({ query: { secret: 'abc' }, body: CALL })).started, true);
		for (const given of ['abd', 'ab', 'abcd', '', undefined, ['abc'], { 0: 'abc' }, 1]) {
			const outcome = await t.receive({ query: { secret: given }, body: CALL });
			assert.equal(outcome.started, false, JSON.stringify(given));
			assert.equal(outcome.status, 401, JSON.stringify(given));
		}
	});

	test('field aliases: several vocabularies give the same item', async () => {
		const t = host.add({ parameters: { events: ['callEnded'], options: {} }, credentials });
		const variants = [
			{
				event: 'call.end',
				call_uuid: '77.1',
				cdr_ddi: '0722000100',
				cdr_ani: '0541234567',
				user_phone: '0501112222',
				call_duration: 12,
				call_status: 'ANSWER',
			},
			{
				EVENT: 'END',
				CDR_UNIQUEID: '77.1',
				CDR_DDI: '0722000100',
				CDR_ANI: '0541234567',
				USER_PHONE: '0501112222',
				CALL_DURATION: '12',
				CALL_STATUS: 'ANSWER',
			},
			{
				type: 'hangup',
				uniqueid: '77.1',
				did: '0722000100',
				caller_id: '0541234567',
				destination: '0501112222',
				duration: '12',
				call_status: 'ANSWER',
			},
		];
		const items = [];
		for (const body of variants) {
			const outcome = await t.receive({ body });
			assert.equal(outcome.items.length, 1, JSON.stringify(body));
			const { body: _b, query: _q, method: _m, receivedAt: _r, ...rest } = outcome.items[0].json;
			items.push(rest);
		}
		assert.deepEqual(items[1], items[0]);
		assert.deepEqual(items[2], items[0]);
		assert.equal(items[0].durationSec, 12);
	});
});
