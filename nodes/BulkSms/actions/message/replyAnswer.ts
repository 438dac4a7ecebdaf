/**
 * The waiting node's side of Answer By: SMS Reply: its webhook, on the run's signed resume URL,
 * receives the reply the trigger's SMS Received relayed (nodes/shared/replyRelay.ts) and reads it
 * with the answers the URL carries (replyWait.ts). A matching reply, an opt-out (declined), an
 * unclear reply once the question was asked again, or a newer question to the same person resume
 * the run; an unclear reply with Ask Again When Unclear set is asked again once, and the run waits.
 *
 * n8n checks the URL's signature before calling this, so its query (numbers, answers, re-ask text)
 * is what the node set. The answer to the relay is JSON (`virtualnumRelay`), which the relay tells
 * apart from n8n's own "No action required" page; n8n sends it only once it has taken the resume.
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { messageOf } from '../../../shared/errors';
import { readAnswer } from '../../../shared/replies';
import { readRelayed, relayAnswer, type RelayedReply } from '../../../shared/replyRelay';
import { isSmsSent, sendSmsBatch } from '../../../shared/transport/smsApi';
import { REPLY_QUERY, VIA_SMS } from './replyWait';

/** Whether the resume URL is one whose answer comes by SMS reply. */
export function isReplyUrl(query: IDataObject): boolean {
	return query[REPLY_QUERY.via] === VIA_SMS;
}

function queryText(query: IDataObject, name: string): string {
	const value = query[name];
	return typeof value === 'string' ? value : '';
}

/** The answers the node set, as (value, replies) pairs; undefined for Free Text. */
function answersOf(query: IDataObject): Array<{ value: string; words: string[] }> | undefined {
	const text = queryText(query, REPLY_QUERY.answers);
	if (!text) return undefined;
	try {
		const pairs = JSON.parse(text) as string[][];
		return pairs.map(([value, ...words]) => ({ value, words }));
	} catch {
		return undefined;
	}
}

function refuse(context: IWebhookFunctions, status: number, text: string): IWebhookResponseData {
	const res = context.getResponseObject();
	res.status(status);
	res.setHeader('Content-Type', 'text/plain; charset=utf-8');
	res.send(text);
	return { noWebhookResponse: true };
}

function resume(data: IDataObject): IWebhookResponseData {
	return {
		webhookResponse: relayAnswer('resumed'),
		workflowData: [[{ json: { data: { ...data, respondedAt: new Date().toISOString() } } }]],
	};
}

/** What a reply means for the question, or 'unclear'. */
function readReply(query: IDataObject, reply: RelayedReply): IDataObject | 'unclear' {
	const base = { text: reply.text, respondedBy: reply.from };
	const answers = answersOf(query);
	if (reply.optOut)
		return answers
			? { outcome: 'optedOut', approved: false, answer: 'declined', optOut: true, ...base }
			: { outcome: 'optedOut', optOut: true, ...base };
	if (!answers)
		return reply.text.trim() ? { outcome: 'answered', answer: reply.text, ...base } : 'unclear';
	const answer = readAnswer(reply.text, answers);
	if (answer === undefined) return 'unclear';
	return { outcome: 'answered', approved: answer === 'approved', answer, ...base };
}

/** Sends the re-ask SMS; undefined when sent, else why not. */
async function askAgain(
	context: IWebhookFunctions,
	query: IDataObject,
	message: string,
): Promise<string | undefined> {
	try {
		const [result] = await sendSmsBatch.call(context, [
			{
				service: 'send_sms',
				dest: queryText(query, 'to'),
				sender: queryText(query, REPLY_QUERY.sender),
				message,
			},
		]);
		return isSmsSent(result) ? undefined : String(result.description ?? result.status);
	} catch (error) {
		return messageOf(error);
	}
}

export async function answerReply(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const req = this.getRequestObject();
	const query = (req.query ?? {}) as IDataObject;
	const relayed = req.method === 'POST' ? readRelayed(this.getBodyData()) : undefined;
	if (!relayed)
		return refuse(
			this,
			400,
			'This question is answered by an SMS reply to the number it came from.',
		);
	if (relayed.kind === 'superseded')
		return resume({
			outcome: 'superseded',
			supersededBy: relayed.by,
			respondedBy: queryText(query, 'to'),
		});
	const read = readReply(query, relayed);
	if (read !== 'unclear') return resume(read);
	const unclear = { outcome: 'unclear', text: relayed.text, respondedBy: relayed.from };
	const reask = queryText(query, REPLY_QUERY.reask);
	if (!reask || relayed.reasked) return resume(unclear);
	const failed = await askAgain(this, query, reask);
	// Not asked again: the run goes on rather than wait for an answer nobody was asked for.
	if (failed !== undefined) return resume({ ...unclear, reaskError: failed });
	return { webhookResponse: relayAnswer('reasked') };
}
