import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { IDataObject, INodeType } from 'n8n-workflow';

import { loadPackage, runWorkflow } from '../../../../../dev/harness/engine.mts';
import { blacklistTest } from './blacklistTest.mts';

const { sandbox, run, expr, rl, requests, ok, hintsOf, refused } = blacklistTest();

describe('Virtual Number → Blacklist', () => {
	async function properties() {
		const loader = await loadPackage();
		return (loader.getNode('virtualNumber').type as INodeType).description.properties;
	}

	describe('Add', () => {
		test('a global block sends caller_number and note, and no virtualnum', async () => {
			const [output] = ok(
				await run({
					operation: 'add',
					callerNumber: '+972-54-333-4444',
					scope: 'global',
					note: 'Pranks',
				}),
			);
			const [request] = requests('add_number_to_blacklist');
			assert.equal(request.method, 'POST');
			// Sent as digits, like every phone number of the package (docs/inputs.md).
			assert.deepEqual(request.body, { caller_number: '972543334444', note: 'Pranks' });
			assert.equal(output.success, true);
			assert.equal(output.scope, 'global');
			assert.equal(output.note, 'Pranks');
			assert.equal(output.note_truncated, undefined);
			assert.ok(
				sandbox.control
					.blacklist()
					.some((e) => e.caller_number === '0543334444' && e.virtualnum === ''),
			);
		});

		test('a block bound to one number sends the virtual number', async () => {
			const [output] = ok(
				await run({
					operation: 'add',
					callerNumber: '0543334444',
					scope: 'virtualnum',
					virtualnum: rl('0722000101'),
				}),
			);
			assert.deepEqual(requests('add_number_to_blacklist')[0].body, {
				caller_number: '0543334444',
				virtualnum: '0722000101',
			});
			assert.equal(output.scope, 'virtualnum');
			assert.equal(output.virtualnum, '0722000101');
			assert.ok(
				sandbox.control
					.blacklist()
					.some((e) => e.caller_number === '0543334444' && e.virtualnum === '0722000101'),
			);
		});

		test('a note longer than 149 characters is sent whole; the output keeps what the service keeps, the run says it was cut', async () => {
			const note = `${'x'.repeat(140)} 0123456789 tail`;
			const result = await run({ operation: 'add', callerNumber: '0543334444', note });
			const [output] = ok(result);
			assert.equal((requests('add_number_to_blacklist')[0].body as IDataObject).note, note);
			assert.equal(output.note_truncated, true);
			assert.equal(output.note, note.slice(0, 149));
			assert.equal(output.notice, undefined, 'a warning of the run is no field of the item');
			assert.deepEqual(hintsOf(result), [
				{
					message:
						'The blacklist keeps only the first 149 characters of a note: the note of item 0 (156 characters) was cut (its output has note_truncated: true)',
					type: 'warning',
					location: 'outputPane',
				},
			]);
			assert.equal(
				sandbox.control.blacklist().find((e) => e.caller_number === '0543334444')?.note,
				note.slice(0, 149),
			);
			const field = (await properties()).find(
				(p) => p.name === 'note' && p.displayOptions?.show?.resource?.includes('blacklist'),
			);
			assert.match(String(field?.hint), /only the first 149 characters/);
		});

		test('one hint per run names every item whose note was cut; none when no note was', async () => {
			const long = 'n'.repeat(150);
			const input = [
				{ json: { phone: '0543334441', note: long } },
				{ json: { phone: '0543334442', note: 'short' } },
				{ json: { phone: '0543334443', note: long } },
			];
			const result = await runWorkflow({
				nodes: [
					{
						name: 'VN',
						type: 'virtualNumber',
						parameters: {
							resource: 'blacklist',
							operation: 'add',
							callerNumber: '={{ $json.phone }}',
							note: '={{ $json.note }}',
						},
					},
				],
				input,
				credentials: { virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn } },
			});
			assert.deepEqual(
				ok(result).map((item) => item.note_truncated),
				[true, undefined, true],
			);
			assert.deepEqual(
				hintsOf(result).map((hint) => hint.message),
				[
					'The blacklist keeps only the first 149 characters of a note: the note of items 0, 2 was cut (its output has note_truncated: true)',
				],
			);
			assert.deepEqual(
				hintsOf(await run({ operation: 'add', callerNumber: '0543334444', note: 'x'.repeat(149) })),
				[],
			);
		});

		test('a number already blocked explains 2022', async () => {
			const result = await run({ operation: 'add', callerNumber: '0501111111' });
			assert.match(
				String(result.error?.message),
				/add_number_to_blacklist failed: The number is already in the blacklist \(code 2022\)/,
			);
		});

		test('a missing or non-numeric caller number, or a bound block without a number, is refused before any request', async () => {
			await refused({ operation: 'add', callerNumber: expr('') }, /Caller Number: is required/);
			await refused(
				{ operation: 'add', callerNumber: 'spammer' },
				/Caller Number: must be a phone number/,
			);
			await refused(
				{
					operation: 'add',
					callerNumber: '0501234567',
					scope: 'virtualnum',
					virtualnum: rl(expr('')),
				},
				/Virtual Number: is required/,
			);
		});
	});
});
