/**
 * Issue 17 §3: what n8n's Retry On Fail does to each write of the Virtual Number node. n8n runs the
 * whole node again after a failure, so the items that had already succeeded are sent again. Each
 * operation below runs three items with Retry On Fail on (two tries); item 1 fails at the service
 * every time, so item 0 is carried out on the first try and sent again on the second:
 * - "refused": the service refuses the repeat ("already exists", "does not exist"): the run ends
 *   on that refusal, and what item 0 did is there once;
 * - "same": the repeat sets the same values again;
 * - operations whose repeat would place, charge or duplicate something declare `repeatEffect`, and
 *   the router refuses them before any request (docs/virtual-number-node.md lists each decision).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { IBinaryData, IDataObject, INodeExecutionData } from 'n8n-workflow';

import { resources } from '../../../nodes/VirtualNumber/actions/resources.ts';
import { runWorkflow, type RunResult } from '../../../dev/harness/engine.mts';
import { sandboxPerFile } from '../../../dev/harness/nodeTest.mts';
import type { Sandbox } from '../../../dev/sandbox/index.mts';

const NODE = 'VN';
/** Picked From List: n8n checks a typed By ID value by a regex limited to 250 ms, which a loaded machine can miss. */
const rl = (value: string) => ({ __rl: true, mode: 'list', value });
const json = (...items: IDataObject[]): INodeExecutionData[] =>
	items.map((item) => ({ json: item }));
const wavFile = (fileName: string): INodeExecutionData => {
	const data = Buffer.alloc(2048);
	data.write('RIFF', 0, 'latin1');
	data.writeUInt32LE(data.length - 8, 4);
	data.write('WAVEfmt ', 8, 'latin1');
	return {
		json: {},
		binary: {
			data: { data: data.toString('base64'), mimeType: 'audio/wav', fileName } as IBinaryData,
		},
	};
};

interface Case {
	label: string;
	service: string;
	parameters: IDataObject;
	input: (sandbox: Sandbox) => INodeExecutionData[];
	/** How the repeat of item 0 ends: refused by the service (the run's error), or applied again. */
	repeat: { refused: RegExp } | { same: true };
	/** Item 0's request, to count how often it was sent. */
	isItem0: (body: IDataObject) => boolean;
	/** What item 0 did is there, once. */
	once: (sandbox: Sandbox) => void;
}

const tagId = (sandbox: Sandbox, name: string) =>
	String(sandbox.control.tags().find((tag) => tag.tag_name === name)!.tag_id);
const user = (sandbox: Sandbox, id: number) =>
	sandbox.control.users().find((candidate) => candidate.user_id === id);

