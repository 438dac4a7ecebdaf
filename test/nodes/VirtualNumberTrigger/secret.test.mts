/**
 * Node version 1.1: forged callbacks are refused with no setup. Activation generates a secret, keeps
 * it in the workflow's static data and puts it on every URL it registers; a callback without it
 * gets 401 and starts nothing, for every event and both methods, while the sandbox's own callbacks
 * (which call the registered URL) start the workflow. SMS events need the user's Secret. Refusals
 * are logged at most once a minute per workflow.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../../dev/sandbox/index.mts';
import {
	TriggerHost,
	selectedNumbers,
	type TriggerInstance,
} from '../../../dev/harness/trigger.mts';

const CALLS = ['callStarted', 'callEnded'];
const NODE_KEY = 'node:Virtual Number Trigger';
/** One body per event the trigger reads, as a forger would send it. */
const FORGED: Record<string, Record<string, string>> = {
	callStart: {
		event: 'start',
		call_uuid: 'forged-1',
		cdr_ddi: '0722000100',
		cdr_ani: '0501234567',
	},
	callEnd: { event: 'end', call_uuid: 'forged-1', cdr_ddi: '0722000100', call_status: 'ANSWER' },
	smsDelivery: { message_id: '44', dest: '0541112222', status: 'DELIVERED' },
	smsReceived: { from: '0541234567', to: '0722000100', msg: 'STOP' },
	unknown: { anything: 'at all' },
};

