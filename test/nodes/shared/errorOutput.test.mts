/**
 * Issue 17 §1: every error item, of one operation per resource of both nodes, comes out of the
 * error output under "Continue (using error output)" and out of the success output, in the same
 * shape, under "Continue (using regular output)": input-check failures, service refusals,
 * per-recipient SMS failures and network failures. Run through n8n's WorkflowExecute, which
 * routes the items, merges the input item into each error item and normalises error items: the
 * items asserted are those the next node receives.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';

import { runWorkflow } from '../../../dev/harness/engine.mts';
import { startSandbox, type Fault, type Sandbox } from '../../../dev/sandbox/index.mts';

const NODE = 'Node';
const ERROR_KEYS = ['error', 'errorDescription', 'errorCode', 'errorDetails'];
const rl = (value: string, mode = 'id') => ({ __rl: true, mode, value });

/** One input item and what must become of it. */
interface Case {
	json: IDataObject;
	/** undefined: a success item. */
	fails?: { code?: number | string; message: RegExp; details?: IDataObject };
}

interface Row {
	label: string;
	type: 'virtualNumber' | 'bulkSms';
	parameters: (sandbox: Sandbox) => IDataObject;
	cases: (sandbox: Sandbox) => Case[];
	fault?: Fault;
	/** Base URLs other than the sandbox's. */
	base?: { vn?: string; sms?: string };
}

const CLOSED_PORT = 'http://127.0.0.1:9';

