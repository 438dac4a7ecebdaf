// Calls: the API's click-to-call operations and the control API's inbound calls share one
// simulation: checks, a call record (with a recording per record_percentage) and the number's
// callbacks at start and/or end.
import { createHmac } from 'node:crypto';
import { sendCallback } from '../callbacks.mts';
import type { CallbackHow } from '../callbacks.mts';
import type { Core } from '../core.mts';
import { PRIVATE_FIELDS } from '../state.mts';
import type { CallbackRecord, VnRecord } from '../state.mts';
import { digitsOnly, formatDateTime } from '../util.mts';
import { findBlock } from './blacklist.mts';
import type { CdrRow } from './cdrstore.mts';
import { ServiceError, findNumber, isValidVirtualnum } from './common.mts';
import type { OpHandler } from './common.mts';
import { isOpenAt } from './numbers.mts';

const LINK_SECRET = 'virtualnum-sandbox-click2call';

export function isValidPhone(text: string): boolean {
	return (
		/^\+?[\d\s-]+$/.test(text.trim()) &&
		digitsOnly(text).length >= 6 &&
		digitsOnly(text).length <= 15
	);
}

export interface SimulatedCall {
	record: VnRecord;
	caller: string;
	/** Who took the call (user_phone); default: the number's first destination. */
	destination?: string;
	status: string;
	durationSec: number;
	meta?: Record<string, string>;
}

function callPayload(
	row: CdrRow,
	event: 'call.start' | 'call.end',
	hasRecording: boolean,
): Record<string, string | number> {
	const payload: Record<string, string | number> = {
		event,
		call_uuid: row.cdr_uniqueid,
		cdr_ddi: row.cdr_ddi,
		cdr_ani: row.cdr_ani,
		user_phone: row.user_phone,
		user_name: row.user_name,
		start_call: row.start_call,
	};
	if (event === 'call.end') {
		payload.end_call = row.end_call;
		payload.call_duration = row.call_duration;
		payload.call_status = row.call_status;
		payload.record_file_exists = hasRecording ? 1 : 0;
	}
	if (row.cdr_meta_data) payload.cdr_meta_data = row.cdr_meta_data;
	return payload;
}

/**
 * The 'upper' style: the fields public integrations with the real service read — CLI (caller),
 * DDI (the virtual number), UUID (call ID), CALLSTATUS (STARTED at the start, the call's outcome
 * at the end), DURATION, DEST (who answered) and download (the recording's address).
 */
function upperPayload(
	core: Core,
	row: CdrRow,
	event: 'call.start' | 'call.end',
	hasRecording: boolean,
): Record<string, string | number> {
	const payload: Record<string, string | number> = {
		UUID: row.cdr_uniqueid,
		DDI: row.cdr_ddi,
		CLI: row.cdr_ani,
		DEST: row.user_phone,
		CALLSTATUS: event === 'call.start' ? 'STARTED' : row.call_status,
	};
	if (event === 'call.end') {
		payload.DURATION = row.call_duration;
		if (hasRecording) payload.download = recordingUrl(core, row);
	}
	return payload;
}

/** A number as the lower-case template's formatted fields show it: `050-1234567`. */
function formatted(phone: string): string {
	const digits = digitsOnly(phone);
	if (!digits.startsWith('0') || digits.length < 9) return digits;
	const split = digits.length === 9 ? 2 : 3;
	return `${digits.slice(0, split)}-${digits.slice(split)}`;
}

/** The lower-case template's call status: `NO ANSWER` with a space, the others as recorded. */
function lowerStatus(status: string): string {
	return status === 'NOANSWER' ? 'NO ANSWER' : status;
}

/**
 * The 'lower' template (the provider's, as integrators read it): cli, <word> (the dialled number),
 * destination, each also `_unformatted`; uuid; name and description (the number's description);
 * private_field1-10; at the end status, duration and recording (the recording's address).
 */
function lowerPayload(
	core: Core,
	record: VnRecord,
	row: CdrRow,
	event: 'call.start' | 'call.end',
	hasRecording: boolean,
): Record<string, string | number> {
	const word = core.field.word;
	const payload: Record<string, string | number> = {
		cli: formatted(row.cdr_ani),
		cli_unformatted: digitsOnly(row.cdr_ani),
		[word]: formatted(row.cdr_ddi),
		[`${word}_unformatted`]: digitsOnly(row.cdr_ddi),
		destination: formatted(row.user_phone),
		destination_unformatted: digitsOnly(row.user_phone),
		uuid: row.cdr_uniqueid,
		name: record.description,
		description: record.description,
	};
	for (const field of PRIVATE_FIELDS) payload[field] = record[field];
	if (event === 'call.end') {
		payload.status = lowerStatus(row.call_status);
		payload.duration = row.call_duration;
		if (hasRecording) payload.recording = recordingUrl(core, row);
	}
	return payload;
}

