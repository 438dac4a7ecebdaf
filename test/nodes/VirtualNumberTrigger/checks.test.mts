import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import type { IDataObject, IHookFunctions, INode } from 'n8n-workflow';

import { LIMITS } from '../../../nodes/shared/checks.ts';
import { maskSecrets } from '../../../nodes/shared/masking.ts';
import { ipAllowed } from '../../../nodes/VirtualNumberTrigger/allowedIps.ts';
import {
	DEFAULT_OPTION,
	baseOf,
	checkTriggerUrl,
	isTriggerUrl,
	marksOf,
	registeredUrl,
} from '../../../nodes/VirtualNumberTrigger/callbackUrl.ts';
import { TRIGGER_LIMITS, readSettings } from '../../../nodes/VirtualNumberTrigger/settings.ts';
import { VirtualNumberTrigger } from '../../../nodes/VirtualNumberTrigger/VirtualNumberTrigger.node.ts';
import { TriggerHost } from '../../../dev/harness/trigger.mts';

const node = {
	id: '1',
	name: 'Virtual Number Trigger',
	type: 'x',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
} as INode;

/** The trigger's settings as activation and the webhook read them from the node's parameters. */
function settingsOf(parameters: IDataObject) {
	const context = {
		getNode: () => node,
		getNodeParameter: (name: string, fallback?: unknown) => parameters[name] ?? fallback,
	} as unknown as IHookFunctions;
	return readSettings.call(context);
}

