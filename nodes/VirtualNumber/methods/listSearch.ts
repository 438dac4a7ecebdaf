/** Resource-locator searches of the Virtual Number node. */
import { searchAvailableVirtualnums, searchVirtualnums } from '../../shared/virtualnums';

export const listSearch = { searchVirtualnums, searchAvailableVirtualnums };