function recordingUrl(core: Core, row: CdrRow): string {
	return `${core.vnUrl}/api/?service=get_record_by_call_uuid&call_uuid=${encodeURIComponent(row.cdr_uniqueid)}`;
}

function payloadFor(
	core: Core,
	record: VnRecord,
	row: CdrRow,
	event: 'call.start' | 'call.end',
	hasRecording: boolean,
): Record<string, string | number> {
	if (core.is('callback-lower') || core.config.callbackStyle === 'lower')
		return lowerPayload(core, record, row, event, hasRecording);
	if (core.config.callbackStyle === 'upper') return upperPayload(core, row, event, hasRecording);
	return callPayload(row, event, hasRecording);
}

/**
 * Fires the number's callbacks for a call, per callback_url_option (1 start, 2 end, 3 both), in
 * order; the start one `callStartRepeats` times (integrators report repeated starts). In the
 * field profile ('callback-get') they are GETs with `?event=<word>` appended to the URL as text.
 */
export async function fireCallCallbacks(
	core: Core,
	record: VnRecord,
	row: CdrRow,
	events: Array<'call.start' | 'call.end'>,
): Promise<CallbackRecord[]> {
	if (!record.callback_url) return [];
	const option = record.callback_url_option || 2;
	const sent: CallbackRecord[] = [];
	const hasRecording = core.state.cdr.recordings.has(row.id);
	for (const event of events) {
		const wanted =
			event === 'call.start' ? option === 1 || option === 3 : option === 2 || option === 3;
		if (!wanted) continue;
		const payload = payloadFor(core, record, row, event, hasRecording);
		const word = event === 'call.start' ? core.field.eventWords.start : core.field.eventWords.end;
		// In the field the event travels in the appended word only, and the templates are GETs.
		const how: CallbackHow = { get: core.is('callback-lower') };
		if (core.is('callback-get')) {
			delete payload.event;
			Object.assign(how, { get: true, appendRaw: `?event=${word}` });
		}
		const times = event === 'call.start' ? (core.config.callStartRepeats ?? 1) : 1;
		for (let i = 0; i < times; i++)
			sent.push(await sendCallback(core, event, record.callback_url, payload, how));
	}
	return sent;
}

/** Writes the call record; the recording exists for answered calls per the number's record_percentage. */
export function recordCall(core: Core, call: SimulatedCall): CdrRow {
	const state = core.state;
	const start = new Date();
	const answered = call.status === 'ANSWER';
	const recording =
		answered &&
		call.record.record_percentage > 0 &&
		state.rng.calls.next() * 100 < call.record.record_percentage;
	const row = state.cdr.insert(
		{
			start_call: formatDateTime(start),
			end_call: formatDateTime(new Date(start.getTime() + call.durationSec * 1000)),
			call_duration: call.durationSec,
			cdr_ani: call.caller,
			cdr_ddi: call.record.virtualnum,
			user_phone: call.destination ?? call.record.default_dest ?? '',
			user_name: call.record.description,
			call_status: call.status,
			onetouch: '',
			cdr_meta_data:
				call.meta && Object.keys(call.meta).length > 0 ? JSON.stringify(call.meta) : '',
			gclid: '',
		},
		recording,
	);
	// The simulated call is over as soon as it is written: recordings count their delay from here.
	state.callEndedAt.set(row.id, Date.now());
	return row;
}

export interface PlaceCallInput {
	virtualnum: string;
	caller: string;
	answered?: boolean;
	/** The call's outcome; overrides `answered` (BUSY: the destination was busy). */
	status?: 'ANSWER' | 'NOANSWER' | 'BUSY';
	durationSec?: number;
}

/** A bare phone number as plain text (spaces, dashes and a leading + allowed), as digits; else ''. */
export function routingDestination(answer: string): string {
	const text = answer.trim();
	return /^\+?[\d\s-]+$/.test(text) && isValidPhone(text) ? digitsOnly(text) : '';
}

/**
 * Call routing by answer: the answer to the (first) start callback names where the call goes; the
 * call record's user_phone becomes that number, and the sandbox records what the answer named.
 */
