/** A number record as a model reads it when the node is an AI agent's tool (Get and Get Many). */
import type { IDataObject } from 'n8n-workflow';

import { pickFields } from '../../../shared/asTool';

/** The fields of a number record that matter to a model (the rest are settings such as working hours). */
const TOOL_FIELDS = [
	'virtualnum',
	'description',
	'active_status',
	'call_destination_phone',
	'out_of_time_destination_phone',
	'sms_destination_phone',
	'email',
	'extenstion',
	'create_time',
];

/** In a tool: the number record's fields that matter, when they hold something. */
export function toolOutput(json: IDataObject): IDataObject {
	return pickFields(json, TOOL_FIELDS);
}
