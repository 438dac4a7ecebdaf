// Virtual numbers: listing with paging and filters, the pool of available numbers, allocation,
// update, release and restore, with the validation codes of the spec's tables.
import { ALWAYS_OPEN, PRIVATE_FIELDS, VN_FIELDS } from '../state.mts';
import type { State, VnRecord } from '../state.mts';
import { digitsOnly, formatDateTime } from '../util.mts';
import { ServiceError, copy, findNumber, isValidVirtualnum } from './common.mts';
import type { OpHandler, Params } from './common.mts';

interface Codes {
	description: number;
	destination: number;
	privateBase: number;
	callbackUrl: number;
	callbackOption: number;
	dialOption: number;
	recordOption: number;
	timeout: number;
	expose: number;
	disallow: number;
}

const CREATE_CODES: Codes = {
	description: 4000,
	destination: 4001,
	privateBase: 4002,
	callbackUrl: 4007,
	callbackOption: 40010,
	dialOption: 40011,
	recordOption: 40012,
	timeout: 40013,
	expose: 40014,
	disallow: 40015,
};

// update has no own code for a too long callback_url: it is one of the "update failed" cases (4020).
const UPDATE_CODES: Codes = {
	description: 4010,
	destination: 4012,
	privateBase: 4013,
	callbackUrl: 4020,
	callbackOption: 4022,
	dialOption: 4023,
	recordOption: 4024,
	timeout: 4025,
	expose: 4026,
	disallow: 4027,
};

const TEXT_SETTINGS = [
	'email',
	'sms_destination_phone',
	'out_of_time_destination_phone',
	'greeting_in',
	'greeting_out',
	'ringback_tone',
] as const;

/** Comma separated destinations; each may carry +, spaces and dashes, 3-15 digits, or a *speed dial. */
export function validDestinations(text: string): boolean {
	if (text === '' || text.length > 150) return false;
	return text.split(',').every((part) => /^[+*]?\d{3,15}$/.test(part.trim().replace(/[\s-]/g, '')));
}

function rangeInt(
	params: Params,
	name: string,
	min: number,
	max: number,
	code: number,
): number | undefined {
	const value = params.int(name);
	if (value === undefined) return undefined;
	if (Number.isNaN(value) || value < min || value > max)
		throw new ServiceError(code, `${name} must be an integer from ${min} to ${max}`);
	return value;
}

function dialOption(params: Params, code: number): number | undefined {
	const text = params.str('dial_option');
	if (text === '') return undefined;
	const map: Record<string, number> = { '1': 1, ',': 1, '2': 2, ';': 2, '3': 3, ivr: 3 };
	const value = map[text.toLowerCase()];
	if (value === undefined)
		throw new ServiceError(
			code,
			'dial_option must be 1 or "," (simultaneous), 2 or ";" (sequential), 3 or "IVR"',
		);
	return value;
}

/** Reads and validates the settings a request sends; only those become part of the result. */
function readSettings(params: Params, codes: Codes): Partial<VnRecord> {
	const out: Partial<VnRecord> = {};
	const description = params.str('description');
	if (description === '' || description.length > 199) {
		throw new ServiceError(
			codes.description,
			'description is required and may have at most 199 characters',
		);
	}
	out.description = description;
	const destination = params.str('call_destination_phone');
	if (!validDestinations(destination)) {
		throw new ServiceError(
			codes.destination,
			'call_destination_phone is required: comma separated phone numbers, at most 150 characters',
		);
	}
	out.call_destination_phone = destination;
	out.default_dest = destination.split(',')[0].trim();
	for (const [index, field] of PRIVATE_FIELDS.entries()) {
		if (!params.has(field)) continue;
		const value = params.raw(field) ?? '';
		// five codes for ten fields: private_field1-2 -> first code, 3-4 -> second, ...
		if (value.length > 254)
			throw new ServiceError(
				codes.privateBase + Math.floor(index / 2),
				`${field} may have at most 254 characters`,
			);
		out[field] = value;
	}
	if (params.has('callback_url')) {
		const url = params.str('callback_url');
		if (url.length > 511)
			throw new ServiceError(codes.callbackUrl, 'callback_url may have at most 511 characters');
		out.callback_url = url;
	}
	const option = rangeInt(params, 'callback_url_option', 1, 3, codes.callbackOption);
	if (option !== undefined) out.callback_url_option = option;
	const dial = dialOption(params, codes.dialOption);
	if (dial !== undefined) out.dial_option = dial;
	const recordOption = rangeInt(params, 'record_option', 1, 3, codes.recordOption);
	if (recordOption !== undefined) out.record_option = recordOption;
	const timeout = rangeInt(params, 'dial_timeout_in_sec', 1, 180, codes.timeout);
	if (timeout !== undefined) out.dial_timeout_in_sec = timeout;
	const expose = rangeInt(params, 'expose', 1, 3, codes.expose);
	if (expose !== undefined) out.expose = expose;
	const disallow = rangeInt(params, 'disallow_callback', 0, 2, codes.disallow);
	if (disallow !== undefined) out.disallow_callback = disallow;
	// record_percentage has no error code: out-of-range values are clamped to 0-100.
	const percentage = params.int('record_percentage') ?? params.int('record_presantge');
	if (percentage !== undefined && !Number.isNaN(percentage))
		out.record_percentage = Math.min(100, Math.max(0, percentage));
	const active = params.int('active_status');
	if (active === 0 || active === 1) out.active_status = active;
	for (const field of TEXT_SETTINGS) if (params.has(field)) out[field] = params.str(field);
	// The spec's warning: a pattern that is not exactly 168 characters is silently not saved.
	const hours = params.str('working_hours');
	if (hours.length === 168 && /^[01]+$/.test(hours)) out.working_hours = hours;
	return out;
}

