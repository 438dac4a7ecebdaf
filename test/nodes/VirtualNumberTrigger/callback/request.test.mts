/** Requests of every shape as n8n hands them over: read whole, never dropped. */
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import type { TriggerInstance } from '../../../../dev/harness/trigger.mts';
import { CALLS, callbackSetup } from './callbackSetup.mts';

describe('Virtual Number Trigger → reading the request', () => {
	const { activated, post } = callbackSetup();

	describe('bodies of every shape', () => {
		let t: TriggerInstance;
		beforeEach(async () => {
			t = await activated({ events: [...CALLS, 'smsDelivery'] });
		});

		test('plain text that is no format comes out as raw text', async () => {
			const answer = await post(t.webhookUrl, 'garbage <<not a payload>>', 'text/plain');
			assert.equal(answer.status, 200);
			const item = t.executions[0][0].json;
			assert.equal(item.event, 'unknown');
			assert.equal(item.rawBody, 'garbage <<not a payload>>');
			assert.deepEqual(item.body, {});
		});

		test('bytes of an unknown content type come out as raw text', async () => {
			await post(t.webhookUrl, 'a\u0000b\u00ff', 'application/octet-stream');
			const item = t.executions[0][0].json;
			assert.equal(item.event, 'unknown');
			assert.equal(item.rawBody, 'a\u0000b\u00ff');
		});

		test('JSON or form fields sent without a content type are still read', async () => {
			await post(
				t.webhookUrl,
				JSON.stringify({
					event: 'end',
					call_uuid: '5.5',
					cdr_ddi: '0722000100',
					call_duration: '61',
				}),
			);
			await post(t.webhookUrl, 'message_id=44&dest=0541112222&status=DELIVERED');
			const [call, sms] = t.executions.map((items) => items[0].json);
			assert.equal(call.event, 'call.ended');
			assert.equal(call.durationSec, 61);
			assert.deepEqual(call.body, {
				event: 'end',
				call_uuid: '5.5',
				cdr_ddi: '0722000100',
				call_duration: '61',
			});
			assert.equal(sms.event, 'sms.delivery');
			assert.equal(sms.messageId, '44');
			assert.equal(sms.deliveryStatus, 'DELIVERED');
		});

		test('an XML body is read from its root element', async () => {
			await post(
				t.webhookUrl,
				'<callback><event>end</event><cdr_uniqueid>8.8</cdr_uniqueid><cdr_ddi>0722000101</cdr_ddi><cdr_ani>0541234567</cdr_ani><call_status>BUSY</call_status><call_duration>0</call_duration></callback>',
				'application/xml',
			);
			const item = t.executions[0][0].json;
			assert.equal(item.event, 'call.ended');
			assert.equal(item.callId, '8.8');
			assert.equal(item.callStatus, 'BUSY');
			assert.equal(item.durationSec, 0);
		});

		test('without an event field, the fields tell start from end', async () => {
			await post(
				t.webhookUrl,
				JSON.stringify({ cdr_uniqueid: '1', cdr_ddi: '0722000100', cdr_ani: '0541234567' }),
				'application/json',
			);
			await post(
				t.webhookUrl,
				JSON.stringify({ cdr_uniqueid: '1', cdr_ddi: '0722000100', call_status: 'ANSWER' }),
				'application/json',
			);
			assert.deepEqual(
				t.executions.map((items) => items[0].json.event),
				['call.started', 'call.ended'],
			);
		});

		test('an empty request (a reachability check) is answered 200 and starts nothing', async () => {
			const answer = await fetch(t.webhookUrl);
			assert.equal(answer.status, 200);
			assert.equal(await answer.text(), '');
			const empty = await post(t.webhookUrl, '', 'application/json');
			assert.equal(empty.status, 200);
			assert.equal(t.executions.length, 0);
		});

		test('JSON that n8n could not parse never reaches the node; the node given such a body passes it on as raw text', async () => {
			const answer = await post(t.webhookUrl, '{"event": "end", "call_uuid": ', 'application/json');
			assert.equal(answer.status, 422, "n8n's webhook server refuses it before the node");
			const direct = await t.receive({
				method: 'POST',
				body: {},
				rawBody: '{"event": "end", "call_uuid": ',
				headers: { 'content-type': 'application/json' },
			});
			assert.equal(direct.started, true);
			assert.equal(direct.items[0].json.rawBody, '{"event": "end", "call_uuid": ');
		});

		test('hostile keys do not pollute anything', async () => {
			const body = JSON.parse(
				'{"__proto__": {"polluted": "yes"}, "constructor": "x", "event": "end", "call_uuid": "3.3"}',
			) as IDataObject;
			const outcome = await t.receive({
				method: 'POST',
				body,
				query: JSON.parse('{"__proto__": {"q": 1}}') as IDataObject,
			});
			assert.equal(outcome.started, true);
			assert.equal(outcome.items[0].json.event, 'call.ended');
			assert.equal(({} as IDataObject).polluted, undefined);
		});
	});
});
