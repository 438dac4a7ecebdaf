/**
 * The Send benchmarks' tasks (run in the child process of measure.mts): the same 10,000 messages
 * sent by the node, read by the floor node (n8n's cost for the same items, nothing sent; with its
 * batches posted through n8n's HTTP helper, the floor of a node that sends), sent by a plain fetch
 * client, and sent the ways a user builds it with n8n's own nodes: (a) HTTP Request, one request per
 * item; (b) a Code node grouping the items into batches and an HTTP Request node posting each batch.
 */
import vm from 'node:vm';

import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { loadPackage, runWorkflow, type RunOptions } from '../harness/engine.mts';
import {
	CODE,
	HTTP_REQUEST,
	baseNodes,
	benchNodeTypes,
	defaultVersion,
	measure,
	type Measurement,
} from './measure.mts';

export const FLOOR = 'n8n-nodes-virtualnum-bench.floor';

export type Variant = 'expression' | 'fixed' | 'fields';

interface SmsTarget {
	smsUrl: string;
	token: string;
	items: number;
	batchSize: number;
	/** Report where the peak memory was (V8 heap, buffers outside it). */
	breakdown?: boolean;
}

interface SendOptions extends SmsTarget {
	variant: Variant;
	fieldsParameters?: IDataObject;
}

export type SendTask =
	| ({ kind: 'smsNode' } & SendOptions)
	| ({ kind: 'smsFloor'; sendBatches?: boolean } & SendOptions)
	| ({ kind: 'smsFetch' } & SmsTarget)
	| ({ kind: 'smsHttpPerItem' } & SmsTarget)
	| ({ kind: 'smsCodeBatches' } & SmsTarget);

export const SENDER = 'VirtualNum';
export const TEXT = 'Your order has shipped. Track it at https://shop.example.com/t/8841';
/** The field of each item that holds its number. */
export const PHONE_FIELD = 'phone';
/**
 * Send's parameters of the documented way to send large lists (docs/bulk-sms-node.md): Recipients
 * From: Input Fields (the number from each item's `phone` field, one text for all) and Batches in
 * Flight 4.
 */
export const FIELDS_PARAMETERS: IDataObject = {
	recipientSource: 'inputFields',
	phoneField: PHONE_FIELD,
	messageFrom: 'text',
	options: { batchesInFlight: 4 },
};
/** Numbers of the children's warm-up sends start +972 50-6… (offset 5,000,000), the measured ones +972 50-1…. */
const WARM_UP_OFFSET = 5_000_000;

/** The campaign: one item per recipient, as read from a spreadsheet or a CRM. */
function campaign(items: number, offset = 0): INodeExecutionData[] {
	return Array.from({ length: items }, (_, i) => ({
		json: {
			[PHONE_FIELD]: `+972 50-${String(1_000_000 + offset + i).padStart(7, '0')}`,
			name: `Customer ${i}`,
		},
	}));
}

const warmUpSize = (task: SmsTarget) => Math.min(task.batchSize * 2, 200);

/** The Send parameters of a variant (the floor node reads the same ones). */
function sendParameters(
	task: Extract<SendTask, { kind: 'smsNode' | 'smsFloor' }>,
	fixedTo: string,
): IDataObject {
	const common = {
		resource: 'message',
		operation: 'send',
		sender: { __rl: true, mode: 'id', value: SENDER },
		message: TEXT,
		options: { batchSize: task.batchSize },
	};
	if (task.variant === 'expression') return { ...common, to: `={{ $json.${PHONE_FIELD} }}` };
	// A fixed To sends as large lists are documented to be sent: Batches in Flight 4, as the fields rows.
	if (task.variant === 'fixed')
		return { ...common, to: fixedTo, options: { ...common.options, batchesInFlight: 4 } };
	if (!task.fieldsParameters)
		throw new Error('the "recipients from input fields" variant needs --fields-parameters');
	// The mode's options add to the row's (its Batch Size stays); the floor reads the same field the node is told to read.
	const fields = {
		...common,
		...task.fieldsParameters,
		options: { ...common.options, ...(task.fieldsParameters.options as IDataObject | undefined) },
	};
	return task.kind === 'smsFloor' ? { ...fields, benchPhoneField: PHONE_FIELD } : fields;
}

/** The floor's parameters: Send's, and whether it also posts the batches through n8n's HTTP helper. */
const floorParameters = (
	task: Extract<SendTask, { kind: 'smsFloor' }>,
	fixedTo: string,
): IDataObject => ({
	...sendParameters(task, fixedTo),
	...(task.sendBatches ? { benchSendBatches: true } : {}),
});

