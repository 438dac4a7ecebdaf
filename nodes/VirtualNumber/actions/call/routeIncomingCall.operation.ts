/**
 * Route Incoming Call: answers the Virtual Number Trigger's Call Started callback from inside the
 * run, as n8n's Respond to Webhook answers its Webhook node: through n8n's `sendResponse`, which
 * sends the answer at once (responseMode responseNode; in queue mode relayed from the worker to
 * the process holding the request). The service routes the call to the number answered as plain
 * text; an empty answer leaves the number's own routing. The trigger still guards what goes out
 * (Allowed Destinations, the Deadline, a failed run): nodes/VirtualNumberTrigger/callback/routeCall.ts.
 *
 * As Respond to Webhook, it answers once, with the first item, and passes its input items on; it
 * fails when no Virtual Number Trigger waiting for it started the workflow. Run by hand in the
 * editor there is no call waiting: n8n drops the answer, as it does Respond to Webhook's.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import { asNodeError, errorItem } from '../../../shared/errors';
import { PHONE_LIMITS, checkPhone } from '../../../shared/phones';
import type { OperationOption } from '../../../shared/router';
import { responseModeOf } from '../../../VirtualNumberTrigger/callback/routeCall';

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

/** Fails unless a Virtual Number Trigger waiting for this node's answer started the workflow. */
function checkTrigger(this: IExecuteFunctions): void {
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
	const waiting = triggers.some(
		({ parameters }) => responseModeOf(parameters ?? {}) === 'responseNode',
	);
	if (!waiting) {
		throw new NodeOperationError(node, 'The Virtual Number Trigger does not wait for this answer', {
			description:
				'Open the trigger, choose the Call Started event and set Options → Respond With to "Using a \'Route ' +
				'Incoming Call\' Node". Otherwise the trigger has answered the call already.',
		});
	}
}

export async function executeBatch(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const items = this.getInputData();
	try {
		checkTrigger.call(this);
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
		return items.map((item, index) => ({
			json: { ...item.json, routedTo: destination },
			pairedItem: { item: index },
		}));
	} catch (error) {
		const failure = asNodeError(this.getNode(), error, 0);
		if (!this.continueOnFail()) throw failure;
		return items.map((_, index) => errorItem(this.getNode(), failure, index));
	}
}
