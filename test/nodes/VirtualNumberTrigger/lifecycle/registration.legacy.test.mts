/** Numbers registered by version 0.1, which kept their previous callback in the static data. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { selectedNumbers } from '../../../../dev/harness/trigger.mts';
import { CALLS, FOREIGN, NODE_KEY, registrationSetup } from './registrationSetup.mts';

describe("Virtual Number Trigger → version 0.1's records in the static data", () => {
	const { host, numbers, trigger, callbackOf, urlFor, setForeignCallback, oneWithForeign } =
		registrationSetup();

	test('the static data lost or never saved: the numbers still tell what to restore', async () => {
		const { a, t } = await oneWithForeign();
		await t.activate();
		const fresh = host.add({ ...t.options, staticData: {} });
		assert.equal(
			await fresh.lifecycle('checkExists'),
			true,
			'the numbers alone say it is registered',
		);
		await fresh.deactivate();
		assert.deepEqual(callbackOf(a), { url: FOREIGN, option: 1 });
	});

	test('a number registered by version 0.1 (previous URL in the static data, none in the URL) is restored from the static data', async () => {
		const [a] = numbers();
		const t = trigger({ events: CALLS, numbers: 'selected', virtualnums: selectedNumbers([a]) });
		await setForeignCallback(a, t.webhookUrl, 3);
		const legacy = {
			[NODE_KEY]: {
				registrations: {
					[t.webhookUrl]: {
						url: t.webhookUrl,
						option: 3,
						numbers: { [a]: { previousUrl: FOREIGN, previousOption: 1 } },
						registeredAt: '2025-01-01T00:00:00.000Z',
					},
				},
			},
		};
		const upgraded = host.add({ ...t.options, staticData: legacy });
		assert.equal(
			await upgraded.lifecycle('checkExists'),
			false,
			'an unmarked URL is registered again',
		);
		await upgraded.activate();
		assert.equal(
			callbackOf(a).url,
			urlFor(t, { url: FOREIGN, option: 1 }),
			"0.1's record moves into the URL",
		);
		assert.deepEqual(upgraded.savedStaticData(), { [NODE_KEY]: {} });
		await upgraded.deactivate();
		assert.deepEqual(callbackOf(a), { url: FOREIGN, option: 1 });
		// deactivation straight after the upgrade (no new activation) restores from the static data too
		await setForeignCallback(a, t.webhookUrl, 3);
		const straight = host.add({ ...t.options, staticData: legacy });
		await straight.deactivate();
		assert.deepEqual(callbackOf(a), { url: FOREIGN, option: 1 });
		assert.deepEqual(straight.savedStaticData(), { [NODE_KEY]: {} });
	});
});
