// Blacklist: blocks global to the account or bound to one number. Numbers are normalised (formatting
// dropped, 972 prefix to 0) before they are stored, compared or searched.
import type { BlacklistEntry, State } from '../state.mts';
import { formatDateTime, normalizePhone } from '../util.mts';
import { ServiceError, copy, findNumber } from './common.mts';
import type { OpHandler } from './common.mts';

/** The block that stops `caller` from reaching (or being called from) `virtualnum`, if any. */
export function findBlock(
	state: State,
	caller: string,
	virtualnum: string,
): BlacklistEntry | undefined {
	const number = normalizePhone(caller);
	if (number === '') return undefined;
	return state.blacklist.find(
		(e) => e.caller_number === number && (e.virtualnum === '' || e.virtualnum === virtualnum),
	);
}

const getBlacklist: OpHandler = ({ state, params }) => {
	const caller = normalizePhone(params.str('caller_number'));
	let rows = state.blacklist;
	if (caller !== '') {
		rows = rows.filter((e) => e.caller_number.endsWith(caller));
		// virtualnum narrows the search only together with caller_number
		const virtualnum = params.str('virtualnum');
		if (virtualnum !== '')
			rows = rows.filter(
				(e) => e.virtualnum === normalizePhone(virtualnum) || e.virtualnum === virtualnum,
			);
	}
	if (rows.length === 0) throw new ServiceError(2001, 'No results');
	return { result: copy(rows) };
};

const addNumberToBlacklist: OpHandler = ({ state, params }) => {
	const caller = normalizePhone(params.str('caller_number'));
	if (caller === '')
		throw new ServiceError(2021, 'caller_number is required and must contain digits');
	let virtualnum = '';
	if (params.filled('virtualnum')) {
		const record = findNumber(state, params.str('virtualnum'));
		// the block row references the number: inserting one for a foreign number fails
		if (!record)
			throw new ServiceError(
				2023,
				`Insert failed: ${params.str('virtualnum')} is not a number of the account`,
			);
		virtualnum = record.virtualnum;
	}
	if (state.blacklist.some((e) => e.caller_number === caller && e.virtualnum === virtualnum)) {
		throw new ServiceError(
			2022,
			`${caller} is already in the blacklist${virtualnum ? ` of ${virtualnum}` : ''}`,
		);
	}
	const entry: BlacklistEntry = {
		caller_number: caller,
		virtualnum,
		note: params.str('note').slice(0, 149),
		create_time: formatDateTime(new Date()),
	};
	state.blacklist.push(entry);
	return { result: copy(entry) };
};

const removeNumberFromBlacklist: OpHandler = ({ state, params }) => {
	const text = params.str('caller_number');
	// formatting characters are allowed, letters are not
	if (text === '' || !/^[\d\s+\-().]+$/.test(text) || normalizePhone(text) === '') {
		throw new ServiceError(2011, 'caller_number is required and must be numeric');
	}
	const caller = normalizePhone(text);
	const virtualnum = params.filled('virtualnum') ? normalizePhone(params.str('virtualnum')) : '';
	const index = state.blacklist.findIndex(
		(e) => e.caller_number === caller && e.virtualnum === virtualnum,
	);
	if (index < 0) {
		const bound = !virtualnum && state.blacklist.some((e) => e.caller_number === caller);
		throw new ServiceError(
			2012,
			bound
				? `${caller} is only blocked for a virtual number: send virtualnum to remove it`
				: `${caller} was not found in the blacklist`,
		);
	}
	const [removed] = state.blacklist.splice(index, 1);
	return { result: copy(removed) };
};

export const blacklistOps: Record<string, OpHandler> = {
	get_blacklist: getBlacklist,
	add_number_to_blacklist: addNumberToBlacklist,
	remove_number_from_blacklist: removeNumberFromBlacklist,
};
