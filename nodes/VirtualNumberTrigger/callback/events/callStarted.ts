/**
 * Call Started: a call to one of the numbers started (callback_url_option 1). Its fields are the
 * call vocabulary's; the option "Call Started Once per Call" is this event's alone, so its memory
 * of the call IDs seen lives here. Route Call, the answer to its callback, is ../routeCall.ts.
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import type { TriggerEvent } from '../../types';

export const callStarted: TriggerEvent = {
	key: 'callStarted',
	name: 'call.started',
	option: {
		name: 'Call Started',
		value: 'callStarted',
		description: 'A call to one of the numbers started: who is calling which number',
	},
	words: ['start', 'started', 'callstart', 'callstarted', 'begin', 'ring', 'ringing', 'incoming'],
	callbackOption: 1,
	read: (fields) => fields.call(),
};

/**
 * Call statuses (letters only, lower-case) that mean the call is starting (CALLSTATUS=STARTED);
 * any other status (ENDED, ANSWER, NOANSWER, BUSY, …) is a call's outcome, so the call ended.
 */
const STARTING_STATUSES = new Set([
	'started',
	'start',
	'ringing',
	'ring',
	'incoming',
	'new',
	'dialing',
	'calling',
	'inprogress',
]);

export function isStartingStatus(letters: string): boolean {
	return STARTING_STATUSES.has(letters);
}

/*
 * "Call Started Once per Call": the call IDs whose start already started the workflow, kept in the
 * node's static data (the last hour, at most 1,000). n8n reads the static data from the database
 * when a callback arrives and saves it after the webhook answered (LiveWebhooks), in whichever
 * process received the callback (queue mode: a webhook processor). So a repeat that arrives after
 * the first one was saved is recognised in any process; two copies handled at the same instant
 * (two processes, or one before the other's save) can both pass, and concurrent saves of the
 * whole static data can lose an entry. For a strict guarantee, n8n's Remove Duplicates node keeps
 * its records in the database per item.
 */
const WINDOW_MS = 60 * 60 * 1000;
const MAX_KEPT = 1000;

type Seen = [callId: string, receivedAtMs: number];

function isSeen(entry: unknown): entry is Seen {
	return Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'number';
}

/** True (and remembered) the first time a call ID's start arrives within the window. */
export function isFirstCallStart(context: IWebhookFunctions, callId: string, now: number): boolean {
	const data = context.getWorkflowStaticData('node') as IDataObject;
	const saved = Array.isArray(data.callStartsSeen) ? (data.callStartsSeen as unknown[]) : [];
	const recent = saved.filter(isSeen).filter(([, at]) => now - at >= 0 && now - at < WINDOW_MS);
	if (recent.some(([id]) => id === callId)) return false;
	// A new array, so n8n sees the change and saves it.
	data.callStartsSeen = [...recent.slice(-(MAX_KEPT - 1)), [callId, now]];
	return true;
}
