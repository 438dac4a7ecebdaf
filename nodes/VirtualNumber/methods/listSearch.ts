/** Resource-locator searches of the Virtual Number node. */
import { searchAvailableVirtualnums, searchVirtualnums } from '../../shared/virtualnums';
import { searchPrompts } from './promptSearch';
import { searchTagNames, searchTags } from './tagSearch';
import { searchUsers } from './userSearch';

export const listSearch = {
	searchVirtualnums,
	searchAvailableVirtualnums,
	searchUsers,
	searchTags,
	searchTagNames,
	searchPrompts,
};
