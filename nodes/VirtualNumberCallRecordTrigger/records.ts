/** A row of webserviceview as the trigger's item: the call vocabulary (shared/callFields.ts). */
import type { IDataObject } from 'n8n-workflow';

import { CALL_FIELDS, callValue, type CallField, type CallFieldKey } from '../shared/callFields';
import { addCallTimesWithOffset } from '../shared/dates';
import { ROW_ID, rowIdValue } from './cursor';
import { ROW_ID_TEXT } from './statement';

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

/**
 * The row id as digits, which the cursor needs: the statement's text copy of it, else `id` while
 * it is an exact number. Undefined when the row has none (or one rounded past 2^53).
 */
export function rowIdOf(row: IDataObject): string | undefined {
	const copy = row[ROW_ID_TEXT];
	if (copy !== undefined && copy !== null) {
		const digits = String(copy).trim();
		return ROW_ID.test(digits) && digits !== '0' ? digits : undefined;
	}
	const id = typeof row.id === 'string' ? row.id.trim() : row.id;
	if (typeof id === 'number') return Number.isSafeInteger(id) && id > 0 ? String(id) : undefined;
	return typeof id === 'string' && ROW_ID.test(id) && id !== '0' ? id : undefined;
}

/**
 * One row as an item: `event`, then every call field of the view under its name (null when empty),
 * then `startedAt` / `endedAt`: the call times with the offset of the service's `zone`.
 */
export function recordItem(row: IDataObject, zone: string): IDataObject {
	const item: IDataObject = { event: RECORD_EVENT };
	for (const field of VIEW_FIELDS)
		item[field.key] = valueOf(field.key as CallFieldKey, row[field.column as string]);
	const rowId = rowIdOf(row);
	if (rowId !== undefined) item.rowId = rowIdValue(rowId);
	item.startedAt = null;
	item.endedAt = null;
	return addCallTimesWithOffset(item, zone, true);
}
