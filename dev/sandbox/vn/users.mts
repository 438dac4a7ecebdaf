// Users of the account, their number assignments and the access log. Passwords are kept only as a
// hash and never returned; deleting a user removes every token bound to it.
import type { State, User } from '../state.mts';
import { formatDateTime, internationalPhone, parseDateTime } from '../util.mts';
import { ServiceError, copy, findNumber } from './common.mts';
import type { OpHandler, Params } from './common.mts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The sandbox's password policy: at least 8 characters with at least one letter and one digit. */
export function passwordOk(password: string): boolean {
	return password.length >= 8 && /[A-Za-z]/.test(password) && /\d/.test(password);
}

function numberStatus(state: State, virtualnum: string): 'active' | 'inactive' | 'release' {
	const record = state.numbers.get(virtualnum);
	if (!record) return 'release';
	return record.active_status === 1 ? 'active' : 'inactive';
}

/** The user as returned: never the password. The spec spells the SMS phone both ways; both are given. */
export function userView(state: State, user: User): Record<string, unknown> {
	return {
		user_id: user.user_id,
		email: user.email,
		user_login: user.user_login,
		user_phone: user.user_phone,
		user_phone_sms: user.user_phone_sms,
		user_phone_smsms: user.user_phone_sms,
		user_status: user.user_status,
		create_time: user.create_time,
		timezone: user.timezone,
		language: user.language,
		date_format: user.date_format,
		permissions: copy(user.permissions),
		virtualnums: user.virtualnums.map((virtualnum) => ({
			virtualnum,
			status: numberStatus(state, virtualnum),
		})),
	};
}

/** A user_id that is absent or not an integer counts as missing. */
function userId(params: Params, missingCode: number): number {
	const id = params.int('user_id');
	if (id === undefined || Number.isNaN(id))
		throw new ServiceError(missingCode, 'user_id is required (an integer)');
	return id;
}

const setUser: OpHandler = ({ state, params }) => {
	const email = params.str('email');
	if (email === '' || email.length > 99 || !EMAIL.test(email))
		throw new ServiceError(7001, 'email is required: a valid address of at most 99 characters');
	const password = params.raw('password') ?? '';
	if (!passwordOk(password))
		throw new ServiceError(
			7002,
			'password must have at least 8 characters, with letters and digits',
		);
	if ([...state.users.values()].some((u) => u.email.toLowerCase() === email.toLowerCase())) {
		throw new ServiceError(
			7003,
			`User creation failed: a user with the email ${email} already exists`,
		);
	}
	const user = state.createUser({
		email,
		password,
		user_login: params.str('user_login'),
		user_phone: params.str('user_phone'),
		user_phone_sms: params.str('user_phone_sms'),
	});
	return { result: { user_id: user.user_id, email: user.email, user_login: user.user_login } };
};

const updateUser: OpHandler = ({ state, params }) => {
	const id = userId(params, 7011);
	const user = state.users.get(id);
	if (!user) throw new ServiceError(7012, `Update failed: no user ${id}`);
	const password = params.raw('password') ?? '';
	if (password !== '' && !passwordOk(password))
		throw new ServiceError(
			7013,
			'password must have at least 8 characters, with letters and digits',
		);
	const phone = params.str('user_phone');
	if (phone !== '' && phone.length < 6)
		throw new ServiceError(7012, 'Update failed: user_phone must have at least 6 characters');
	const status = params.int('user_status');
	if (status !== undefined && status !== 0 && status !== 1)
		throw new ServiceError(7012, 'Update failed: user_status must be 0 or 1');
	if (password !== '') user.passwordHash = state.hashPassword(password);
	if (phone !== '') user.user_phone = internationalPhone(phone);
	if (params.has('user_phone_sms'))
		user.user_phone_sms = internationalPhone(params.str('user_phone_sms'));
	if (status !== undefined) user.user_status = status;
	if (params.filled('user_login')) user.user_login = params.str('user_login');
	return { result: userView(state, user) };
};

const deleteUser: OpHandler = ({ state, params }) => {
	const id = userId(params, 7021);
	if (!state.users.has(id)) throw new ServiceError(7022, `No user ${id}`);
	state.users.delete(id);
	for (const [token, info] of state.tokens) if (info.userId === id) state.tokens.delete(token);
	return { result: { user_id: id, deleted: true } };
};

