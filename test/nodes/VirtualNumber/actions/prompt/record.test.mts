import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { promptTest } from './promptTest.mts';

const { sandbox, run, expr, requests, ok, refused } = promptTest();

describe('Virtual Number → Voice Prompt', () => {
	describe('Record by Phone', () => {
		test('sends recording_studio with the destination and outputs what the service answered', async () => {
			const [output] = ok(await run({ operation: 'record', destination: '050-123-4567' }));
			const [request] = requests('recording_studio');
			assert.equal(request.method, 'POST');
			assert.deepEqual(
				request.body,
				{ destination: '0501234567' },
				'sent as digits (docs/inputs.md)',
			);
			assert.equal(output.success, true);
			assert.equal(output.destination, '0501234567', "the service's normalised number");
			assert.match(String(output.prompt_name), /^studio_\d+$/);
			await sandbox.control.flushScheduled();
		});

		test('a destination the service rejects explains 9026; one with letters is refused before any request', async () => {
			const result = await run({ operation: 'record', destination: '123' });
			assert.match(
				String(result.error?.message),
				/recording_studio failed: The destination is empty or invalid \(code 9026\)/,
			);
			await refused(
				{ operation: 'record', destination: 'my phone' },
				undefined,
				/Phone Number: must be a phone number/,
			);
			await refused(
				{ operation: 'record', destination: expr('') },
				undefined,
				/Phone Number: is required/,
			);
		});
	});
});
