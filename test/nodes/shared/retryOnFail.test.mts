/**
 * Issue 17 §3: operations whose repetition sends, charges or places something never repeat what
 * the service may have carried out. n8n's Retry On Fail runs the whole node again, so while it is
 * on these operations refuse before any request; read operations still retry.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';

import { routeOperation } from '../../../nodes/shared/router.ts';

/** An operation module as the router takes it. */
type OperationModule = Parameters<typeof routeOperation>[0][string]['operations'][string];
import { runWorkflow } from '../../../dev/harness/engine.mts';
import { startSandbox, type Sandbox } from '../../../dev/sandbox/index.mts';

const NODE = 'Node';
const rl = (value: string) => ({ __rl: true, mode: 'id', value });

/**
 * The operations of both nodes that place, send or charge, with three items each. (Bulk SMS Send
 * runs under Retry On Fail, sending again only what never reached the service: its own tests are in
 * test/nodes/BulkSms/retryOnFail.test.mts.)
 */
const REPEATING: Array<{
	label: string;
	type: 'virtualNumber' | 'bulkSms';
	service: string;
	parameters: IDataObject;
	what: RegExp;
}> = [
	{
		label: 'Call → Click to Call',
		type: 'virtualNumber',
		service: 'create_virtualnum_call',
		parameters: {
			resource: 'call',
			operation: 'clickToCall',
			virtualnum: rl('0722000100'),
			destination: '={{ $json.to }}',
		},
		what: /place the call again/,
	},
	{
		label: 'Call → Two-Leg Call',
		type: 'virtualNumber',
		service: 'create_virtualnum_call_v2',
		parameters: {
			resource: 'call',
			operation: 'twoLegCall',
			virtualnum1: rl('0722000100'),
			destination1: '={{ $json.to }}',
			destination2: '0527654321',
		},
		what: /place the two-leg call again/,
	},
	{
		label: 'Voice Prompt → Record by Phone',
		type: 'virtualNumber',
		service: 'recording_studio',
		parameters: { resource: 'prompt', operation: 'record', destination: '={{ $json.to }}' },
		what: /place the recording call again/,
	},
	{
		label: 'Virtual Number → Create',
		type: 'virtualNumber',
		service: 'create_virtualnum',
		parameters: {
			resource: 'virtualnum',
			operation: 'create',
			description: 'Retry',
			callDestinationPhone: '={{ $json.to }}',
		},
		what: /allocate another number/,
	},
	{
		label: 'Bulk SMS → Sender → Request Phone Verification',
		type: 'bulkSms',
		service: 'add_sender_phone_step1',
		parameters: {
			resource: 'sender',
			operation: 'requestPhoneVerification',
			phoneSender: '={{ $json.to }}',
		},
		what: /send another verification code/,
	},
];

/** The second item fails in the middle of the run: the service refuses it (blacklisted, or not a valid number). */
const INPUT = [
	{ json: { to: '0501234567' } },
	{ json: { to: '0501111111' } },
	{ json: { to: '0527654321' } },
];

