import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { blacklistTest } from './blacklistTest.mts';

const { sandbox, run, rl, requests, BOUND_TO, ok, refused } = blacklistTest();

describe('Virtual Number → Blacklist', () => {
	describe('Remove', () => {
		test('removes a global block', async () => {
			const [output] = ok(await run({ operation: 'remove', callerNumber: '0777777777' }));
			const [request] = requests('remove_number_from_blacklist');
			assert.equal(request.method, 'POST');
			assert.deepEqual(request.body, { caller_number: '0777777777' });
			assert.equal(output.removed, true);
			assert.equal(output.scope, 'global');
			assert.ok(!sandbox.control.blacklist().some((e) => e.caller_number === '0777777777'));
		});

		test('removes a bound block when the virtual number is given', async () => {
			ok(
				await run({
					operation: 'remove',
					callerNumber: '0502222222',
					scope: 'virtualnum',
					virtualnum: rl(BOUND_TO),
				}),
			);
			assert.deepEqual(requests('remove_number_from_blacklist')[0].body, {
				caller_number: '0502222222',
				virtualnum: BOUND_TO,
			});
			assert.ok(!sandbox.control.blacklist().some((e) => e.caller_number === '0502222222'));
		});

		test('a bound block removed without its number explains 2012 and names the number to pick', async () => {
			const result = await run({ operation: 'remove', callerNumber: '0502222222' });
			assert.ok(result.error);
			assert.match(
				result.error.message,
				/remove_number_from_blacklist failed: The number is not in the blacklist \(code 2012\)/,
			);
			assert.match(
				String(result.error.description),
				new RegExp(
					`blocked for the virtual number ${BOUND_TO}, not globally: set Blocked For to "One Virtual Number" and pick ${BOUND_TO}`,
				),
			);
			assert.equal(requests('get_blacklist').length, 1, 'the explanation comes from a lookup');
			assert.ok(
				sandbox.control.blacklist().some((e) => e.caller_number === '0502222222'),
				'nothing was removed',
			);
		});

		test('a global block removed as if bound explains where it is blocked', async () => {
			const result = await run({
				operation: 'remove',
				callerNumber: '0501111111',
				scope: 'virtualnum',
				virtualnum: rl('0722000101'),
			});
			assert.match(
				String(result.error?.description),
				/blocked globally \(all virtual numbers\), not for 0722000101: set Blocked For to "All Virtual Numbers"/,
			);
		});

		test('a number not blocked at all gives the plain 2012 error', async () => {
			const result = await run({ operation: 'remove', callerNumber: '0509999999' });
			assert.match(String(result.error?.message), /\(code 2012\)/);
			assert.doesNotMatch(String(result.error?.description), /is blocked/);
		});

		test('a caller number with letters is refused before any request', async () => {
			await refused(
				{ operation: 'remove', callerNumber: '05x1111111' },
				/Caller Number: must be a phone number/,
			);
		});
	});
});
