/** Resource-locator searches of the Virtual Number node. */
import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { searchVirtualnums } from '../../shared/virtualnums';
import { getAvailableVirtualnums } from '../actions/virtualnum/available';
import { VN_LIMITS } from '../../shared/limits';
import { digitsOf } from '../../shared/phones';
import { searchPrompts } from './promptSearch';
import { searchTagNames, searchTags } from './tagSearch';
import { searchUsers } from './userSearch';

/** The pool of available numbers, by the digits typed (get_available_virtualnum allocates nothing). */
async function searchAvailableVirtualnums(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const digits = digitsOf(filter);
	const rows = await getAvailableVirtualnums.call(this, {
		virtualnum: digits,
		amount: VN_LIMITS.availableAmount.max,
	});
	return {
		results: rows.map((row) => ({ name: String(row.virtualnum), value: String(row.virtualnum) })),
	};
}

export const listSearch = {
	searchVirtualnums,
	searchAvailableVirtualnums,
	searchUsers,
	searchTags,
	searchTagNames,
	searchPrompts,
};
