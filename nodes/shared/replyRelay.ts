/**
 * Relaying an SMS reply to the run waiting for it: a POST to the run's signed resume URL, which n8n
 * routes to the waiting Bulk SMS node's webhook (nodes/BulkSms/actions/message/replyAnswer.ts).
 * Both ends of the exchange are defined here: what the relay sends, and how the node answers in a
 * form the relay can tell apart from n8n's own answers (read in n8n 2.40.7's WaitingWebhooks):
 * - the node's JSON `{ virtualnumRelay: … }`: the run resumed, or asked again and still waits;
 * - 409 "is running already": the run has not finished putting itself to wait (a reply faster than
 *   n8n's save), or another resume is under way: asked again, a few times;
 * - n8n's "No action required" page (200, HTML), 404 (execution deleted), 409 "finished with
 *   error", 401 (a signature the instance no longer accepts): the run waits no more.
 *
 * n8n resumes an execution once (`updateExistingExecution(…, { requireStatus: 'waiting' })`), so a
 * relay sent twice can never resume a run twice; the table's claim (replyWaits.ts) keeps it from
 * being sent twice at all.
 */
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { addReplyWait, claimReplyWaits } from './replyWaits';
import { decodeAnswer, isDataObject, type RequestContext } from './transport/http';
import type { N8nApi } from './transport/n8nApi';
import { messageOf } from './errors';
import { maskSecrets } from './masking';

/** The key of every relay body and of the node's answer to it. */
const RELAY_KEY = 'virtualnumRelay';

/** A reply, relayed from SMS Received. */
export interface RelayedReply {
	kind: 'reply';
	/** The message exactly as received. */
	text: string;
	/** The number that replied and the number it texted, as the service sent them. */
	from: string;
	to: string;
	receivedAt: string;
	/** The trigger read it as an opt-out (its Opt-Out Keywords). */
	optOut: boolean;
	/** The run already asked again once. */
	reasked: boolean;
}

/** A newer run asked the same person from the same number: this run's answer goes there. */
interface RelayedSupersede {
	kind: 'superseded';
	/** The execution ID of the newer run. */
	by: string;
}

type Relayed = RelayedReply | RelayedSupersede;

/** What the waiting node answers a relay: it resumed, or it asked again and waits for another reply. */
type RelayAnswer = 'resumed' | 'reasked';

/** What became of a relay. */
type RelayOutcome =
	| { delivered: RelayAnswer }
	/** The run waits no more (finished, timed out, deleted, failed): the reply was nobody's. */
	| { gone: string }
	/** The run could not be reached: the reply is passed on, with why. */
	| { failed: string };

/** The waits between tries while n8n answers 409 "running" (about 30 s in all). */
const RUNNING_RETRIES_MS = [250, 500, 1000, 2000, 4000, 8000, 14000];
/** Tries of a resume URL that cannot be reached at all. */
const UNREACHABLE_TRIES = 3;

/** The node's answer to a relay, as its webhook returns it. */
export function relayAnswer(answer: RelayAnswer): IDataObject {
	return { [RELAY_KEY]: answer };
}

/** The relayed body a webhook received, or undefined when the request is not a relay. */
export function readRelayed(body: unknown): Relayed | undefined {
	if (!isDataObject(body) || body[RELAY_KEY] !== 1) return undefined;
	if (body.kind === 'superseded') return { kind: 'superseded', by: String(body.by ?? '') };
	if (body.kind !== 'reply' || typeof body.text !== 'string') return undefined;
	return {
		kind: 'reply',
		text: body.text,
		from: String(body.from ?? ''),
		to: String(body.to ?? ''),
		receivedAt: String(body.receivedAt ?? ''),
		optOut: body.optOut === true,
		reasked: body.reasked === true,
	};
}

interface Answered {
	statusCode: number;
	body: unknown;
}

/** One POST of the relay; a network failure is an answer with status 0. */
async function post(context: RequestContext, url: string, relayed: Relayed): Promise<Answered> {
	try {
		const response = (await context.helpers.httpRequest({
			method: 'POST',
			url,
			body: { [RELAY_KEY]: 1, ...relayed },
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			timeout: 30_000,
		})) as { statusCode: number; body: unknown };
		return { statusCode: response.statusCode, body: response.body };
	} catch (error) {
		// A network error may quote the URL, and with it the signature.
		return { statusCode: 0, body: maskSecrets(messageOf(error)) };
	}
}

