import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { loadPackage } from '../../../../../dev/harness/engine.mts';
import { expr, failure, jsons, rl, vnRequests, vnTest } from '../../vnRun.mts';

const { sandbox, run, refused } = vnTest();

const NUMBER = '0722000100';
const SUSPENDED = '0722000105';

describe('Virtual Number → Call → Create Click-to-Call Link', () => {
	test('the field description says the link currently places no call', async () => {
		const loader = await loadPackage();
		const properties = (
			loader.getNode('virtualNumber').type as {
				description: {
					properties: Array<{
						name: string;
						displayName: string;
						description?: string;
						type: string;
						displayOptions?: { show?: Record<string, unknown[]> };
					}>;
				};
			}
		).description.properties;
		const forLink = properties.filter((p) =>
			p.displayOptions?.show?.operation?.includes('createLink'),
		);
		assert.ok(
			forLink.some(
				(p) => p.type === 'notice' && /opening it currently places no call/.test(p.displayName),
			),
		);
		assert.match(
			String(forLink.find((p) => p.name === 'destination')?.description),
			/currently places no call/,
		);
	});

	test('creates a signed link with click2call_link and outputs its URL', async () => {
		const items = jsons(
			await run({
				resource: 'call',
				operation: 'createLink',
				virtualnum: rl(NUMBER),
				destination: '0501234567',
				options: { firstTarget: 'virtualnum', expireDays: 7 },
			}),
		);
		const [request] = vnRequests(sandbox, 'click2call_link');
		assert.deepEqual(
			{
				virtualnum: request.query.virtualnum,
				destination: request.query.destination,
				first_target: request.query.first_target,
				expire_days: request.query.expire_days,
			},
			{
				virtualnum: NUMBER,
				destination: '0501234567',
				first_target: 'virtualnum',
				expire_days: '7',
			},
		);
		const url = new URL(String(items[0].url));
		assert.equal(url.searchParams.get('virtualnum'), NUMBER);
		assert.ok(url.searchParams.get('signature'));
		const expires = Number(url.searchParams.get('expires')) * 1000;
		assert.ok(Math.abs(expires - (Date.now() + 7 * 86400_000)) < 60_000, 'valid for 7 days');
		assert.equal(items[0].virtualnum, NUMBER);
	});

	test('without options, the service defaults apply (nothing extra sent)', async () => {
		jsons(
			await run({
				resource: 'call',
				operation: 'createLink',
				virtualnum: rl(NUMBER),
				destination: '0501234567',
			}),
		);
		const [request] = vnRequests(sandbox, 'click2call_link');
		assert.equal(request.query.first_target, undefined);
		assert.equal(request.query.expire_days, undefined);
	});

	test('a suspended number fails with the meaning of 3020', async () => {
		const error = failure(
			await run({
				resource: 'call',
				operation: 'createLink',
				virtualnum: rl(SUSPENDED),
				destination: '0501234567',
			}),
		);
		assert.match(error.message, /code 3020/);
	});

	test('bad inputs are refused before any request', async () => {
		const base = {
			resource: 'call',
			operation: 'createLink',
			virtualnum: rl(NUMBER),
			destination: '0501234567',
		};
		await refused(
			{ ...base, options: { expireDays: 0 } },
			/^Valid for \(Days\): must be a whole number from 1/,
		);
		await refused({ ...base, destination: expr('abc') }, /^Destination: must be a phone number/);
		await refused(
			{ ...base, options: { firstTarget: 'caller' } },
			/^Call First: must be one of destination, virtualnum/,
		);
	});
});
