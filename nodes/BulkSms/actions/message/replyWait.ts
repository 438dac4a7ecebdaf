/**
 * Send and Wait for Response, Answer By: SMS Reply: the recipient answers by texting back, and the
 * reply reaches this run through the table of waiting runs (nodes/shared/replyWaits.ts), which the
 * trigger's SMS Received reads and relays from (nodes/shared/replyRelay.ts).
 *
 * Before the SMS goes out the run writes its row (recipient, sender number, its signed resume URL),
 * so that even the fastest reply finds it; a question the service refuses removes its row again.
 * Once sent, the rows of older runs that asked the same person from the same number are claimed
 * and those runs resumed as `superseded`: the person's next reply is this run's, and a run that
 * will never get an answer learns it at once rather than at its Limit Wait Time (when n8n goes on
 * with the node's input unchanged, and no code of the node runs to say why).
 *
 * What the webhook needs to read a reply (the answers and their replies, the re-ask text, the
 * numbers) travels in the resume URL's query, which n8n signs: the webhook reads it as the node set
 * it, expressions resolved on the item, and nobody can change it.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { InputChecks } from '../../../shared/checks';
import { messageOf } from '../../../shared/errors';
import { normalizeSmsSender } from '../../../shared/limits';
import { DEFAULT_COUNTRY_CODE, numberStyleOf, phoneIdentity } from '../../../shared/phones';
import { relayToRun } from '../../../shared/replyRelay';
import {
	addReplyWait,
	claimReplyWaits,
	openReplyWaits,
	removeExpiredReplyWaits,
	removeReplyWait,
	REPLY_WAITS_TABLE,
	type ReplyWait,
} from '../../../shared/replyWaits';
import { n8nApiOf, type N8nApi } from '../../../shared/transport/n8nApi';
import { SMS_CREDENTIAL } from '../../../shared/transport/smsApi';

/** The signed query of a resume URL whose answer comes by SMS reply. */
export const REPLY_QUERY = {
	via: 'via',
	sender: 'from',
	answers: 'answers',
	reask: 'reask',
} as const;
export const VIA_SMS = 'sms';

const DEFAULT_REPLIES = { approve: '1, כן, yes', decline: '2, לא, no' } as const;

/** The fields of this mode (shown with Answer By: SMS Reply), placed by the operation's description. */
export const replyFields: INodeProperties[] = [
	{
		displayName: 'Approve Replies',
		name: 'approveReplies',
		type: 'string',
		default: '1, כן, yes', // DEFAULT_REPLIES.approve (the lint rule wants a literal)
		description:
			'Replies that approve, comma-separated: a reply that starts with one of them, as whole words ' +
			'(case, punctuation, invisible characters and Hebrew points ignored), approves',
		displayOptions: { show: { answerBy: ['smsReply'], responseType: ['approval'] } },
	},
	{
		displayName: 'Decline Replies',
		name: 'declineReplies',
		type: 'string',
		default: '2, לא, no', // DEFAULT_REPLIES.decline
		description: 'Replies that decline, comma-separated, read as Approve Replies are',
		displayOptions: { show: { answerBy: ['smsReply'], responseType: ['approval'] } },
	},
];

/** The options of this mode, inside the operation's Options collection. */
export const replyOptions: INodeProperties[] = [
	{
		displayName: 'Ask Again When Unclear',
		name: 'reaskMessage',
		type: 'string',
		default: '',
		placeholder: 'e.g. Please reply 1 to approve or 2 to decline',
		description:
			'Sent once when a reply matches no answer (or is empty); the run then waits for the next ' +
			'reply. Empty: an unclear reply resumes the run at once with outcome "unclear".',
		displayOptions: { show: { '/answerBy': ['smsReply'], '/responseType': ['approval'] } },
	},
	{
		displayName: 'Waiting Replies Table',
		name: 'replyWaitsTable',
		type: 'string',
		default: REPLY_WAITS_TABLE,
		description:
			'The n8n Data Table that keeps the runs waiting for a reply, created when missing. The ' +
			"Virtual Number Trigger's SMS Received must name the same table.",
		displayOptions: { show: { '/answerBy': ['smsReply'] } },
	},
];

/** What the operation has read and checked of its fields, that this mode needs. */
export interface ReplyAsk {
	dest: string;
	sender: string;
	waitTill: Date;
	/** n8n-workflow's WAIT_INDEFINITELY: no row expiry. */
	indefinitely: boolean;
}

