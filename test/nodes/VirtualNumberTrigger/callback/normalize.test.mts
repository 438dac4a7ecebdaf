/** The fields of a callback under the package's vocabulary, and the event it reports. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { selectedNumbers } from '../../../../dev/harness/trigger.mts';
import { CALLS, callbackSetup } from './callbackSetup.mts';

describe('Virtual Number Trigger → one request as one item', () => {
	const { sandbox, host, numbers, activated } = callbackSetup();

	describe('callbacks as integrators of the real service report them (upper-case fields)', () => {
		test('CLI, DDI, UUID, CALLSTATUS, DURATION, DEST and download come out under the vocabulary; STARTED is a start', async () => {
			sandbox.control.configure({ callbackStyle: 'upper' });
			const [number] = numbers();
			const t = await activated({
				events: CALLS,
				numbers: 'selected',
				virtualnums: selectedNumbers([number]),
			});
			const { call, callbacks } = await sandbox.control.placeCall({
				virtualnum: number,
				caller: '0541234567',
				durationSec: 61,
			});
			assert.deepEqual(
				callbacks.map((c) => [c.kind, c.method, c.responseStatus]),
				[
					['call.start', 'GET', 200],
					['call.end', 'GET', 200],
				],
			);
			assert.equal(callbacks[0].query.CALLSTATUS, 'STARTED');
			const [started, ended] = t.executions.map((items) => items[0].json);
			assert.equal(started.event, 'call.started', 'CALLSTATUS=STARTED is the start, not the end');
			assert.deepEqual(
				[
					started.callId,
					started.virtualNumber,
					started.callerNumber,
					started.destinationPhone,
					started.callStatus,
				],
				[call.cdr_uniqueid, number, '0541234567', call.user_phone, 'STARTED'],
			);
			assert.equal(ended.event, 'call.ended');
			assert.equal(ended.callStatus, 'ANSWER');
			assert.equal(ended.durationSec, 61);
			assert.equal(ended.recordingUrl, callbacks[1].query.download);
			assert.equal(ended.recordingExists, true, 'a download address means a recording exists');
			assert.equal(
				(ended.query as IDataObject).CLI,
				'0541234567',
				"the query as sent, without the trigger's own parameters",
			);
			assert.ok(!Object.keys(ended.query as IDataObject).some((key) => key.startsWith('vnt')));
		});

		for (const [status, event] of [
			['ENDED', 'call.ended'],
			['NOANSWER', 'call.ended'],
			['BUSY', 'call.ended'],
			['Ringing', 'call.started'],
			['STARTED', 'call.started'],
		] as const) {
			test(`CALLSTATUS=${status} is ${event}`, async () => {
				const t = host.add({
					parameters: { events: CALLS },
					credentials: {
						virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn },
					},
				});
				const outcome = await t.receive({
					method: 'POST',
					body: {
						UUID: '9.1',
						DDI: '0722000100',
						CLI: '0541234567',
						CALLSTATUS: status,
						CALLDURATION: '7',
					},
				});
				assert.equal(outcome.items[0].json.event, event);
				assert.equal(outcome.items[0].json.durationSec, 7, 'CALLDURATION is the duration');
			});
		}
	});

	test('an event or type named after Object.prototype is passed on, never dropped', async () => {
		const t = await activated({ events: CALLS });
		for (const name of Object.getOwnPropertyNames(Object.prototype)) {
			for (const field of ['event', 'type']) {
				const withCall = await t.receive({
					method: 'POST',
					body: { [field]: name, call_uuid: '4.2', cdr_ddi: '0722000100' },
				});
				assert.equal(withCall.started, true, `${field}=${name} with call fields`);
				assert.equal(withCall.items[0].json.event, 'call.started');
				const alone = await t.receive({ method: 'POST', body: { [field]: name } });
				assert.equal(alone.started, true, `${field}=${name} alone`);
				assert.equal(alone.items[0].json.event, 'unknown');
			}
		}
	});

	test('keys n8n refuses in expressions are renamed with a trailing underscore in the query and body, at any depth', async () => {
		const t = await activated({ events: CALLS });
		const body = JSON.parse(
			'{"caller": "0541234567", "caller_": "taken", "constructor": {"prototype": 1, "ok": 2}, "list": [{"__proto__": "x"}], "event": "end", "call_uuid": "5.1"}',
		) as IDataObject;
		const outcome = await t.receive({ method: 'POST', body, query: { arguments: 'a' } });
		const item = JSON.parse(JSON.stringify(outcome.items[0].json)) as IDataObject;
		assert.deepEqual(item.body, {
			caller__: '0541234567',
			caller_: 'taken',
			constructor_: { prototype_: 1, ok: 2 },
			list: [{ __proto___: 'x' }],
			event: 'end',
			call_uuid: '5.1',
		});
		assert.deepEqual(item.query, { arguments_: 'a' });
		assert.equal(item.callerNumber, '0541234567', 'the caller field itself is read under its name');
	});
});
