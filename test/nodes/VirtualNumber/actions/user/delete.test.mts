import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { nodeDescription, userTest } from './userTest.mts';

const { sandbox, run, json, user, requests } = userTest();

describe('Virtual Number → User', () => {
	describe('Delete', () => {
		test('deletes the user with delete_user and says so', async () => {
			const result = await run({ operation: 'delete', userId: user(2) });
			assert.equal(result.error, undefined, result.error?.message);
			const [request] = requests('delete_user');
			assert.equal(request.method, 'POST');
			assert.deepEqual(request.body, { user_id: '2' });
			assert.deepEqual(json(result)[0], {
				success: true,
				user_id: 2,
				statusDescription: 'Success',
				deleted: true,
			});
			assert.equal(
				sandbox.control.users().some((u) => u.user_id === 2),
				false,
			);
		});

		test('an unknown user gives the 7022 explanation', async () => {
			const result = await run({ operation: 'delete', userId: user(999) });
			assert.match(
				String(result.error?.message),
				/delete_user failed: The user does not exist \(code 7022\)/,
			);
		});

		test('the field warns that deletion is irreversible and invalidates the tokens', async () => {
			const notice = (await nodeDescription()).properties.find(
				(p) =>
					p.type === 'notice' &&
					p.displayOptions?.show?.resource?.includes('user') &&
					p.displayOptions?.show?.operation?.includes('delete'),
			);
			assert.match(String(notice?.displayName), /irreversible/);
			assert.match(String(notice?.displayName), /token/);
		});
	});
});