const CASES: Case[] = [
	{
		label: 'Virtual Number → Update',
		service: 'update_virtualnum',
		parameters: {
			resource: 'virtualnum',
			operation: 'update',
			virtualnum: rl('={{ $json.n }}'),
			updateFields: { description: 'Retried', callDestinationPhone: '0501234567' },
		},
		input: () => json({ n: '0722000100' }, { n: '0779999003' }, { n: '0722000102' }),
		repeat: { same: true },
		isItem0: (body) => body.virtualnum === '0722000100',
		once: (sandbox) =>
			assert.equal(sandbox.control.virtualnum('0722000100')?.description, 'Retried'),
	},
	{
		label: 'Virtual Number → Release',
		service: 'release_virtualnum',
		parameters: { resource: 'virtualnum', operation: 'release', virtualnum: rl('={{ $json.n }}') },
		input: () => json({ n: '0722000104' }, { n: '0779999003' }, { n: '0722000103' }),
		repeat: { refused: /code 4041/ },
		isItem0: (body) => body.virtualnum === '0722000104',
		once: (sandbox) => {
			assert.equal(sandbox.control.virtualnum('0722000104'), undefined);
			assert.equal(sandbox.control.pool().filter((number) => number === '0722000104').length, 1);
		},
	},
	{
		label: 'Virtual Number → Restore',
		service: 'restore_virtualnum',
		parameters: { resource: 'virtualnum', operation: 'restore', numberToRestore: '={{ $json.n }}' },
		input: () => json({ n: '0779999001' }, { n: '0779999002' }, { n: '0722000103' }),
		repeat: { refused: /code 4043/ },
		isItem0: (body) => body.virtualnum === '0779999001',
		once: (sandbox) => assert.equal(sandbox.control.virtualnum('0779999001')?.active_status, 1),
	},
	{
		label: 'User → Update',
		service: 'update_user',
		parameters: {
			resource: 'user',
			operation: 'update',
			userId: rl('={{ $json.u }}'),
			updateFields: { user_login: 'retried' },
		},
		input: () => json({ u: '2' }, { u: '99' }, { u: '1' }),
		repeat: { same: true },
		isItem0: (body) => body.user_id === '2',
		once: (sandbox) => assert.equal(user(sandbox, 2)?.user_login, 'retried'),
	},
	{
		label: 'User → Delete',
		service: 'delete_user',
		parameters: { resource: 'user', operation: 'delete', userId: rl('={{ $json.u }}') },
		input: () => json({ u: '2' }, { u: '99' }, { u: '1' }),
		repeat: { refused: /code 7022/ },
		isItem0: (body) => body.user_id === '2',
		once: (sandbox) => assert.equal(user(sandbox, 2), undefined),
	},
	{
		label: 'User → Assign Number',
		service: 'set_ddi_to_user',
		parameters: {
			resource: 'user',
			operation: 'assignNumber',
			userId: rl('={{ $json.u }}'),
			virtualnum: rl('={{ $json.n }}'),
		},
		input: () =>
			json({ u: '2', n: '0722000104' }, { u: '99', n: '0722000104' }, { u: '1', n: '0722000104' }),
		repeat: { refused: /code 8006/ },
		isItem0: (body) => body.user_id === '2',
		once: (sandbox) =>
			assert.deepEqual(
				(user(sandbox, 2)?.virtualnums as Array<{ virtualnum: string }>).filter(
					(entry) => entry.virtualnum === '0722000104',
				).length,
				1,
			),
	},
	{
		label: 'User → Unassign Number',
		service: 'delete_ddi_from_user_id',
		parameters: {
			resource: 'user',
			operation: 'unassignNumber',
			userId: rl('={{ $json.u }}'),
			virtualnum: rl('={{ $json.n }}'),
		},
		input: () =>
			json({ u: '2', n: '0722000100' }, { u: '99', n: '0722000100' }, { u: '2', n: '0722000101' }),
		repeat: { refused: /code 8025/ },
		isItem0: (body) => body.user_id === '2' && body.virtualnum === '0722000100',
		once: (sandbox) =>
			assert.deepEqual(
				(user(sandbox, 2)?.virtualnums as Array<{ virtualnum: string }>).map(
					(entry) => entry.virtualnum,
				),
				['0722000101'],
			),
	},
	{
		label: 'Tag → Create',
		service: 'create_tag',
		parameters: { resource: 'tag', operation: 'create', name: '={{ $json.name }}' },
		input: () => json({ name: 'Retried' }, { name: 'Google' }, { name: 'Other' }),
		repeat: { refused: /code 5072/ },
		isItem0: (body) => body.tag_name === 'Retried',
		once: (sandbox) =>
			assert.equal(sandbox.control.tags().filter((tag) => tag.tag_name === 'Retried').length, 1),
	},
	{
		label: 'Tag → Rename',
		service: 'update_tag',
		parameters: {
			resource: 'tag',
			operation: 'rename',
			tagId: rl('={{ $json.id }}'),
			newName: '={{ $json.name }}',
		},
		input: (sandbox) =>
			json(
				{ id: tagId(sandbox, 'Unused'), name: 'Renamed' },
				{ id: tagId(sandbox, 'Google'), name: 'VIP' },
				{ id: tagId(sandbox, 'VIP'), name: 'Other' },
			),
		repeat: { same: true },
		isItem0: (body) => body.tag_name === 'Renamed',
		once: (sandbox) =>
			assert.deepEqual(
				sandbox.control
					.tags()
					.filter((tag) => tag.tag_name === 'Renamed' || tag.tag_name === 'Unused')
					.map((tag) => tag.tag_name),
				['Renamed'],
			),
	},
	{
		label: 'Tag → Delete',
		service: 'delete_tag',
		parameters: { resource: 'tag', operation: 'delete', tagId: rl('={{ $json.id }}') },
		input: (sandbox) =>
			json({ id: tagId(sandbox, 'VIP') }, { id: '9999' }, { id: tagId(sandbox, 'Google') }),
		repeat: { refused: /code 5003/ },
		isItem0: (body) => body.tag_id !== '9999',
		once: (sandbox) =>
			assert.equal(
				sandbox.control.tags().some((tag) => tag.tag_name === 'VIP'),
				false,
			),
	},
	{
		label: 'Tag → Add Number',
		service: 'add_member_to_tag',
		parameters: {
			resource: 'tag',
			operation: 'addMember',
			tagId: rl('={{ $json.id }}'),
			virtualnum: rl('={{ $json.n }}'),
		},
		input: (sandbox) =>
			json(
				{ id: tagId(sandbox, 'Unused'), n: '0722000104' },
				{ id: tagId(sandbox, 'Unused'), n: '0779999003' },
				{ id: tagId(sandbox, 'Unused'), n: '0722000103' },
			),
		repeat: { refused: /code 5044/ },
		isItem0: (body) => body.virtualnum === '0722000104',
		once: (sandbox) =>
			assert.deepEqual(sandbox.control.tags().find((tag) => tag.tag_name === 'Unused')?.members, [
				'0722000104',
			]),
	},
	{
		label: 'Tag → Remove Number',
		service: 'remove_member_from_tag_id',
		parameters: {
			resource: 'tag',
			operation: 'removeMember',
			tagId: rl('={{ $json.id }}'),
			virtualnum: rl('={{ $json.n }}'),
		},
		input: (sandbox) =>
			json(
				{ id: tagId(sandbox, 'Google'), n: '0722000100' },
				{ id: tagId(sandbox, 'Google'), n: '0722000104' },
				{ id: tagId(sandbox, 'Google'), n: '0722000101' },
			),
		repeat: { refused: /code 5008/ },
		isItem0: (body) => body.virtualnum === '0722000100',
		once: (sandbox) =>
			assert.deepEqual(sandbox.control.tags().find((tag) => tag.tag_name === 'Google')?.members, [
				'0722000101',
			]),
	},
	{
		label: 'Tag → Remove Number by Tag Name',
		service: 'remove_member_from_tag_name',
		parameters: {
			resource: 'tag',
			operation: 'removeMemberByName',
			tagName: rl('Facebook'),
			virtualnum: rl('={{ $json.n }}'),
		},
		input: () => json({ n: '0722000102' }, { n: '0722000104' }, { n: '0722000103' }),
		repeat: { refused: /code 5008/ },
		isItem0: (body) => body.virtualnum === '0722000102',
		once: (sandbox) =>
			assert.deepEqual(sandbox.control.tags().find((tag) => tag.tag_name === 'Facebook')?.members, [
				'0722000103',
			]),
	},
	{
		label: 'Blacklist → Add',
		service: 'add_number_to_blacklist',
		parameters: {
			resource: 'blacklist',
			operation: 'add',
			callerNumber: '={{ $json.c }}',
			note: 'Retried',
		},
		input: () => json({ c: '0543330001' }, { c: '0501111111' }, { c: '0543330003' }),
		repeat: { refused: /code 2022/ },
		isItem0: (body) => body.caller_number === '0543330001',
		once: (sandbox) =>
			assert.equal(
				sandbox.control.blacklist().filter((entry) => entry.caller_number === '0543330001').length,
				1,
			),
	},
	{
		label: 'Blacklist → Remove',
		service: 'remove_number_from_blacklist',
		parameters: { resource: 'blacklist', operation: 'remove', callerNumber: '={{ $json.c }}' },
		input: () => json({ c: '0777777777' }, { c: '0549999999' }, { c: '0501111111' }),
		repeat: { refused: /code 2012/ },
		isItem0: (body) => body.caller_number === '0777777777',
		once: (sandbox) =>
			assert.equal(
				sandbox.control.blacklist().some((entry) => entry.caller_number === '0777777777'),
				false,
			),
	},
	{
		label: 'Voice Prompt → Upload',
		service: 'upload_prompt',
		parameters: { resource: 'prompt', operation: 'upload', binaryPropertyName: 'data' },
		input: () => [wavFile('retried.wav'), wavFile('welcome.wav'), wavFile('other.wav')],
		repeat: { refused: /code 9022/ },
		isItem0: (body) => (body.files as string[]).includes('retried.wav'),
		once: (sandbox) =>
			assert.equal(
				sandbox.control.prompts().filter((prompt) => prompt.name === 'retried').length,
				1,
			),
	},
	{
		label: 'Voice Prompt → Delete',
		service: 'delete_prompt',
		parameters: {
			resource: 'prompt',
			operation: 'delete',
			promptName: { __rl: true, mode: 'name', value: '={{ $json.p }}' },
		},
		input: () => json({ p: 'after_hours' }, { p: 'missing_one' }, { p: 'welcome' }),
		repeat: { refused: /code 9032/ },
		isItem0: (body) => body.prompt_name === 'after_hours',
		once: (sandbox) =>
			assert.equal(
				sandbox.control.prompts().some((prompt) => prompt.name === 'after_hours'),
				false,
			),
	},
	{
		label: 'Offline Conversion → Set',
		service: 'set_ads_offline_conversion',
		parameters: {
			resource: 'offlineConversion',
			operation: 'set',
			callUuid: '={{ $json.id }}',
			conversionValue: 120,
		},
		input: (sandbox) =>
			json(
				{ id: sandbox.control.cdrs()[0].cdr_uniqueid },
				{ id: '1700000000.99999999' },
				{ id: sandbox.control.cdrs()[1].cdr_uniqueid },
			),
		repeat: { same: true },
		isItem0: (body) => body.call_uuid !== '1700000000.99999999',
		once: () => undefined, // read back below through Get
	},
	{
		label: 'Call → Create Click-to-Call Link',
		service: 'click2call_link',
		parameters: {
			resource: 'call',
			operation: 'createLink',
			virtualnum: rl('0722000100'),
			destination: '={{ $json.d }}',
		},
		input: () => json({ d: '0501234567' }, { d: '0501111111' }, { d: '0527654321' }),
		repeat: { same: true },
		isItem0: (body) => body.destination === '0501234567',
		// A second signed link for the same call; opening a link places no call (the service deprecated them).
		once: () => undefined,
	},
];

