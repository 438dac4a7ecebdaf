import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { nodeDescription, userTest } from './userTest.mts';

const { run, json, user, expr, requests, refused } = userTest();

describe('Virtual Number → User', () => {
	describe('Get Access Log', () => {
		test('formats the time range as Y-m-d H:i:s and filters by user', async () => {
			const result = await run({
				operation: 'getAccessLog',
				logUserId: user(2),
				startTime: '2024-11-01T00:00:00',
				endTime: '2024-12-15 23:59:59',
			});
			assert.equal(result.error, undefined, result.error?.message);
			assert.deepEqual(requests('get_users_access_log')[0].query, {
				service: 'get_users_access_log',
				format: 'json',
				user_id: '2',
				start_time: '2024-11-01 00:00:00',
				end_time: '2024-12-15 23:59:59',
			});
			const rows = json(result);
			assert.ok(rows.length > 0);
			for (const row of rows) {
				assert.equal(row.access_log_user_id, 2);
				assert.ok(
					String(row.access_log_time) >= '2024-11-01 00:00:00' &&
						String(row.access_log_time) <= '2024-12-15 23:59:59',
				);
			}
			const times = rows.map((row) => String(row.access_log_time));
			assert.deepEqual(times, [...times].sort().reverse(), 'newest first, as the service answers');
		});

		test('reads dates with an offset, and converts them to the workflow time zone', async () => {
			await run(
				{
					operation: 'getAccessLog',
					startTime: '2024-11-01T00:00:00Z',
					endTime: '2024-11-02T12:30:00+01:00',
				},
				{ timezone: 'Asia/Jerusalem' },
			);
			const { query } = requests('get_users_access_log')[0];
			assert.equal(query.start_time, '2024-11-01 02:00:00');
			assert.equal(query.end_time, '2024-11-02 13:30:00');
			assert.equal(query.user_id, undefined, 'no user filter when the user is empty');
		});

		test('without a time range all rows come back (up to the cap the hint states)', async () => {
			const result = await run({ operation: 'getAccessLog' });
			assert.equal(result.error, undefined, result.error?.message);
			assert.deepEqual(requests('get_users_access_log')[0].query, {
				service: 'get_users_access_log',
				format: 'json',
			});
			assert.equal(json(result).length, 40);
			const properties = (await nodeDescription()).properties;
			const start = properties.find(
				(p) => p.name === 'startTime' && p.displayOptions?.show?.resource?.includes('user'),
			);
			assert.match(String(start?.hint), /At most 1000 rows/);
		});

		test('no rows in the range gives no items (6001)', async () => {
			const result = await run({ operation: 'getAccessLog', startTime: '2030-01-01 00:00:00' });
			assert.equal(result.error, undefined, result.error?.message);
			assert.equal(json(result).length, 0);
		});

		test('an invalid date or an end before the start is refused before any request', async () => {
			await refused(
				{ operation: 'getAccessLog', startTime: 'yesterday-ish' },
				/Start Time: must be a date/,
			);
			await refused(
				{
					operation: 'getAccessLog',
					startTime: '2024-12-01 00:00:00',
					endTime: '2024-11-01 00:00:00',
				},
				/End Time: must not be before Start Time/,
			);
			await refused(
				{ operation: 'getAccessLog', logUserId: user(expr('x1')) },
				/User: must be a user ID/,
			);
		});
	});
});
