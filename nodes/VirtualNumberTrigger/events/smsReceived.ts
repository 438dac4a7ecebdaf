/**
 * SMS Received: a number that can receive SMS got one. The service calls the URL set on that
 * number with `from`, `to`, `msg` and `time` (`Y-m-d H:i:s`) and expects a 200 (GET as integrators
 * report it; POST is read the same way). Nothing is registered on the service (no callbackOption):
 * the user pastes the trigger's Production URL where the number's SMS URL is set.
 */
import type { IDataObject } from 'n8n-workflow';

import type { TriggerEvent, TriggerSettings } from '../types';

/** Replies by which a sender asks to receive no more messages (English and Hebrew). */
export const OPT_OUT_DEFAULT = 'STOP, הסר, הסרה';

/** Keywords as the user typed them, comma- or line-separated, compared case-insensitively. */
export function keywordsOf(text: string): string[] {
	return text
		.split(/[,\n]+/)
		.map((word) => word.trim().toLocaleLowerCase())
		.filter(Boolean);
}

/** The message's first word, without the punctuation around it (`Stop!` → `stop`). */
function firstWord(text: unknown): string {
	const word =
		String(text ?? '')
			.trim()
			.split(/\s+/)[0] ?? '';
	return word.replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, '').toLocaleLowerCase();
}

export const smsReceived: TriggerEvent = {
	key: 'smsReceived',
	name: 'sms.received',
	option: {
		name: 'SMS Received',
		value: 'smsReceived',
		description: 'One of the numbers received an SMS: who sent it, to which number, and the text',
	},
	words: ['smsreceived', 'smsin', 'inboundsms', 'incomingsms', 'mo'],
	read: (fields, settings?: TriggerSettings) => {
		const text = fields.pick(['msg', 'message', 'text', 'body']);
		const optOut = settings?.optOutKeywords ?? keywordsOf(OPT_OUT_DEFAULT);
		const item: IDataObject = {
			from: fields.pick(['from', 'sender']),
			to: fields.pick(['to', 'virtualnum', 'recipient']),
			text,
			// The time the service received it, as it sends it (`Y-m-d H:i:s`, the service's clock).
			receivedAt: fields.pick(['time', 'received_at', 'date']),
			optOut: text !== null && optOut.includes(firstWord(text)),
		};
		return item;
	},
	// With Keywords set, only messages whose first word is one of them start the workflow; opt-outs
	// always do, so a workflow can honour them.
	accepts: (item, settings) =>
		settings.keywords.length === 0 ||
		item.optOut === true ||
		settings.keywords.includes(firstWord(item.text)),
};
