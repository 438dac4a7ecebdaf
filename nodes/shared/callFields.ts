/**
 * The one vocabulary of call fields. Every output that describes a call (the trigger's call
 * events, Query's simplified rows, Create Manual Record) uses these names, and every reader of
 * the service's names (the view `webserviceview`, create_virtualnum_cdr's parameters, callback
 * fields) looks them up here.
 *
 * `destinationPhone` is always the phone the call was sent to and answered on (`user_phone` in
 * the view, `cdr_destination` of a manual record); the virtual number that was dialled is
 * `virtualNumber`.
 */
import type { IDataObject, INodePropertyOptions } from 'n8n-workflow';

export interface CallField {
	/** The name in this package's outputs (camelCase, never a name n8n refuses in expressions). */
	key: string;
	/** The name in the user's words. */
	displayName: string;
	/** The column of the view webserviceview (cdr_query), when there is one. */
	column?: string;
	/** The parameter of create_virtualnum_cdr, when there is one. */
	manualParam?: string;
	/** Names a callback may carry it under, lower-case, most specific first. */
	callbackNames: readonly string[];
}

export const CALL_FIELDS = [
	{
		key: 'callId',
		displayName: 'Call ID',
		column: 'cdr_uniqueid',
		callbackNames: ['call_uuid', 'cdr_uniqueid', 'uniqueid', 'uuid', 'call_id', 'callid'],
	},
	{
		key: 'virtualNumber',
		displayName: 'Virtual Number',
		column: 'cdr_ddi',
		manualParam: 'cdr_ddi',
		callbackNames: ['cdr_ddi', 'ddi', 'virtualnum', 'did', 'virtual_number'],
	},
	{
		key: 'callerNumber',
		displayName: 'Caller Number',
		column: 'cdr_ani',
		manualParam: 'cdr_ani',
		callbackNames: ['cdr_ani', 'ani', 'cli', 'caller', 'caller_id', 'callerid', 'from'],
	},
	{
		key: 'destinationPhone',
		displayName: 'Destination Phone',
		column: 'user_phone',
		manualParam: 'cdr_destination',
		callbackNames: ['user_phone', 'dest', 'destination', 'dest_phone', 'answered_by', 'to'],
	},
	{
		key: 'numberDescription',
		displayName: 'Number Description',
		column: 'user_name',
		callbackNames: ['user_name', 'description'],
	},
	{
		key: 'callStatus',
		displayName: 'Call Status',
		column: 'call_status',
		callbackNames: ['call_status', 'callstatus'],
	},
	{
		key: 'startTime',
		displayName: 'Call Start',
		column: 'start_call',
		manualParam: 'cdr_start_call',
		callbackNames: ['start_call', 'start_time'],
	},
	{
		key: 'endTime',
		displayName: 'Call End',
		column: 'end_call',
		callbackNames: ['end_call', 'end_time'],
	},
	{
		key: 'durationSec',
		displayName: 'Duration (Seconds)',
		column: 'call_duration',
		manualParam: 'cdr_totac_sec',
		callbackNames: ['call_duration', 'callduration', 'duration'],
	},
	{
		key: 'recordingExists',
		displayName: 'Recording Exists',
		column: 'record_file_exists',
		callbackNames: ['record_file_exists'],
	},
	{
		key: 'recordingUrl',
		displayName: 'Recording URL',
		callbackNames: ['download', 'recording_url', 'record_url'],
	},
	{
		key: 'agentRating',
		displayName: 'Agent Rating',
		column: 'onetouch',
		callbackNames: ['onetouch'],
	},
	{
		key: 'marketingMetadata',
		displayName: 'Marketing Metadata',
		column: 'cdr_meta_data',
		manualParam: 'cdr_metadata',
		callbackNames: ['cdr_meta_data'],
	},
	{ key: 'adClickId', displayName: 'Ad Click ID', column: 'gclid', callbackNames: ['gclid'] },
	{ key: 'rowId', displayName: 'Row ID', column: 'id', callbackNames: [] },
] as const satisfies readonly CallField[];

/** The spec's enumerated call_status values, in the user's words. */
export const CALL_STATUSES: INodePropertyOptions[] = [
	{ name: 'Answered', value: 'ANSWER' },
	{ name: 'Blacklisted', value: 'Black List' },
	{ name: 'Busy', value: 'BUSY' },
	{ name: 'Caller Cancelled', value: 'CALLER CANCEL' },
	{ name: 'No Answer', value: 'NOANSWER' },
	{ name: 'Number Not Active', value: 'NOT ACTIVE' },
	{ name: 'Outside Working Hours', value: 'OUT OF TIME' },
];

export type CallFieldKey = (typeof CALL_FIELDS)[number]['key'];

/** A field by its key. */
export function callField(key: CallFieldKey): CallField {
	return CALL_FIELDS.find((field) => field.key === key) as CallField;
}

/** The vocabulary name of a webserviceview column (undefined for columns it does not know, e.g. aliases). */
function keyOfColumn(column: string): CallFieldKey | undefined {
	const lower = column.toLowerCase();
	return CALL_FIELDS.find((field) => 'column' in field && field.column === lower)?.key;
}

const NUMBERS: readonly CallFieldKey[] = ['durationSec', 'rowId'];

type Value = IDataObject[string];

/** A value of the service under the vocabulary: `recordingExists` as true/false, counts as numbers. */
export function callValue(key: CallFieldKey, value: Value): Value {
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
 * Rows of webserviceview under the vocabulary's names: a key that is a column of webserviceview becomes its field
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
			out[to] = key === undefined ? row[from] : callValue(key, row[from]);
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
			out[field.key] = callValue(field.key as CallFieldKey, params[field.manualParam]);
		}
	}
	return out;
}
