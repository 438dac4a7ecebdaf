/** Resource-locator list of the account's users (get_users), filtered on login, email or id. */
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { virtualnumRequest } from '../../shared/transport/virtualnumApi';

export async function searchUsers(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const answer = await virtualnumRequest.call(this, {
		service: 'get_users',
		noResultsAsEmpty: true,
	});
	const users = Array.isArray(answer.result) ? (answer.result as IDataObject[]) : [];
	const needle = (filter ?? '').trim().toLowerCase();
	const results = users
		.map((user) => ({
			id: String(user.user_id ?? ''),
			login: String(user.user_login ?? ''),
			email: String(user.email ?? ''),
			inactive: String(user.user_status ?? '1') === '0',
		}))
		.filter((user) => user.id !== '')
		.filter(
			(user) =>
				!needle ||
				user.id === needle ||
				user.login.toLowerCase().includes(needle) ||
				user.email.toLowerCase().includes(needle),
		)
		.map((user) => ({
			name:
				(user.login || user.email) +
				(user.email && user.login ? ` — ${user.email}` : '') +
				(user.inactive ? ' (inactive)' : ''),
			value: user.id,
		}));
	return { results };
}
