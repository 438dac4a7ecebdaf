/**
 * Both action nodes as an AI agent's tool: n8n runs the `<name>Tool` variant of the node (the same
 * class, its description renamed) with the model's arguments as the input item, read by
 * `$fromAI('key')`. The harness runs that variant here the way n8n's NodeTypes builds it; the
 * real agent is proven in dev/e2e/lib/aiAgent.mts.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import type { IDataObject, INodeType, INodeTypes, IVersionedNodeType } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import {
	loadPackage,
	NodeTypes,
	runWorkflow,
	type RunResult,
} from '../../../dev/harness/engine.mts';
import { startSandbox, type Sandbox } from '../../../dev/sandbox/index.mts';

const PACKAGE = 'n8n-nodes-virtualnum';

/** n8n's NodeTypes for a `…Tool` type: the base node with its description named `<name>Tool`. */
class ToolNodeTypes implements INodeTypes {
	constructor(private readonly base: NodeTypes) {}

	getByName(type: string): INodeType | IVersionedNodeType {
		return this.getByNameAndVersion(type);
	}

	getByNameAndVersion(type: string, version?: number): INodeType {
		if (!type.endsWith('Tool')) return this.base.getByNameAndVersion(type, version);
		const node = NodeHelpers.getVersionedNodeType(
			this.base.getByName(type.slice(0, -'Tool'.length)),
			version,
		);
		const description = { ...node.description, name: `${node.description.name}Tool` };
		return Object.create(node, { description: { value: description } }) as INodeType;
	}

	getKnownTypes(): IDataObject {
		return {};
	}
}

let sandbox: Sandbox;
let nodeTypes: ToolNodeTypes;

before(async () => {
	sandbox = await startSandbox();
	nodeTypes = new ToolNodeTypes(new NodeTypes(await loadPackage()));
});
after(async () => await sandbox.close());
beforeEach(() => sandbox.control.reset());

const NODE = 'Tool';

/** Runs one node (`type` with or without the Tool suffix) with the model's arguments as its input. */
async function run(
	type: string,
	parameters: IDataObject,
	args: IDataObject = {},
	typeVersion = 1,
): Promise<RunResult> {
	return await runWorkflow({
		nodes: [
			{
				name: NODE,
				type: `${PACKAGE}.${type}`,
				typeVersion,
				parameters,
				credentials: type.startsWith('bulkSms')
					? { virtualnumSmsApi: { id: 'sms', name: 'SMS' } }
					: { virtualnumApi: { id: 'vn', name: 'Virtual Number' } },
			},
		],
		input: [{ json: args }],
		nodeTypes,
		credentials: {
			virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn },
			virtualnumSmsApi: { baseUrl: sandbox.smsUrl, accessToken: sandbox.tokens.sms },
		},
	});
}

const jsonsOf = (result: RunResult) => {
	assert.equal(result.error, undefined, result.error?.message);
	return result.items(NODE).map((item) => item.json);
};

const send = (to: string, message: string) => ({
	resource: 'message',
	operation: 'send',
	sender: { __rl: true, mode: 'id', value: 'VirtualNum' },
	to,
	message,
	options: {},
});

