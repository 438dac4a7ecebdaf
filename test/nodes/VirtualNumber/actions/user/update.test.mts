import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { PASSWORD, producedText, userTest } from './userTest.mts';

const { sandbox, run, json, user, expr, requests, refused } = userTest();

describe('Virtual Number → User', () => {
	describe('Update', () => {
		test('sends only the fields set, and sets the status', async () => {
			const result = await run({
				operation: 'update',
				userId: user(2, 'list'),
				updateFields: { user_status: 0, user_phone: '0509998877' },
			});
			assert.equal(result.error, undefined, result.error?.message);
			const [request] = requests('update_user');
			assert.equal(request.method, 'POST');
			assert.deepEqual(request.body, { user_id: '2', user_status: '0', user_phone: '0509998877' });
			const [output] = json(result);
			assert.equal(output.user_id, 2);
			assert.deepEqual(output.updated_fields, ['user_phone', 'user_status']);
			const stored = sandbox.control.users().find((u) => u.user_id === 2)!;
			assert.equal(stored.user_status, 0);
			assert.equal(stored.user_phone, '972509998877');
		});

		test('a new password is sent but never output', async () => {
			const result = await run({
				operation: 'update',
				userId: user(2),
				updateFields: { password: PASSWORD },
			});
			assert.equal(result.error, undefined, result.error?.message);
			assert.deepEqual(requests('update_user')[0].body, { user_id: '2', password: PASSWORD });
			assert.deepEqual(json(result)[0].updated_fields, ['password (not shown)']);
			assert.ok(!JSON.stringify(result.run).includes(PASSWORD));
		});

		test('an error quoting the new password is masked', async () => {
			sandbox.control.injectFaults({
				kind: 'serviceError',
				operation: 'update_user',
				code: 7013,
				description: `rejected ${PASSWORD}`,
			});
			const result = await run({
				operation: 'update',
				userId: user(2),
				updateFields: { password: PASSWORD },
			});
			assert.match(
				String(result.error?.message),
				/password fails the password policy \(code 7013\)/,
			);
			assert.ok(!producedText(result).includes(PASSWORD));
		});

		test('nothing to update, a short phone, a short password or a bad user ID are refused before any request', async () => {
			await refused(
				{ operation: 'update', userId: user(2), updateFields: {} },
				/Update Fields: add at least one field/,
			);
			await refused(
				{ operation: 'update', userId: user(2), updateFields: { user_phone: '12345' } },
				/Phone: must be a phone number of at least 6 digits/,
			);
			const short = await refused(
				{ operation: 'update', userId: user(2), updateFields: { password: 'short1' } },
				/Password: must be at least 8/,
			);
			assert.ok(!producedText(short).includes('short1'));
			await refused(
				{ operation: 'update', userId: user(expr('abc')), updateFields: { user_status: 1 } },
				/User: must be a user ID/,
			);
			await refused(
				{ operation: 'update', userId: user(expr('')), updateFields: { user_status: 1 } },
				/User: is required/,
			);
		});
	});
});
