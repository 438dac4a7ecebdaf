/**
 * What the operations of several resources share when they read their fields and build their
 * output: resource-locator values, the Return All / Limit pair, the output of writes whose result
 * the spec does not show (with the service's status under one name), call IDs under the
 * vocabulary's name, and hints for the run. Field definitions are in actions/fields.ts.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { callField } from '../../shared/callFields';
import type { InputChecks } from '../../shared/checks';
import { checkVirtualnum } from '../../shared/phones';
import { virtualnumRequest, type VirtualnumAnswer } from '../../shared/transport/virtualnumApi';

/** The value of a resource locator (or of a plain value from an expression), trimmed. */
export function locatorValue(this: IExecuteFunctions, name: string, itemIndex: number): string {
	const value = this.getNodeParameter(name, itemIndex, '', { extractValue: true }) as unknown;
	if (value !== null && typeof value === 'object' && 'value' in value)
		return String((value as IDataObject).value ?? '').trim();
	return String(value ?? '').trim();
}

/** A virtual number from a locator field, checked and returned as digits (`+972 3-555 1234` → `97235551234`). */
export function readVirtualnum(
	this: IExecuteFunctions,
	checks: InputChecks,
	name = 'virtualnum',
	field = 'Virtual Number',
): string {
	return checkVirtualnum(checks, field, locatorValue.call(this, name, checks.itemIndex));
}

/** Limits of the Limit field: the package's own (the service returns every row at once or pages itself). */
export interface LimitRange {
	min: number;
	max: number;
}

export const GET_MANY_LIMIT: LimitRange = { min: 1, max: Number.MAX_SAFE_INTEGER };

/** How many rows to return: Infinity with Return All on, else the Limit, checked. */
export function readLimit(
	this: IExecuteFunctions,
	checks: InputChecks,
	range: LimitRange = GET_MANY_LIMIT,
): number {
	if (this.getNodeParameter('returnAll', checks.itemIndex, false) as boolean) return Infinity;
	return checks.integerInRange(
		'Limit',
		this.getNodeParameter('limit', checks.itemIndex, 50),
		range.min,
		range.max,
	);
}

/**
 * A request that changes something in the account: sent as POST, so values (passwords, notes)
 * stay out of URLs and logs, and marked as a write, so a lost answer is reported as "may have
 * been carried out" instead of inviting a blind retry.
 */
export async function sendWrite(
	this: IExecuteFunctions,
	service: string,
	params: IDataObject,
	itemIndex: number,
): Promise<VirtualnumAnswer> {
	return await virtualnumRequest.call(this, {
		service,
		params,
		method: 'POST',
		itemIndex,
		sideEffect: true,
	});
}

/** An operation's result as one object (first row of an array; a bare value under `result`). */
export function resultObject(result: unknown): IDataObject {
	if (Array.isArray(result)) return resultObject(result[0]);
	if (result !== null && typeof result === 'object') return result as IDataObject;
	return result === undefined || result === null || result === ''
		? {}
		: { result: result as string };
}

/**
 * The service's status text (`status.description`) in every output that passes it through. Not
 * `description`: on several operations the result has a field of that name (a number's description).
 */
export const STATUS_DESCRIPTION = 'statusDescription';

/**
 * Output of a write whose result body the spec does not show: what was asked (`echo`), then the
 * service's result fields (an object is spread, anything else kept as `result`), then its status text.
 */
export function writeOutput(answer: VirtualnumAnswer, echo: IDataObject): IDataObject {
	const result = answer.result;
	const fields = Array.isArray(result) ? { result: result as IDataObject[] } : resultObject(result);
	return { success: true, ...echo, ...fields, [STATUS_DESCRIPTION]: answer.status.description };
}

const CALL_ID = callField('callId');

/** The Call ID field (actions/fields.ts callIdField), required. */
export function readCallId(this: IExecuteFunctions, checks: InputChecks): string {
	return checks.required(
		CALL_ID.displayName,
		this.getNodeParameter('callUuid', checks.itemIndex, ''),
	);
}

/**
 * An operation's result about one call, under the vocabulary's name for its ID: `callId` first,
 * then the result without the service's own names for the ID (call_uuid, cdr_uniqueid).
 */
export function callIdOutput(callId: string, result: IDataObject = {}): IDataObject {
	const rest = { ...result };
	for (const name of [CALL_ID.column as string, 'call_uuid']) delete rest[name];
	return { [CALL_ID.key]: callId, ...rest };
}

/**
 * The answer of a call placement (its body is "not shown" in the spec). From version 1.1 the call's
 * ID is under the vocabulary's name, `callId` (the trigger's and Call Record's name for it), when the
 * answer has one; version 1 keeps the service's `call_uuid`, which its saved workflows read. The
 * service has been seen answering a status only (no ID): then no ID is output, and the status text is.
 */
export function placedCallOutput(
	this: IExecuteFunctions,
	result: IDataObject,
	answer?: VirtualnumAnswer,
): IDataObject {
	const id = result.call_uuid ?? result[CALL_ID.column as string];
	if (id === undefined || id === null || id === '') {
		const status = answer?.status.description;
		return status ? { ...result, [STATUS_DESCRIPTION]: status } : result;
	}
	return this.getNode().typeVersion < 1.1 ? result : callIdOutput(String(id), result);
}

/** The call's ID in a placement's output (either version), when the service answered one. */
export function placedCallId(output: IDataObject): string | undefined {
	const id = output[CALL_ID.key] ?? output.call_uuid ?? output[CALL_ID.column as string];
	return id === undefined || id === null || id === '' ? undefined : String(id);
}