describe('Virtual Number Trigger → checks', () => {
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

	test("the callback URL limit is the spec's 511 characters", () => {
		const hook = 'https://n8n.example.com/webhook/abc/webhook';
		// The shortest URL the trigger registers (on a number without a callback) is what is checked.
		const withSecret = (length: number) => 'x'.repeat(length);
		const shortest = registeredUrl(hook, withSecret(1), 'live', {
			url: '',
			option: DEFAULT_OPTION,
		});
		const fits = withSecret(1 + LIMITS.callbackUrl.maxLength - shortest.length);
		assert.equal(
			registeredUrl(hook, fits, 'live', { url: '', option: DEFAULT_OPTION }).length,
			LIMITS.callbackUrl.maxLength,
		);
		assert.doesNotThrow(() => checkTriggerUrl(node, hook, fits, 'live'));
		assert.throws(
			() => checkTriggerUrl(node, hook, `${fits}x`, 'live'),
			(error: Error) =>
				error.message ===
				"Callback URL: the trigger's URL with the secret is 512 characters long; the service accepts at most 511",
		);
		assert.throws(
			() => checkTriggerUrl(node, 'ftp://x/y', '', 'live'),
			/Callback URL: the trigger's URL must be an http:\/\/ or https:\/\/ address/,
		);
	});

	test('the callback option follows the call events', () => {
		const option = (events: string[]) => settingsOf({ events }).callbackOption;
		assert.equal(option(['callStarted']), 1);
		assert.equal(option(['callEnded']), 2);
		assert.equal(option(['callEnded', 'callStarted', 'smsDelivery']), 3);
		assert.equal(option(['smsDelivery']), undefined);
	});

	describe('through the webhook', () => {
		let host: TriggerHost;
		before(async () => (host = await TriggerHost.start()));
		after(async () => await host.close());
		const credentials = { virtualnumApi: { baseUrl: 'http://127.0.0.1:9', accessToken: 'unused' } };
		const CALL = { event: 'end', call_uuid: '77.1', cdr_ddi: '0722000100' };

		test('the secret is compared in full', async () => {
			const t = host.add({
				parameters: { events: ['callEnded'], options: { secret: 'abc' } },
				credentials,
			});
			assert.equal((await t.receive({ query: { secret: 'abc' }, body: CALL })).started, true);
			for (const given of ['abd', 'ab', 'abcd', '', undefined, ['abc'], { 0: 'abc' }, 1]) {
				const outcome = await t.receive({ query: { secret: given }, body: CALL });
				assert.equal(outcome.started, false, JSON.stringify(given));
				assert.equal(outcome.status, 401, JSON.stringify(given));
			}
		});

		test('field aliases: several vocabularies give the same item', async () => {
			const t = host.add({ parameters: { events: ['callEnded'], options: {} }, credentials });
			const variants = [
				{
					event: 'call.end',
					call_uuid: '77.1',
					cdr_ddi: '0722000100',
					cdr_ani: '0541234567',
					user_phone: '0501112222',
					call_duration: 12,
					call_status: 'ANSWER',
				},
				{
					EVENT: 'END',
					CDR_UNIQUEID: '77.1',
					CDR_DDI: '0722000100',
					CDR_ANI: '0541234567',
					USER_PHONE: '0501112222',
					CALL_DURATION: '12',
					CALL_STATUS: 'ANSWER',
				},
				{
					type: 'hangup',
					uniqueid: '77.1',
					did: '0722000100',
					caller_id: '0541234567',
					destination: '0501112222',
					duration: '12',
					call_status: 'ANSWER',
				},
			];
			const items = [];
			for (const body of variants) {
				const outcome = await t.receive({ body });
				assert.equal(outcome.items.length, 1, JSON.stringify(body));
				const { body: _b, query: _q, method: _m, receivedAt: _r, ...rest } = outcome.items[0].json;
				items.push(rest);
			}
			assert.deepEqual(items[1], items[0]);
			assert.deepEqual(items[2], items[0]);
			assert.equal(items[0].durationSec, 12);
		});
	});

	test("the body size option's default is the package's limit", () => {
		const options = new VirtualNumberTrigger().description.properties.find(
			(p) => p.name === 'options',
		)!.options as Array<{
			name: string;
			default: unknown;
		}>;
		assert.equal(
			options.find((o) => o.name === 'maxBodyKb')!.default,
			TRIGGER_LIMITS.maxBodyKb.default,
		);
	});

	describe('the URL the trigger registers', () => {
		const hook = 'https://n8n.example.com/webhook/4b1f8c2e-9d3a-4f6b-8e2a-1c5d7e9f0a3b/webhook';
		test('carries the previous callback, read back exactly, whatever it holds', () => {
			for (const previous of [
				{ url: '', option: 2 },
				{ url: 'https://crm.example.com/calls?source=vn&token=a%2Bb#frag', option: 1 },
				{ url: 'http://x/y?vnt=live&vnt_prev=3http%3A%2F%2Fz&secret=s', option: 3 },
				{ url: 'https://שלום.example/?q=ü 😀+%', option: 2 },
			]) {
				for (const secret of ['', 'Ab3$ecret+/=&#']) {
					const url = registeredUrl(hook, secret, 'live', previous);
					const marks = marksOf(url);
					assert.deepEqual(marks.previous, previous, url);
					assert.equal(marks.mode, 'live');
					assert.equal(marks.secret, secret);
					assert.equal(baseOf(url), hook);
					assert.equal(isTriggerUrl(url), true);
				}
			}
			assert.equal(
				registeredUrl(hook, 'x', 'test', { url: '', option: 2 }),
				`${hook}?secret=x&vnt=test&vnt_prev=2`,
			);
		});

		test("tells a trigger's URL from any other", () => {
			assert.equal(isTriggerUrl(hook), true, 'registered by version 0.1 (no marks): its path');
			assert.equal(isTriggerUrl(`${hook}?secret=abc`), true);
			assert.equal(isTriggerUrl('https://crm.example.com/webhook'), false);
			assert.equal(isTriggerUrl('https://crm.example.com/hooks/calls?x=1'), false);
			assert.equal(
				marksOf('https://crm.example.com/?vnt_prev=9abc').previous,
				undefined,
				'an option outside 1-3 is not a previous callback',
			);
			assert.equal(marksOf('not a url at all').previous, undefined);
		});
	});

	describe('secrets are masked in every URL, whosever it is', () => {
		const cases: Array<[string, string]> = [
			[
				'https://n8n.example.com/webhook/x/webhook?secret=abc123&vnt=live',
				'https://n8n.example.com/webhook/x/webhook?secret=********&vnt=live',
			],
			[
				'https://crm.example.com/in?token=t0k&api_key=k3y&x=1',
				'https://crm.example.com/in?token=********&api_key=********&x=1',
			],
			['https://user:pa55@crm.example.com/in', 'https://user:********@crm.example.com/in'],
			// another workflow's secret inside a previous URL (URL-encoded once, and twice)
			[
				'https://n8n/webhook/x/webhook?vnt=live&vnt_prev=1https%3A%2F%2Fcrm%2Fin%3Fsecret%3Dinner%26a%3D1',
				'https://n8n/webhook/x/webhook?vnt=live&vnt_prev=1https%3A%2F%2Fcrm%2Fin%3Fsecret%3D********%26a%3D1',
			],
			['a%3Fsecret%253Ddouble%2526b', 'a%3Fsecret%253D********%2526b'],
			[
				'JSON: {"callback_url":"https://h/w?signature=sig1&x=2"}',
				'JSON: {"callback_url":"https://h/w?signature=********&x=2"}',
			],
		];
		for (const [input, expected] of cases)
			test(input, () => assert.equal(maskSecrets(input), expected));

		test("the trigger's own secret in any form, even where no parameter names it", () => {
			const secret = 'Ab3$ecret+/=';
			const text = `as typed ${secret}, encoded ${encodeURIComponent(secret)}, twice ${encodeURIComponent(encodeURIComponent(secret))}, in JSON ${JSON.stringify(secret)}`;
			const masked = maskSecrets(text, [secret]);
			assert.ok(!masked.includes('ecret'), masked);
		});
	});
});
