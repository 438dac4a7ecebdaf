/** Reads a call's metadata sections for Get Metadata and Get Transcript (parsing: shared/transcript.ts). */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import { virtualnumRequest } from '../../../shared/transport/virtualnumApi';
import { readCallId, resultObject } from '../../helpers/utils';

/** The call ID of the item (the Call ID field) and the call's metadata sections as the service gives them. */
export async function readCallMetadata(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<{ callId: string; metadata: IDataObject }> {
	const callId = readCallId.call(this, new InputChecks(this.getNode(), itemIndex));
	const answer = await virtualnumRequest.call(this, {
		service: 'get_cdr_metadata_by_call_uuid',
		params: { call_uuid: callId },
		itemIndex,
	});
	return { callId, metadata: resultObject(answer.result) };
}
