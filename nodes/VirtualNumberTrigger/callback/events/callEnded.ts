/**
 * Call Ended: a call to one of the numbers ended (callback_url_option 2): who called, who
 * answered, the status, the duration and the recording, in the call vocabulary.
 */
import type { IDataObject } from 'n8n-workflow';

import { CALL_STATUSES } from '../../../shared/callFields';
import type { TriggerEvent, TriggerSettings } from '../../types';

/**
 * The statuses of a call nobody answered, as the service writes call_status (CALL_STATUSES):
 * the caller still waits for a call back. Not Answered, not Blacklisted (a caller the account
 * blocked) and not Number Not Active (the number was switched off).
 */
const UNANSWERED = ['No Answer', 'Busy', 'Caller Cancelled', 'Outside Working Hours'].map((name) =>
	String(CALL_STATUSES.find((status) => status.name === name)?.value),
);

/** A status as compared: case and spacing as the templates vary them (`NO ANSWER`, `noanswer`). */
const statusKey = (status: unknown) =>
	String(status ?? '')
		.replace(/\s+/g, '')
		.toUpperCase();
const UNANSWERED_KEYS = new Set(UNANSWERED.map(statusKey));

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
	// Unanswered Calls Only: a call without a status is not known to be missed, so it starts nothing.
	accepts: (item: IDataObject, settings: TriggerSettings) =>
		!settings.unansweredOnly || UNANSWERED_KEYS.has(statusKey(item.callStatus)),
};