describe('Retry On Fail on every write of the Virtual Number node', { concurrency: 1 }, () => {
	const sandbox = sandboxPerFile();

	const run = (parameters: IDataObject, input: INodeExecutionData[]): Promise<RunResult> =>
		runWorkflow({
			nodes: [{ name: NODE, type: 'virtualNumber', parameters, retryOnFail: true, maxTries: 2 }],
			input,
			credentials: { virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn } },
		});
	/** Requests of `service` as the service read them: query, form body and the names of uploaded files together. */
	const sent = (service: string) =>
		sandbox.control.requests({ operation: service }).map((request) => ({
			...request.query,
			...(request.body as IDataObject),
			files: (request.files ?? []).map((file) => file.filename),
		}));

	for (const op of CASES) {
		const how =
			'same' in op.repeat
				? 'the repeat sets the same values again'
				: 'the service refuses the repeat';
		test(`${op.label}: item 1 fails, item 0 is sent again and ${how}; what it did is there once`, async () => {
			const result = await run(op.parameters, op.input(sandbox));
			assert.ok(result.error, 'item 1 fails on every try');
			assert.equal(sent(op.service).filter(op.isItem0).length, 2, 'item 0 was sent on both tries');
			// The last try ends on item 0's refusal, or (a repeat applied again) on item 1 as the first did.
			const failedItem = (result.error.context as { itemIndex?: number } | undefined)?.itemIndex;
			if ('refused' in op.repeat) {
				assert.match(result.error.message, op.repeat.refused, 'the service refused the repeat');
				assert.equal(failedItem, 0, `the repeat of item 0 ends the run: ${result.error.message}`);
			} else {
				assert.equal(failedItem, 1, `item 0 went through again: ${result.error.message}`);
			}
			op.once(sandbox);
		});
	}

	test('Offline Conversion → Set: after the repeat the call holds the value once', async () => {
		const call = sandbox.control.cdrs()[0].cdr_uniqueid;
		await run(
			CASES.find((op) => op.service === 'set_ads_offline_conversion')!.parameters,
			json({ id: call }, { id: '1700000000.99999999' }),
		);
		const got = await runWorkflow({
			nodes: [
				{
					name: NODE,
					type: 'virtualNumber',
					parameters: { resource: 'offlineConversion', operation: 'get', callUuid: call },
				},
			],
			credentials: { virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn } },
		});
		assert.deepEqual(
			got.items(NODE).map((item) => [item.json.callId, item.json.conversion_value]),
			[[call, 120]],
		);
	});

	const REFUSED: Array<{ label: string; service: string; parameters: IDataObject; what: RegExp }> =
		[
			{
				label: 'Call Record → Create Manual Record',
				service: 'create_virtualnum_cdr',
				parameters: {
					resource: 'cdr',
					operation: 'createManual',
					virtualnum: rl('0722000100'),
					additionalFields: { callerNumber: '={{ $json.c }}' },
				},
				what: /add the call records again \(and run the automation rules and the pixel for them again\)/,
			},
			{
				label: 'User → Create',
				service: 'set_user',
				parameters: {
					resource: 'user',
					operation: 'create',
					email: '={{ $json.c }}@example.com',
					password: 'Retry-1-pass',
				},
				what: /create the users again/,
			},
		];
	for (const op of REFUSED) {
		test(`${op.label}: a repeat would duplicate it, so it is refused before any request`, async () => {
			const result = await run(
				op.parameters,
				json({ c: '0501234567' }, { c: '0501111111' }, { c: '0527654321' }),
			);
			assert.ok(result.error);
			assert.match(result.error.message, /^Retry On Fail is on, and a retried run would /);
			assert.match(result.error.message, op.what);
			assert.deepEqual(sandbox.control.requests({ operation: op.service }), []);
		});
	}

	test('the operations that refuse Retry On Fail are the ones whose repeat places, charges or duplicates', () => {
		const declared = Object.entries(resources).flatMap(([resource, module]) =>
			Object.entries(module.operations as Record<string, { repeatEffect?: unknown }>)
				.filter(([, operation]) => operation?.repeatEffect !== undefined)
				.map(([operation]) => `${resource}.${operation}`),
		);
		assert.deepEqual(declared.sort(), [
			'call.clickToCall',
			'call.twoLegCall',
			'cdr.createManual',
			'prompt.record',
			'user.create',
			'virtualnum.create',
		]);
	});

	test('every operation of the node is a read, or a write decided above', () => {
		const key = (parameters: IDataObject) =>
			`${String(parameters.resource)}.${String(parameters.operation)}`;
		const decided = new Set([
			...CASES.map((op) => key(op.parameters)),
			...REFUSED.map((op) => key(op.parameters)),
		]);
		// Refused before any request, tested in test/nodes/shared/retryOnFail.test.mts.
		for (const operation of [
			'call.clickToCall',
			'call.twoLegCall',
			'prompt.record',
			'virtualnum.create',
		])
			decided.add(operation);
		const reads = [
			'account.test',
			'virtualnum.get',
			'virtualnum.getAll',
			'virtualnum.getAvailable',
			'cdr.query',
			'cdr.getUniqueCallers',
			'cdr.downloadRecording',
			'cdr.getMetadata',
			'cdr.getTranscript',
			'offlineConversion.get',
			'user.get',
			'user.getAll',
			'user.getNumbers',
			'user.getAccessLog',
			'tag.get',
			'tag.getAll',
			'tag.getByName',
			'tag.getForNumber',
			'tag.getMemberRecords',
			'tag.getMembers',
			'tag.getMembersByName',
			'blacklist.getAll',
			'prompt.getAll',
			'prompt.download',
		];
		const operations = Object.entries(resources).flatMap(([resource, module]) =>
			Object.entries(module.operations as Record<string, unknown>)
				.filter(
					([, operation]) => typeof (operation as { execute?: unknown })?.execute === 'function',
				)
				.map(([operation]) => `${resource}.${operation}`),
		);
		assert.deepEqual(
			operations.filter((operation) => !decided.has(operation) && !reads.includes(operation)),
			[],
		);
		assert.deepEqual(
			[...decided].filter((operation) => !operations.includes(operation)),
			[],
		);
	});
});
