/**
 * SMS Received: a number that can receive SMS got one. The service calls the URL set on that
 * number with `from`, `to`, `msg` and `time` (`Y-m-d H:i:s`) and expects a 200 (GET as integrators
 * report it; POST is read the same way). Nothing is registered on the service (no callbackOption):
 * the user pastes the trigger's Production URL where the number's SMS URL is set.
 */
import type { IDataObject } from 'n8n-workflow';

import { OPT_OUT_DEFAULT, phrasesOf, readRefusal, startsWithPhrase } from '../../../shared/replies';
import type { TriggerEvent, TriggerSettings } from '../../types';

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
		// The message exactly as the person sent it (spaces and all); only the matching reads it loosely.
		const text = fields.pickAsSent(['msg', 'message', 'text', 'body']);
		const refusal = readRefusal(text, settings?.optOutKeywords ?? phrasesOf(OPT_OUT_DEFAULT));
		const item: IDataObject = {
			from: fields.pick(['from', 'sender']),
			to: fields.pick(['to', 'virtualnum', 'recipient']),
			text,
			// The time the service received it, as it sends it (`Y-m-d H:i:s`, the service's clock).
			receivedAt: fields.pick(['time', 'received_at', 'date']),
			optOut: refusal.optOut,
		};
		// A message that may be a refusal: the workflow can send it to a person.
		if (refusal.review) Object.assign(item, { optOutReview: true, optOutReason: refusal.review });
		return item;
	},
	// With Keywords set, only messages starting with one of them start the workflow; opt-outs,
	// and messages a person should read for one, always do, so none is lost.
	accepts: (item, settings) =>
		settings.keywords.length === 0 ||
		item.optOut === true ||
		item.optOutReview === true ||
		startsWithPhrase(item.text, settings.keywords),
};
