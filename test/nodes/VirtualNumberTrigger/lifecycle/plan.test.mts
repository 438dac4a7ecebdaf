/** Which numbers an activation takes and which it refuses (a number has one callback URL), in the user's words. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { registeredUrl } from '../../../../nodes/shared/triggerUrl.ts';
import { selectedNumbers } from '../../../../dev/harness/trigger.mts';
import { CALLS, FOREIGN, registrationSetup } from './registrationSetup.mts';

describe('Virtual Number Trigger → the plan: whose each number is, and the refusals', () => {
	const {
		sandbox,
		host,
		numbers,
		trigger,
		updates,
		callbackOf,
		urlFor,
		setForeignCallback,
		oneWithForeign,
	} = registrationSetup();

	test('"fail activation" names the number that already has another callback URL, every secret in it masked, and changes nothing', async () => {
		const [a, b, c] = numbers();
		const withSecrets =
			'https://crm.example.com/hooks?secret=other-workflow-secret&api_key=k3y-value&x=1';
		await setForeignCallback(c, withSecrets, 3);
		sandbox.control.clearRequests();
		const t = trigger({
			events: CALLS,
			numbers: 'selected',
			virtualnums: selectedNumbers([a, b, c]),
			existingCallback: 'fail',
		});
		await assert.rejects(t.activate(), (error: Error & { description?: string }) => {
			assert.match(
				error.message,
				new RegExp(`The number already has another callback URL: ${c} \\(`),
			);
			assert.ok(
				error.message.includes(
					'https://crm.example.com/hooks?secret=********&api_key=********&x=1',
				),
				error.message,
			);
			assert.ok(
				!JSON.stringify(error).includes('other-workflow-secret') &&
					!`${error.message}${error.description}`.includes('k3y-value'),
			);
			assert.match(String(error.description), /Nothing was changed/);
			return true;
		});
		assert.equal(updates().length, 0, 'no update_virtualnum was sent');
		assert.deepEqual(callbackOf(c), { url: withSecrets, option: 3 });
	});

	describe('two triggers on one number: only one can receive its calls, the second is refused', () => {
		for (const order of [
			['A', 'B'],
			['B', 'A'],
		] as const) {
			test(`${order[0]} first: ${order[1]} is refused while ${order[0]} is active; every order of deactivation ends on the original URL`, async () => {
				const [shared, onlyA, onlyB] = numbers();
				await setForeignCallback(shared, FOREIGN, 1);
				const triggers = {
					A: trigger({
						events: CALLS,
						numbers: 'selected',
						virtualnums: selectedNumbers([shared, onlyA]),
						options: { secret: 'secret-of-A' },
					}),
					B: trigger({
						events: ['callEnded'],
						numbers: 'selected',
						virtualnums: selectedNumbers([onlyB, shared]),
						options: { secret: 'secret-of-B' },
					}),
				};
				const [first, second] = [triggers[order[0]], triggers[order[1]]];
				await first.activate();
				await assert.rejects(second.activate(), (error: Error & { description?: string }) => {
					assert.match(
						error.message,
						new RegExp(
							`The number already reports its calls to another workflow's Virtual Number Trigger: ${shared} \\(${first.webhookUrl.replace(/[.?]/g, '\\$&')}\\?secret=\\*{8}&vnt=live`,
						),
					);
					assert.ok(
						error.message.includes(
							`its original callback URL, kept in that URL: ${FOREIGN} (option 1)`,
						),
						error.message,
					);
					assert.match(
						String(error.description),
						/Nothing was changed\. A number has one callback URL, so only one workflow can receive its calls: deactivate the other workflow first/,
					);
					assert.ok(
						!`${error.message}${error.description}`.includes('secret-of-'),
						'no secret of either workflow',
					);
					return true;
				});
				assert.ok(first.holds(callbackOf(shared).url), `the number stays with ${order[0]}`);
				assert.deepEqual(
					callbackOf(order[1] === 'A' ? onlyA : onlyB),
					{ url: '', option: 2 },
					`nothing of ${order[1]} registered`,
				);
				await first.deactivate();
				assert.deepEqual(callbackOf(shared), { url: FOREIGN, option: 1 });
				await second.activate();
				assert.ok(second.holds(callbackOf(shared).url));
				await second.deactivate();
				for (const number of [shared, onlyA, onlyB])
					assert.deepEqual(
						callbackOf(number),
						number === shared ? { url: FOREIGN, option: 1 } : { url: '', option: 2 },
					);
			});
		}
	});

	describe('listen for test event', () => {
		test('registers the test URL on the numbers and gives them back when listening stops', async () => {
			const { a, t } = await oneWithForeign();
			await t.listen();
			assert.equal(
				callbackOf(a).url,
				registeredUrl(t.testWebhookUrl, '', 'test', { url: FOREIGN, option: 1 }),
			);
			await t.stopListening();
			assert.deepEqual(callbackOf(a), { url: FOREIGN, option: 1 });
		});

		test("is refused on numbers that point at this workflow's production URL: test mode never costs production events", async () => {
			const [a, b] = numbers();
			const t = trigger({
				events: CALLS,
				numbers: 'selected',
				virtualnums: selectedNumbers([a, b]),
			});
			await t.activate();
			sandbox.control.clearRequests();
			await assert.rejects(t.listen(), (error: Error & { description?: string }) => {
				assert.match(
					error.message,
					/^2 numbers point at this workflow's production URL \(the workflow is active\)/,
				);
				// what to do, in the one line the editor shows, not only what is wrong
				assert.match(
					error.message,
					/\)\. To listen for a test event, choose numbers the active workflow does not use, or deactivate the workflow first\.$/,
				);
				assert.match(
					String(error.description),
					/Nothing was changed\. Listening for a test event would take the number's calls away from the active workflow/,
				);
				return true;
			});
			assert.equal(updates().length, 0);
			assert.ok(t.holds(callbackOf(a).url) && t.holds(callbackOf(b).url));
			assert.equal(t.listening, false);
			await t.deactivate();
			assert.deepEqual(callbackOf(a), { url: '', option: 2 });
		});

		test('activation while listening takes the number over, keeping the original; listening then ends without touching it', async () => {
			const { a, t } = await oneWithForeign();
			await t.listen();
			await t.activate();
			assert.equal(callbackOf(a).url, urlFor(t, { url: FOREIGN, option: 1 }));
			await t.stopListening();
			assert.ok(t.holds(callbackOf(a).url), 'the production URL stays');
			await t.deactivate();
			assert.deepEqual(callbackOf(a), { url: FOREIGN, option: 1 });
		});
	});

	test("a number on this trigger's URL under another address (WEBHOOK_URL changed) is refused, naming its original URL", async () => {
		const [a] = numbers();
		const t = trigger({ events: CALLS, numbers: 'selected', virtualnums: selectedNumbers([a]) });
		const oldAddress = urlFor(t, { url: FOREIGN, option: 1 }).replace(
			host.baseUrl,
			'https://old-n8n.example.com',
		);
		await setForeignCallback(a, oldAddress, 3);
		await assert.rejects(t.activate(), (error: Error & { description?: string }) => {
			assert.match(
				error.message,
				/points at this trigger's URL under another address: .*https:\/\/old-n8n\.example\.com\/webhook\//,
			);
			assert.ok(
				error.message.includes(
					`its original callback URL, kept in that URL: ${FOREIGN} (option 1)`,
				),
			);
			assert.match(String(error.description), /If n8n's WEBHOOK_URL changed/);
			return true;
		});
		assert.equal(callbackOf(a).url, oldAddress);
	});

	test("a previous URL too long to fit inside the trigger's URL is refused before any change", async () => {
		const [a, b] = numbers();
		const long = `https://crm.example.com/${'x'.repeat(440)}`;
		await setForeignCallback(b, long, 1);
		sandbox.control.clearRequests();
		const t = trigger({ events: CALLS, numbers: 'selected', virtualnums: selectedNumbers([a, b]) });
		await assert.rejects(t.activate(), (error: Error & { description?: string }) => {
			assert.match(
				error.message,
				new RegExp(
					`^The number has a callback URL too long to be kept inside the trigger's URL: ${b}`,
				),
			);
			assert.match(
				String(error.description),
				/Nothing was changed\. The trigger keeps each number's previous callback URL inside the URL it registers \(the service accepts at most 511 characters\)/,
			);
			return true;
		});
		assert.equal(updates().length, 0);
	});
});
