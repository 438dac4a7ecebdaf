/**
 * What several operations of the Bulk SMS node share at run time: the reading of a phone sender and
 * of the sender list (the fields themselves are in actions/fields.ts). Operations take these from
 * here, never from each other.
 */
import type { IDataObject } from 'n8n-workflow';

import type { InputChecks } from '../../shared/checks';
import { normalizeSmsSender, SMS_SENDER_RULES } from '../../shared/limits';

/** A phone sender (digits or *XXXX) from a field, or the item's error. */
export function readPhoneSender(check: InputChecks, field: string, value: unknown): string {
	const text = check.required(field, value);
	const sender = normalizeSmsSender(text);
	if (!sender || sender.kind === 'text')
		check.fail(field, `is not valid: ${SMS_SENDER_RULES.phone}`, text);
	return sender.value;
}

// ---- Sender list (Sender → List, and Send's sender picker) ------------------------------------

/** The sender items of a get_sender_list answer (none when it holds no list). */
export function senderList(answer: IDataObject): IDataObject[] {
	return Array.isArray(answer.senders) ? (answer.senders as IDataObject[]) : [];
}
