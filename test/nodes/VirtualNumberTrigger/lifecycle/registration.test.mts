/** Activation and deactivation against the sandbox: what each number carries before, during and after. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { selectedNumbers, startProxy } from '../../../../dev/harness/trigger.mts';
import { CALLS, FOREIGN, registrationSetup } from './registrationSetup.mts';

describe('Virtual Number Trigger → registration (checkExists, create, delete)', () => {
	const {
		sandbox,
		host,
		numbers,
		trigger,
		updates,
		callbackOf,
		urlFor,
		setForeignCallback,
		threeWithForeign,
		release,
	} = registrationSetup();

	test('activation on 3 selected numbers registers exactly those, each carrying its previous callback; deactivation in another process restores them', async () => {
		const [a, b, c, untouched] = numbers();
		await setForeignCallback(b, FOREIGN, 1);
		sandbox.control.clearRequests();
		const t = trigger({
			events: CALLS,
			numbers: 'selected',
			virtualnums: selectedNumbers([a, b, c]),
		});

		await t.activate();

		const sent = updates();
		assert.deepEqual(
			sent.map((u) => u.virtualnum).sort(),
			[a, b, c].sort(),
			'exactly the 3 numbers are updated, once each',
		);
		for (const update of sent) {
			const record = sandbox.control.virtualnum(update.virtualnum)!;
			assert.equal(update.callback_url_option, '3', 'start and end → option 3');
			// the service demands these on every update: re-sent unchanged
			assert.equal(update.description, record.description);
			assert.equal(update.call_destination_phone, record.call_destination_phone);
		}
		assert.deepEqual(callbackOf(a), { url: urlFor(t, { url: '', option: 2 }), option: 3 });
		assert.deepEqual(callbackOf(b), { url: urlFor(t, { url: FOREIGN, option: 1 }), option: 3 });
		assert.equal(
			callbackOf(b).url,
			`${t.webhookUrl}?vnt=live&vnt_prev=1${encodeURIComponent(FOREIGN)}`,
			'the format the docs describe',
		);
		assert.deepEqual(
			callbackOf(untouched),
			{ url: '', option: 2 },
			'a number not chosen is not touched',
		);
		assert.equal(
			await t.lifecycle('checkExists'),
			true,
			'checkExists: every number carries the URL and option',
		);
		assert.ok(
			!JSON.stringify(t.savedStaticData()).includes('crm.example.com'),
			'nothing needed to restore is kept in the static data',
		);

		// Queue mode: another process has nothing but the database.
		sandbox.control.clearRequests();
		await t.inAnotherProcess().deactivate();
		assert.deepEqual(
			callbackOf(b),
			{ url: FOREIGN, option: 1 },
			'the foreign URL and its option are restored',
		);
		assert.deepEqual(callbackOf(a), { url: '', option: 2 });
		assert.deepEqual(callbackOf(c), { url: '', option: 2 });
		const restores = updates();
		assert.equal(restores.length, 3, 'one restore per number');
		assert.equal(
			restores.find((u) => u.virtualnum === a)!.callback_url,
			'',
			'an empty previous URL is sent explicitly, to clear it',
		);
	});

	test('the callback option follows the events: start only → 1, end only → 2', async () => {
		const [a, b] = numbers();
		const start = trigger({
			events: ['callStarted'],
			numbers: 'selected',
			virtualnums: selectedNumbers([a]),
		});
		await start.activate();
		const end = trigger({
			events: ['callEnded', 'smsDelivery'],
			numbers: 'selected',
			virtualnums: selectedNumbers([b]),
		});
		await end.activate();
		assert.deepEqual(callbackOf(a), { url: urlFor(start, { url: '', option: 2 }), option: 1 });
		assert.deepEqual(callbackOf(b), { url: urlFor(end, { url: '', option: 2 }), option: 2 });
	});

	test('the secret is added to the registered URL as a query parameter', async () => {
		const [a] = numbers();
		const t = trigger({
			events: CALLS,
			numbers: 'selected',
			virtualnums: selectedNumbers([a]),
			options: { secret: 's3cr&t/+' },
		});
		await t.activate();
		assert.equal(
			callbackOf(a).url,
			`${t.webhookUrl}?secret=${encodeURIComponent('s3cr&t/+')}&vnt=live&vnt_prev=2`,
		);
		assert.equal(await t.lifecycle('checkExists'), true);
		// a changed secret: checkExists is false, and activation registers the new URL, keeping the original
		const changed = host.add({
			...t.options,
			parameters: { ...t.options.parameters, options: { secret: 'other' } },
			staticData: t.savedStaticData(),
		});
		assert.equal(await changed.lifecycle('checkExists'), false);
		await changed.activate();
		assert.equal(callbackOf(a).url, `${t.webhookUrl}?secret=other&vnt=live&vnt_prev=2`);
	});

	test('checkExists is false when a number no longer has the URL, and activation registers only that one again', async () => {
		const [a, b, c] = numbers();
		const t = trigger({
			events: CALLS,
			numbers: 'selected',
			virtualnums: selectedNumbers([a, b, c]),
		});
		await t.activate();
		await setForeignCallback(b, FOREIGN, 2);
		assert.equal(await t.lifecycle('checkExists'), false);
		sandbox.control.clearRequests();
		await t.activate();
		assert.deepEqual(
			updates().map((u) => u.virtualnum),
			[b],
		);
		assert.equal(callbackOf(b).url, urlFor(t, { url: FOREIGN, option: 2 }));
		await t.deactivate();
		assert.deepEqual(callbackOf(b), { url: FOREIGN, option: 2 });
		assert.deepEqual(callbackOf(a), { url: '', option: 2 });
	});

	test('"all numbers" pages over 2,500 numbers (active and suspended) and registers every one', async () => {
		sandbox.control.seed({ numbers: 2500 });
		const all = sandbox.control.virtualnums();
		assert.equal(all.length, 2506);
		sandbox.control.clearRequests();
		const t = trigger({ events: CALLS, numbers: 'all' });

		const started = Date.now();
		await t.activate();
		const activationMs = Date.now() - started;

		const pages = sandbox.control
			.requests({ operation: 'get_virtualnum' })
			.map((r) => ({
				...(r.query as Record<string, string>),
				...((r.body as Record<string, string>) ?? {}),
			}))
			.map((p) => `${p.status}:${p.page}:${p.limit}`);
		// checkExists pages, then create pages, then the pages that check the updates took: once each
		assert.deepEqual(pages.slice(0, 4), ['1:0:1000', '1:1:1000', '1:2:1000', '0:0:1000']);
		assert.deepEqual(pages.slice(8), pages.slice(0, 4));
		assert.equal(pages.length, 12);
		const sent = updates();
		assert.equal(sent.length, 2506);
		assert.equal(new Set(sent.map((u) => u.virtualnum)).size, 2506, 'each number once');
		assert.ok(
			sandbox.control
				.virtualnums()
				.every((r) => t.holds(r.callback_url) && r.callback_url_option === 3),
		);

		// one number released meanwhile: deactivation reads the numbers page by page and restores the rest
		const released = all[1234].virtualnum;
		await release(released);
		sandbox.control.clearRequests();
		const deactivation = Date.now();
		assert.equal(await t.inAnotherProcess().deactivate(), undefined);
		const deactivationMs = Date.now() - deactivation;
		assert.ok(
			sandbox.control
				.virtualnums()
				.every((r) => r.callback_url === '' && r.callback_url_option === 2),
		);
		assert.equal(updates().length, 2505);
		assert.equal(
			sandbox.control.requests({ operation: 'get_virtualnum' }).length,
			4,
			'paged, not one request per number',
		);
		console.log(
			`    2,506 numbers: activation ${activationMs} ms, deactivation ${deactivationMs} ms`,
		);
	});

	test('a registration failing on the 3rd update is rolled back: every number is as before', async () => {
		const five = numbers().slice(0, 5);
		await setForeignCallback(five[1], FOREIGN, 1);
		const before = Object.fromEntries(five.map((n) => [n, callbackOf(n)]));
		let updatesSeen = 0;
		let failedNumber = '';
		const proxy = await startProxy(sandbox.vnUrl, (request) => {
			if (request.params.service !== 'update_virtualnum') return;
			updatesSeen++;
			if (updatesSeen === 3) {
				failedNumber = request.params.virtualnum;
				sandbox.control.injectFaults({
					kind: 'serviceError',
					code: 4021,
					operation: 'update_virtualnum',
				});
			}
		});
		try {
			sandbox.control.clearRequests();
			const t = trigger(
				{ events: CALLS, numbers: 'selected', virtualnums: selectedNumbers(five) },
				{ baseUrl: proxy.url },
			);
			await assert.rejects(t.activate(), (error: Error & { description?: string }) => {
				assert.match(
					error.message,
					new RegExp(`Could not register the trigger on ${failedNumber}: .*code 4021`),
				);
				assert.match(String(error.description), /put back as they were/);
				return true;
			});
			for (const number of five)
				assert.deepEqual(callbackOf(number), before[number], `${number} is as before`);
			const sent = updates();
			const registering = sent.filter((u) => t.holds(u.callback_url));
			const restoring = sent.filter((u) => !t.holds(u.callback_url));
			// 4 at a time: the 3rd fails; the 5th may have started when the 1st finished, before the 3rd failed.
			assert.ok(
				registering.length >= 4 && registering.length <= 5,
				`${registering.length} registering updates`,
			);
			assert.equal(
				restoring.length,
				registering.length - 1,
				"every number that was changed was put back, once (n8n's clean-up finds nothing left)",
			);
			for (const restore of restoring) {
				assert.equal(
					restore.callback_url,
					before[restore.virtualnum].url,
					`${restore.virtualnum} gets its own URL back`,
				);
				assert.equal(restore.callback_url_option, String(before[restore.virtualnum].option));
			}
			assert.ok(
				!restoring.some((u) => u.virtualnum === failedNumber),
				'the failed number was never changed',
			);
			assert.equal(t.active, false, 'the workflow is left inactive');
		} finally {
			await proxy.close();
		}
	});

	test("a rollback that keeps failing: n8n's clean-up, on the database's static data, puts the number back", async () => {
		const { three, before } = await threeWithForeign();
		let registering = 0;
		let rollbackFailures = 0;
		let stuck = '';
		const proxy = await startProxy(sandbox.vnUrl, (request) => {
			if (request.params.service !== 'update_virtualnum') return;
			const isRegistration = request.params.callback_url.includes('vnt_prev=');
			if (isRegistration && ++registering === 3)
				sandbox.control.injectFaults({
					kind: 'serviceError',
					code: 4020,
					operation: 'update_virtualnum',
				});
			// every attempt (3) of the rollback of the first number fails; n8n's clean-up is then let through
			if (
				!isRegistration &&
				(stuck === '' || request.params.virtualnum === stuck) &&
				rollbackFailures < 3
			) {
				stuck = request.params.virtualnum;
				rollbackFailures++;
				sandbox.control.injectFaults({ kind: 'http500', operation: 'update_virtualnum' });
			}
		});
		try {
			const t = trigger(
				{ events: CALLS, numbers: 'selected', virtualnums: selectedNumbers(three) },
				{ baseUrl: proxy.url },
			);
			await assert.rejects(t.activate(), (error: Error & { description?: string }) => {
				assert.match(
					String(error.description),
					new RegExp(
						`Could not put back ${stuck}.*n8n's clean-up after this failed activation tries again`,
					),
				);
				assert.doesNotMatch(String(error.description), /deactivating the workflow will try again/);
				return true;
			});
			assert.equal(rollbackFailures, 3);
			for (const number of three)
				assert.deepEqual(
					callbackOf(number),
					before[number],
					`${number} is back, the CRM's URL included`,
				);
			assert.deepEqual(t.loggedErrors, [], "n8n's clean-up succeeded");
			assert.ok(
				!JSON.stringify(t.savedStaticData()).includes('vnt'),
				'the clean-up had nothing in the static data to go by',
			);
		} finally {
			await proxy.close();
		}
	});

	test("n8n 2.x's publication service: a registration failing halfway is retried five times, each attempt rolled back; the workflow stays published with a failed trigger; unpublishing changes nothing", async () => {
		const { three, before } = await threeWithForeign();
		let registering = 0;
		const proxy = await startProxy(sandbox.vnUrl, (request) => {
			if (
				request.params.service !== 'update_virtualnum' ||
				!request.params.callback_url.includes('vnt_prev=')
			)
				return;
			if (++registering % 3 === 0)
				sandbox.control.injectFaults({
					kind: 'serviceError',
					code: 4020,
					operation: 'update_virtualnum',
				});
		});
		host.activation = 'publicationService';
		try {
			const t = trigger(
				{ events: CALLS, numbers: 'selected', virtualnums: selectedNumbers(three) },
				{ baseUrl: proxy.url },
			);
			await assert.rejects(t.activate(), /Could not register the trigger on 07220001\d\d: .*4020/);
			assert.equal(registering, 15, 'five attempts of three updates');
			assert.deepEqual([t.active, t.registered], [true, false], 'published, its trigger failed');
			for (const number of three) assert.deepEqual(callbackOf(number), before[number]);
			sandbox.control.clearRequests();
			await t.deactivate();
			assert.equal(updates().length, 0, 'nothing of it is left to restore');
			assert.deepEqual(t.loggedErrors, []);
		} finally {
			host.activation = 'activeWorkflowManager';
			await proxy.close();
		}
	});

	test('a number released meanwhile is skipped on deactivation, with a log line', async () => {
		const [a, b, c] = numbers();
		const t = trigger({
			events: CALLS,
			numbers: 'selected',
			virtualnums: selectedNumbers([a, b, c]),
		});
		await t.activate();
		await release(b);
		const logsFrom = host.logCount;
		assert.equal(await t.deactivate(), undefined);
		const logs = host.logsSince(logsFrom);
		assert.ok(
			logs.some((line) => line.includes(b) && line.includes('no longer in the account')),
			`a log line names ${b}: ${logs.join('\n')}`,
		);
		assert.deepEqual(callbackOf(a), { url: '', option: 2 });
		assert.deepEqual(callbackOf(c), { url: '', option: 2 });
	});

	test('a number pointed elsewhere since activation is left as it is on deactivation', async () => {
		const [a, b] = numbers();
		const t = trigger({ events: CALLS, numbers: 'selected', virtualnums: selectedNumbers([a, b]) });
		await t.activate();
		await setForeignCallback(a, FOREIGN, 1);
		const logsFrom = host.logCount;
		await t.deactivate();
		assert.deepEqual(callbackOf(a), { url: FOREIGN, option: 1 });
		assert.deepEqual(callbackOf(b), { url: '', option: 2 });
		assert.ok(
			host.logsSince(logsFrom).some((line) => line.includes(a) && line.includes('left as it is')),
		);
	});

	test('a restore failing once is retried; failing every time, it is reported and the next deactivation restores it', async () => {
		const [a, b, c] = numbers();
		let failing = '';
		const proxy = await startProxy(sandbox.vnUrl, (request) => {
			if (request.params.service === 'update_virtualnum' && request.params.virtualnum === failing)
				sandbox.control.injectFaults({ kind: 'http500', operation: 'update_virtualnum' });
		});
		try {
			const t = trigger(
				{ events: CALLS, numbers: 'selected', virtualnums: selectedNumbers([a, b, c]) },
				{ baseUrl: proxy.url },
			);
			await t.activate();
			sandbox.control.injectFaults({ kind: 'http500', operation: 'update_virtualnum' });
			assert.equal(await t.deactivate(), undefined, 'one failure is absorbed by a retry');
			for (const number of [a, b, c]) assert.deepEqual(callbackOf(number), { url: '', option: 2 });

			await t.activate();
			failing = b;
			const error = (await t.deactivate()) as Error & { description?: string };
			assert.equal(error.message, `Could not restore the previous callback URL of ${b}`);
			assert.match(
				String(error.description),
				/HTTP 500.*activating and deactivating the workflow again puts them back/,
			);
			assert.ok(t.holds(callbackOf(b).url), `${b} still points at the trigger`);
			assert.deepEqual(callbackOf(a), { url: '', option: 2 }, 'the others were restored');
			failing = '';
			await t.activate();
			await t.deactivate();
			for (const number of [a, b, c]) assert.deepEqual(callbackOf(number), { url: '', option: 2 });
		} finally {
			await proxy.close();
		}
	});

	test('an n8n restart with an active trigger: nothing to do, the numbers still point at it, deactivation restores them', async () => {
		const [a, b] = numbers();
		await setForeignCallback(a, FOREIGN, 1);
		const t = trigger({ events: CALLS, numbers: 'selected', virtualnums: selectedNumbers([a, b]) });
		await t.activate();
		sandbox.control.clearRequests();
		await host.restart();
		assert.equal(updates().length, 0, 'checkExists at start-up found every number in place');
		assert.equal(t.registered, true);
		assert.ok(t.holds(callbackOf(a).url) && t.holds(callbackOf(b).url));
		await t.deactivate();
		assert.deepEqual(callbackOf(a), { url: FOREIGN, option: 1 });
		assert.deepEqual(callbackOf(b), { url: '', option: 2 });
	});

	test('SMS delivery only: nothing is registered on the service', async () => {
		sandbox.control.clearRequests();
		const t = trigger({ events: ['smsDelivery'] });
		await t.activate();
		await t.deactivate();
		assert.equal(sandbox.control.requests().length, 0);
	});

	test('a number typed with formatting is read as the phone module reads it: registered by its digits', async () => {
		const [a] = numbers();
		const typed = `${a.slice(0, 3)}-${a.slice(3, 6)}.${a.slice(6)}`; // e.g. 072-200.0100
		const previous = callbackOf(a);
		sandbox.control.clearRequests();
		const t = trigger({
			events: CALLS,
			numbers: 'selected',
			virtualnums: selectedNumbers([typed, ` (${a.slice(0, 3)}) ${a.slice(3)} `]),
		});
		await t.activate();
		assert.deepEqual(
			updates().map((body) => body.virtualnum),
			[a],
			'one number, by its digits, once',
		);
		assert.equal(
			callbackOf(a).url,
			urlFor(t, { url: previous.url ?? '', option: previous.option ?? 2 }),
		);
		await t.deactivate();
	});

	test('a number that is not in the account fails activation naming it', async () => {
		const t = trigger({
			events: CALLS,
			numbers: 'selected',
			virtualnums: selectedNumbers(['0799999999']),
		});
		await assert.rejects(t.activate(), /The virtual number 0799999999 is not in this account/);
		assert.equal(updates().length, 0);
	});

	test('a refused token fails activation with the service words, and the token appears nowhere', async () => {
		const t = host.add({
			parameters: { events: CALLS },
			credentials: { virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: 'wrong-token-value' } },
		});
		const logsFrom = host.logCount;
		await assert.rejects(t.activate(), (error: Error & { description?: string }) => {
			assert.match(`${error.message} ${error.description}`, /token/i);
			assert.ok(
				!JSON.stringify({ m: error.message, d: error.description }).includes('wrong-token-value'),
			);
			return true;
		});
		assert.ok(!host.logsSince(logsFrom).join('\n').includes('wrong-token-value'));
	});
});
