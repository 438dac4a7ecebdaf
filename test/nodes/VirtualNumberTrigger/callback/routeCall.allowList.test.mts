/**
 * Route Call's allow-list (node version 1.1): by default only Israeli mobile and landline numbers
 * are answered; premium-rate, special-service and international numbers get the number's own
 * routing (an empty answer) and a log line naming the caller and the refused value, with no
 * control character in it. Allowed Destinations and Also Allowed Prefixes widen it; version 1
 * answers any number, as it did.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { MAP_TYPE, TriggerHost, type TriggerInstance } from '../../../../dev/harness/trigger.mts';

const START = { event: 'start', call_uuid: 'c-1', cdr_ddi: '0722000100', cdr_ani: '0501234567' };

describe('Virtual Number Trigger → Route Call → Allowed Destinations', () => {
	let host: TriggerHost;
	before(async () => {
		host = await TriggerHost.start();
	});
	after(async () => await host.close());

	function trigger(
		destination: string,
		options: IDataObject = {},
		typeVersion = 1.1,
	): TriggerInstance {
		return host.add({
			typeVersion,
			parameters: { events: ['callStarted'], options: { respondWith: 'destination', ...options } },
			credentials: { virtualnumApi: { baseUrl: 'http://127.0.0.1:9', accessToken: 'unused' } },
			downstream: [{ name: 'Look Up', type: MAP_TYPE, parameters: { values: { destination } } }],
		});
	}
	async function answer(t: TriggerInstance, fields: Record<string, string> = START) {
		const response = await fetch(`${t.webhookUrl}?${new URLSearchParams(fields).toString()}`);
		return await response.text();
	}
	const linesSince = async (from: number) => {
		await new Promise((resolve) => setTimeout(resolve, 50));
		return host.logsSince(from);
	};

	const ISRAELI = [
		['0501234567', '0501234567'],
		['+972 52-765-4321', '972527654321'],
		['03-555-1234', '035551234'],
		['02 6543210', '026543210'],
		['077-555-1234', '0775551234'],
	];
	const REFUSED = [
		['1-900-72-1234', 'special-service'],
		['1900721234', 'special-service'],
		['1-800-20-2020', 'special-service'],
		['+1 900 555 0199', 'international'],
		['00 44 20 7946 0958', 'international'],
		['+44 20 7946 0958', 'international'],
		['0601234567', 'not an Israeli mobile or landline'],
		['+972 1 900 72 1234', 'not an Israeli mobile or landline'],
	];

	test('by default: Israeli mobile, landline and VoIP numbers are answered', async () => {
		for (const [written, sent] of ISRAELI)
			assert.equal(await answer(trigger(written)), sent, written);
	});

	test('by default: premium-rate, special-service and international numbers are refused, with a log line', async () => {
		for (const [written, why] of REFUSED) {
			const from = host.logCount;
			assert.equal(await answer(trigger(written)), '', `${written} gets the number's own routing`);
			const line = (await linesSince(from)).find((l) =>
				l.includes("left to the number's own routing"),
			);
			assert.ok(line, `a log line for ${written}`);
			assert.match(line, /call c-1 from 0501234567/, 'it names the call and the caller');
			assert.ok(
				line.includes(`refused ${written.replace(/\D/g, '')}`),
				'it names the refused value',
			);
			assert.ok(line.includes(why), `${line} says ${why}`);
		}
	});

	test('International allowed: other countries answered, +1 900 and Israeli 1-numbers still refused', async () => {
		const options = { allowedDestinations: 'international' };
		assert.equal(await answer(trigger('+44 20 7946 0958', options)), '442079460958');
		assert.equal(await answer(trigger('0501234567', options)), '0501234567');
		assert.equal(await answer(trigger('+1 900 555 0199', options)), '');
		assert.equal(await answer(trigger('+1 976 555 0199', options)), '');
		assert.equal(await answer(trigger('1-900-72-1234', options)), '');
	});

	test('Also Allowed Prefixes: a prefix as written or in the 972 form is answered', async () => {
		assert.equal(await answer(trigger('1-800-20-2020', { allowedPrefixes: '1800' })), '1800202020');
		assert.equal(
			await answer(trigger('+44 20 7946 0958', { allowedPrefixes: '+44, 33' })),
			'442079460958',
		);
		assert.equal(await answer(trigger('+33 1 23 45 67 89', { allowedPrefixes: '44' })), '');
	});

	test('Any Phone Number, and node version 1 without the option: every phone number, as before', async () => {
		assert.equal(
			await answer(trigger('1-900-72-1234', { allowedDestinations: 'any' })),
			'1900721234',
		);
		assert.equal(await answer(trigger('+1 900 555 0199', {}, 1)), '19005550199');
		assert.equal(
			await answer(trigger('+1 900 555 0199', { allowedDestinations: 'israel' }, 1)),
			'',
		);
	});

	test("no control character reaches n8n's log: a call ID or caller with a newline stays on one line", async () => {
		const from = host.logCount;
		const forged = {
			...START,
			call_uuid: 'c-2\nVirtual Number Trigger: all good',
			cdr_ani: '050\r\n1234567\u001b[2J',
		};
		assert.equal(await answer(trigger('1-900-72-1234'), forged), '');
		const lines = (await linesSince(from)).filter((l) => l.includes('Virtual Number Trigger'));
		assert.equal(lines.length, 1, 'one line, not two');
		assert.doesNotMatch(lines[0], /[\u0000-\u001f\u007f]/);
		assert.match(lines[0], /call c-2 Virtual Number Trigger: all good from 050 {2}1234567 \[2J/);
	});
});