function routeByAnswer(core: Core, record: VnRecord, row: CdrRow, start?: CallbackRecord): CdrRow {
	if (!start) return row;
	const answer = start.responseStatus === 200 ? start.responseBody.trim() : '';
	const destination = routingDestination(answer);
	if (destination !== '') core.state.cdr.setUserPhone(row.id, destination);
	const routed = destination !== '' ? { ...row, user_phone: destination } : row;
	core.state.routes.push({
		call_uuid: row.cdr_uniqueid,
		virtualnum: record.virtualnum,
		answer: answer.slice(0, 200),
		destination,
		routedTo: routed.user_phone,
	});
	return routed;
}

/**
 * An inbound call (control API). Blocked callers and suspended numbers are rejected before the call
 * flow starts (call record "Black List" / "NOT ACTIVE", no callbacks); outside working hours the
 * call goes to out_of_time_destination_phone, or ends as "OUT OF TIME".
 */
export async function placeInboundCall(
	core: Core,
	input: PlaceCallInput,
): Promise<{ call: CdrRow & { has_recording: boolean }; callbacks: CallbackRecord[] }> {
	const state = core.state;
	const record = findNumber(state, String(input.virtualnum ?? ''));
	if (!record) throw new Error(`${input.virtualnum} is not a number of the account`);
	const caller = digitsOnly(String(input.caller ?? ''));
	if (caller === '') throw new Error('caller is required');
	const duration = input.durationSec ?? state.rng.calls.int(20, 240);
	if (input.status !== undefined && !['ANSWER', 'NOANSWER', 'BUSY'].includes(input.status))
		throw new Error('status must be ANSWER, NOANSWER or BUSY');
	let status: string = input.status ?? (input.answered === false ? 'NOANSWER' : 'ANSWER');
	let destination: string | undefined;
	let flows = true;
	if (findBlock(state, caller, record.virtualnum)) {
		status = 'Black List';
		flows = false;
	} else if (record.active_status !== 1) {
		status = 'NOT ACTIVE';
		flows = false;
	} else if (!isOpenAt(record, new Date())) {
		if (record.out_of_time_destination_phone)
			destination = record.out_of_time_destination_phone.split(',')[0].trim();
		else status = 'OUT OF TIME';
	}
	if (!flows) destination = '';
	const row = recordCall(core, {
		record,
		caller,
		destination,
		status,
		durationSec: status === 'ANSWER' ? duration : 0,
	});
	if (!flows)
		return { call: { ...row, has_recording: state.cdr.recordings.has(row.id) }, callbacks: [] };
	const started = await fireCallCallbacks(core, record, row, ['call.start']);
	const routed = routeByAnswer(core, record, row, started[0]);
	const ended = await fireCallCallbacks(core, record, routed, ['call.end']);
	return {
		call: { ...routed, has_recording: state.cdr.recordings.has(row.id) },
		callbacks: [...started, ...ended],
	};
}

/** An API-placed call: answered, recorded per settings; callbacks run in the background. */
function placeApiCall(core: Core, call: Omit<SimulatedCall, 'status' | 'durationSec'>): CdrRow {
	const row = recordCall(core, {
		...call,
		status: 'ANSWER',
		durationSec: core.state.rng.calls.int(20, 240),
	});
	void fireCallCallbacks(core, call.record, row, ['call.start', 'call.end']);
	return row;
}

/** The contract's reading answers the call id; the field's ('call-no-id') only the status. */
function placedAnswer(core: Core, row: CdrRow): { description: string; result?: unknown } {
	if (core.is('call-no-id')) return { description: 'Call placed' };
	return { description: 'Success', result: { call_uuid: row.cdr_uniqueid } };
}

const createVirtualnumCall: OpHandler = ({ core, state, params }) => {
	const wanted = params.str('virtualnum');
	if (!isValidVirtualnum(wanted)) throw new ServiceError(3011, 'virtualnum is empty or invalid');
	if (!state.account.callsAllowed)
		throw new ServiceError(3012, 'Calls cannot be placed for this account');
	const record = findNumber(state, wanted);
	if (!record) throw new ServiceError(3016, `${wanted} does not exist in the account`);
	if (record.active_status !== 1) throw new ServiceError(3014, `${record.virtualnum} is suspended`);
	const destination = params.str('destination');
	// The spec lists no own code for a bad destination: it is a failed call placement.
	if (!isValidPhone(destination))
		throw new ServiceError(3015, 'Placing the call failed: destination is empty or invalid');
	if (findBlock(state, destination, record.virtualnum))
		throw new ServiceError(3013, `${digitsOnly(destination)} is blacklisted`);
	const row = placeApiCall(core, { record, caller: digitsOnly(destination) });
	return placedAnswer(core, row);
};

const V2_FIXED = new Set([
	'service',
	'format',
	'virtualnum',
	'virtualnum1',
	'virtualnum2',
	'destination1',
	'destination2',
]);

