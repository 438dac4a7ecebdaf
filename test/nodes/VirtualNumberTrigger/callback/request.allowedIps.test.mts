/** The Allowed IPs option: the list as read, and requests through the webhook. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { ipAllowed } from '../../../../nodes/VirtualNumberTrigger/callback/request.ts';
import { selectedNumbers } from '../../../../dev/harness/trigger.mts';
import { CALLS, callbackSetup } from './callbackSetup.mts';
import { settingsOf } from '../lifecycle/registrationSetup.mts';

describe('Virtual Number Trigger → Allowed IPs', () => {
	describe('allowed IP list', () => {
		/** Whether the webhook lets `ip` in with Allowed IPs set to `list`. */
		const allowed = (list: string, ip: string | undefined) =>
			ipAllowed(ip, settingsOf({ events: ['callEnded'], options: { allowedIps: list } }).allowList);

		test('IPv4 addresses and CIDR ranges', () => {
			assert.equal(allowed('203.0.113.10', '203.0.113.10'), true);
			assert.equal(allowed('203.0.113.10', '203.0.113.11'), false);
			assert.equal(allowed('198.51.100.0/24', '198.51.100.255'), true);
			assert.equal(allowed('198.51.100.0/24', '198.51.101.0'), false);
			assert.equal(allowed('198.51.100.128/25', '198.51.100.127'), false);
			assert.equal(allowed('10.0.0.0/8', '10.255.1.2'), true);
			assert.equal(allowed('0.0.0.0/0', '8.8.8.8'), true);
			assert.equal(
				allowed('0.0.0.0/0', '2001:db8::1'),
				false,
				'an IPv4 range does not match IPv6 clients',
			);
			assert.equal(allowed('172.16.0.0/12', '172.31.255.255'), true);
			assert.equal(allowed('172.16.0.0/12', '172.32.0.0'), false);
		});

		test('IPv6-mapped IPv4 clients match IPv4 entries, and the other way round', () => {
			assert.equal(allowed('203.0.113.10', '::ffff:203.0.113.10'), true);
			assert.equal(allowed('203.0.113.0/24', '::FFFF:203.0.113.77'), true);
			assert.equal(allowed('::ffff:203.0.113.10', '203.0.113.10'), true);
			assert.equal(allowed('::ffff:203.0.113.0/120', '203.0.113.200'), true);
			assert.equal(allowed('203.0.113.10', '::ffff:203.0.113.11'), false);
		});

		test('IPv6 addresses and ranges, compressed or not, with zone or brackets', () => {
			assert.equal(allowed('2001:db8::/32', '2001:db8:ffff::1'), true);
			assert.equal(allowed('2001:db8::/32', '2001:db9::1'), false);
			assert.equal(allowed('::1', '::1'), true);
			assert.equal(allowed('::1', '0:0:0:0:0:0:0:1'), true);
			assert.equal(allowed('::1', '[::1]'), true);
			assert.equal(allowed('fe80::/10', 'fe80::1%eth0'), true);
			assert.equal(allowed('2001:db8:0:0:1::/80', '2001:db8::1:0:0:5'), true);
			assert.equal(allowed('::/0', '2001:db8::1'), true);
		});

		test('several entries, separated by commas, spaces or new lines', () => {
			const list = '203.0.113.10,198.51.100.0/24\n2001:db8::/32 ; 127.0.0.1';
			for (const ip of ['203.0.113.10', '198.51.100.9', '2001:db8::9', '127.0.0.1'])
				assert.equal(allowed(list, ip), true, ip);
			assert.equal(allowed(list, '192.0.2.1'), false);
		});

		test('bad entries are reported, bad client addresses never match', () => {
			assert.throws(
				() =>
					allowed(
						'1.2.3.4, 1.2.3, 256.1.1.1, 1.2.3.4/33, 2001:db8::/129, 1::2::3, abc, 1.2.3.4/8/9, 01.2.3.4x',
						'1.2.3.4',
					),
				(error: Error) => {
					assert.equal(
						error.message,
						'Allowed IPs: not an IP address or CIDR range: "1.2.3", "256.1.1.1", "1.2.3.4/33", ' +
							'"2001:db8::/129", "1::2::3", "abc", "1.2.3.4/8/9", "01.2.3.4x"',
					);
					return true;
				},
			);
			for (const ip of [
				undefined,
				'',
				'localhost',
				'1.2.3',
				'::ffff:1.2.3',
				'1:2:3:4:5:6:7:8:9',
				'12345::',
			]) {
				assert.equal(allowed('0.0.0.0/0, ::/0', ip), false, String(ip));
			}
			assert.equal(allowed('1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8'), true, 'eight groups');
			assert.equal(allowed('1:2:3:4:5:6:7::', '1:2:3:4:5:6:7:0'), true, ':: at the end');
			assert.equal(allowed('1:2:3:4:5:6:7::', '1:2:3:4:5:6:7:1'), false);
		});
	});
});

describe('Virtual Number Trigger → Allowed IPs, through the webhook', () => {
	const { sandbox, host, numbers, activated } = callbackSetup();

	test('a request from an address outside Allowed IPs gets 401 and starts nothing', async () => {
		const [number] = numbers();
		const t = await activated({
			events: CALLS,
			numbers: 'selected',
			virtualnums: selectedNumbers([number]),
			options: { allowedIps: '203.0.113.0/24, 2001:db8::/32' },
		});
		const { callbacks } = await sandbox.control.placeCall({
			virtualnum: number,
			caller: '0541234567',
		});
		assert.deepEqual(
			callbacks.map((c) => [c.responseStatus, c.responseBody]),
			[
				[401, 'Unauthorized'],
				[401, 'Unauthorized'],
			],
		);
		assert.equal(t.executions.length, 0);
	});

	test('a request from an allowed address (IPv4, CIDR, IPv6-mapped IPv4) starts the workflow', async () => {
		const [number] = numbers();
		const t = await activated({
			events: CALLS,
			numbers: 'selected',
			virtualnums: selectedNumbers([number]),
			options: { allowedIps: '203.0.113.7 127.0.0.0/8' },
		});
		await sandbox.control.placeCall({ virtualnum: number, caller: '0541234567' });
		assert.equal(t.executions.length, 2);
		const payload = { body: { event: 'start', call_uuid: '9.9', cdr_ddi: number } };
		assert.equal(
			(await t.receive({ ...payload, ip: '::ffff:203.0.113.7' })).started,
			true,
			'IPv6-mapped IPv4 matches an IPv4 entry',
		);
		assert.equal((await t.receive({ ...payload, ip: '203.0.113.8' })).status, 401);
		const v6 = host.add({
			...t.options,
			parameters: { ...t.options.parameters, options: { allowedIps: '2001:db8::/32, ::1' } },
		});
		assert.equal((await v6.receive({ ...payload, ip: '2001:db8:1::5' })).started, true);
		assert.equal((await v6.receive({ ...payload, ip: '::1' })).started, true);
		assert.equal((await v6.receive({ ...payload, ip: '2001:db9::1' })).status, 401);
		assert.equal(
			(await v6.receive({ ...payload, ip: undefined })).status,
			401,
			'no address known: refused',
		);
		assert.equal((await t.receive({ ...payload, ip: undefined })).status, 401);
	});
});
