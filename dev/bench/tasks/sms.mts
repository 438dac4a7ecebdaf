/**
 * The bulk-send benchmarks: the same 10,000 messages sent by the node, read by the floor node
 * (n8n's cost for the same items, nothing sent), sent by a plain fetch client, and sent the ways a
 * user builds it with n8n's own nodes: (a) HTTP Request, one request per item; (b) a Code node
 * grouping the items into batches and an HTTP Request node posting each batch.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { RunOptions } from '../../harness/engine.mts';
import { measure, type Measurement } from '../measure.mts';
import {
	CODE,
	FLOOR,
	HTTP_REQUEST,
	benchNodeTypes,
	defaultVersion,
	startRunnerTask,
} from '../n8n.mts';

/**
 * How To is given. `expression`: each item's own number, `{{ $json.phone }}`, as a workflow reading
 * a spreadsheet does; `fixed`: one text for all items (isolates n8n's expression engine);
 * `fields`: Recipients From: Input Fields (FIELDS_PARAMETERS, or the parameters given to the bench
 * with `--fields-parameters`).
 */
export type Variant = 'expression' | 'fixed' | 'fields';

interface SmsTarget {
	smsUrl: string;
	token: string;
	items: number;
	batchSize: number;
	/** Report where the peak memory was (V8 heap, buffers outside it). */
	breakdown?: boolean;
}

interface SendTask extends SmsTarget {
	variant: Variant;
	fieldsParameters?: IDataObject;
}

export type SmsTask =
	| ({ kind: 'smsNode' } & SendTask)
	| ({ kind: 'smsFloor'; sendBatches?: boolean } & SendTask)
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
	task: Extract<SmsTask, { kind: 'smsNode' | 'smsFloor' }>,
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
	task: Extract<SmsTask, { kind: 'smsFloor' }>,
	fixedTo: string,
): IDataObject => ({
	...sendParameters(task, fixedTo),
	...(task.sendBatches ? { benchSendBatches: true } : {}),
});

async function run(options: RunOptions, last: string): Promise<INodeExecutionData[]> {
	const { runWorkflow } = await import('../../harness/engine.mts');
	const result = await runWorkflow(options);
	if (result.error) throw new Error(`the run failed: ${result.error.message}`);
	return result.items(last);
}

const sent = (items: INodeExecutionData[]) =>
	items.filter((item) => item.json.message_id !== undefined).length;

export async function smsNode(task: Extract<SmsTask, { kind: 'smsNode' }>): Promise<Measurement> {
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
export async function smsFloor(task: Extract<SmsTask, { kind: 'smsFloor' }>): Promise<Measurement> {
	const nodeTypes = await benchNodeTypes({ base: false });
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
export async function smsFetch(task: Extract<SmsTask, { kind: 'smsFetch' }>): Promise<Measurement> {
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
	task: Extract<SmsTask, { kind: 'smsHttpPerItem' }>,
): Promise<Measurement> {
	const nodeTypes = await benchNodeTypes({ base: true });
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
	task: Extract<SmsTask, { kind: 'smsCodeBatches' }>,
): Promise<Measurement> {
	const nodeTypes = await benchNodeTypes({ base: true });
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