const getUserById: OpHandler = ({ state, params }) => {
	const id = userId(params, 7031);
	const user = state.users.get(id);
	if (!user) throw new ServiceError(7032, `No user ${id}`);
	return { result: userView(state, user) };
};

const getUsers: OpHandler = ({ state }) => {
	if (state.users.size === 0) throw new ServiceError(7041, 'No results');
	return { result: [...state.users.values()].map((u) => userView(state, u)) };
};

const setDdiToUser: OpHandler = ({ state, params }) => {
	const id = userId(params, 8001);
	if (!params.filled('virtualnum')) throw new ServiceError(8002, 'virtualnum is required');
	const user = state.users.get(id);
	if (!user) throw new ServiceError(8003, `No user ${id}`);
	const record = findNumber(state, params.str('virtualnum'));
	if (!record)
		throw new ServiceError(8004, `${params.str('virtualnum')} is not a number of the account`);
	if (user.virtualnums.includes(record.virtualnum))
		throw new ServiceError(8006, `${record.virtualnum} is already assigned to the user ${id}`);
	user.virtualnums.push(record.virtualnum);
	return { result: { user_id: id, virtualnum: record.virtualnum, permission: 'view_manage' } };
};

const getDdiByUserId: OpHandler = ({ state, params }) => {
	const id = userId(params, 8011);
	const user = state.users.get(id);
	if (!user || user.virtualnums.length === 0)
		throw new ServiceError(8012, `No results for the user ${id}`);
	return {
		result: user.virtualnums.map((virtualnum) => ({
			virtualnum,
			description:
				state.numbers.get(virtualnum)?.description ??
				state.released.get(virtualnum)?.record.description ??
				'',
			status: numberStatus(state, virtualnum),
		})),
	};
};

const deleteDdiFromUserId: OpHandler = ({ state, params }) => {
	const id = userId(params, 8021);
	if (!params.filled('virtualnum')) throw new ServiceError(8022, 'virtualnum is required');
	const user = state.users.get(id);
	if (!user) throw new ServiceError(8023, `No user ${id}`);
	const wanted = params.str('virtualnum');
	const number =
		findNumber(state, wanted)?.virtualnum ??
		user.virtualnums.find((n) => n === wanted.replace(/\D/g, ''));
	if (!number) throw new ServiceError(8024, `${wanted} does not exist`);
	const index = user.virtualnums.indexOf(number);
	if (index < 0) throw new ServiceError(8025, `${number} is not assigned to the user ${id}`);
	user.virtualnums.splice(index, 1);
	return { result: { user_id: id, virtualnum: number } };
};

const getUsersAccessLog: OpHandler = ({ state, params }) => {
	let rows = state.accessLog;
	const id = params.int('user_id');
	if (id !== undefined) rows = rows.filter((r) => r.access_log_user_id === id);
	const startText = params.str('start_time');
	const endText = params.str('end_time');
	if (startText !== '' || endText !== '') {
		const start = startText !== '' ? parseDateTime(startText) : new Date(0);
		// only start_time sent: the range ends now
		const end = endText !== '' ? parseDateTime(endText) : new Date();
		if (!start || !end)
			throw new ServiceError(
				6001,
				'No results: start_time and end_time use the format Y-m-d H:i:s',
			);
		const from = formatDateTime(start);
		const to = formatDateTime(end);
		rows = rows.filter((r) => r.access_log_time >= from && r.access_log_time <= to);
	}
	if (rows.length === 0) throw new ServiceError(6001, 'No results');
	const sorted = [...rows].sort((a, b) =>
		a.access_log_time < b.access_log_time ? 1 : a.access_log_time > b.access_log_time ? -1 : 0,
	);
	return { result: copy(sorted.slice(0, 1000)) };
};

export const userOps: Record<string, OpHandler> = {
	set_user: setUser,
	update_user: updateUser,
	delete_user: deleteUser,
	get_user_by_id: getUserById,
	get_users: getUsers,
	set_ddi_to_user: setDdiToUser,
	get_ddi_by_user_id: getDdiByUserId,
	delete_ddi_from_user_id: deleteDdiFromUserId,
	get_users_access_log: getUsersAccessLog,
};