describe('Bulk SMS as a tool: errors name the argument the model filled', () => {
	test('a recipient that is not a phone: the argument, the field and the fix, before any request', async () => {
		const result = await run(
			'bulkSmsTool',
			send("={{ $fromAI('phone', 'The recipient', 'string') }}", 'Hello'),
			{ phone: 'call me maybe' },
		);
		assert.ok(result.error, 'the tool run must fail');
		assert.match(result.error.message, /^The argument "phone" \(the To field\)/);
		assert.match(result.error.message, /Call the tool again with a corrected "phone" argument/);
		assert.deepEqual(sandbox.control.requests({ service: 'sms', operation: 'send_sms' }), []);
	});

	test('a message over the length limit names the message argument', async () => {
		const result = await run(
			'bulkSmsTool',
			send('0501234567', "={{ $fromAI('text', 'The SMS text', 'string') }}"),
			{ text: 'x'.repeat(601) },
			1.1,
		);
		assert.ok(result.error);
		assert.match(result.error.message, /^The argument "text" \(the Message field\)/);
		assert.match(result.error.message, /600/);
		assert.deepEqual(sandbox.control.requests({ service: 'sms', operation: 'send_sms' }), []);
	});

	test('a valid send goes out once, to the number the model gave', async () => {
		const result = await run(
			'bulkSmsTool',
			send("={{ $fromAI('phone', 'The recipient', 'string') }}", 'Hello'),
			{ phone: '+972 50-123-4567' },
		);
		const [item] = jsonsOf(result);
		const sent = sandbox.control.requests({ service: 'sms', operation: 'send_sms' });
		assert.equal(sent.length, 1);
		assert.match(JSON.stringify(sent[0]), /972501234567/);
		assert.match(JSON.stringify(item), /972501234567/);
	});

	test('a Send At option the model filled names its argument (a field inside Options)', async () => {
		const result = await run(
			'bulkSmsTool',
			{
				...send('0501234567', 'Hello'),
				options: { sendAt: "={{ $fromAI('when', 'When to send', 'string') }}" },
			},
			{ when: '' },
			1.1,
		);
		assert.ok(result.error);
		assert.match(result.error.message, /^The argument "when" \(the Send At field\)/);
		assert.deepEqual(sandbox.control.requests({ service: 'sms', operation: 'send_sms' }), []);
	});

	test('under Continue On Fail the error item names the argument once, with the fix', async () => {
		const result = await runWorkflow({
			nodes: [
				{
					name: NODE,
					type: `${PACKAGE}.bulkSmsTool`,
					typeVersion: 1.1,
					parameters: send("={{ $fromAI('phone', 'The recipient', 'string') }}", 'Hello'),
					credentials: { virtualnumSmsApi: { id: 'sms', name: 'SMS' } },
					continueOnFail: true,
				},
			],
			input: [{ json: { phone: 'call me maybe' } }],
			nodeTypes,
			credentials: {
				virtualnumSmsApi: { baseUrl: sandbox.smsUrl, accessToken: sandbox.tokens.sms },
			},
		});
		const [item] = jsonsOf(result);
		assert.match(String(item.error), /^The argument "phone" \(the To field\): (?!The argument)/);
		assert.equal(item.errorDescription, 'Call the tool again with a corrected "phone" argument.');
		assert.deepEqual(sandbox.control.requests({ service: 'sms', operation: 'send_sms' }), []);
	});

	test('the same refusal outside a tool keeps its field wording', async () => {
		const result = await run('bulkSms', send('call me maybe', 'Hello'));
		assert.ok(result.error);
		assert.match(result.error.message, /^To: /);
		assert.doesNotMatch(result.error.message, /argument/);
	});
});