function textOf(body: unknown): string {
	const decoded = decodeAnswer(body);
	if (decoded.kind === 'json') return JSON.stringify(decoded.value);
	return 'text' in decoded ? decoded.text : '';
}

/** What one answer means: final, or worth asking again (`retry`). */
function outcomeOf(answered: Answered): RelayOutcome | 'retry' {
	const decoded = decodeAnswer(answered.body);
	const value = decoded.kind === 'json' ? decoded.value : undefined;
	if (answered.statusCode === 200 && isDataObject(value)) {
		const answer = value[RELAY_KEY];
		if (answer === 'resumed' || answer === 'reasked') return { delivered: answer };
	}
	const text = textOf(answered.body);
	if (answered.statusCode === 409)
		return /running already/i.test(text) ? 'retry' : { gone: 'the run ended with an error' };
	if (answered.statusCode === 200 && /no action required/i.test(text))
		return { gone: 'the run is no longer waiting' };
	if (answered.statusCode === 404) return { gone: 'the run no longer exists' };
	if (answered.statusCode === 401)
		return { gone: "n8n no longer accepts the run's resume URL (its signing secret changed)" };
	if (answered.statusCode === 0 || answered.statusCode >= 500) return 'retry';
	return { failed: `n8n answered HTTP ${answered.statusCode}` };
}

/**
 * Relays to one run: asked again while n8n answers that the run is still running (or cannot be
 * reached), then given up with what the last answer said.
 */
export async function relayToRun(
	this: RequestContext,
	resumeUrl: string,
	relayed: Relayed,
): Promise<RelayOutcome> {
	let answered: Answered = { statusCode: 0, body: '' };
	for (let attempt = 0; attempt <= RUNNING_RETRIES_MS.length; attempt++) {
		if (attempt > 0) await sleep(RUNNING_RETRIES_MS[attempt - 1]);
		answered = await post(this, resumeUrl, relayed);
		const outcome = outcomeOf(answered);
		if (outcome !== 'retry') return outcome;
		// An address n8n cannot reach stays so: not 30 s of waiting for it.
		if (answered.statusCode === 0 && attempt >= UNREACHABLE_TRIES - 1) break;
	}
	if (answered.statusCode === 409) return { gone: 'the run stayed busy (n8n answered 409)' };
	return {
		failed:
			answered.statusCode === 0
				? `n8n's resume URL could not be reached (${String(answered.body)})`
				: `n8n answered HTTP ${answered.statusCode}`,
	};
}

/** An SMS that may answer a waiting run, as SMS Received read it. */
interface IncomingReply {
	from: string;
	to: string;
	text: string;
	receivedAt: string;
	optOut: boolean;
}

/** What became of an incoming SMS: relayed to a run, nobody's, or not deliverable (passed on with why). */
type ReplyRelay =
	| { relayed: { executionId: string; answer: 'resumed' | 'reasked' } }
	| { nobody: true }
	| { failed: { executionId: string; reason: string } };

/**
 * Relays an incoming SMS to the run waiting for it: claims the rows of the conversation (the
 * sender's identity and the number texted), relays the reply to the newest run still waiting, and
 * tells any older claimed run it was superseded. A run that asked again gets its row back, marked;
 * a run that could not be reached too (it may still wait), and the SMS is passed on with why.
 */
export async function relayReply(
	this: RequestContext,
	api: N8nApi,
	table: string,
	conversation: { phone: string; sender: string },
	reply: IncomingReply,
): Promise<ReplyRelay> {
	const rows = await claimReplyWaits.call(this, api, table, conversation);
	let result: ReplyRelay = { nobody: true };
	for (const row of rows) {
		if (!('nobody' in result)) {
			// An older run asked at the same moment as the one that got the reply.
			const by = 'relayed' in result ? result.relayed.executionId : '';
			if (by) await relayToRun.call(this, row.resumeUrl, { kind: 'superseded', by });
			else await addReplyWait.call(this, api, table, row);
			continue;
		}
		const outcome = await relayToRun.call(this, row.resumeUrl, {
			kind: 'reply',
			...reply,
			reasked: row.reasked === true,
		});
		if ('gone' in outcome) continue;
		if ('failed' in outcome) {
			await addReplyWait.call(this, api, table, row);
			result = { failed: { executionId: row.executionId, reason: outcome.failed } };
			continue;
		}
		if (outcome.delivered === 'reasked')
			await addReplyWait.call(this, api, table, { ...row, reasked: true });
		result = { relayed: { executionId: row.executionId, answer: outcome.delivered } };
	}
	return result;
}