const ROWS: Row[] = [
	{
		label: 'Virtual Number → Account → Test Connection (service refusal)',
		type: 'virtualNumber',
		parameters: () => ({ resource: 'account', operation: 'test' }),
		fault: { kind: 'serviceError', server: 'vn', operation: 'test', code: 999 },
		cases: () => [
			{
				json: { row: 'a' },
				fails: { code: 999, message: /test failed: Internal error of the service \(code 999\)/ },
			},
			{ json: { row: 'b' } },
		],
	},
	{
		label: 'Virtual Number → Virtual Number → Get',
		type: 'virtualNumber',
		parameters: () => ({
			resource: 'virtualnum',
			operation: 'get',
			virtualnum: rl('={{ $json.number }}'),
		}),
		cases: () => [
			{ json: { number: '0722000100' } },
			{
				json: { number: 'abc' },
				fails: {
					message: /Virtual Number: must be a phone number/,
					details: { field: 'Virtual Number' },
				},
			},
			{ json: { number: '0799999999' }, fails: { message: /0799999999 is not in this account/ } },
		],
	},
	{
		label: 'Virtual Number → Virtual Number → Get (network failure)',
		type: 'virtualNumber',
		parameters: () => ({ resource: 'virtualnum', operation: 'get', virtualnum: rl('0722000100') }),
		base: { vn: CLOSED_PORT },
		cases: () => [
			{ json: { row: 1 }, fails: { message: /Could not reach the Virtual Number service/ } },
			{ json: { row: 2 }, fails: { message: /Could not reach the Virtual Number service/ } },
		],
	},
	{
		label: 'Virtual Number → Call → Click to Call',
		type: 'virtualNumber',
		parameters: () => ({
			resource: 'call',
			operation: 'clickToCall',
			virtualnum: rl('0722000100'),
			destination: '={{ $json.to }}',
		}),
		cases: () => [
			{ json: { to: '0501234567' } },
			{
				json: { to: 'call me' },
				fails: {
					message: /Phone Number to Call: must be a phone number/,
					details: { field: 'Phone Number to Call' },
				},
			},
			{
				json: { to: '0501111111' },
				fails: { code: 3013, message: /The destination is blacklisted \(code 3013\)/ },
			},
		],
	},
	{
		label: 'Virtual Number → Call Record → Get Metadata',
		type: 'virtualNumber',
		parameters: () => ({
			resource: 'cdr',
			operation: 'getMetadata',
			callUuid: '={{ $json.call }}',
		}),
		cases: (sandbox) => [
			{ json: { call: sandbox.control.cdrs()[0].cdr_uniqueid } },
			{
				json: { call: '' },
				fails: { message: /Call ID: is required/, details: { field: 'Call ID' } },
			},
			{ json: { call: '1.999999' }, fails: { code: 1015, message: /code 1015/ } },
		],
	},
	{
		label: 'Virtual Number → Offline Conversion → Set',
		type: 'virtualNumber',
		parameters: () => ({
			resource: 'offlineConversion',
			operation: 'set',
			callUuid: '={{ $json.call }}',
			conversionValue: '={{ $json.value }}',
		}),
		cases: (sandbox) => [
			{ json: { call: sandbox.control.cdrs()[0].cdr_uniqueid, value: 10 } },
			{
				json: { call: sandbox.control.cdrs()[0].cdr_uniqueid, value: 'ten' },
				fails: { message: /Conversion Value: must be a number/ },
			},
			{ json: { call: '1.999999', value: 5 }, fails: { code: 1125, message: /code 1125/ } },
		],
	},
	{
		label: 'Virtual Number → User → Get',
		type: 'virtualNumber',
		parameters: () => ({ resource: 'user', operation: 'get', userId: rl('={{ $json.user }}') }),
		cases: () => [
			{ json: { user: '1' } },
			{ json: { user: 'me' }, fails: { message: /User: must be a user ID/ } },
			{ json: { user: '999' }, fails: { code: 7032, message: /code 7032/ } },
		],
	},
	{
		label: 'Virtual Number → Tag → Get',
		type: 'virtualNumber',
		parameters: () => ({ resource: 'tag', operation: 'get', tagId: rl('={{ $json.tag }}') }),
		cases: () => [
			{ json: { tag: '3' } },
			{ json: { tag: 'Google' }, fails: { message: /Tag: must be a tag ID/ } },
			{ json: { tag: '999' }, fails: { code: 5003, message: /code 5003/ } },
		],
	},
	{
		label: 'Virtual Number → Blacklist → Add',
		type: 'virtualNumber',
		parameters: () => ({
			resource: 'blacklist',
			operation: 'add',
			callerNumber: '={{ $json.callerNo }}',
			scope: 'global',
		}),
		cases: () => [
			{ json: { callerNo: '0503333333' } },
			{
				json: { callerNo: 'anonymous' },
				fails: { message: /Caller Number: must be a phone number/ },
			},
			{ json: { callerNo: '0501111111' }, fails: { code: 2022, message: /code 2022/ } },
		],
	},
	{
		label: 'Virtual Number → Voice Prompt → Download',
		type: 'virtualNumber',
		parameters: () => ({
			resource: 'prompt',
			operation: 'download',
			promptName: rl('={{ $json.prompt }}', 'name'),
		}),
		cases: () => [
			{ json: { prompt: 'welcome' } },
			{
				json: { prompt: 'not a name!' },
				fails: { message: /Voice Prompt: may contain English letters/ },
			},
			{ json: { prompt: 'missing' }, fails: { code: 9012, message: /code 9012/ } },
		],
	},
	{
		label: 'Bulk SMS → Message → Send (per-recipient failures)',
		type: 'bulkSms',
		parameters: () => ({
			resource: 'message',
			operation: 'send',
			// The service refuses a message from a sender the account does not have.
			sender: { __rl: true, mode: 'id', value: `={{ $json.sender ?? 'VirtualNum' }}` },
			to: '={{ $json.to }}',
			message: 'Hello',
		}),
		cases: () => [
			{ json: { to: '0501234567' } },
			{ json: { to: 'nobody' }, fails: { message: /To: "nobody" has letters/ } },
			{
				json: { to: '0521234567', sender: 'NotOurs' },
				fails: {
					code: 'Error - 403 Forbidden',
					message: /The message to 0521234567 was not sent/,
					details: { recipient: '0521234567', sender: 'NotOurs' },
				},
			},
		],
	},
	{
		label: 'Bulk SMS → Sender → List',
		type: 'bulkSms',
		parameters: () => ({ resource: 'sender', operation: 'list', search: '={{ $json.search }}' }),
		fault: {
			kind: 'serviceError',
			server: 'sms',
			operation: 'get_sender_list',
			code: 4001,
			description: 'Service unavailable',
		},
		cases: () => [
			{ json: { search: '' }, fails: { code: 4001, message: /Service unavailable/ } },
			{ json: { search: 'no spaces!' }, fails: { message: /Search/ } },
			{ json: { search: 'Shop' } },
		],
	},
	{
		label: 'Bulk SMS → Credit → Get Balance',
		type: 'bulkSms',
		parameters: () => ({
			resource: 'credit',
			operation: 'getBalance',
			options: { creditPath: '={{ $json.path }}' },
		}),
		cases: () => [
			{ json: { path: '/credit' } },
			{
				json: { path: 'https://elsewhere.example/credit' },
				fails: { message: /Credit Path: must be a path/ },
			},
			{ json: { path: '/no-such-path' }, fails: { message: /HTTP 404/ } },
		],
	},
];

