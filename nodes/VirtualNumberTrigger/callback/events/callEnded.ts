/**
 * Call Ended: a call to one of the numbers ended (callback_url_option 2): who called, who
 * answered, the status, the duration and the recording, in the call vocabulary.
 */
import type { TriggerEvent } from '../../types';

export const callEnded: TriggerEvent = {
	key: 'callEnded',
	name: 'call.ended',
	option: {
		name: 'Call Ended',
		value: 'callEnded',
		description:
			'A call to one of the numbers ended: who called, who answered, status and duration',
	},
	// `hangup` is the word the service appends to the callback URL (`?event=hangup`).
	words: ['end', 'ended', 'callend', 'callended', 'hangup', 'complete', 'completed', 'finished'],
	callbackOption: 2,
	read: (fields) => fields.call(),
};