async function run(options: RunOptions, last: string): Promise<INodeExecutionData[]> {
	const result = await runWorkflow(options);
	if (result.error) throw new Error(`the run failed: ${result.error.message}`);
	return result.items(last);
}

const sent = (items: INodeExecutionData[]) =>
	items.filter((item) => item.json.message_id !== undefined).length;

export async function smsNode(task: Extract<SendTask, { kind: 'smsNode' }>): Promise<Measurement> {
	const send = (input: INodeExecutionData[], fixedTo: string) =>
		run(
			{
				nodes: [{ name: 'Send', type: 'bulkSms', parameters: sendParameters(task, fixedTo) }],
				input,
				credentials: { virtualnumSmsApi: { baseUrl: task.smsUrl, accessToken: task.token } },
			},
			'Send',
		);
	return await measure(
		() => send(campaign(warmUpSize(task), WARM_UP_OFFSET), '+972 50-6000000'),
		async () => ({ produced: sent(await send(campaign(task.items), '+972 50-1000000')) }),
		{ breakdown: task.breakdown },
	);
}

/**
 * The floor: the same items and parameters through the same engine, one item out per recipient,
 * nothing sent; with `sendBatches`, the same batches posted through n8n's HTTP helper too.
 */
export async function smsFloor(
	task: Extract<SendTask, { kind: 'smsFloor' }>,
): Promise<Measurement> {
	const nodeTypes = await benchNodeTypes(await floorType());
	const read = (input: INodeExecutionData[], fixedTo: string) =>
		run(
			{
				nodes: [
					{
						name: 'Floor',
						type: FLOOR,
						parameters: floorParameters(task, fixedTo),
						credentials: { virtualnumSmsApi: { id: 'sms', name: 'Bulk SMS' } },
					},
				],
				input,
				nodeTypes,
				credentials: { virtualnumSmsApi: { baseUrl: task.smsUrl, accessToken: task.token } },
			},
			'Floor',
		);
	return await measure(
		() => read(campaign(warmUpSize(task), WARM_UP_OFFSET), '+972 50-6000000'),
		async () => ({ produced: (await read(campaign(task.items), '+972 50-1000000')).length }),
	);
}

