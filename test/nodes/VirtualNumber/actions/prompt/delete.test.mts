import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { INodeType } from 'n8n-workflow';

import { loadPackage } from '../../../../../dev/harness/engine.mts';
import { promptTest } from './promptTest.mts';

const { sandbox, run, rl, requests, ok } = promptTest();

describe('Virtual Number → Voice Prompt', () => {
	describe('Delete', () => {
		test('sends delete_prompt as a POST and the prompt is gone; the field warns about active IVRs', async () => {
			const [output] = ok(await run({ operation: 'delete', promptName: rl('after_hours') }));
			const [request] = requests('delete_prompt');
			assert.equal(request.method, 'POST');
			assert.deepEqual(request.body, { prompt_name: 'after_hours' });
			assert.equal(output.deleted, true);
			assert.equal(output.prompt_name, 'after_hours');
			assert.ok(!sandbox.control.prompts().some((p) => p.name === 'after_hours'));
			const loader = await loadPackage();
			const notice = (
				loader.getNode('virtualNumber').type as INodeType
			).description.properties.find(
				(p) =>
					p.type === 'notice' &&
					p.displayOptions?.show?.resource?.includes('prompt') &&
					p.displayOptions?.show?.operation?.includes('delete'),
			);
			assert.match(
				String(notice?.displayName),
				/active IVR uses makes the calls through that IVR fail/,
			);
		});

		test('an unknown prompt explains 9032', async () => {
			const result = await run({ operation: 'delete', promptName: rl('gone', 'name') });
			assert.match(
				String(result.error?.message),
				/delete_prompt failed: The prompt does not exist \(code 9032\)/,
			);
		});
	});
});
