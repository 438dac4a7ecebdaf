/** A row of webserviceview as the trigger's item: the call vocabulary (shared/callFields.ts). */
import type { IDataObject } from 'n8n-workflow';

import { CALL_FIELDS, callValue, type CallField, type CallFieldKey } from '../shared/callFields';
import { addCallTimesWithOffset } from '../shared/dates';

/** The event of every item, beside the Virtual Number Trigger's call.started / call.ended. */
const RECORD_EVENT = 'call.record';

const VIEW_FIELDS = (CALL_FIELDS as readonly CallField[]).filter(
	(field) => field.column !== undefined,
);

function present(value: unknown): boolean {
	return value !== undefined && value !== null && value !== '';
}

/** Empty values as null, so every item has every field; the rest as the vocabulary reads them. */
function valueOf(key: CallFieldKey, value: unknown): IDataObject[string] {
	if (key !== 'recordingExists' && !present(value)) return null;
	return callValue(key, value as IDataObject[string]);
}

/** The row id, which the cursor needs; undefined when the row has none that is a whole number. */
export function rowIdOf(row: IDataObject): number | undefined {
	const id = Number(String(row.id ?? '').trim());
	return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/**
 * One row as an item: `event`, then every call field of the view under its name (null when empty),
 * then `startedAt` / `endedAt`: the call times with the offset of the service's `zone`.
 */
export function recordItem(row: IDataObject, zone: string): IDataObject {
	const item: IDataObject = { event: RECORD_EVENT };
	for (const field of VIEW_FIELDS)
		item[field.key] = valueOf(field.key as CallFieldKey, row[field.column as string]);
	item.startedAt = null;
	item.endedAt = null;
	return addCallTimesWithOffset(item, zone, true);
}
