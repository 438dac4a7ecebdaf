import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import type { IDataObject, INodeType } from 'n8n-workflow';

import { loadPackage, runWorkflow, type RunResult } from '../../../dev/harness/engine.mts';
import { jsons, refusedBeforeAnyRequest } from './vnRun.mts';
import { startSandbox, type Sandbox } from '../../../dev/sandbox/index.mts';

describe('Virtual Number → Blacklist', () => {
	let sandbox: Sandbox;
	before(async () => {
		sandbox = await startSandbox();
	});
	after(async () => await sandbox.close());
	beforeEach(() => sandbox.control.reset());

	const run = (parameters: IDataObject) =>
		runWorkflow({
			nodes: [
				{ name: 'VN', type: 'virtualNumber', parameters: { resource: 'blacklist', ...parameters } },
			],
			credentials: { virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn } },
		});
	const expr = (value: string) => `={{ ${JSON.stringify(value)} }}`;
	const rl = (value: string, mode = 'list') => ({ __rl: true, mode, value });
	const requests = (operation?: string) =>
		sandbox.control.requests({ service: 'vn', ...(operation ? { operation } : {}) });
	// Seeded: 0501111111 and 0777777777 global, 0502222222 bound to the first number.
	const BOUND_TO = '0722000100';

	const ok = (result: RunResult) => jsons(result);
	/** The hints n8n keeps in the run data of the node's run (shown above its output). */
	const hintsOf = (result: RunResult) => result.run.data.resultData.runData.VN[0].hints ?? [];

	async function refused(parameters: IDataObject, message: RegExp) {
		return await refusedBeforeAnyRequest(sandbox, () => run(parameters), message);
	}

	describe('Get Many', () => {
		test('without filters sends get_blacklist alone and outputs every entry', async () => {
			const items = ok(await run({ operation: 'getAll', returnAll: true }));
			const [request] = requests('get_blacklist');
			assert.equal(request.method, 'GET');
			assert.deepEqual(request.query, { service: 'get_blacklist', format: 'json' });
			assert.deepEqual(
				items.map((e) => [e.caller_number, e.virtualnum]),
				[
					['0501111111', ''],
					['0777777777', ''],
					['0502222222', BOUND_TO],
				],
			);
			assert.equal(ok(await run({ operation: 'getAll', returnAll: false, limit: 2 })).length, 2);
		});

		test('the caller filter matches by suffix and returns global and bound blocks', async () => {
			const items = ok(
				await run({ operation: 'getAll', returnAll: true, callerNumber: '2222222' }),
			);
			assert.equal(requests('get_blacklist')[0].query.caller_number, '2222222');
			assert.deepEqual(
				items.map((e) => e.caller_number),
				['0502222222'],
			);
		});

		test('the virtual number filter is sent together with a caller number', async () => {
			const items = ok(
				await run({
					operation: 'getAll',
					returnAll: true,
					callerNumber: '0502222222',
					filterByVirtualnum: true,
					virtualnum: rl(BOUND_TO),
				}),
			);
			assert.deepEqual(requests('get_blacklist')[0].query, {
				service: 'get_blacklist',
				format: 'json',
				caller_number: '0502222222',
				virtualnum: BOUND_TO,
			});
			assert.equal(items.length, 1);
			const other = ok(
				await run({
					operation: 'getAll',
					returnAll: true,
					callerNumber: '0502222222',
					filterByVirtualnum: true,
					virtualnum: rl('0722000101'),
				}),
			);
			assert.equal(other.length, 0, 'no match gives no items (2001), not an error');
		});

		test('the virtual number filter alone is refused before any request, with the reason', async () => {
			await refused(
				{
					operation: 'getAll',
					returnAll: true,
					filterByVirtualnum: true,
					virtualnum: rl(BOUND_TO),
				},
				/Virtual Number: works only together with a Caller Number \(the service ignores it alone and would return the whole list\)/,
			);
			const field = (await properties()).find(
				(p) =>
					p.name === 'virtualnum' &&
					p.displayOptions?.show?.resource?.includes('blacklist') &&
					p.displayOptions?.show?.operation?.includes('getAll'),
			);
			assert.match(String(field?.hint), /only together with a Caller Number/);
		});

		test('a caller filter with letters is refused before any request', async () => {
			await refused(
				{ operation: 'getAll', callerNumber: 'abc' },
				/Caller Number: must be a phone number/,
			);
		});
	});

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

	describe('Remove', () => {
		test('removes a global block', async () => {
			const [output] = ok(await run({ operation: 'remove', callerNumber: '0777777777' }));
			const [request] = requests('remove_number_from_blacklist');
			assert.equal(request.method, 'POST');
			assert.deepEqual(request.body, { caller_number: '0777777777' });
			assert.equal(output.removed, true);
			assert.equal(output.scope, 'global');
			assert.ok(!sandbox.control.blacklist().some((e) => e.caller_number === '0777777777'));
		});

		test('removes a bound block when the virtual number is given', async () => {
			ok(
				await run({
					operation: 'remove',
					callerNumber: '0502222222',
					scope: 'virtualnum',
					virtualnum: rl(BOUND_TO),
				}),
			);
			assert.deepEqual(requests('remove_number_from_blacklist')[0].body, {
				caller_number: '0502222222',
				virtualnum: BOUND_TO,
			});
			assert.ok(!sandbox.control.blacklist().some((e) => e.caller_number === '0502222222'));
		});

		test('a bound block removed without its number explains 2012 and names the number to pick', async () => {
			const result = await run({ operation: 'remove', callerNumber: '0502222222' });
			assert.ok(result.error);
			assert.match(
				result.error.message,
				/remove_number_from_blacklist failed: The number is not in the blacklist \(code 2012\)/,
			);
			assert.match(
				String(result.error.description),
				new RegExp(
					`blocked for the virtual number ${BOUND_TO}, not globally: set Blocked For to "One Virtual Number" and pick ${BOUND_TO}`,
				),
			);
			assert.equal(requests('get_blacklist').length, 1, 'the explanation comes from a lookup');
			assert.ok(
				sandbox.control.blacklist().some((e) => e.caller_number === '0502222222'),
				'nothing was removed',
			);
		});

		test('a global block removed as if bound explains where it is blocked', async () => {
			const result = await run({
				operation: 'remove',
				callerNumber: '0501111111',
				scope: 'virtualnum',
				virtualnum: rl('0722000101'),
			});
			assert.match(
				String(result.error?.description),
				/blocked globally \(all virtual numbers\), not for 0722000101: set Blocked For to "All Virtual Numbers"/,
			);
		});

		test('a number not blocked at all gives the plain 2012 error', async () => {
			const result = await run({ operation: 'remove', callerNumber: '0509999999' });
			assert.match(String(result.error?.message), /\(code 2012\)/);
			assert.doesNotMatch(String(result.error?.description), /is blocked/);
		});

		test('a caller number with letters is refused before any request', async () => {
			await refused(
				{ operation: 'remove', callerNumber: '05x1111111' },
				/Caller Number: must be a phone number/,
			);
		});
	});
});

async function properties() {
	const loader = await loadPackage();
	return (loader.getNode('virtualNumber').type as INodeType).description.properties;
}
