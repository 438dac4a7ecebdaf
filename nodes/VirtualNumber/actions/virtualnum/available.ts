/**
 * The pool of available numbers (get_available_virtualnum, which allocates nothing): Get Available
 * and the Available Number list.
 */
import type { IDataObject } from 'n8n-workflow';

import type { RequestContext } from '../../../shared/transport/http';
import { virtualnumRequest } from '../../../shared/transport/virtualnumApi';

/** Available numbers as records (a bare number becomes `{ virtualnum }`); none when the pool has none (4050, 4051). */
export async function getAvailableVirtualnums(
	this: RequestContext,
	params: { amount: number; prefix?: string; virtualnum?: string },
	itemIndex?: number,
): Promise<IDataObject[]> {
	const answer = await virtualnumRequest.call(this, {
		service: 'get_available_virtualnum',
		params,
		itemIndex,
		noResultsAsEmpty: true,
	});
	const result = answer.result;
	const list: unknown[] = Array.isArray(result)
		? result
		: result === undefined || result === null
			? []
			: [result];
	return list.map((row) =>
		row !== null && typeof row === 'object' ? (row as IDataObject) : { virtualnum: String(row) },
	);
}
