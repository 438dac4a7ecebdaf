import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../../sandbox/index.mts';
import { TriggerHost, selectedNumbers, startProxy, type TriggerInstance } from '../../harness/trigger.mts';

const CALLS = ['callStarted', 'callEnded'];
const FOREIGN = 'https://crm.example.com/hooks/calls?source=virtualnum';

describe('Virtual Number Trigger → registration (checkExists, create, delete)', () => {
	let sandbox: Sandbox;
	let host: TriggerHost;
	before(async () => {
		sandbox = await startSandbox();
		host = await TriggerHost.start();
	});
	after(async () => {
		await host.close();
		await sandbox.close();
	});
	beforeEach(() => sandbox.control.reset());

	const numbers = () => sandbox.control.virtualnums().filter((r) => r.active_status === 1).map((r) => r.virtualnum);
	const trigger = (parameters: IDataObject, extra: { mode?: 'production' | 'test'; baseUrl?: string } = {}) =>
		host.add({
			parameters,
			mode: extra.mode,
			credentials: { virtualnumApi: { baseUrl: extra.baseUrl ?? sandbox.vnUrl, accessToken: sandbox.tokens.vn } },
		});
	const updates = () => sandbox.control.requests({ operation: 'update_virtualnum' }).map((r) => r.body as Record<string, string>);
	const callbackOf = (number: string) => {
		const record = sandbox.control.virtualnum(number)!;
		return { url: record.callback_url, option: record.callback_url_option };
	};
	/** A third party (another integration) sets a number's callback through the API. */
	async function setForeignCallback(number: string, url: string, option: number) {
		const record = sandbox.control.virtualnum(number)!;
		const answer = await fetch(`${sandbox.vnUrl}/api/?service=update_virtualnum&format=json`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${sandbox.tokens.vn}`, 'Content-Type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({
				virtualnum: number,
				description: record.description,
				call_destination_phone: record.call_destination_phone,
				callback_url: url,
				callback_url_option: String(option),
			}),
		});
		assert.equal(((await answer.json()) as { status: { code: number } }).status.code, 200);
	}
	async function release(number: string) {
		const answer = await fetch(`${sandbox.vnUrl}/api/?service=release_virtualnum&format=json&virtualnum=${number}`, {
			headers: { Authorization: `Bearer ${sandbox.tokens.vn}` },
		});
		assert.equal(((await answer.json()) as { status: { code: number } }).status.code, 200);
	}

	test('activation on 3 selected numbers registers exactly those; deactivation in another process restores the foreign URL', async () => {
		const [a, b, c, untouched] = numbers();
		await setForeignCallback(b, FOREIGN, 1);
		sandbox.control.clearRequests();
		const t = trigger({ events: CALLS, numbers: 'selected', virtualnums: selectedNumbers([a, b, c]) });

		await t.activate();

		const sent = updates();
		assert.deepEqual(sent.map((u) => u.virtualnum).sort(), [a, b, c].sort(), 'exactly the 3 numbers are updated, once each');
		for (const update of sent) {
			const record = sandbox.control.virtualnum(update.virtualnum)!;
			assert.equal(update.callback_url, t.webhookUrl);
			assert.equal(update.callback_url_option, '3', 'start and end → option 3');
			// the service demands these on every update: re-sent unchanged
			assert.equal(update.description, record.description);
			assert.equal(update.call_destination_phone, record.call_destination_phone);
		}
		for (const number of [a, b, c]) assert.deepEqual(callbackOf(number), { url: t.webhookUrl, option: 3 });
		assert.deepEqual(callbackOf(untouched), { url: '', option: 2 }, 'a number not chosen is not touched');
		assert.equal(sandbox.control.requests({ operation: 'get_virtualnum' }).length >= 3, true);

		// n8n registered both webhook entries (POST, GET): the second checkExists found everything in place.
		assert.equal(await t.lifecycle('checkExists'), true);

		// Queue mode: another process has nothing but the saved static data.
		const saved = t.savedStaticData();
		assert.ok(JSON.stringify(saved).includes(FOREIGN), 'the previous URL is kept in the static data');
		sandbox.control.clearRequests();
		const elsewhere = t.inAnotherProcess();
		await elsewhere.deactivate();

		assert.deepEqual(callbackOf(b), { url: FOREIGN, option: 1 }, 'the foreign URL and its option are restored');
		assert.deepEqual(callbackOf(a), { url: '', option: 2 });
		assert.deepEqual(callbackOf(c), { url: '', option: 2 });
		const restores = updates();
		assert.equal(restores.length, 3, 'one restore per number, although delete ran once per webhook entry');
		const restoreB = restores.find((u) => u.virtualnum === b)!;
		assert.equal(restoreB.callback_url, FOREIGN);
		assert.equal(restoreB.callback_url_option, '1');
		const restoreA = restores.find((u) => u.virtualnum === a)!;
		assert.equal(restoreA.callback_url, '', 'an empty previous URL is sent explicitly, to clear it');
		assert.deepEqual(elsewhere.savedStaticData(), { 'node:Virtual Number Trigger': {} }, 'nothing is left in the static data');
	});

	test('the callback option follows the events: start only → 1, end only → 2', async () => {
		const [a, b] = numbers();
		const start = trigger({ events: ['callStarted'], numbers: 'selected', virtualnums: selectedNumbers([a]) });
		await start.activate();
		const end = trigger({ events: ['callEnded', 'smsDelivery'], numbers: 'selected', virtualnums: selectedNumbers([b]) });
		await end.activate();
		assert.deepEqual(callbackOf(a), { url: start.webhookUrl, option: 1 });
		assert.deepEqual(callbackOf(b), { url: end.webhookUrl, option: 2 });
	});

	test('the secret is appended to the registered URL as a query parameter', async () => {
		const [a] = numbers();
		const t = trigger({ events: CALLS, numbers: 'selected', virtualnums: selectedNumbers([a]), options: { secret: 's3cr&t/+' } });
		await t.activate();
		assert.equal(callbackOf(a).url, `${t.webhookUrl}?secret=${encodeURIComponent('s3cr&t/+')}`);
		assert.equal(await t.lifecycle('checkExists'), true);
	});

	test('checkExists is false when a number no longer has the URL, and activation re-registers only that one', async () => {
		const [a, b, c] = numbers();
		const t = trigger({ events: CALLS, numbers: 'selected', virtualnums: selectedNumbers([a, b, c]) });
		await t.activate();
		await setForeignCallback(b, FOREIGN, 2);
		assert.equal(await t.lifecycle('checkExists'), false);
		sandbox.control.clearRequests();
		await t.activate();
		assert.deepEqual(updates().map((u) => u.virtualnum), [b]);
		assert.equal(callbackOf(b).url, t.webhookUrl);
		// the first activation's record of a (none) is kept; b's previous is now the foreign URL
		await t.deactivate();
		assert.deepEqual(callbackOf(b), { url: FOREIGN, option: 2 });
		assert.deepEqual(callbackOf(a), { url: '', option: 2 });
	});

	test('checkExists is false when the static data was lost, even though the numbers carry the URL', async () => {
		const [a] = numbers();
		const t = trigger({ events: CALLS, numbers: 'selected', virtualnums: selectedNumbers([a]) });
		await t.activate();
		const fresh = host.add({ ...t.options, staticData: {} });
		assert.equal(await fresh.lifecycle('checkExists'), false);
		sandbox.control.clearRequests();
		await fresh.activate();
		assert.equal(updates().length, 0, 'the number already has the URL: nothing to update');
		await fresh.deactivate();
		assert.deepEqual(callbackOf(a), { url: '', option: 2 }, 'with no earlier record, deactivation clears the URL');
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
			.map((r) => ({ ...(r.query as Record<string, string>), ...((r.body as Record<string, string>) ?? {}) }))
			.map((p) => `${p.status}:${p.page}:${p.limit}`);
		// first the activation's paging, then the second webhook entry's checkExists paging
		assert.deepEqual(pages.slice(0, 4), ['1:0:1000', '1:1:1000', '1:2:1000', '0:0:1000']);
		assert.equal(pages.length, 8);
		const sent = updates();
		assert.equal(sent.length, 2506);
		assert.equal(new Set(sent.map((u) => u.virtualnum)).size, 2506, 'each number once');
		assert.ok(sandbox.control.virtualnums().every((r) => r.callback_url === t.webhookUrl && r.callback_url_option === 3));

		// one number released meanwhile: deactivation reads the numbers page by page and skips it
		const released = all[1234].virtualnum;
		await release(released);
		sandbox.control.clearRequests();
		const logsFrom = host.logCount;
		const deactivation = Date.now();
		await t.inAnotherProcess().deactivate();
		const deactivationMs = Date.now() - deactivation;
		assert.ok(sandbox.control.virtualnums().every((r) => r.callback_url === '' && r.callback_url_option === 2));
		assert.equal(updates().length, 2505);
		assert.equal(sandbox.control.requests({ operation: 'get_virtualnum' }).length, 4, 'paged, not one request per number');
		assert.ok(host.logsSince(logsFrom).some((line) => line.includes(released) && line.includes('no longer in the account')));
		console.log(`    2,506 numbers: activation ${activationMs} ms, deactivation ${deactivationMs} ms`);
	});

	test('"fail activation" names the number that already has another callback URL and changes nothing', async () => {
		const [a, b, c] = numbers();
		await setForeignCallback(c, FOREIGN, 3);
		sandbox.control.clearRequests();
		const t = trigger({ events: CALLS, numbers: 'selected', virtualnums: selectedNumbers([a, b, c]), existingCallback: 'fail' });
		await assert.rejects(t.activate(), (error: Error & { description?: string }) => {
			assert.match(error.message, new RegExp(`The number already has another callback URL: ${c} \\(`));
			assert.ok(error.message.includes(FOREIGN));
			assert.match(String(error.description), /Nothing was changed/);
			return true;
		});
		assert.equal(updates().length, 0, 'no update_virtualnum was sent');
		assert.deepEqual(callbackOf(c), { url: FOREIGN, option: 3 });
		assert.deepEqual(t.savedStaticData(), { 'node:Virtual Number Trigger': {} });
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
				sandbox.control.injectFaults({ kind: 'serviceError', code: 4021, operation: 'update_virtualnum' });
			}
		});
		try {
			sandbox.control.clearRequests();
			const t = trigger({ events: CALLS, numbers: 'selected', virtualnums: selectedNumbers(five) }, { baseUrl: proxy.url });
			await assert.rejects(t.activate(), (error: Error & { description?: string }) => {
				assert.match(error.message, new RegExp(`Could not register the trigger on ${failedNumber}: .*code 4021`));
				assert.match(String(error.description), /put back as they were/);
				return true;
			});
			for (const number of five) assert.deepEqual(callbackOf(number), before[number], `${number} is as before`);
			assert.deepEqual(t.savedStaticData(), { 'node:Virtual Number Trigger': {} }, 'nothing left to restore');
			const sent = updates();
			const registering = sent.filter((u) => u.callback_url === t.webhookUrl);
			const restoring = sent.filter((u) => u.callback_url !== t.webhookUrl);
			// 4 at a time: the 3rd fails; the 5th may have started when the 1st finished, before the 3rd failed.
			assert.ok(registering.length >= 4 && registering.length <= 5, `${registering.length} registering updates`);
			assert.equal(restoring.length, registering.length - 1, 'every number that was changed was put back');
			for (const restore of restoring) {
				assert.equal(restore.callback_url, before[restore.virtualnum].url, `${restore.virtualnum} gets its own URL back`);
				assert.equal(restore.callback_url_option, String(before[restore.virtualnum].option));
			}
			assert.ok(!restoring.some((u) => u.virtualnum === failedNumber), 'the failed number was never changed');
		} finally {
			await proxy.close();
		}
	});

	test('a number released meanwhile is skipped on deactivation, with a log line', async () => {
		const [a, b, c] = numbers();
		const t = trigger({ events: CALLS, numbers: 'selected', virtualnums: selectedNumbers([a, b, c]) });
		await t.activate();
		await release(b);
		const logsFrom = host.logCount;
		await t.deactivate();
		const logs = host.logsSince(logsFrom);
		assert.ok(
			logs.some((line) => line.includes(b) && line.includes('no longer in the account')),
			`a log line names ${b}: ${logs.join('\n')}`,
		);
		assert.deepEqual(callbackOf(a), { url: '', option: 2 });
		assert.deepEqual(callbackOf(c), { url: '', option: 2 });
		assert.deepEqual(t.savedStaticData(), { 'node:Virtual Number Trigger': {} });
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
		assert.ok(host.logsSince(logsFrom).some((line) => line.includes(a) && line.includes('left as it is')));
	});

	test('any other failure on deactivation is reported, and remembered for the next attempt', async () => {
		const [a, b, c] = numbers();
		const t = trigger({ events: CALLS, numbers: 'selected', virtualnums: selectedNumbers([a, b, c]) });
		await t.activate();
		sandbox.control.injectFaults({ kind: 'http500', operation: 'update_virtualnum' });
		await assert.rejects(t.lifecycle('delete'), (error: Error & { description?: string }) => {
			assert.match(error.message, /Could not restore the previous callback URL of \d+/);
			assert.match(String(error.description), /HTTP 500/);
			return true;
		});
		const stillMine = [a, b, c].filter((n) => callbackOf(n).url === t.webhookUrl);
		assert.equal(stillMine.length, 1, 'the other two were restored');
		assert.ok(JSON.stringify(t.savedStaticData()).includes(stillMine[0]), 'the failed one is remembered');
		await t.lifecycle('delete');
		assert.deepEqual(callbackOf(stillMine[0]), { url: '', option: 2 });
		assert.deepEqual(t.savedStaticData(), { 'node:Virtual Number Trigger': {} });
	});

	test('test mode and production keep their own records, even in one static data copy', async () => {
		const [a] = numbers();
		await setForeignCallback(a, FOREIGN, 2);
		const parameters = { events: CALLS, numbers: 'selected', virtualnums: selectedNumbers([a]) };
		const production = trigger(parameters);
		await production.activate();
		// The editor's copy of the workflow carries production's static data into the test registration.
		const testRun = host.add({ ...production.options, mode: 'test', staticData: production.savedStaticData() });
		assert.equal(await testRun.lifecycle('checkExists'), false);
		await testRun.activate();
		assert.equal(callbackOf(a).url, testRun.webhookUrl);
		await testRun.deactivate();
		assert.deepEqual(callbackOf(a), { url: production.webhookUrl, option: 3 }, 'the test run gives the number back to production');
		await production.deactivate();
		assert.deepEqual(callbackOf(a), { url: FOREIGN, option: 2 });
	});

	test('SMS delivery only: nothing is registered on the service', async () => {
		sandbox.control.clearRequests();
		const t = trigger({ events: ['smsDelivery'] });
		await t.activate();
		await t.deactivate();
		assert.equal(sandbox.control.requests().length, 0);
	});

	describe('checks before any request', () => {
		const cases: Array<[string, IDataObject, RegExp]> = [
			['no event', { events: [] }, /Events: choose at least one event/],
			['no number selected', { events: CALLS, numbers: 'selected', virtualnums: {} }, /Virtual Numbers: add at least one number/],
			['an empty locator', { events: CALLS, numbers: 'selected', virtualnums: selectedNumbers(['']) }, /Virtual Numbers, entry 1: no number chosen/],
			['text instead of a number', { events: CALLS, numbers: 'selected', virtualnums: selectedNumbers(['07220001OO']) }, /entry 1: "07220001OO" is not a virtual number/],
			['a bad allowed IP', { events: CALLS, options: { allowedIps: '10.0.0.1, 10.0.0.300, 2001:db8::/129' } }, /Allowed IPs: not an IP address or CIDR range: "10\.0\.0\.300", "2001:db8::\/129"/],
			['a body limit out of range', { events: CALLS, options: { maxBodyKb: 0 } }, /Max Body Size \(KB\): must be a number from 1 to 16384/],
			['a callback URL over 511 characters', { events: CALLS, options: { secret: 'x'.repeat(500) } }, /Callback URL: the trigger's URL with the secret is \d+ characters long; the service accepts at most 511/],
		];
		for (const [name, parameters, message] of cases) {
			test(name, async () => {
				sandbox.control.clearRequests();
				const t = trigger(parameters);
				await assert.rejects(t.activate(), message);
				assert.equal(sandbox.control.requests().length, 0, 'no request reached the service');
			});
		}
	});

	test('a number that is not in the account fails activation naming it', async () => {
		const t = trigger({ events: CALLS, numbers: 'selected', virtualnums: selectedNumbers(['0799999999']) });
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
			assert.ok(!JSON.stringify({ m: error.message, d: error.description }).includes('wrong-token-value'));
			return true;
		});
		assert.ok(!host.logsSince(logsFrom).join('\n').includes('wrong-token-value'));
	});

	test('the node is registered with GET and POST webhooks on one path, the credential test and the number search', () => {
		const t: TriggerInstance = trigger({ events: CALLS });
		const webhooks = t.webhookDescriptions();
		assert.deepEqual(
			webhooks.map((w) => [w.name, w.httpMethod, w.path, w.responseMode]),
			[
				['default', 'POST', 'webhook', 'onReceived'],
				['default', 'GET', 'webhook', 'onReceived'],
			],
		);
		assert.deepEqual(t.nodeType.description.credentials, [{ name: 'virtualnumApi', required: true, testedBy: 'virtualnumApiTest' }]);
		assert.equal(typeof t.nodeType.methods?.credentialTest?.virtualnumApiTest, 'function');
		assert.equal(typeof t.nodeType.methods?.listSearch?.searchVirtualnums, 'function');
		assert.deepEqual(t.nodeType.description.inputs, []);
	});
});
