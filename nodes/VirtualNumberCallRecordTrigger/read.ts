/** One cdr_query statement of the trigger, sent and answered as rows. */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { asNodeError } from '../shared/errors';
import type { RequestContext } from '../shared/transport/http';
import { virtualnumRequest } from '../shared/transport/virtualnumApi';
import { resultRows } from '../shared/virtualnums';
import type { Settings } from './settings';
import { MAX_SQL_BYTES } from './statement';

export const NOT_MOVED =
	"Nothing was emitted and the trigger's position did not move: the next poll reads the same call records again.";

/** `active`: a failure of this read leaves the position where it was, and the error says so. */
export async function readRows(
	this: IPollFunctions,
	sql: string,
	settings: Settings,
	active = true,
): Promise<IDataObject[]> {
	const bytes = new TextEncoder().encode(sql).length;
	if (bytes > MAX_SQL_BYTES) {
		throw new NodeOperationError(this.getNode(), 'Too many numbers in the filters', {
			description:
				`The statement would be ${bytes} bytes; the service takes at most ${MAX_SQL_BYTES}. ` +
				'Filter on fewer numbers, or on none and filter in the workflow.',
		});
	}
	try {
		const answer = await virtualnumRequest.call(this as unknown as RequestContext, {
			service: 'cdr_query',
			// POST: a statement can exceed what a URL carries.
			method: 'POST',
			params: { sql },
			timeoutMs: settings.timeoutMs,
			credentials: settings.credentials,
			// The statement is built, so valid: 1013 can only mean "no results".
			noResultsAsEmpty: true,
		});
		return resultRows(answer.result);
	} catch (error) {
		if (error instanceof NodeApiError && active) {
			error.description = `${error.description ?? ''} ${NOT_MOVED}`.trim();
		}
		throw asNodeError(this.getNode(), error);
	}
}
