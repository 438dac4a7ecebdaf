/**
 * Outputs of the call-record operations in the vocabulary of call fields (shared/callFields.ts):
 * the Simplify switch, and rows of webserviceview or a manual record under the names the trigger
 * uses. Simplify off gives the service's rows as they are.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import {
	CALL_FIELDS,
	keyOfColumn,
	type CallField,
	type CallFieldKey,
} from '../../../shared/callFields';

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

const NUMBERS: readonly CallFieldKey[] = ['durationSec', 'rowId'];

type Value = IDataObject[string];

function valueOf(key: CallFieldKey, value: Value): Value {
	if (key === 'recordingExists')
		return (
			value !== undefined &&
			value !== null &&
			value !== '' &&
			value !== 0 &&
			value !== '0' &&
			value !== false
		);
	if (NUMBERS.includes(key) && typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim()))
		return Number(value);
	return value;
}

/**
 * Rows under the vocabulary's names: a key that is a column of webserviceview becomes its field
 * name (cdr_uniqueid → callId); any other key (an alias, COUNT(*)) stays as the service named it,
 * and so does a column whose field name the row already has (an alias called callId wins). The
 * renaming is planned once per set of names: every row of an answer has the same.
 */
export function simplifyCallRows(rows: IDataObject[]): IDataObject[] {
	let names: string[] = [];
	let plan: Array<{ from: string; to: string; key?: CallFieldKey }> = [];
	return rows.map((row) => {
		const current = Object.keys(row);
		if (current.length !== names.length || current.some((name, i) => name !== names[i])) {
			names = current;
			plan = current.map((from) => {
				const key = keyOfColumn(from);
				return key === undefined || key in row ? { from, to: from } : { from, to: key, key };
			});
		}
		const out: IDataObject = {};
		for (const { from, to, key } of plan)
			out[to] = key === undefined ? row[from] : valueOf(key, row[from]);
		return out;
	});
}

/** One row under the vocabulary's names (see simplifyCallRows). */
export function simplifyCallRow(row: IDataObject): IDataObject {
	return simplifyCallRows([row])[0];
}

/** The parameters of create_virtualnum_cdr under the vocabulary's names. */
export function simplifyManualParams(params: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const field of CALL_FIELDS as readonly CallField[]) {
		if (field.manualParam !== undefined && params[field.manualParam] !== undefined) {
			out[field.key] = valueOf(field.key as CallFieldKey, params[field.manualParam]);
		}
	}
	return out;
}
