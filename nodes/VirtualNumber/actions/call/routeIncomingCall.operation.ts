/**
 * Route Incoming Call: answers the Virtual Number Trigger's Call Started callback from inside the
 * run, as n8n's Respond to Webhook answers its Webhook node: through n8n's `sendResponse`, which
 * sends the answer at once (responseMode responseNode; in queue mode relayed from the worker to
 * the process holding the request). The service routes the call to the number answered as plain
 * text; an empty answer leaves the number's own routing. The trigger still guards what goes out
 * (Allowed Destinations, no loops, the Deadline, a failed run): nodes/VirtualNumberTrigger/callback/routeCall.ts,
 * by the rules of nodes/shared/callRouting.ts. From node version 1.3 this node applies the same
 * rules to say what the trigger answers: `routedTo` is '' when the trigger refuses the destination
 * (or the Deadline passed before this node ran), and `routeRefused` says why.
 *
 * As Respond to Webhook, it answers once, with the first item, and passes its input items on; it
 * fails when no Virtual Number Trigger waiting for it started the workflow. Run by hand in the
 * editor there is no call waiting: n8n drops the answer, as it does Respond to Webhook's.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	NodeTypeAndVersion,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import {
	ROUTE_DEADLINE_SEC,
	allowListOf,
	checkDestination,
	keptAccountNumbers,
	pastDeadline,
	responseModeOf,
} from '../../../shared/callRouting';
import { InputChecks } from '../../../shared/checks';
import { asNodeError, errorItem } from '../../../shared/errors';
import { PHONE_LIMITS, checkPhone } from '../../../shared/phones';
import type { OperationOption } from '../../../shared/router';

const properties: INodeProperties[] = [
	{
		displayName:
			"Set the Virtual Number Trigger's Options → Respond With to \"Using a 'Route Incoming Call' Node\": " +
			'this node then answers its Call Started callback.',
		name: 'routeNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Destination',
		name: 'destination',
		type: 'string',
		default: '',
		placeholder: 'e.g. 0501234567',
		description:
			'The phone number to route the call to (of the first input item). Leave empty to keep the ' +
			"number's own routing. The trigger's Allowed Destinations still apply.",
	},
];

export const option: OperationOption = {
	name: 'Route Incoming Call',
	description:
		"Answers the Virtual Number Trigger's Call Started with the phone number to route the call to",
	action: 'Route an incoming call',
};

/** It answers a waiting phone call: nothing an AI agent's tool call can do. */
export const notAsTool = true;

export const description = updateDisplayOptions(
	{ show: { resource: ['call'], operation: ['routeIncomingCall'] } },
	properties,
);

// The trigger's type (nodes/VirtualNumberTrigger/VirtualNumberTrigger.node.ts).
const TRIGGER_TYPE_SUFFIX = '.virtualNumberTrigger';

/** The Virtual Number Trigger waiting for this node's answer; fails when none started the workflow. */
function waitingTrigger(this: IExecuteFunctions): NodeTypeAndVersion {
	const node = this.getNode();
	const triggers = this.getParentNodes(node.name, { includeNodeParameters: true }).filter(
		({ type, disabled }) => type.endsWith(TRIGGER_TYPE_SUFFIX) && disabled !== true,
	);
	if (triggers.length === 0) {
		throw new NodeOperationError(node, 'No Virtual Number Trigger before this node', {
			description:
				'Route Incoming Call answers the call-start callback of a Virtual Number Trigger: start the workflow ' +
				'with one, choose its Call Started event and set Options → Respond With to "Using a \'Route Incoming ' +
				'Call\' Node".',
		});
	}
	// Waiting: the trigger answers its Call Started in n8n's responseNode mode, by this node.
	const waiting = triggers.find(
		({ parameters }) => responseModeOf(parameters ?? {}) === 'responseNode',
	);
	if (waiting === undefined) {
		throw new NodeOperationError(node, 'The Virtual Number Trigger does not wait for this answer', {
			description:
				'Open the trigger, choose the Call Started event and set Options → Respond With to "Using a \'Route ' +
				'Incoming Call\' Node". Otherwise the trigger has answered the call already.',
		});
	}
	return waiting;
}

/** The call the trigger started this run with (its item), or an empty one when it cannot be read. */
function callOf(this: IExecuteFunctions, trigger: string): IDataObject {
	try {
		const items = this.getWorkflowDataProxy(0).$items(trigger) as INodeExecutionData[];
		return items[0]?.json ?? {};
	} catch {
		return {};
	}
}

/**
 * What the trigger answers for `destination`, by the rules it applies (the loop refusal, Allowed
 * Destinations, the Deadline as this node sees it when it answers).
 */
function routeOutcome(
	this: IExecuteFunctions,
	trigger: NodeTypeAndVersion,
	destination: string,
): { routedTo: string; routeRefused: string | null } {
	if (destination === '') return { routedTo: '', routeRefused: null };
	const options = (trigger.parameters?.options ?? {}) as IDataObject;
	const call = callOf.call(this, trigger.name);
	const seconds = Number(options.routeDeadlineSec ?? ROUTE_DEADLINE_SEC.default);
	const receivedAt = Date.parse(String(call.receivedAt));
	if (Number.isFinite(receivedAt) && Date.now() > receivedAt + seconds * 1000)
		return { routedTo: '', routeRefused: pastDeadline(seconds * 1000) };
	const global = this.getWorkflowStaticData('global') as IDataObject;
	const own = {
		dialled: typeof call.virtualNumber === 'string' ? call.virtualNumber : undefined,
		account: trigger.typeVersion >= 1.1 ? keptAccountNumbers(global, trigger.name) : [],
	};
	const list = allowListOf(options, trigger.typeVersion);
	const checked = checkDestination(destination, 'the Route Incoming Call node', list, own);
	if ('refused' in checked) return { routedTo: '', routeRefused: checked.refused };
	return { routedTo: checked.digits, routeRefused: null };
}

export async function executeBatch(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const items = this.getInputData();
	try {
		const trigger = waitingTrigger.call(this);
		const raw = this.getNodeParameter('destination', 0, '');
		const text = raw === undefined || raw === null ? '' : String(raw).trim();
		const destination =
			text === ''
				? ''
				: checkPhone(new InputChecks(this.getNode(), 0), 'Destination', text, {
						minDigits: PHONE_LIMITS.destinationMinDigits,
					});
		await this.sendResponse({
			body: destination,
			headers: { 'content-type': 'text/plain; charset=utf-8' },
			statusCode: 200,
		});
		// Version 1.2 said what it sent; 1.3 says what the trigger answered.
		const routed =
			this.getNode().typeVersion >= 1.3
				? routeOutcome.call(this, trigger, destination)
				: { routedTo: destination };
		return items.map((item, index) => ({
			json: { ...item.json, ...routed },
			pairedItem: { item: index },
		}));
	} catch (error) {
		const failure = asNodeError(this.getNode(), error, 0);
		if (!this.continueOnFail()) throw failure;
		return items.map((_, index) => errorItem(this.getNode(), failure, index));
	}
}