const createVirtualnumCallV2: OpHandler = ({ core, state, params }) => {
	const first = params.str('virtualnum1') || params.str('virtualnum');
	const second = params.str('virtualnum2') || first;
	if (!isValidVirtualnum(first) || !isValidVirtualnum(second))
		throw new ServiceError(3031, 'virtualnum1 (or virtualnum2) is empty or invalid');
	const destination1 = params.str('destination1');
	const destination2 = params.str('destination2');
	if (!isValidPhone(destination1) || !isValidPhone(destination2))
		throw new ServiceError(3032, 'destination1 and destination2 are required phone numbers');
	const record1 = findNumber(state, first);
	const record2 = findNumber(state, second);
	if (!record1 || !record2)
		throw new ServiceError(3036, `${!record1 ? first : second} does not exist in the account`);
	if (record1.active_status !== 1)
		throw new ServiceError(3034, `virtualnum1 ${record1.virtualnum} is suspended`);
	if (record2.active_status !== 1)
		throw new ServiceError(3037, `virtualnum2 ${record2.virtualnum} is suspended`);
	if (findBlock(state, destination1, record1.virtualnum))
		throw new ServiceError(3033, `destination1 ${digitsOnly(destination1)} is blacklisted`);
	if (findBlock(state, destination2, record2.virtualnum))
		throw new ServiceError(3038, `destination2 ${digitsOnly(destination2)} is blacklisted`);
	const now = new Date();
	if (!isOpenAt(record1, now) || !isOpenAt(record2, now))
		throw new ServiceError(3039, 'Outside the working hours of one of the numbers');
	if (!state.account.callsAllowed)
		throw new ServiceError(
			3035,
			'Placing the call failed: calls cannot be placed for this account',
		);
	// Every other parameter is stored on the call (cdr_meta_data, pixel_data).
	const meta = Object.fromEntries(
		Object.entries(params.all()).filter(([key]) => !V2_FIXED.has(key)),
	);
	const row = placeApiCall(core, {
		record: record1,
		caller: digitsOnly(destination1),
		destination: digitsOnly(destination2),
		meta,
	});
	return placedAnswer(core, row);
};

function signLink(fields: Record<string, string>): string {
	const text = ['virtualnum', 'destination', 'first_target', 'expires']
		.map((k) => fields[k])
		.join('|');
	return createHmac('sha256', LINK_SECRET).update(text).digest('hex');
}

const click2callLink: OpHandler = ({ core, state, params }) => {
	const wanted = params.str('virtualnum');
	if (!isValidVirtualnum(wanted)) throw new ServiceError(3017, 'virtualnum is empty or invalid');
	const destination = params.str('destination');
	if (!isValidPhone(destination)) throw new ServiceError(3018, 'destination is empty or invalid');
	const record = findNumber(state, wanted);
	if (!record) throw new ServiceError(3019, `${wanted} does not exist in the account`);
	if (record.active_status !== 1) throw new ServiceError(3020, `${record.virtualnum} is suspended`);
	if (findBlock(state, destination, record.virtualnum))
		throw new ServiceError(3021, `${digitsOnly(destination)} is blacklisted`);
	const days = params.int('expire_days');
	const expireDays = days === undefined || Number.isNaN(days) || days < 1 ? 365 : days;
	const fields: Record<string, string> = {
		virtualnum: record.virtualnum,
		destination: digitsOnly(destination),
		first_target: params.str('first_target') === 'virtualnum' ? 'virtualnum' : 'destination',
		expires: String(Math.floor(Date.now() / 1000) + expireDays * 86400),
	};
	const url = new URL('/click2call/', core.vnUrl);
	for (const [key, value] of Object.entries(fields)) url.searchParams.set(key, value);
	url.searchParams.set('signature', signLink(fields));
	return { result: { url: url.toString() } };
};

/** Opening a link: the signature and expiry are checked, but (as documented) no call is placed. */
export function openClick2CallLink(query: Record<string, string>): {
	status: number;
	text: string;
} {
	const fields = {
		virtualnum: query.virtualnum ?? '',
		destination: query.destination ?? '',
		first_target: query.first_target ?? '',
		expires: query.expires ?? '',
	};
	if (!query.signature || query.signature !== signLink(fields))
		return { status: 403, text: 'Invalid link signature' };
	if (Number(fields.expires) * 1000 < Date.now())
		return { status: 410, text: 'This link has expired' };
	return { status: 200, text: 'Click-to-call links are currently disabled: no call was placed.' };
}

export const callOps: Record<string, OpHandler> = {
	create_virtualnum_call: createVirtualnumCall,
	create_virtualnum_call_v2: createVirtualnumCallV2,
	click2call_link: click2callLink,
};
