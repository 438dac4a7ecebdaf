/**
 * Fields several operations of the Bulk SMS node show (what the editor draws; their values are read
 * by the operations). Operations take these from here, never from each other.
 */
import type { INodeProperties } from 'n8n-workflow';

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
