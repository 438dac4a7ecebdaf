import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { expr, jsons, vnRequests, vnTest } from '../../vnRun.mts';

const { sandbox, run, refused } = vnTest();

describe('Virtual Number → Call Record → Get Unique Callers Report', () => {
	const report = (parameters: Record<string, unknown>, timezone?: string) =>
		run({ resource: 'cdr', operation: 'getUniqueCallers', ...parameters }, { timezone });

	test('sends start and end as Y-m-d H:i:s and outputs one item per caller', async () => {
		sandbox.control.seed({ cdrs: 500 });
		const items = jsons(
			await report({ startTime: '2024-10-01T00:00:00', endTime: '2024-12-31 23:59:59' }),
		);
		const [request] = vnRequests(sandbox, 'cdr_subunique_query');
		assert.equal(request.query.start_time, '2024-10-01 00:00:00');
		assert.equal(request.query.end_time, '2024-12-31 23:59:59');
		const answered = sandbox.control.cdrs().filter((row) => row.call_status === 'ANSWER');
		const callers = new Set(answered.map((row) => row.cdr_ani));
		assert.equal(items.length, Math.min(callers.size, 2000));
		const counts = new Map<string, number>();
		for (const row of answered) counts.set(row.cdr_ani, (counts.get(row.cdr_ani) ?? 0) + 1);
		for (const item of items)
			assert.equal(Number(item.calls_count), counts.get(String(item.callerNumber)));
		assert.deepEqual(Object.keys(items[0]), [
			'callerNumber',
			'calls_count',
			'total_duration',
			'first_call',
			'last_call',
		]);
		sandbox.control.clearRequests();
		const raw = jsons(
			await report({
				startTime: '2024-10-01T00:00:00',
				endTime: '2024-12-31 23:59:59',
				simplify: false,
			}),
		);
		const { callerNumber, ...others } = items[0];
		assert.deepEqual(
			raw[0],
			{ cdr_ani: callerNumber, ...others },
			"Simplify off: the service's cdr_ani",
		);
	});

	test("dates from luxon, JS dates and ISO with offsets are converted to the service's time zone", async () => {
		jsons(
			await report(
				{
					startTime: "={{ DateTime.fromISO('2024-10-01T00:00:00Z') }}",
					endTime: "={{ new Date('2024-11-01T12:00:00+02:00') }}",
				},
				'America/New_York',
			),
		);
		const [request] = vnRequests(sandbox, 'cdr_subunique_query');
		assert.equal(request.query.start_time, '2024-10-01 03:00:00');
		assert.equal(request.query.end_time, '2024-11-01 12:00:00');
	});

	test('no answered calls in the range: no items, no error', async () => {
		assert.deepEqual(
			jsons(await report({ startTime: '2031-01-01 00:00:00', endTime: '2031-01-02 00:00:00' })),
			[],
		);
	});

	test('bad dates are refused before any request', async () => {
		const base = { resource: 'cdr', operation: 'getUniqueCallers' };
		await refused(
			{ ...base, startTime: expr('soon'), endTime: '2024-12-31 00:00:00' },
			/^Start Time: must be a date/,
		);
		await refused(
			{ ...base, startTime: '2024-10-01 00:00:00', endTime: expr('') },
			/^End Time: is required/,
		);
		await refused(
			{ ...base, startTime: '2024-10-01 00:00:00', endTime: expr('2024-02-30 10:00:00') },
			/^End Time: must be a date/,
		);
		await refused(
			{ ...base, startTime: '2024-12-01 00:00:00', endTime: '2024-10-01 00:00:00' },
			/^End Time: must not be before Start Time \(2024-12-01 00:00:00\)/,
		);
	});
});
