// Events the control API makes happen on the service's side: an inbound SMS sent to a number's
// URL, and new call rows appearing in cdr_query whether or not a callback reached anyone.
import { sendCallback } from './callbacks.mts';
import type { Core } from './core.mts';
import type { CallbackRecord } from './state.mts';
import { digitsOnly, formatDateTime, parseDateTime } from './util.mts';
import type { CdrRow } from './vn/cdrstore.mts';
import { findNumber } from './vn/common.mts';

export interface InboundSmsInput {
	/** The number that receives the SMS (an active number of the account). */
	virtualnum: string;
	/** The sender's phone number. */
	from: string;
	text: string;
	/** `Y-m-d H:i:s`; default now (local time). */
	time?: string;
	/** Where to send it; default the number's callback_url (the contract names no other URL). */
	url?: string;
}

/**
 * An inbound SMS as the provider's help pages describe it: GET with `from`, `to`, `msg` and `time`
 * (`Y-m-d H:i:s`) added to the URL set on the number; the service expects a 200 answer.
 */
export async function fireInboundSms(core: Core, input: InboundSmsInput): Promise<CallbackRecord> {
	const record = findNumber(core.state, String(input.virtualnum ?? ''));
	if (!record) throw new Error(`${input.virtualnum} is not a number of the account`);
	if (record.active_status !== 1) throw new Error(`${record.virtualnum} is suspended`);
	const from = digitsOnly(String(input.from ?? ''));
	if (from === '') throw new Error('from is required');
	const url = String(input.url ?? record.callback_url ?? '').trim();
	if (url === '') throw new Error(`${record.virtualnum} has no callback_url and no url was given`);
	const time = input.time ?? formatDateTime(new Date());
	if (!/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(time))
		throw new Error('time must be Y-m-d H:i:s');
	const payload = { from, to: record.virtualnum, msg: String(input.text ?? ''), time };
	return sendCallback(core, 'sms.inbound', url, payload, { get: true });
}

export interface AddCallsInput {
	/** How many rows (default 1, at most 10,000). */
	count?: number;
	/** The number called (default the first number of the account). */
	virtualnum?: string;
	/** The caller (default 0501234000 + the row's position). */
	caller?: string;
	/** ANSWER (default), NOANSWER, BUSY, … as the call_status column holds it. */
	status?: string;
	durationSec?: number;
	/** Seconds between the start times of the rows (default 1). */
	stepSec?: number;
	/** Start of the first row, `Y-m-d H:i:s` (default: so that the last row starts now). */
	startCall?: string;
	/** Default true for answered calls. */
	hasRecording?: boolean;
}

/** The newest start time in the store, so new rows start after every existing one. */
function newestStart(core: Core): number {
	const rows = core.state.cdr.select('SELECT MAX(start_call) AS newest FROM webserviceview');
	const newest = rows[0]?.newest;
	return typeof newest === 'string' ? (parseDateTime(newest)?.getTime() ?? 0) : 0;
}

/**
 * New call rows, as calls that happened since the last look: ids rise (the store's sequence) and
 * start times rise, each at least one second after the newest row already there. No callback.
 */
export function addCalls(core: Core, input: AddCallsInput): CdrRow[] {
	const state = core.state;
	const count = Number(input.count ?? 1);
	if (!Number.isInteger(count) || count < 1 || count > 10_000)
		throw new Error('count must be a whole number from 1 to 10,000');
	const step = Number(input.stepSec ?? 1);
	if (!(step >= 1)) throw new Error('stepSec must be >= 1');
	const number = input.virtualnum
		? findNumber(state, String(input.virtualnum))
		: [...state.numbers.values()][0];
	if (!number) throw new Error(`${input.virtualnum} is not a number of the account`);
	const status = String(input.status ?? 'ANSWER');
	const requested = input.startCall ? parseDateTime(String(input.startCall)) : undefined;
	if (input.startCall && !requested) throw new Error('startCall must be Y-m-d H:i:s');
	const wanted = requested?.getTime() ?? Date.now() - (count - 1) * step * 1000;
	let start = Math.max(wanted, newestStart(core) + 1000);
	const rows: CdrRow[] = [];
	for (let i = 0; i < count; i++) {
		const duration = status === 'ANSWER' ? Number(input.durationSec ?? 60) : 0;
		const row = state.cdr.insert(
			{
				start_call: formatDateTime(new Date(start)),
				end_call: formatDateTime(new Date(start + duration * 1000)),
				call_duration: duration,
				cdr_ani: digitsOnly(String(input.caller ?? '')) || String(501234000 + i).padStart(10, '0'),
				cdr_ddi: number.virtualnum,
				user_phone: number.default_dest,
				user_name: number.description,
				call_status: status,
				onetouch: '',
				cdr_meta_data: '',
				gclid: '',
			},
			input.hasRecording ?? status === 'ANSWER',
		);
		state.callEndedAt.set(row.id, Date.now());
		rows.push(row);
		start += step * 1000;
	}
	return rows;
}