describe('Virtual Number as a tool: compact outputs', () => {
	const getMany = { resource: 'virtualnum', operation: 'getAll', limit: 3 };
	/** Get, the number given by the model. */
	const getFromModel = {
		resource: 'virtualnum',
		operation: 'get',
		virtualnum: {
			__rl: true,
			mode: 'id',
			value: "={{ $fromAI('number', 'The virtual number', 'string') }}",
		},
	};

	test('Get Many of 3 numbers: the fields that matter, a third of the size', async () => {
		const full = jsonsOf(await run('virtualNumber', getMany, {}, 1.1));
		const compact = jsonsOf(await run('virtualNumberTool', getMany, {}, 1.1));
		assert.equal(compact.length, 3);
		assert.ok('working_hours' in full[0], 'outside a tool the record stays whole');
		assert.deepEqual(
			compact.map((row) => row.virtualnum),
			full.map((row) => row.virtualnum),
		);
		for (const row of compact) {
			assert.equal(row.working_hours, undefined);
			assert.equal(row.private_field3, undefined, 'empty fields are left out');
			assert.ok(row.call_destination_phone, 'where calls ring stays');
		}
		const [before, after] = [JSON.stringify(full).length, JSON.stringify(compact).length];
		assert.ok(after * 3 < before, `compact ${after} characters, full ${before}`);
	});

	test('Return All Fields gives the model the whole records', async () => {
		const full = jsonsOf(await run('virtualNumber', getMany, {}, 1.1));
		const all = jsonsOf(
			await run('virtualNumberTool', { ...getMany, toolAllFields: true }, {}, 1.1),
		);
		assert.deepEqual(all, full);
	});

	test("a trigger's callback URL reaches the model with its secret masked, with or without Return All Fields", async () => {
		const secretUrl =
			'https://n8n.example.com/webhook/0f1e2d3c-4b5a-4978-8091-a2b3c4d5e6f7/webhook' +
			'?secret=ModelMustNotSee1&vnt=live&vnt_prev=2';
		sandbox.control.seed({ virtualnum: { virtualnum: '0722000100', callback_url: secretUrl } });
		const get = getFromModel;
		for (const [parameters, version] of [
			[get, 1.3],
			[{ ...get, toolAllFields: true }, 1.3],
			[{ ...getMany, toolAllFields: true }, 1.1],
		] as const) {
			const result = await run('virtualNumberTool', parameters, { number: '0722000100' }, version);
			const rows = jsonsOf(result);
			assert.ok(rows.length > 0);
			assert.doesNotMatch(JSON.stringify(result.run), /ModelMustNotSee1/);
			const row = rows.find((candidate) => candidate.virtualnum === '0722000100');
			if ('toolAllFields' in parameters)
				assert.equal(row?.callback_url, secretUrl.replace('ModelMustNotSee1', '********'));
			else assert.equal(row?.callback_url, undefined, 'not among the fields a model needs');
		}
	});

	test('Call Record Query rows: no empty fields, startTime left out beside startedAt', async () => {
		const query = { resource: 'cdr', operation: 'query', limit: 3 };
		const full = jsonsOf(await run('virtualNumber', query, {}, 1.1));
		const compact = jsonsOf(await run('virtualNumberTool', query, {}, 1.1));
		assert.equal(compact.length, full.length);
		assert.ok(full.length > 0);
		for (const [i, row] of compact.entries()) {
			assert.equal(row.callId, full[i].callId);
			assert.equal(row.startedAt, full[i].startedAt);
			assert.equal(row.startTime, undefined);
		}
	});

	test('Click to Call: a phone the model gave that is not one names its argument; no call placed', async () => {
		const result = await run(
			'virtualNumberTool',
			{
				resource: 'call',
				operation: 'clickToCall',
				virtualnum: { __rl: true, mode: 'id', value: '0722000100' },
				destination: "={{ $fromAI('phone_to_call', 'Who to call', 'string') }}",
			},
			{ phone_to_call: 'the manager' },
			1.1,
		);
		assert.ok(result.error);
		assert.match(
			result.error.message,
			/^The argument "phone_to_call" \(the Phone Number to Call field\)/,
		);
		assert.deepEqual(
			sandbox.control.requests({ service: 'vn', operation: 'create_virtualnum_call' }),
			[],
		);
	});

	test('Call Record Query: a date the model gave that is not one names its argument', async () => {
		const result = await run(
			'virtualNumberTool',
			{
				resource: 'cdr',
				operation: 'query',
				from: "={{ $fromAI('since', 'Calls since', 'string') }}",
				limit: 3,
			},
			{ since: 'last Tuesday-ish' },
			1.1,
		);
		assert.ok(result.error);
		assert.match(
			result.error.message,
			/^The argument "since" \(the Calls From field\): must be a date/,
		);
		assert.match(result.error.message, /Call the tool again with a corrected "since" argument/);
	});

	test('a number the model put in a resource locator names its argument', async () => {
		const result = await run('virtualNumberTool', getFromModel, { number: 'sales line' }, 1.1);
		assert.ok(result.error);
		assert.match(result.error.message, /^The argument "number" \(the Virtual Number field\)/);
		assert.deepEqual(sandbox.control.requests({ service: 'vn' }), []);
	});

	test('under Continue On Fail a per-item operation names the argument once', async () => {
		const result = await runWorkflow({
			nodes: [
				{
					name: NODE,
					type: `${PACKAGE}.virtualNumberTool`,
					typeVersion: 1.1,
					parameters: {
						resource: 'cdr',
						operation: 'getTranscript',
						callUuid: "={{ $fromAI('call_id', 'The callId of the call', 'string') }}",
					},
					credentials: { virtualnumApi: { id: 'vn', name: 'Virtual Number' } },
					continueOnFail: true,
				},
			],
			input: [{ json: { call_id: '' } }],
			nodeTypes,
			credentials: { virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn } },
		});
		const [item] = jsonsOf(result);
		assert.match(
			String(item.error),
			/^The argument "call_id" \(the Call ID field\): (?!The argument)/,
		);
		assert.match(String(item.errorDescription), /corrected "call_id" argument/);
	});

	test('a call ID the model gave that is empty names its argument', async () => {
		const result = await run(
			'virtualNumberTool',
			{
				resource: 'cdr',
				operation: 'getTranscript',
				callUuid: "={{ $fromAI('call_id', 'The callId of the call', 'string') }}",
			},
			{ call_id: '' },
			1.1,
		);
		assert.ok(result.error);
		assert.match(result.error.message, /^The argument "call_id" \(the Call ID field\)/);
	});
});

describe('What the model is told', () => {
	test('each operation has its own tool description, shown only in the tool variant', async () => {
		const sms = nodeTypes.getByNameAndVersion(`${PACKAGE}.bulkSms`);
		const descriptions = sms.description.properties.filter((p) => p.name === 'toolDescription');
		const send = descriptions.find((p) => p.displayOptions?.show?.operation?.includes('send'));
		assert.ok(send);
		assert.deepEqual(send.displayOptions?.show?.['@tool'], [true]);
		assert.match(String(send.default), /one SMS credit per recipient/);
		assert.match(String(send.default), /Sender field/);
		assert.match(String(send.default), /\+972 50-123-4567/);
	});
});