describe('Retry On Fail', { concurrency: 1 }, () => {
	let sandbox: Sandbox;
	before(async () => {
		sandbox = await startSandbox();
	});
	after(async () => await sandbox.close());
	beforeEach(() => sandbox.control.reset());

	const run = (
		type: string,
		parameters: IDataObject,
		options: { onError?: INode['onError']; retryOnFail?: boolean } = {},
	) =>
		runWorkflow({
			nodes: [
				{
					name: NODE,
					type,
					parameters,
					retryOnFail: options.retryOnFail ?? true,
					maxTries: 3,
					onError: options.onError,
				},
			],
			input: INPUT,
			credentials: {
				virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn },
				virtualnumSmsApi: { baseUrl: sandbox.smsUrl, accessToken: sandbox.tokens.sms },
			},
		});

	for (const op of REPEATING) {
		test(`${op.label}: refused before any request, saying why and what to change`, async () => {
			const result = await run(op.type, op.parameters);
			assert.ok(result.error, 'the node fails');
			assert.match(result.error.message, /Retry On Fail is on/);
			assert.match(result.error.message, op.what);
			assert.match(
				String(result.error.description),
				/Turn off Retry On Fail in the node's Settings/,
			);
			assert.deepEqual(
				sandbox.control.requests({ operation: op.service }),
				[],
				'nothing reached the service',
			);
		});
	}

	test('Click to Call under Continue (using error output): every item on the error output, nothing placed', async () => {
		const result = await run('virtualNumber', REPEATING[0].parameters, {
			onError: 'continueErrorOutput',
		});
		const [success, failed] = result.outputs(NODE);
		assert.deepEqual(success, []);
		assert.deepEqual(
			failed.map((item) => (item.pairedItem as { item: number }).item),
			[0, 1, 2],
		);
		for (const item of failed) assert.match(String(item.json.error), /Retry On Fail is on/);
		assert.deepEqual(sandbox.control.requests({ operation: 'create_virtualnum_call' }), []);
	});

	test('without Retry On Fail, a failure in the middle places each call once', async () => {
		const result = await run('virtualNumber', REPEATING[0].parameters, {
			retryOnFail: false,
			onError: 'continueRegularOutput',
		});
		assert.equal(result.error, undefined);
		const placed = sandbox.control
			.requests({ operation: 'create_virtualnum_call' })
			.map((r) => (r.body as IDataObject).destination);
		assert.deepEqual(placed, ['0501234567', '0501111111', '0527654321'], 'one request per item');
		assert.match(String(result.items(NODE)[1].json.error), /code 3013/);
	});

	test('a read operation with Retry On Fail still retries: a failed first try is run again', async () => {
		sandbox.control.injectFaults({ kind: 'http500', server: 'vn', operation: 'get_virtualnum' });
		const result = await run('virtualNumber', {
			resource: 'virtualnum',
			operation: 'get',
			virtualnum: rl('0722000100'),
		});
		assert.equal(result.error, undefined, result.error?.message);
		assert.equal(result.items(NODE).length, 3);
		assert.ok(result.items(NODE).every((item) => item.json.virtualnum === '0722000100'));
		// First try: the 500; second try: the three items.
		assert.equal(sandbox.control.requests({ operation: 'get_virtualnum' }).length, 4);
	});
});

describe('RepeatEffect.whenRetryOnFail: the hook an operation uses to handle Retry On Fail itself', () => {
	const node = { name: NODE, retryOnFail: true } as INode;
	const context = (continueOnFail: boolean) =>
		({
			getNodeParameter: (name: string) => (name === 'resource' ? 'thing' : 'do'),
			getNode: () => node,
			continueOnFail: () => continueOnFail,
			getInputData: () => [{ json: {} }, { json: {} }],
			helpers: {
				constructExecutionMetaData: (
					items: INodeExecutionData[],
					{ itemData }: { itemData: { item: number } },
				) => items.map((item) => ({ ...item, pairedItem: itemData })),
			},
		}) as unknown as IExecuteFunctions;
	const module = (hook: () => void): OperationModule => ({
		option: { name: 'Do', description: 'Does it', action: 'Do it' },
		description: [],
		execute: async () => [{ json: { done: true } }],
		repeatEffect: { what: 'do it again', whenRetryOnFail: hook },
	});

	test('a hook that returns lets the operation run', async () => {
		const [output] = await routeOperation.call(context(false), {
			thing: { description: [], operations: { do: module(() => undefined) } },
		});
		assert.deepEqual(
			output.map((item) => item.json),
			[{ done: true }, { done: true }],
		);
	});

	test("a hook that throws refuses in the operation's words (error items under Continue On Fail)", async () => {
		const refuse = () => {
			throw new Error('not safe yet');
		};
		await assert.rejects(
			routeOperation.call(context(false), {
				thing: { description: [], operations: { do: module(refuse) } },
			}),
			/not safe yet/,
		);
		const [output] = await routeOperation.call(context(true), {
			thing: { description: [], operations: { do: module(refuse) } },
		});
		assert.deepEqual(
			output.map((item) => item.json.error),
			['not safe yet', 'not safe yet'],
		);
	});
});