/** The answers of Approval as (value, replies) pairs; undefined for Free Text. */
function answersOf(this: IExecuteFunctions): string[][] | undefined {
	if (this.getNodeParameter('responseType', 0, 'approval') !== 'approval') return undefined;
	const words = (name: string, fallback: string) =>
		String(this.getNodeParameter(name, 0, fallback) ?? '')
			.split(/[,\n]/)
			.map((word) => word.trim())
			.filter(Boolean);
	return [
		['approved', ...words('approveReplies', DEFAULT_REPLIES.approve)],
		['declined', ...words('declineReplies', DEFAULT_REPLIES.decline)],
	];
}

/** Refuses a sender a reply cannot reach, before anything is written or sent. */
export function checkReplySender(check: InputChecks, senderText: string): void {
	const sender = normalizeSmsSender(senderText);
	if (sender?.kind === 'phone') return;
	check.fail(
		'Sender',
		'must be a phone number that receives SMS when the answer comes by SMS reply: a reply ' +
			'cannot be sent to a sender name (or a speed dial). Choose a verified phone number of the ' +
			"account, a virtual number whose incoming SMS reach the Virtual Number Trigger's SMS " +
			'Received; nothing was sent',
		senderText,
	);
}

function resumeUrl(this: IExecuteFunctions, ask: ReplyAsk): string {
	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	const answers = answersOf.call(this);
	const reask = answers ? String(options.reaskMessage ?? '').trim() : '';
	return this.getSignedResumeUrl({
		to: ask.dest,
		[REPLY_QUERY.via]: VIA_SMS,
		[REPLY_QUERY.sender]: ask.sender,
		...(answers ? { [REPLY_QUERY.answers]: JSON.stringify(answers) } : {}),
		...(reask ? { [REPLY_QUERY.reask]: reask } : {}),
	});
}

/** The country code the SMS credential reads local numbers in (a phone's identity depends on it). */
async function countryCode(this: IExecuteFunctions): Promise<string> {
	try {
		return numberStyleOf(await this.getCredentials(SMS_CREDENTIAL)).countryCode;
	} catch {
		// The send reports the credential's problem.
		return DEFAULT_COUNTRY_CODE;
	}
}

interface ReplyWaitHandle {
	api: N8nApi;
	table: string;
	wait: ReplyWait;
	rowId?: number;
}

/** Writes this run's row (after finding or creating the table): to call before the SMS is sent. */
export async function openReplyWait(
	this: IExecuteFunctions,
	ask: ReplyAsk,
): Promise<ReplyWaitHandle> {
	const api = await n8nApiOf.call(this);
	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	const table = String(options.replyWaitsTable ?? '').trim() || REPLY_WAITS_TABLE;
	await openReplyWaits.call(this, api, table);
	const code = await countryCode.call(this);
	const wait: ReplyWait = {
		phone: phoneIdentity(ask.dest, code),
		sender: phoneIdentity(ask.sender, code),
		resumeUrl: resumeUrl.call(this, ask),
		executionId: String(this.getExecutionId()),
		expiresAt: ask.indefinitely ? null : ask.waitTill.toISOString(),
		reasked: false,
	};
	const rowId = await addReplyWait.call(this, api, table, wait);
	return { api, table, wait, rowId };
}

/** The question was not sent: its row goes, so no reply is relayed to a run that is not waiting. */
export async function dropReplyWait(this: IExecuteFunctions, handle: ReplyWaitHandle) {
	if (handle.rowId === undefined) return;
	try {
		await removeReplyWait.call(this, handle.api, handle.table, handle.rowId);
	} catch (error) {
		// A reply to it would find a run no longer waiting, and pass on as an ordinary SMS.
		this.logger.warn(
			`Send and Wait: the unsent question's row could not be removed: ${messageOf(error)}`,
		);
	}
}

/**
 * After the SMS went out: the older runs waiting on this conversation (rows written before this
 * run's) are resumed as superseded, and rows whose runs stopped waiting are removed. Neither may
 * fail the run that asked: an older run not told waits until its own limit, as before.
 */
export async function supersedeOlderWaits(this: IExecuteFunctions, handle: ReplyWaitHandle) {
	const { api, table, wait, rowId } = handle;
	try {
		await removeExpiredReplyWaits.call(this, api, table);
		if (rowId === undefined) return;
		const older = await claimReplyWaits.call(this, api, table, wait, rowId);
		for (const row of older)
			await relayToRun.call(this, row.resumeUrl, { kind: 'superseded', by: wait.executionId });
	} catch (error) {
		this.logger.warn(
			`Send and Wait: older questions to the same person were not told: ${messageOf(error)}`,
		);
	}
}
