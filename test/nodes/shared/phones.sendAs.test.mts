/**
 * Send Numbers As on the Virtual Number credential: the numbers the Virtual Number node sends the
 * service to dial, as the sandbox receives them (the SMS credential's: test/nodes/BulkSms).
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { runWorkflow } from '../../../dev/harness/engine.mts';
import { startSandbox, type Sandbox } from '../../../dev/sandbox/index.mts';

const NODE = 'Virtual Number';
const NUMBER = '0722000100';
const rl = (value: string) => ({ __rl: true, mode: 'id', value });

for (const profile of ['contract', 'field'] as const) {
	describe(`Virtual Number credential → Send Numbers As (${profile} profile)`, () => {
		let sandbox: Sandbox;
		before(async () => {
			sandbox = await startSandbox(profile === 'field' ? { profile: 'field' } : {});
		});
		after(async () => await sandbox.close());
		beforeEach(() => sandbox.control.reset());

		async function run(parameters: IDataObject, credential: IDataObject) {
			const result = await runWorkflow({
				nodes: [{ name: NODE, type: 'virtualNumber', typeVersion: 1.1, parameters }],
				credentials: {
					virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn, ...credential },
				},
			});
			assert.equal(result.error, undefined, result.error?.message);
			return result.items(NODE).map((item) => item.json);
		}
		const bodies = (operation: string) =>
			sandbox.control
				.requests({ service: 'vn', operation })
				.map((request) => ({ ...request.query, ...(request.body as IDataObject) }));

		for (const [format, typed, expected] of [
			['asTyped', '+972 (0)50-123-4567', '972501234567'],
			['asTyped', '050-123-4567', '0501234567'],
			['local', '+972 50-123-4567', '0501234567'],
			['international', '050-123 4567', '972501234567'],
		] as const) {
			test(`Click to Call, ${format}: ${typed} is dialled as ${expected}`, async () => {
				const [item] = await run(
					{
						resource: 'call',
						operation: 'clickToCall',
						virtualnum: rl(NUMBER),
						destination: typed,
					},
					{ sendNumbersAs: format },
				);
				assert.equal(bodies('create_virtualnum_call')[0].destination, expected);
				assert.equal(item.destination, expected);
			});
		}

		test('Two-Leg Call, International with another country code: both legs', async () => {
			await run(
				{
					resource: 'call',
					operation: 'twoLegCall',
					virtualnum1: rl(NUMBER),
					destination1: '020 7946 0958',
					destination2: '+972 50 123 4567',
				},
				{ sendNumbersAs: 'international', countryCode: '44' },
			);
			const [body] = bodies('create_virtualnum_call_v2');
			assert.ok(body, 'the call was placed');
			assert.equal(body.destination1, '442079460958');
			assert.equal(body.destination2, '972501234567');
		});
	});
}
