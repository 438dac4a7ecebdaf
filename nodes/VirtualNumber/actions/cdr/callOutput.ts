/**
 * The Simplify switch of the call-record operations: on, rows come out in the vocabulary of call
 * fields (shared/callFields.ts) as the trigger names them; off, the service's rows as they are.
 */
import type { INodeProperties } from 'n8n-workflow';

export const simplifyField: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description:
		'Whether to name the call fields as the Virtual Number Trigger does (callId, ' +
		'virtualNumber, callerNumber, destinationPhone, startTime, durationSec, ' +
		"…) instead of returning the service's raw fields (cdr_uniqueid, cdr_ddi, " +
		'cdr_ani, user_phone, start_call, call_duration, …)',
};

/** Whether the Simplify switch is on (on when not set: the default). */
export function simplifyOn(value: unknown): boolean {
	return value !== false;
}