/** The plain client: the same messages in the same batches with fetch (JSON.stringify, POST, parse, count). */
export async function smsFetch(
	task: Extract<SendTask, { kind: 'smsFetch' }>,
): Promise<Measurement> {
	const send = async (input: INodeExecutionData[]) => {
		const messages = input.map((item) => ({
			service: 'send_sms',
			dest: String(item.json[PHONE_FIELD]).replace(/\D/g, ''),
			sender: SENDER,
			message: TEXT,
		}));
		let count = 0;
		for (let start = 0; start < messages.length; start += task.batchSize) {
			const batch = messages.slice(start, start + task.batchSize);
			const response = await fetch(`${task.smsUrl}/api/ws_json_bulk.php`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${task.token}` },
				body: JSON.stringify(batch),
			});
			const results = (await response.json()) as IDataObject[];
			if (!Array.isArray(results) || results.length !== batch.length)
				throw new Error('wrong number of results');
			count += results.filter((result) => result.message_id !== undefined).length;
		}
		return count;
	};
	return await measure(
		() => send(campaign(warmUpSize(task), WARM_UP_OFFSET)),
		async () => ({ produced: await send(campaign(task.items)) }),
		{ breakdown: task.breakdown },
	);
}

// ---- what users build instead, with n8n's own nodes ---------------------------------------------

/** The message of one item as a user writes it in an expression (the digits of the item's number). */
const MESSAGE_EXPRESSION = `{ service: "send_sms", dest: String($json.${PHONE_FIELD}).replace(/\\D/g, ""), sender: ${JSON.stringify(SENDER)}, message: ${JSON.stringify(TEXT)} }`;

/** HTTP Request posting to the batch address with a Header Auth credential (Authorization: Bearer …). */
function httpRequest(task: SmsTarget, jsonBody: string) {
	return {
		name: 'HTTP Request',
		type: HTTP_REQUEST,
		typeVersion: defaultVersion(HTTP_REQUEST),
		parameters: {
			method: 'POST',
			url: `${task.smsUrl}/api/ws_json_bulk.php`,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpHeaderAuth',
			sendBody: true,
			contentType: 'json',
			specifyBody: 'json',
			jsonBody,
			options: {},
		},
		credentials: { httpHeaderAuth: { id: 'header-auth', name: 'Bulk SMS token' } },
	};
}

const headerAuth = (task: SmsTarget) => ({
	httpHeaderAuth: { name: 'Authorization', value: `Bearer ${task.token}` },
});

/** (a) One request per item: an HTTP Request node whose body is the item's message (n8n's Twilio node's pattern). */
export async function smsHttpPerItem(
	task: Extract<SendTask, { kind: 'smsHttpPerItem' }>,
): Promise<Measurement> {
	const nodeTypes = await benchNodeTypes(baseNodes());
	const send = (input: INodeExecutionData[]) =>
		run(
			{
				nodes: [httpRequest(task, `={{ JSON.stringify([${MESSAGE_EXPRESSION}]) }}`)],
				input,
				nodeTypes,
				credentials: headerAuth(task),
			},
			'HTTP Request',
		);
	return await measure(
		() => send(campaign(warmUpSize(task), WARM_UP_OFFSET)),
		async () => ({ produced: sent(await send(campaign(task.items))) }),
	);
}

/** (b) The best a user does by hand: a Code node groups the items into batches, an HTTP Request node posts each batch. */
export async function smsCodeBatches(
	task: Extract<SendTask, { kind: 'smsCodeBatches' }>,
): Promise<Measurement> {
	const nodeTypes = await benchNodeTypes(baseNodes());
	const jsCode = [
		`const size = ${task.batchSize};`,
		'const all = $input.all();',
		'const batches = [];',
		'for (let i = 0; i < all.length; i += size) {',
		`  const messages = all.slice(i, i + size).map((item) => ({ service: 'send_sms', dest: String(item.json.${PHONE_FIELD}).replace(/\\D/g, ''), sender: ${JSON.stringify(SENDER)}, message: ${JSON.stringify(TEXT)} }));`,
		'  batches.push({ json: { messages } });',
		'}',
		'return batches;',
	].join('\n');
	const send = (input: INodeExecutionData[]) =>
		run(
			{
				nodes: [
					{
						name: 'Code',
						type: CODE,
						typeVersion: defaultVersion(CODE),
						parameters: { language: 'javaScript', mode: 'runOnceForAllItems', jsCode },
					},
					httpRequest(task, '={{ JSON.stringify($json.messages) }}'),
				],
				input,
				nodeTypes,
				credentials: headerAuth(task),
				additionalData: { startRunnerTask },
			},
			'HTTP Request',
		);
	return await measure(
		() => send(campaign(warmUpSize(task), WARM_UP_OFFSET)),
		async () => ({ produced: sent(await send(campaign(task.items))) }),
	);
}

/** Runs one of this file's tasks. */
export async function runSendTask(task: SendTask): Promise<Measurement> {
	switch (task.kind) {
		case 'smsNode':
			return await smsNode(task);
		case 'smsFloor':
			return await smsFloor(task);
		case 'smsFetch':
			return await smsFetch(task);
		case 'smsHttpPerItem':
			return await smsHttpPerItem(task);
		case 'smsCodeBatches':
			return await smsCodeBatches(task);
	}
}

/** The floor node, built on Bulk SMS's own description. */
async function floorType(): Promise<Record<string, INodeType>> {
	const bulkSms = (await loadPackage()).getNode('bulkSms').type as INodeType;
	return { [FLOOR]: new FloorNode(bulkSms.description) };
}

// ---- the floor ------------------------------------------------------------------------------------

/** The floor's own settings (properties of the floor only, beside Send's). */
const FLOOR_PROPERTIES: INodeProperties[] = [
	{ displayName: 'Phone Field', name: 'benchPhoneField', type: 'string', default: '' },
	{
		displayName: "Send the Batches with n8n's HTTP Helper",
		name: 'benchSendBatches',
		type: 'boolean',
		default: false,
	},
];
const OWN = new Set(FLOOR_PROPERTIES.map((property) => property.name));

/**
 * The floor: what any node pays in n8n for the same items. It has Bulk SMS Send's parameters (the
 * same description, so n8n reads them the same way, the same expressions included) and outputs one
 * item per recipient without sending. A parameter holding an expression is read for every item,
 * one without is read once (any node can do that, and Send does); with a Phone Field (the
 * "recipients from input fields" variant) the number is the item's own field, read without n8n.
 *
 * With "Send the Batches", it also posts the same batches through n8n's HTTP helper with the
 * credential (what any node that sends through n8n pays per request), as many at once as Send's
 * Batches in Flight, reading only the count of results: the floor of a node that sends.
 */
class FloorNode implements INodeType {
	description: INodeTypeDescription;

	constructor(bulkSms: INodeTypeDescription) {
		this.description = {
			...bulkSms,
			displayName: 'Bench Floor',
			name: 'floor',
			properties: [...bulkSms.properties, ...FLOOR_PROPERTIES],
		};
	}

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const parameters = this.getNode().parameters;
		const names = Object.keys(parameters).filter((name) => !OWN.has(name));
		const everyItem = names.filter((name) => JSON.stringify(parameters[name]).includes('"='));
		const values: IDataObject = {};
		for (const name of names) {
			if (!everyItem.includes(name))
				values[name] = this.getNodeParameter(name, 0, undefined, {
					extractValue: true,
				}) as IDataObject;
		}
		const phoneField = String(parameters.benchPhoneField ?? '');
		const out: INodeExecutionData[] = [];
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			for (const name of everyItem)
				values[name] = this.getNodeParameter(name, itemIndex, undefined, {
					extractValue: true,
				}) as IDataObject;
			const to = phoneField ? items[itemIndex].json[phoneField] : values.to;
			for (const dest of String(to).split(/[,;\n]/)) {
				out.push({
					json: { service: 'send_sms', dest, sender: values.sender, message: values.message },
					pairedItem: { item: itemIndex },
				});
			}
		}
		const options = values.options as IDataObject;
		if (parameters.benchSendBatches === true)
			await sendBatches.call(
				this,
				out,
				Number(options.batchSize ?? 100),
				Number(options.batchesInFlight ?? 1),
			);
		return [out];
	}
}

/** The batches posted as Send posts them: `inFlight` at a time (Send's Batches in Flight). */
async function sendBatches(
	this: IExecuteFunctions,
	out: INodeExecutionData[],
	batchSize: number,
	inFlight: number,
): Promise<void> {
	const { baseUrl } = await this.getCredentials<{ baseUrl: string }>('virtualnumSmsApi');
	let next = 0;
	const worker = async () => {
		for (let start = next; start < out.length; start = next) {
			next += batchSize;
			await postBatch.call(this, baseUrl, out.slice(start, start + batchSize));
		}
	};
	await Promise.all(Array.from({ length: inFlight }, worker));
}

async function postBatch(
	this: IExecuteFunctions,
	baseUrl: string,
	items: INodeExecutionData[],
): Promise<void> {
	const batch = items.map((item) => ({
		...item.json,
		dest: String(item.json.dest).replace(/\D/g, ''),
	}));
	const answer = (await this.helpers.httpRequestWithAuthentication.call(this, 'virtualnumSmsApi', {
		method: 'POST',
		url: `${baseUrl.replace(/\/+$/, '')}/api/ws_json_bulk.php`,
		body: Buffer.from(JSON.stringify(batch), 'utf8'),
		headers: { 'Content-Type': 'application/json' },
		json: false,
		encoding: 'text',
	})) as string;
	if ((JSON.parse(answer) as unknown[]).length !== batch.length)
		throw new Error('wrong number of results');
}

// ---- the Code node's task runner --------------------------------------------------------------

/**
 * What n8n 2.x does with a Code node's JavaScript (it always runs in a task runner), reduced to
 * this process: the input items go to the runner as JSON and the result comes back as JSON (n8n
 * sends both over a WebSocket to a separate runner process), and the code runs in a `vm` context
 * with `$input` and `items`, as the runner's does. Not reproduced: the second process, the
 * WebSocket and the runner's data proxy; so the Code node is measured faster than n8n runs it,
 * which only makes the node's advantage over it look smaller.
 */
const startRunnerTask: IWorkflowExecuteAdditionalData['startRunnerTask'] = async (
	_additionalData,
	jobType,
	settings,
	_executeFunctions,
	_inputData,
	_node,
	_workflow,
	_runExecutionData,
	_runIndex,
	_itemIndex,
	_activeNodeName,
	connectionInputData,
) => {
	const task = settings as { code: string; nodeMode: string };
	if (jobType !== 'javascript' || task.nodeMode !== 'runOnceForAllItems') {
		throw new Error(
			`the bench's task runner runs JavaScript once for all items only, not ${jobType} ${task.nodeMode}`,
		);
	}
	const received = JSON.parse(JSON.stringify(connectionInputData)) as INodeExecutionData[];
	const $input = {
		all: () => received,
		first: () => received[0],
		last: () => received.at(-1),
		item: received[0],
	};
	const context = vm.createContext({ $input, items: received });
	const result: unknown = await vm.runInContext(`(async function () {${task.code}\n})()`, context);
	return { ok: true, result: JSON.parse(JSON.stringify(result)) as never, customData: undefined };
};