describe('Virtual Number Trigger 1.1 → the secret generated at activation', () => {
	let sandbox: Sandbox;
	let host: TriggerHost;
	const active: TriggerInstance[] = [];
	before(async () => {
		sandbox = await startSandbox();
		host = await TriggerHost.start();
	});
	after(async () => {
		await host.close();
		await sandbox.close();
	});
	beforeEach(async () => {
		for (const t of active.splice(0)) await t.deactivate().catch(() => undefined);
		sandbox.control.reset();
		sandbox.control.configure({ callbackStyle: 'json', callStartRepeats: 1 });
	});

	const firstNumber = () =>
		sandbox.control.virtualnums().filter((r) => r.active_status === 1)[0].virtualnum;
	const secondNumber = () =>
		sandbox.control.virtualnums().filter((r) => r.active_status === 1)[1].virtualnum;
	const add = (
		options: IDataObject = {},
		events = CALLS,
		typeVersion = 1.1,
		number = firstNumber(),
	) =>
		host.add({
			typeVersion,
			parameters: {
				events,
				numbers: 'selected',
				virtualnums: selectedNumbers([number]),
				options,
			},
			credentials: { virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn } },
		});
	async function activated(options: IDataObject = {}, events = CALLS, typeVersion = 1.1) {
		const t = add(options, events, typeVersion);
		await t.activate();
		active.push(t);
		return t;
	}
	/** Waits until `count` executions were kept (an outcome is kept after its run, after the answer). */
	async function executionsOf(t: TriggerInstance, count: number) {
		for (let i = 0; i < 100 && t.executions.length < count; i++)
			await new Promise((resolve) => setTimeout(resolve, 20));
		return t.executions;
	}
	const generated = (t: TriggerInstance) =>
		(t.savedStaticData()[NODE_KEY] as IDataObject | undefined)?.callbackSecret;
	async function send(url: string, fields: Record<string, string>, method: string) {
		const query = new URLSearchParams(fields).toString();
		const answer =
			method === 'GET'
				? await fetch(`${url}${url.includes('?') ? '&' : '?'}${query}`)
				: await fetch(url, {
						method,
						headers: { 'Content-Type': 'application/json' },
						body: JSON.stringify(fields),
					});
		return answer.status;
	}

	test('activation puts a generated secret, kept in the static data, on the URL it registers', async () => {
		const t = await activated();
		const secret = generated(t);
		assert.equal(typeof secret, 'string');
		assert.ok(String(secret).length >= 32, 'at least 24 random bytes');
		const registered = new URL(sandbox.control.virtualnum(firstNumber())!.callback_url);
		assert.equal(registered.searchParams.get('secret'), secret);
		assert.equal(`${registered.origin}${registered.pathname}`, t.webhookUrl);

		const other = add({}, CALLS, 1.1, secondNumber());
		await other.activate();
		active.push(other);
		assert.notEqual(generated(other), undefined);
		assert.notEqual(generated(other), secret, 'each workflow has its own');
	});

	for (const style of ['query', 'json'] as const) {
		test(`the sandbox's own callbacks (${style}) start the workflow; forged ones get 401 and start nothing`, async () => {
			sandbox.control.configure({ callbackStyle: style });
			const t = await activated();
			const { callbacks } = await sandbox.control.placeCall({
				virtualnum: firstNumber(),
				caller: '0541234567',
				durationSec: 30,
			});
			assert.deepEqual(
				callbacks.map((c) => c.responseStatus),
				[200, 200],
			);
			const executions = await executionsOf(t, 2);
			assert.equal(executions.length, 2);
			const item = executions[0][0].json;
			assert.equal(item.event, 'call.started');
			assert.equal(
				(item.query as IDataObject).secret,
				undefined,
				'the secret never reaches an item',
			);

			for (const [name, fields] of Object.entries(FORGED)) {
				for (const method of ['GET', 'POST']) {
					for (const url of [t.webhookUrl, `${t.webhookUrl}?secret=wrong`]) {
						assert.equal(await send(url, fields, method), 401, `${name} ${method} ${url}`);
						assert.equal(t.outcomes.at(-1)!.started, false);
					}
				}
			}
			assert.equal(t.executions.length, 2, 'no forged request started anything');
		});
	}

	test('a restart and another process check the same secret (the static data, not memory)', async () => {
		const t = await activated();
		const url = sandbox.control.virtualnum(firstNumber())!.callback_url;
		const other = t.inAnotherProcess();
		assert.equal(await send(url, FORGED.callStart, 'GET'), 200);
		assert.equal(other.outcomes.at(-1)?.started ?? t.outcomes.at(-1)!.started, true);
		assert.equal(await send(other.webhookUrl, FORGED.callStart, 'GET'), 401);

		const updatesBefore = sandbox.control.requests({ operation: 'update_virtualnum' }).length;
		await host.restart();
		assert.equal(
			sandbox.control.requests({ operation: 'update_virtualnum' }).length,
			updatesBefore,
			'after a restart, checkExists finds the URL with the same secret: nothing is registered again',
		);
		assert.equal(await send(url, FORGED.callStart, 'POST'), 200);
	});

	test('Listen for test event: the test URL carries a secret of its own; a forged test event starts nothing', async () => {
		const t = add();
		await t.listen();
		const registered = new URL(sandbox.control.virtualnum(firstNumber())!.callback_url);
		assert.equal(`${registered.origin}${registered.pathname}`, t.testWebhookUrl);
		assert.ok((registered.searchParams.get('secret') ?? '').length >= 32);
		assert.equal(
			generated(t),
			undefined,
			'the test registration never touches the saved static data',
		);
		assert.equal(await send(t.testWebhookUrl, FORGED.callStart, 'GET'), 401);
		assert.equal(t.listening, true, 'still listening for the real one');
		const { callbacks } = await sandbox.control.placeCall({
			virtualnum: firstNumber(),
			caller: '0541234567',
			durationSec: 5,
		});
		assert.equal(callbacks[0].responseStatus, 200);
		// The outcome is kept once n8n has run the execution and ended listening (after the answer).
		for (let i = 0; i < 100 && !t.outcomes.some((outcome) => outcome.started); i++)
			await new Promise((resolve) => setTimeout(resolve, 20));
		// The call's end may also arrive before listening has ended: it carries the secret too.
		const started = t.outcomes.filter((outcome) => outcome.started);
		assert.ok(started.length >= 1, 'the test event the sandbox sent');
		assert.equal(
			t.outcomes.filter((outcome) => outcome.status === 401).length,
			1,
			'the forged one',
		);
		assert.equal(started[0].mode, 'test');
		assert.equal(started[0].items[0].json.event, 'call.started');
	});

	test('until its first activation, a callback without a secret is still accepted (URLs registered before)', async () => {
		const t = add();
		assert.equal(generated(t), undefined);
		assert.equal(await send(t.webhookUrl, FORGED.callStart, 'GET'), 200);
		assert.equal(t.outcomes.at(-1)!.started, true);
		await t.activate();
		active.push(t);
		assert.equal(await send(t.webhookUrl, FORGED.callStart, 'GET'), 401);
	});

	test("the user's own Secret keeps working, and no secret is generated", async () => {
		const t = await activated({ secret: 'my-own-s3cret' });
		assert.equal(generated(t), undefined);
		const registered = new URL(sandbox.control.virtualnum(firstNumber())!.callback_url);
		assert.equal(registered.searchParams.get('secret'), 'my-own-s3cret');
		assert.equal(await send(`${t.webhookUrl}?secret=my-own-s3cret`, FORGED.callStart, 'GET'), 200);
		assert.equal(await send(t.webhookUrl, FORGED.callStart, 'GET'), 401);
	});

	test('SMS events need the Secret, pasted with their URL; with it, only requests carrying it pass', async () => {
		for (const events of [['smsReceived'], ['smsDelivery'], ['callStarted', 'smsReceived']]) {
			const t = add({}, events);
			await assert.rejects(t.activate(), (error: Error & { description?: string }) => {
				assert.match(error.message, /^Secret: SMS (Received|Delivery Status) needs a Secret/);
				assert.match(
					String(error.description),
					/copy the Production URL the panel shows .*\/sms\//,
				);
				return true;
			});
		}
		const t = await activated({ secret: 'inbound-s3cret' }, ['smsReceived']);
		assert.equal(await send(t.webhookUrl, FORGED.smsReceived, 'GET'), 401);
		assert.equal(t.outcomes.at(-1)!.started, false, 'a forged STOP opts nobody out');
		assert.equal(
			await send(`${t.webhookUrl}?secret=inbound-s3cret`, FORGED.smsReceived, 'GET'),
			200,
		);
		assert.equal(t.outcomes.at(-1)!.items[0].json.optOut, true);
	});

	test('version 1 keeps its behaviour: no generated secret, a callback without a Secret passes', async () => {
		const t = await activated({}, CALLS, 1);
		assert.equal(generated(t), undefined);
		const registered = new URL(sandbox.control.virtualnum(firstNumber())!.callback_url);
		assert.equal(registered.searchParams.get('secret'), null);
		assert.equal(await send(t.webhookUrl, FORGED.callStart, 'GET'), 200);
		const sms = add({}, ['smsReceived'], 1);
		assert.equal(await send(sms.webhookUrl, FORGED.smsReceived, 'GET'), 200);
	});

	test('refused requests are logged at most once a minute per workflow', async () => {
		const t = await activated();
		const from = host.logCount;
		for (let i = 0; i < 5; i++)
			assert.equal(await send(t.webhookUrl, FORGED.callStart, 'GET'), 401);
		const refusals = () =>
			host
				.logsSince(from)
				.filter((line) => line.includes('refused a request without the right secret'));
		assert.equal(refusals().length, 1);
		const saved = t.savedStaticData();
		(saved[NODE_KEY] as IDataObject).refusalLoggedAt = Date.now() - 61_000;
		const later = host.add({ ...t.options, staticData: saved });
		assert.equal(await send(later.webhookUrl, FORGED.callStart, 'GET'), 401);
		assert.equal(refusals().length, 2, 'a minute later, the next refusal is logged');
	});
});
