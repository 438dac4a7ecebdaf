/**
 * Route Call: Call Started with Respond With "A Destination From the Workflow". n8n's responseMode
 * becomes lastNode (an expression on the option) and the trigger guards the answer: the last
 * node's field, checked as a phone number, as plain text; an empty answer past the deadline, on a
 * failed run or for a value that is no phone, with a log line. The harness answers as n8n 2.40's
 * lastNode path does (res.status + res.json after the run); the sandbox records what the answer
 * routed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { hostPerFile, sandboxPerFile } from '../../../../dev/harness/nodeTest.mts';
import { MAP_TYPE, TriggerHost, type TriggerInstance } from '../../../../dev/harness/trigger.mts';
import { START, call, routeVipAndOther, logged as loggedSince, settled } from './routeSetup.mts';

describe('Virtual Number Trigger → Call Started → Respond With a destination', () => {
	let host: TriggerHost;
	before(async () => {
		host = await TriggerHost.start();
	});
	after(async () => await host.close());

	function trigger(
		values: IDataObject | string,
		options: IDataObject = {},
		delayMs = 0,
		events = ['callStarted', 'callEnded'],
		credentialReadMs = 0,
	): TriggerInstance {
		return host.add({
			parameters: { events, options: { respondWith: 'destination', ...options } },
			credentials: { virtualnumApi: { baseUrl: 'http://127.0.0.1:9', accessToken: 'unused' } },
			downstream: [
				{ name: 'Look Up', type: MAP_TYPE, parameters: { values: values as string, delayMs } },
			],
			credentialReadMs,
		});
	}
	const logged = (from: number, words: string) => loggedSince(host, from, words);

	test("answers the last node's Destination Field as plain text, checked as a phone number", async () => {
		const t = trigger({ destination: '+972 50-765-4321', name: 'VIP' });
		const answer = await call(t);
		assert.deepEqual([answer.status, answer.text], [200, '972507654321']);
		assert.match(String(answer.type), /^text\/plain/);
		const outcome = t.outcomes.at(-1)!;
		assert.equal(outcome.items[0].json.event, 'call.started');
		assert.equal(outcome.runData['Look Up'][0].json.destination, '+972 50-765-4321');
	});

	test('a nested field is named with dots', async () => {
		const t = trigger(
			{ customer: { phone: '0529998888' } },
			{ destinationField: 'customer.phone' },
		);
		assert.equal((await call(t)).text, '0529998888');
	});

	for (const [what, value, words] of [
		['no such field', { other: '0529998888' }, 'has no "destination"'],
		['words', { destination: 'the sales team' }, 'is not a phone number'],
		['an extension', { destination: '204' }, 'is not a phone number'],
		['too many digits', { destination: '1234567890123456' }, 'more than 15 digits'],
	] as const) {
		test(`${what}: an empty answer (the number's own routing) and a log line`, async () => {
			const from = host.logCount;
			const answer = await call(trigger(value));
			assert.deepEqual([answer.status, answer.text], [200, '']);
			assert.ok(await logged(from, words), `a log line saying ${words}`);
		});
	}

	test('a failed run: an empty 200, not n8n\'s 500 "Error in workflow", and a log line', async () => {
		const from = host.logCount;
		const t = trigger('={{ $("No Such Node").item.json }}');
		const answer = await call(t);
		assert.deepEqual([answer.status, answer.text], [200, '']);
		assert.ok(t.outcomes.at(-1)!.error, 'the run failed');
		assert.ok(await logged(from, 'the workflow failed'));
	});

	test('past the deadline: an empty answer at the deadline; the late destination is dropped', async () => {
		const from = host.logCount;
		const t = trigger({ destination: '0529998888' }, { routeDeadlineSec: 0.5 }, 1500);
		const answer = await call(t);
		assert.deepEqual([answer.status, answer.text], [200, '']);
		assert.ok(answer.ms >= 450 && answer.ms < 1400, `answered at the deadline (${answer.ms} ms)`);
		assert.ok(await logged(from, 'no destination within 0.5 s'));
		await new Promise((resolve) => setTimeout(resolve, 1300));
		assert.equal(t.outcomes.at(-1)!.runData['Look Up'][0].json.destination, '0529998888');
	});

	test('within the deadline: the answer comes when the run ends', async () => {
		const t = trigger({ destination: '0529998888' }, { routeDeadlineSec: 3 }, 600);
		const answer = await call(t);
		assert.equal(answer.text, '0529998888');
		assert.ok(answer.ms >= 550 && answer.ms < 2500, `${answer.ms} ms`);
	});

	// n8n reads a credential from its database and decrypts it at every call (12 to 160 ms for a
	// call alone in n8n 2.40.7, several hundred under 10 at once), and the caller waits for it.
	const withTime = { ...START, start_call: '2026-11-26 10:00:00' };

	test("n8n's credential read is slow: a call start waits for one read, not one per field", async () => {
		const t = trigger({ destination: '0529998888' }, {}, 0, ['callStarted'], 300);
		const answer = await call(t, withTime);
		assert.equal(answer.text, '0529998888');
		assert.ok(answer.ms >= 280 && answer.ms < 560, `one read of 300 ms (${answer.ms} ms)`);
		// Both of the credential's fields still apply: the call time carries the service's offset.
		assert.equal(t.outcomes.at(-1)!.items[0].json.startedAt, '2026-11-26T10:00:00+02:00');
	});

	test('the deadline counts from the call start, a slow credential read included', async () => {
		const t = trigger(
			{ destination: '0529998888' },
			{ routeDeadlineSec: 0.5 },
			1500,
			undefined,
			400,
		);
		const answer = await call(t, withTime);
		assert.deepEqual([answer.status, answer.text], [200, '']);
		assert.ok(answer.ms >= 450 && answer.ms < 750, `answered at the deadline (${answer.ms} ms)`);
	});

	test('Call Ended with the option on: answered empty at once, the workflow still runs', async () => {
		const t = trigger({ destination: '0529998888' }, {}, 800);
		const answer = await call(t, { event: 'hangup', call_uuid: 'c-1', call_status: 'ANSWER' });
		assert.deepEqual([answer.status, answer.text], [200, '']);
		assert.ok(answer.ms < 700, `not waiting for the run (${answer.ms} ms)`);
		assert.equal((await settled(t)).items[0].json.event, 'call.ended');
	});

	test('Respond With Nothing (the default), or Call Started not chosen: the empty answer at once', async () => {
		for (const t of [
			trigger({ destination: '0529998888' }, { respondWith: 'nothing' }, 800),
			trigger({ destination: '0529998888' }, {}, 800, ['callEnded']),
		]) {
			const answer = await call(t, { ...START, event: 'hangup' });
			assert.deepEqual([answer.status, answer.text], [200, '']);
			assert.ok(answer.ms < 700, `${answer.ms} ms`);
		}
		const t = trigger({ destination: '0529998888' }, { respondWith: 'nothing' }, 800);
		const answer = await call(t);
		assert.deepEqual([answer.status, answer.text], [200, '']);
		assert.ok(answer.ms < 700, `${answer.ms} ms`);
	});

	test('the Secret still applies: a call start without it is refused 401 and runs nothing', async () => {
		const t = trigger({ destination: '0529998888' }, { secret: 's3cret' });
		assert.equal((await call(t)).status, 401);
		assert.equal(t.executions.length, 0);
		const ok = await fetch(`${t.webhookUrl}?secret=s3cret&${new URLSearchParams(START)}`);
		assert.equal(await ok.text(), '0529998888');
	});

	for (const [field, value] of [
		['Deadline (Seconds)', { routeDeadlineSec: 11 }],
		['Destination Field', { destinationField: ' ' }],
	] as const) {
		test(`${field} out of range: the callback is refused as misconfigured (500), nothing runs`, async () => {
			const t = trigger({ destination: '0529998888' }, value);
			assert.equal((await call(t)).status, 500);
			assert.equal(t.executions.length, 0);
		});
	}
});

describe('Route Call against the sandbox: the service routes the call to the answered number', () => {
	const sandbox = sandboxPerFile();
	const host = hostPerFile();

	for (const profile of ['contract', 'field'] as const) {
		test(`VIP caller routed to the direct line, others to the number's own routing (${profile} profile)`, async () => {
			sandbox.control.setProfile({ profile: profile === 'field' ? 'field' : 'contract' });
			try {
				const routes = await routeVipAndOther(host, sandbox, 'destination', [
					{
						name: 'Route VIPs',
						type: MAP_TYPE,
						parameters: {
							values:
								'={{ { destination: $json.callerNumber.replace(/\\D/g, "") === "0547770001" ? "050-999-8888" : "" } }}',
						},
					},
				]);
				assert.equal(routes[0].answer, '0509998888');
			} finally {
				sandbox.control.setProfile({ profile: 'contract' });
			}
		});
	}
});
