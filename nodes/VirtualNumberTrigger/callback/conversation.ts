/**
 * SMS Received in a conversation: what the trigger does with a received SMS for a workflow that
 * talks with its sender (Look Up in Data Tables), once the service has been answered:
 * - Runs Waiting for This Reply: a reply to a Bulk SMS Send and Wait (Answer By: SMS Reply) is
 *   relayed to the run that asked (shared/replyRelay.ts); it then starts this workflow only when it
 *   is an opt-out, which the workflow must still record. A reply nobody waits for goes on as an
 *   ordinary SMS Received.
 * - Senders Who Opted Out: `optedOut` says whether the sender is in the workflow's table of
 *   opted-out numbers, written in any of a number's forms.
 *
 * n8n gives a webhook no Data Table helper (and serves its in-process one to its own nodes only),
 * so both go through n8n's public API with the n8n API credential (shared/n8nTables.ts). A look-up
 * that fails never loses the SMS: it starts the workflow, saying what could not be done.
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { messageOf } from '../../shared/errors';
import { findRows } from '../../shared/n8nTables';
import {
	DEFAULT_COUNTRY_CODE,
	digitsOf,
	numberStyleOf,
	phoneForms,
	phoneIdentity,
} from '../../shared/phones';
import { relayReply } from '../../shared/replyRelay';
import { n8nApiOf, type N8nApi } from '../../shared/transport/n8nApi';
import { logLine } from '../secret';
import type { ConversationSettings, TriggerSettings } from '../types';

/** The country code local numbers are read in: the credential's, as Bulk SMS reads its own. */
function countryCode(credentials: IDataObject | undefined): string {
	return credentials ? numberStyleOf(credentials).countryCode : DEFAULT_COUNTRY_CODE;
}

/**
 * The phone identity of the one the item is a conversation with (an SMS's sender, a call's
 * caller): one form for every spelling, e.g. a memory key or a deduplication key.
 */
export function withConversationKey(
	item: IDataObject,
	credentials: IDataObject | undefined,
): IDataObject {
	const who = 'callerNumber' in item ? item.callerNumber : item.from;
	const digits = digitsOf(who);
	if (!('from' in item) && !('callerNumber' in item)) return item;
	return {
		...item,
		conversationKey: digits ? phoneIdentity(digits, countryCode(credentials)) : null,
	};
}

function warn(context: IWebhookFunctions, message: string) {
	logLine(context.logger, 'warn', message);
}

/** Whether the sender is in the opted-out numbers table, in any of the forms a number is written in. */
async function isOptedOut(
	context: IWebhookFunctions,
	api: N8nApi,
	optOuts: NonNullable<ConversationSettings['optOuts']>,
	item: IDataObject,
	key: string,
): Promise<boolean> {
	const forms = new Set([key, String(item.from ?? '')]);
	for (const form of phoneForms(digitsOf(item.from))) forms.add(form);
	const rows = await findRows(
		context,
		api,
		{
			name: optOuts.table,
			columns: [{ name: optOuts.column, type: 'string' }],
			create: false,
			purpose:
				'holds the numbers that opted out: set its name and column in the Virtual Number ' +
				"Trigger's Options (Opted-Out Numbers Table and Column)",
		},
		[...forms].filter(Boolean).map((form) => [optOuts.column, 'eq', form]),
		1,
		'look up the sender among the opted-out numbers',
	);
	return rows.length > 0;
}

/** The item with `optedOut` (null when the table could not be read, with a log line). */
async function withOptedOut(
	context: IWebhookFunctions,
	api: N8nApi,
	optOuts: NonNullable<ConversationSettings['optOuts']>,
	item: IDataObject,
	key: string,
): Promise<IDataObject> {
	try {
		return { ...item, optedOut: await isOptedOut(context, api, optOuts, item, key) };
	} catch (error) {
		warn(context, `could not look up the sender among the opted-out numbers: ${messageOf(error)}`);
		return { ...item, optedOut: null, optedOutError: messageOf(error) };
	}
}

/**
 * The reply relayed to the run waiting for it: undefined when a run took it and it is no opt-out
 * (nothing more starts), else the item to start the workflow with (`waitingRun` saying which run
 * took an opt-out, or why a run could not be reached).
 */
async function relayed(
	context: IWebhookFunctions,
	api: N8nApi,
	table: string,
	item: IDataObject,
	key: string,
	credentials: IDataObject | undefined,
): Promise<IDataObject | undefined> {
	const sender = phoneIdentity(digitsOf(item.to), countryCode(credentials));
	const reply = {
		from: String(item.from ?? ''),
		to: String(item.to ?? ''),
		text: String(item.text ?? ''),
		receivedAt: String(item.receivedAt ?? ''),
		optOut: item.optOut === true,
	};
	let result;
	try {
		result = await relayReply.call(context, api, table, { phone: key, sender }, reply);
	} catch (error) {
		warn(context, `could not look for a run waiting for this reply: ${messageOf(error)}`);
		return { ...item, waitingRun: { error: messageOf(error) } };
	}
	if ('nobody' in result) return item;
	if ('failed' in result) {
		const { executionId, reason } = result.failed;
		warn(
			context,
			`a reply for the waiting execution ${executionId} could not be relayed: ${reason}`,
		);
		return { ...item, waitingRun: { executionId, error: reason } };
	}
	const { executionId, answer } = result.relayed;
	return reply.optOut ? { ...item, waitingRun: { executionId, relayed: answer } } : undefined;
}

/**
 * The SMS Received item after the look-ups: undefined when the SMS answered a waiting run (the
 * workflow does not start), else the item to start it with.
 */
export async function converse(
	this: IWebhookFunctions,
	settings: TriggerSettings,
	received: IDataObject,
	credentials: IDataObject | undefined,
): Promise<IDataObject | undefined> {
	const conversation = settings.conversation ?? {};
	const keyed = withConversationKey(received, credentials);
	// Versions before 1.2 keep their items' shape: the key is only used for the look-ups.
	const item = settings.conversationKeys ? keyed : received;
	let api: N8nApi;
	try {
		api = await n8nApiOf.call(this);
	} catch (error) {
		warn(this, `the n8n API credential could not be read: ${messageOf(error)}`);
		return { ...item, lookUpError: messageOf(error) };
	}
	const key = String(keyed.conversationKey ?? '');
	let current: IDataObject | undefined = item;
	if (conversation.replyWaits)
		current = await relayed(this, api, conversation.replyWaits, item, key, credentials);
	if (current && conversation.optOuts)
		current = await withOptedOut(this, api, conversation.optOuts, current, key);
	return current;
}