const pairedIndex = (item: INodeExecutionData) => (item.pairedItem as { item: number }).item;

function assertErrorItem(
	item: INodeExecutionData,
	expected: NonNullable<Case['fails']>,
	tag: string,
) {
	assert.equal(typeof item.json.error, 'string', `${tag}: error is the message`);
	assert.match(String(item.json.error), expected.message, tag);
	if (expected.code !== undefined)
		assert.equal(item.json.errorCode, expected.code, `${tag}: errorCode`);
	else assert.equal(item.json.errorCode, undefined, `${tag}: no errorCode without a service code`);
	if (expected.details)
		assert.deepEqual(item.json.errorDetails, expected.details, `${tag}: errorDetails`);
	assert.equal(typeof item.json.errorDescription, 'string', `${tag}: says what to do`);
}

describe('Error items: one shape, on the output n8n routes them to', { concurrency: 1 }, () => {
	let sandbox: Sandbox;
	before(async () => {
		sandbox = await startSandbox();
	});
	after(async () => await sandbox.close());
	beforeEach(() => sandbox.control.reset());

	const run = (row: Row, onError: INode['onError']) => {
		if (row.fault) sandbox.control.injectFaults(row.fault);
		return runWorkflow({
			nodes: [{ name: NODE, type: row.type, parameters: row.parameters(sandbox), onError }],
			input: row.cases(sandbox).map((c) => ({ json: c.json })),
			credentials: {
				virtualnumApi: { baseUrl: row.base?.vn ?? sandbox.vnUrl, accessToken: sandbox.tokens.vn },
				virtualnumSmsApi: {
					baseUrl: row.base?.sms ?? sandbox.smsUrl,
					accessToken: sandbox.tokens.sms,
				},
			},
		});
	};

	for (const row of ROWS) {
		test(`${row.label}: Continue (using regular output) — every item on the success output, error items in the package's shape`, async () => {
			const cases = row.cases(sandbox);
			const result = await run(row, 'continueRegularOutput');
			assert.equal(result.error, undefined, result.error?.message);
			const outputs = result.outputs(NODE);
			assert.equal(outputs.length, 1, 'one output');
			assert.deepEqual(
				outputs[0].map(pairedIndex),
				cases.map((_, index) => index),
				'one item per input item, in order',
			);
			for (const [index, item] of outputs[0].entries()) {
				const expected = cases[index].fails;
				if (!expected) {
					assert.equal(
						item.json.error,
						undefined,
						`item ${index} succeeded: ${JSON.stringify(item.json)}`,
					);
					continue;
				}
				assert.deepEqual(
					Object.keys(item.json).filter((key) => !ERROR_KEYS.includes(key)),
					[],
					`item ${index}: only the error fields`,
				);
				assertErrorItem(item, expected, `item ${index}`);
			}
		});

		test(`${row.label}: Continue (using error output) — failed items on the error output, with the input item's fields`, async () => {
			const cases = row.cases(sandbox);
			const result = await run(row, 'continueErrorOutput');
			assert.equal(result.error, undefined, result.error?.message);
			const [success, failed] = result.outputs(NODE);
			const failing = cases.flatMap((c, index) => (c.fails ? [index] : []));
			assert.deepEqual(
				success.map(pairedIndex),
				cases.flatMap((c, index) => (c.fails ? [] : [index])),
				'success output',
			);
			assert.deepEqual(failed.map(pairedIndex), failing, 'error output');
			for (const item of success) assert.equal(item.json.error, undefined);
			for (const item of failed) {
				const index = pairedIndex(item);
				assertErrorItem(item, cases[index].fails!, `item ${index}`);
				// n8n merges the input item's json into the error item: what the next node receives.
				for (const [key, value] of Object.entries(cases[index].json))
					assert.deepEqual(item.json[key], value, `item ${index} keeps ${key}`);
			}
		});
	}
});
