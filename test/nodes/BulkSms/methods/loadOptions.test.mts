import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { INodePropertyOptions } from 'n8n-workflow';

import { callMethod, methodTest } from './methodTest.mts';

const { creds } = methodTest();

describe('Bulk SMS editor methods: the Time Zone list', () => {
	test("the Time Zone list starts with the service's and the workflow's time zones and holds the IANA zones", async () => {
		const zones = await callMethod<INodePropertyOptions[]>(
			'loadOptions',
			'getTimeZones',
			creds(),
			[],
			'Asia/Jerusalem',
		);
		assert.deepEqual(zones[0], {
			name: 'Service Time Zone (From the Credential)',
			value: 'service',
			description: "The service's clock, as the credential sets it (Asia/Jerusalem by default)",
		});
		assert.deepEqual(zones[1], {
			name: 'Workflow Time Zone (Asia/Jerusalem)',
			value: 'workflow',
			description: "The time zone in the workflow's settings",
		});
		for (const zone of ['UTC', 'Asia/Jerusalem', 'Europe/London', 'America/New_York']) {
			assert.ok(
				zones.some((z) => z.value === zone),
				zone,
			);
		}
	});
});