// ---- get_virtualnum ------------------------------------------------------------------------------

const OPERATORS = new Set(['EQ', 'NE', 'LT', 'GT', 'LIKE']);

function compare(a: string, b: string): number {
	const na = Number(a);
	const nb = Number(b);
	if (a.trim() !== '' && b.trim() !== '' && !Number.isNaN(na) && !Number.isNaN(nb)) return na - nb;
	return a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0;
}

function likeRegex(pattern: string): RegExp {
	const body = pattern
		.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
		.replace(/%/g, '.*')
		.replace(/_/g, '.');
	return new RegExp(`^${body}$`, 'is');
}

function matches(value: string, operator: string, wanted: string): boolean {
	switch (operator) {
		case 'NE':
			return compare(value, wanted) !== 0;
		case 'LT':
			return compare(value, wanted) < 0;
		case 'GT':
			return compare(value, wanted) > 0;
		case 'LIKE':
			return likeRegex(wanted).test(value);
		default:
			return compare(value, wanted) === 0; // MySQL's default collation: case-insensitive
	}
}

const getVirtualnum: OpHandler = ({ state, params }) => {
	const wanted = params.str('virtualnum');
	if (wanted !== '') {
		const record = findNumber(state, wanted);
		if (!record)
			throw new ServiceError(4031, `No results: ${wanted} is not a number of the account`);
		return { result: [copy(record)] };
	}
	const filterName = params.str('filter_name');
	if (filterName !== '') {
		if (!(VN_FIELDS as string[]).includes(filterName))
			throw new ServiceError(
				4030,
				`filter_name "${filterName}" is not a field of the virtual number record`,
			);
		const operator = (params.str('filter_operator') || 'EQ').toUpperCase();
		if (!OPERATORS.has(operator))
			throw new ServiceError(4030, 'filter_operator must be EQ, NE, LT, GT or LIKE');
		const value = params.raw('filter_value') ?? '';
		const rows = [...state.numbers.values()].filter((r) =>
			matches(String(r[filterName as keyof VnRecord]), operator, value),
		);
		if (rows.length === 0) throw new ServiceError(4031, 'No results');
		return { result: copy(rows) };
	}
	const status = params.int('status');
	const wantedStatus = status === 0 ? 0 : 1;
	const page = Math.max(0, params.int('page') || 0);
	const rawLimit = params.int('limit');
	const limit =
		rawLimit === undefined || Number.isNaN(rawLimit)
			? 1000
			: rawLimit <= 0 || rawLimit > 10000
				? 10000
				: rawLimit;
	const rows = [...state.numbers.values()]
		.filter((r) => r.active_status === wantedStatus)
		.slice(page * limit, page * limit + limit);
	if (rows.length === 0) throw new ServiceError(4031, 'No results');
	return { result: copy(rows) };
};

// ---- pool and allocation -------------------------------------------------------------------------

const getAvailableVirtualnum: OpHandler = ({ state, params }) => {
	const amount = params.int('amount');
	const count =
		amount === undefined || Number.isNaN(amount) || amount <= 0 ? 5 : Math.min(amount, 50);
	const prefix = digitsOnly(params.str('prefix'));
	const part = digitsOnly(params.str('virtualnum'));
	const pool = state.sortedPool();
	if (pool.length === 0) throw new ServiceError(4050, 'No available numbers');
	let rows = pool;
	if (prefix !== '') {
		rows = rows.filter((n) => n.startsWith(prefix));
		if (rows.length === 0)
			throw new ServiceError(4051, `No available numbers with the prefix ${prefix}`);
	} else if (part !== '') {
		rows = rows.filter((n) => n.includes(part));
		if (rows.length === 0) throw new ServiceError(4050, `No available numbers containing ${part}`);
	}
	return { result: rows.slice(0, count).map((virtualnum) => ({ virtualnum })) };
};

