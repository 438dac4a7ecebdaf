import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { failure, hoursPattern, jsons, rl, vnRequests, vnTest } from '../../vnRun.mts';

const { sandbox, run, refused } = vnTest();

describe('Virtual Number → Virtual Number → Update', () => {
	const update = (updateFields: Record<string, unknown>, virtualnum = rl('0722000101')) =>
		run({ resource: 'virtualnum', operation: 'update', virtualnum, updateFields });

	test('only email set: the current description and destinations are sent with it, nothing else changes', async () => {
		const before = sandbox.control.virtualnum('0722000101')!;
		const items = jsons(await update({ email: 'new@example.com' }));
		const [request] = vnRequests(sandbox, 'update_virtualnum');
		assert.equal(request.method, 'POST');
		// Every setting is sent back as read (none lost if the service replaces the whole record).
		const body = request.body as Record<string, unknown>;
		assert.equal(body.email, 'new@example.com');
		assert.equal(body.virtualnum, '0722000101');
		assert.equal(body.description, before.description);
		assert.equal(body.call_destination_phone, before.call_destination_phone);
		assert.equal(body.working_hours, before.working_hours);
		assert.equal(body.create_time, undefined);
		const afterRecord = sandbox.control.virtualnum('0722000101')!;
		assert.deepEqual({ ...afterRecord, email: before.email }, before, 'only the email changed');
		assert.equal(afterRecord.email, 'new@example.com');
		assert.equal(items[0].email, 'new@example.com');
		assert.equal(items[0].description, before.description);
	});

	test('description and destinations set: sent as given, the other settings as read', async () => {
		const before = sandbox.control.virtualnum('0722000101')!;
		jsons(
			await update({ description: 'Renamed', callDestinationPhone: '0509999999', dialOption: 3 }),
		);
		assert.equal(vnRequests(sandbox, 'get_virtualnum').length, 1);
		const body = vnRequests(sandbox, 'update_virtualnum')[0].body as Record<string, unknown>;
		assert.equal(body.description, 'Renamed');
		assert.equal(body.call_destination_phone, '0509999999');
		assert.equal(body.dial_option, '3');
		assert.equal(body.virtualnum, '0722000101');
		assert.equal(body.private_field1, before.private_field1);
		assert.equal(sandbox.control.virtualnum('0722000101')!.dial_option, 3);
	});

	test('suspending a number with Status', async () => {
		const items = jsons(await update({ activeStatus: 0 }));
		assert.equal(items[0].active_status, 0);
		assert.equal(sandbox.control.virtualnum('0722000101')!.active_status, 0);
	});

	test('the working-hours editor replaces the pattern', async () => {
		jsons(await update({ workingHours: { period: [{ days: ['friday'], from: 8, to: 13 }] } }));
		assert.equal(
			sandbox.control.virtualnum('0722000101')!.working_hours,
			hoursPattern([[5, 8, 13]]),
		);
	});

	test('a 100-character working-hours value is refused before any request', async () => {
		await refused(
			{
				resource: 'virtualnum',
				operation: 'update',
				virtualnum: rl('0722000101'),
				updateFields: { workingHoursPattern: '1'.repeat(100) },
			},
			/^Working Hours Pattern: must be exactly 168 characters/,
		);
	});

	test('nothing to change is refused before any request', async () => {
		await refused(
			{
				resource: 'virtualnum',
				operation: 'update',
				virtualnum: rl('0722000101'),
				updateFields: {},
			},
			/^Update Fields: has nothing to change/,
		);
		await refused(
			{
				resource: 'virtualnum',
				operation: 'update',
				virtualnum: rl('0722000101'),
				updateFields: { email: '  ' },
			},
			/^Update Fields: has nothing to change/,
		);
	});

	test('limits are checked before any request', async () => {
		const base = { resource: 'virtualnum', operation: 'update', virtualnum: rl('0722000101') };
		await refused(
			{ ...base, updateFields: { description: 'd'.repeat(200) } },
			/^Description: must be at most 199/,
		);
		await refused(
			{ ...base, updateFields: { callDestinationPhone: `${'0501234567,'.repeat(13)}77777777` } },
			/^Destination Phones: must be at most 150/,
		);
		await refused(
			{ ...base, updateFields: { callbackUrl: 'h'.repeat(512) } },
			/^Callback URL: must be at most 511/,
		);
		await refused({ ...base, updateFields: { dialTimeoutInSec: 200 } }, /^Dial Timeout/);
	});

	test('a number not in the account fails naming it', async () => {
		const error = failure(await update({ email: 'a@b.c' }, rl('0799999999', 'id')));
		assert.match(error.message, /0799999999 is not in this account/);
		assert.equal(vnRequests(sandbox, 'update_virtualnum').length, 0);
	});
});
