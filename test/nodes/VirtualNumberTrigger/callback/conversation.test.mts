/**
 * SMS Received in a conversation: `conversationKey` on every item, the relay of replies to the runs
 * waiting for them (Look Up: Runs Waiting for This Reply) and `optedOut` (Senders Who Opted Out),
 * through the harness's HTTP server as n8n's webhook server calls the trigger, against a stand-in
 * of n8n's public Data Table API and of waiting runs' resume URLs (dev/harness/n8nPublicApi.mts).
 * The real n8n: dev/e2e/lib/smsReplyCases.mts.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, beforeEach, describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { hostPerFile } from '../../../../dev/harness/nodeTest.mts';
import {
	startN8nStandIn,
	type N8nStandIn,
	type WaitingRun,
} from '../../../../dev/harness/n8nPublicApi.mts';
import type { TriggerInstance } from '../../../../dev/harness/trigger.mts';

const WAITS = 'Virtual Number SMS Reply Waits';
const WAIT_COLUMNS = ['phone', 'sender', 'resumeUrl', 'executionId', 'expiresAt', 'reasked'].map(
	(name) => ({
		name,
		type: name === 'expiresAt' ? 'date' : name === 'reasked' ? 'boolean' : 'string',
	}),
);
const SMS = { from: '+972 54-111-0010', to: '0722000100', msg: '1', time: '2026-11-24 12:30:05' };
const SECRET = 'conversation-s3cret';
const CONVERSATION = { phone: '972541110010', sender: '972722000100' };

describe('Virtual Number Trigger → SMS Received in a conversation', () => {
	const host = hostPerFile();
	let n8n: N8nStandIn;
	before(async () => {
		n8n = await startN8nStandIn();
	});
	after(async () => await n8n.close());
	beforeEach(() => n8n.reset());

	const trigger = (
		dataTables: string[],
		options: IDataObject = {},
		apiKey?: string,
		typeVersion = 1.2,
	) =>
		host.add({
			typeVersion,
			// Versions 1.1 and later take an SMS only with the Secret.
			parameters: { events: ['smsReceived'], dataTables, options: { secret: SECRET, ...options } },
			credentials: {
				virtualnumApi: { baseUrl: 'http://127.0.0.1:9', accessToken: 'unused' },
				virtualnumN8nApi: { baseUrl: n8n.url, apiKey: apiKey ?? n8n.apiKey },
			},
		});
	/** The SMS as the service sends it; the service is answered before the look-ups end, so their outcome is awaited. */
	async function send(t: TriggerInstance, fields: Partial<typeof SMS> = {}) {
		const query = new URLSearchParams({ ...SMS, ...fields, secret: SECRET }).toString();
		const before = t.outcomes.length;
		const status = (await fetch(`${t.webhookUrl}?${query}`)).status;
		while (t.outcomes.length === before) await new Promise((resolve) => setTimeout(resolve, 10));
		return { status, outcome: t.outcomes.at(-1)! };
	}
	function table(name = WAITS) {
		const existing = [...n8n.tables.values()].find((t) => t.name === name);
		if (existing) return existing;
		const created = {
			// n8n's IDs are never reused: the trigger keeps a table's ID once found.
			...{ id: randomBytes(12).toString('base64url').slice(0, 16), name, projectId: 'p' },
			...{ columns: WAIT_COLUMNS, rows: [] as IDataObject[], nextId: 1, createdAt: '' },
		};
		n8n.tables.set(created.id, created as never);
		return created;
	}
	function waiting(executionId: string, run: Partial<WaitingRun> = {}, row: IDataObject = {}) {
		const state: WaitingRun = { state: { virtualnumRelay: 'resumed' }, received: [], ...run };
		n8n.runs.set(executionId, state);
		const t = table();
		const resumeUrl = n8n.resumeUrl(executionId);
		t.rows.push({
			id: t.nextId++,
			...CONVERSATION,
			resumeUrl,
			executionId,
			expiresAt: null,
			reasked: false,
			...row,
		});
		return state;
	}
	const relayedReply = (extra: IDataObject = {}) => ({
		virtualnumRelay: 1,
		kind: 'reply',
		text: '1',
		from: '+972 54-111-0010',
		to: '0722000100',
		receivedAt: SMS.time,
		optOut: false,
		reasked: false,
		...extra,
	});

	test("version 1.2: every item carries conversationKey, the sender's phone identity in any spelling; 1.1 keeps its shape", async () => {
		const t = trigger([]);
		for (const from of ['0541110010', '+972-54-111-0010', '972541110010', '00972541110010']) {
			const { outcome } = await send(t, { from, msg: 'hi' });
			assert.equal(outcome.items[0].json.conversationKey, '972541110010', from);
		}
		const older = trigger([], {}, undefined, 1.1);
		assert.equal('conversationKey' in (await send(older)).outcome.items[0].json, false);
		waiting('70');
		const relaying = trigger(['waitingRuns'], {}, undefined, 1.1);
		assert.equal(
			(await send(relaying)).outcome.started,
			false,
			'a 1.1 trigger relays all the same',
		);
	});

	test('a reply resumes the run waiting on the conversation and starts nothing; the service is answered 200', async () => {
		const run = waiting('71');
		const { status, outcome } = await send(trigger(['waitingRuns']));
		assert.equal(status, 200);
		assert.equal(outcome.started, false);
		assert.deepEqual(run.received, [relayedReply()]);
		assert.deepEqual(table().rows, [], 'the row is claimed');
		const again = await send(trigger(['waitingRuns']));
		assert.equal(again.outcome.started, true, 'a second reply is an ordinary SMS Received');
		assert.equal(run.received.length, 1);
	});

	test('Keywords do not keep a reply from its run; an SMS nobody waits for is still filtered by them', async () => {
		const run = waiting('72');
		const t = trigger(['waitingRuns'], { keywords: 'INFO' });
		assert.equal((await send(t)).outcome.started, false);
		assert.equal(run.received.length, 1);
		assert.equal((await send(t, { msg: 'hello' })).outcome.started, false);
		assert.equal((await send(t, { msg: 'INFO please' })).outcome.started, true);
	});

	test('an opt-out reply ends the wait and also starts the workflow, saying which run took it', async () => {
		const run = waiting('73');
		const { outcome } = await send(trigger(['waitingRuns']), { msg: 'STOP' });
		assert.equal(outcome.started, true);
		const item = outcome.items[0].json;
		assert.equal(item.optOut, true);
		assert.deepEqual(item.waitingRun, { executionId: '73', relayed: 'resumed' });
		assert.deepEqual(run.received, [relayedReply({ text: 'STOP', optOut: true })]);
	});

	test('a run that waits no more (finished, deleted) leaves the reply to the next, else to the workflow', async () => {
		waiting('74', { state: 'finished' });
		const { outcome } = await send(trigger(['waitingRuns']));
		assert.equal(outcome.started, true);
		assert.equal(outcome.items[0].json.waitingRun, undefined);
		const older = waiting('75');
		waiting('76', { state: 'deleted' });
		assert.equal((await send(trigger(['waitingRuns']))).outcome.started, false);
		assert.equal(
			older.received.length,
			1,
			'the newest run was deleted: the older one got the reply',
		);
		assert.deepEqual(table().rows, []);
	});

	test('a run asked again keeps its row, marked; its next reply carries the mark', async () => {
		const run = waiting('77', { state: { virtualnumRelay: 'reasked' } });
		assert.equal((await send(trigger(['waitingRuns']), { msg: '👍' })).outcome.started, false);
		assert.deepEqual(
			table().rows.map((row) => [row.executionId, row.reasked]),
			[['77', true]],
		);
		run.state = { virtualnumRelay: 'resumed' };
		await send(trigger(['waitingRuns']), { msg: '2' });
		assert.deepEqual(run.received.at(-1), relayedReply({ text: '2', reasked: true }));
	});

	test('a run still putting itself to wait (409) is asked again until it takes the reply', async () => {
		const run = waiting('78', { busy: 2 });
		assert.equal((await send(trigger(['waitingRuns']))).outcome.started, false);
		assert.equal(run.received.length, 3);
	});

	test('two runs asked the same person at the same moment: the newer gets the reply, the older is told', async () => {
		const older = waiting('79');
		const newer = waiting('80');
		await send(trigger(['waitingRuns']));
		assert.deepEqual(newer.received, [relayedReply()]);
		assert.deepEqual(older.received, [{ virtualnumRelay: 1, kind: 'superseded', by: '80' }]);
	});

	test('a run that cannot be reached keeps its row and the SMS starts the workflow, saying why', async () => {
		const t = table();
		t.rows.push({
			id: t.nextId++,
			...CONVERSATION,
			resumeUrl: 'http://127.0.0.1:9/webhook-waiting/81/x?signature=s',
			executionId: '81',
			expiresAt: null,
			reasked: false,
		});
		const { outcome } = await send(trigger(['waitingRuns']));
		assert.equal(outcome.started, true);
		const waitingRun = outcome.items[0].json.waitingRun as IDataObject;
		assert.equal(waitingRun.executionId, '81');
		assert.match(String(waitingRun.error), /could not be reached/);
		assert.doesNotMatch(String(waitingRun.error), /signature=s/);
		assert.deepEqual(
			table().rows.map((row) => row.executionId),
			['81'],
		);
	});

	test('n8n answering "Database is not ready" (503) for a moment: the claim is sent again and the reply relayed', async () => {
		const run = waiting('84');
		n8n.notReady = 3;
		assert.equal((await send(trigger(['waitingRuns']))).outcome.started, false);
		assert.equal(run.received.length, 1);
	});

	test("n8n's API refusing the key: nothing is lost, the SMS starts the workflow with the reason", async () => {
		waiting('82');
		const { status, outcome } = await send(trigger(['waitingRuns'], {}, 'n8n_api_wrong'));
		assert.equal(status, 200);
		assert.equal(outcome.started, true);
		assert.match(
			String((outcome.items[0].json.waitingRun as IDataObject).error),
			/API key is not valid/,
		);
	});

	test('optedOut: the sender found in the opt-outs table in any spelling, null with the reason when it cannot be read', async () => {
		const optOuts = table('SMS opt-outs');
		optOuts.columns = [{ name: 'phone', type: 'string' }];
		optOuts.rows.push({ id: optOuts.nextId++, phone: '0541110010' });
		const t = trigger(['optedOut']);
		assert.equal((await send(t)).outcome.items[0].json.optedOut, true);
		assert.equal((await send(t, { from: '0549990000' })).outcome.items[0].json.optedOut, false);
		const elsewhere = trigger(['optedOut'], { optOutTable: 'No such table' });
		const item = (await send(elsewhere)).outcome.items[0].json;
		assert.equal(item.optedOut, null);
		assert.match(String(item.optedOutError), /n8n has no Data Table "No such table"/);
	});

	test('both look-ups: a reply a run took is not looked up; an ordinary SMS is', async () => {
		table('SMS opt-outs').columns = [{ name: 'phone', type: 'string' }];
		const run = waiting('83');
		const t = trigger(['waitingRuns', 'optedOut']);
		assert.equal((await send(t)).outcome.started, false);
		assert.equal(run.received.length, 1);
		assert.equal((await send(t, { msg: 'hello' })).outcome.items[0].json.optedOut, false);
	});
});
