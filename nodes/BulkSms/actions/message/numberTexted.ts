/**
 * Send From: Reply From: the Number Texted. The account's number a person texted is the `to` of the
 * Virtual Number Trigger's SMS Received item that this item comes from, read through n8n's paired
 * items as `$('SMS Received').item.json.to` reads it, or the trigger's only item when the pairing is
 * lost: a reply after an AI Agent, a Data Table or any node that makes new items still goes out
 * from the number the conversation is on.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import type { InputChecks } from '../../../shared/checks';

const TRIGGER_TYPE = 'n8n-nodes-virtualnum.virtualNumberTrigger';
const SEND_FROM_FIELD = 'Send From';

/** The number texted for an item; fails the item, saying what to connect or set, when there is none. */
export function numberTexted(
	context: IExecuteFunctions,
): (itemIndex: number, check: InputChecks) => unknown {
	const trigger = context
		.getParentNodes(context.getNode().name)
		.find((parent) => parent.type === TRIGGER_TYPE);
	const name = JSON.stringify(trigger?.name ?? '');
	// An AI Agent that called a tool outputs items n8n can no longer pair (seen in n8n 2.40.7); a
	// webhook trigger's run has one item, which is then the one every item comes from.
	const expressions = [
		`{{ $(${name}).item.json.to }}`,
		`{{ $(${name}).all().length === 1 ? $(${name}).first().json.to : undefined }}`,
	];
	const evaluate = (expression: string, itemIndex: number): unknown => {
		try {
			return context.evaluateExpression(expression, itemIndex);
		} catch {
			return undefined;
		}
	};
	const blank = (value: unknown) =>
		value === undefined || value === null || String(value).trim() === '';
	return (itemIndex, check) => {
		if (!trigger)
			check.fail(
				SEND_FROM_FIELD,
				'the Number Texted needs a Virtual Number Trigger on SMS Received before this node; ' +
					'without one, choose Send From: Sender',
			);
		let value = evaluate(expressions[0], itemIndex);
		if (blank(value)) value = evaluate(expressions[1], itemIndex);
		if (blank(value))
			check.fail(
				SEND_FROM_FIELD,
				`the Number Texted is not known for this item: it does not lead back to an SMS Received item of ` +
					`"${trigger?.name ?? ''}" (a call event has no number texted, and a node that drops n8n's item pairing ` +
					'loses it); set Send From: Sender with an expression instead',
			);
		return value;
	};
}
