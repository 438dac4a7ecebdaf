/**
 * What several operations of the Bulk SMS node share: field definitions, their readers, and the
 * reading of the sender list. Operations take these from here, never from each other.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { InputChecks } from '../../shared/checks';
import { normalizeSmsSender, SMS_SENDER_RULES } from '../../shared/limits';
import { phoneTextSource } from '../../shared/phones';

// ---- Phone sender (Request Phone Verification, Verify Phone Sender) ---------------------------

export function phoneSenderField(description: string, hint?: string): INodeProperties {
	return {
		displayName: 'Phone Number',
		name: 'phoneSender',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 0501234567',
		description,
		...(hint ? { hint } : {}),
	};
}

/** A phone sender (digits or *XXXX) from a field, or the item's error. */
export function readPhoneSender(check: InputChecks, field: string, value: unknown): string {
	const text = check.required(field, value);
	const sender = normalizeSmsSender(text);
	if (!sender || sender.kind === 'text')
		check.fail(field, `is not valid: ${SMS_SENDER_RULES.phone}`, text);
	return sender.value;
}

// ---- Sender (Send, Send and Wait for Response) ------------------------------------------------

/** The Sender picker: an approved sender name or a verified phone number, from the account's list. */
export function senderField(description: string): INodeProperties {
	return {
		displayName: 'Sender',
		name: 'sender',
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a sender...',
				typeOptions: { searchListMethod: 'searchSenders', searchable: true },
			},
			{
				displayName: 'By Name or Number',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. MyShop or 0501234567',
				validation: [
					{
						type: 'regex',
						properties: {
							regex: `^\\s*([A-Za-z][A-Za-z0-9_-]{2,10}|\\*\\d{4}|${phoneTextSource()})\\s*$`,
							errorMessage:
								'A sender name is 3-11 characters (Latin letter first, then a-z A-Z 0-9 ' +
								'_ -); a phone sender is a number or *XXXX',
						},
					},
				],
			},
		],
	};
}

// ---- Sender list (Sender → List, and Send's sender picker) ------------------------------------

/** The sender items of a get_sender_list answer (none when it holds no list). */
export function senderList(answer: IDataObject): IDataObject[] {
	return Array.isArray(answer.senders) ? (answer.senders as IDataObject[]) : [];
}