function allocate(state: State, params: Params): string {
	const requested = digitsOnly(params.str('virtualnum'));
	if (requested !== '') {
		if (!state.pool.has(requested))
			throw new ServiceError(4008, `Allocating the number failed: ${requested} is not available`);
		return requested;
	}
	const prefix = digitsOnly(params.str('prefix'));
	const number = state.sortedPool().find((n) => n.startsWith(prefix));
	if (!number)
		throw new ServiceError(
			4009,
			prefix
				? `Allocating a number failed: no available number with the prefix ${prefix}`
				: 'Allocating a number failed: the pool is empty',
		);
	return number;
}

const createVirtualnum: OpHandler = ({ state, params }) => {
	const settings = readSettings(params, CREATE_CODES);
	const number = allocate(state, params);
	state.pool.delete(number);
	state.released.delete(number); // allocated anew: no longer a released number of the account
	const record = state.newRecord(number, { ...settings, create_time: formatDateTime(new Date()) });
	state.numbers.set(number, record);
	return { result: copy(record) };
};

/** What update_virtualnum can set; the rest (virtualnum, create_time, extenstion) the service sets. */
const SETTABLE: Array<keyof VnRecord> = [
	'description',
	'call_destination_phone',
	'default_dest',
	...PRIVATE_FIELDS,
	'callback_url',
	'callback_url_option',
	'dial_option',
	'record_option',
	'dial_timeout_in_sec',
	'expose',
	'disallow_callback',
	'record_percentage',
	'active_status',
	...TEXT_SETTINGS,
	'working_hours',
];

/** The field profile's update: every settable field not sent goes back to what create would set. */
function clearedSettings(state: State, number: string): Partial<VnRecord> {
	const fresh = state.newRecord(number);
	return Object.fromEntries(SETTABLE.map((field) => [field, fresh[field]])) as Partial<VnRecord>;
}

const updateVirtualnum: OpHandler = ({ core, state, params }) => {
	const wanted = params.str('virtualnum');
	if (digitsOnly(wanted).length < 5)
		throw new ServiceError(4011, 'virtualnum is required (at least 5 digits)');
	if (!isValidVirtualnum(wanted)) throw new ServiceError(4018, `Invalid number: ${wanted}`);
	const record = findNumber(state, wanted);
	if (!record) throw new ServiceError(4019, `${wanted} is not a number of the account`);
	const settings = readSettings(params, UPDATE_CODES);
	if (core.is('update-replaces')) Object.assign(record, clearedSettings(state, record.virtualnum));
	Object.assign(record, settings);
	return { result: copy(record) };
};

const releaseVirtualnum: OpHandler = ({ state, params }) => {
	const wanted = params.str('virtualnum');
	if (wanted === '') throw new ServiceError(4040, 'virtualnum is required');
	if (!isValidVirtualnum(wanted)) throw new ServiceError(4043, `Invalid number: ${wanted}`);
	const record = findNumber(state, wanted);
	if (!record) throw new ServiceError(4041, `${wanted} does not exist in the account`);
	const number = record.virtualnum;
	state.numbers.delete(number);
	state.pool.add(number);
	const releasedAt = formatDateTime(new Date());
	state.released.set(number, { record, releasedAt, reallocated: false });
	// Per-number blocks and tag memberships go with the number; global blocks and user
	// assignments stay (get_ddi_by_user_id then reports the number as "release").
	for (let i = state.blacklist.length - 1; i >= 0; i--)
		if (state.blacklist[i].virtualnum === number) state.blacklist.splice(i, 1);
	for (const tag of state.tags.values()) tag.members.delete(number);
	return { result: { virtualnum: number, release_time: releasedAt } };
};

const restoreVirtualnum: OpHandler = ({ state, params }) => {
	const wanted = params.str('virtualnum');
	if (wanted === '') throw new ServiceError(4040, 'virtualnum is required');
	if (!isValidVirtualnum(wanted)) throw new ServiceError(4041, `Invalid number: ${wanted}`);
	const number = digitsOnly(wanted);
	if (state.numbers.has(number))
		throw new ServiceError(4043, `${number} is already active in the account`);
	const released = state.released.get(number);
	if (!released)
		throw new ServiceError(4042, `${number} is not registered as released from the account`);
	if (released.reallocated || !state.pool.has(number))
		throw new ServiceError(4044, `${number} cannot be restored: it was allocated again`);
	state.pool.delete(number);
	state.released.delete(number);
	const record = { ...released.record, active_status: 1 };
	state.numbers.set(number, record);
	return { result: copy(record) };
};

export const numberOps: Record<string, OpHandler> = {
	get_virtualnum: getVirtualnum,
	get_available_virtualnum: getAvailableVirtualnum,
	create_virtualnum: createVirtualnum,
	update_virtualnum: updateVirtualnum,
	release_virtualnum: releaseVirtualnum,
	restore_virtualnum: restoreVirtualnum,
};

/** Working hours: 168 characters, one per hour of the week from Sunday 00:00 (local), '1' open. */
export function isOpenAt(record: VnRecord, date: Date): boolean {
	const hours = record.working_hours.length === 168 ? record.working_hours : ALWAYS_OPEN;
	return hours[date.getDay() * 24 + date.getHours()] === '1';
}
