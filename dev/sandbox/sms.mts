// The SMS service: the JSON bulk endpoint, the sender operations of ws.php and the /credit balance.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate, bearerToken } from './auth.mts';
import { sendCallback } from './callbacks.mts';
import type { Core } from './core.mts';
import {
	applyPreFault,
	distortLength,
	dripAnswer,
	echoedTokens,
	lengthenText,
	truncate,
} from './faults.mts';
import type { Fault } from './faults.mts';
import { observedRefusal } from './field.mts';
import { parseRequest, send, sendJson, sendText, toXml } from './http.mts';
import type { ParsedRequest } from './http.mts';
import { DEFAULT_TOKENS } from './state.mts';
import type { Sender, SentMessage, State } from './state.mts';
import { delay, formatDateTime } from './util.mts';

const OK_STATUS = 'Message in Action';
const ERROR_STATUS = 'Error - 403 Forbidden';

// GSM 03.38: the basic set costs one septet per character, the extension set two.
const GSM_BASIC = new Set(
	'@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);
const GSM_EXTENDED = new Set('^{}\\[~]|€\f');

/** Parts a message is split into: GSM-7 160 (153 per part when split), else UCS-2 70 (67). */
export function smsSegments(text: string): number {
	let septets = 0;
	let gsm = true;
	for (const ch of text) {
		if (GSM_BASIC.has(ch)) septets += 1;
		else if (GSM_EXTENDED.has(ch)) septets += 2;
		else {
			gsm = false;
			break;
		}
	}
	if (gsm) return septets <= 160 ? 1 : Math.ceil(septets / 153);
	const units = text.length; // UTF-16 code units, as UCS-2 counts them
	return units <= 70 ? 1 : Math.ceil(units / 67);
}

/** `DD/MM/YYYY HH:mm` (local time) to a Date; undefined when malformed or impossible. */
export function parseSendtime(text: string): Date | undefined {
	const m = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2})$/.exec(text.trim());
	if (!m) return undefined;
	const [d, mo, y, h, mi] = m.slice(1).map(Number);
	const date = new Date(y, mo - 1, d, h, mi, 0);
	if (
		date.getFullYear() !== y ||
		date.getMonth() !== mo - 1 ||
		date.getDate() !== d ||
		date.getHours() !== h ||
		date.getMinutes() !== mi
	)
		return undefined;
	return date;
}

function findSender(state: State, sender: string): Sender | undefined {
	return state.senders.get(sender.trim().toLowerCase());
}

function text(value: unknown): string {
	if (value === undefined || value === null) return '';
	return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * Delivery reports, one timer per distinct due time (a 10,000-message batch sets one timer, not
 * 10,000): FAILED for destinations ending in 0000, DELIVERED otherwise.
 */
function scheduleDeliveries(
	core: Core,
	deliveries: Array<{ message: SentMessage; sendAt: number }>,
): void {
	const state = core.state;
	const groups = new Map<number, SentMessage[]>();
	for (const { message, sendAt } of deliveries) {
		const at = sendAt + core.config.callbackDelayMs;
		const group = groups.get(at);
		if (group) group.push(message);
		else groups.set(at, [message]);
	}
	for (const [at, messages] of groups) {
		core.schedule(at, async () => {
			if (state !== core.state) return; // reset since: these messages belong to a discarded world
			const statusTime = formatDateTime(new Date());
			const sends: Array<Promise<unknown>> = [];
			for (const message of messages) {
				message.status = message.dest.endsWith('0000') ? 'FAILED' : 'DELIVERED';
				message.status_time = statusTime;
				if (!message.callback_url) continue;
				sends.push(
					sendCallback(core, 'sms.delivery', message.callback_url, {
						message_id: message.message_id,
						dest: message.dest,
						sender: message.sender,
						status: message.status,
						status_time: message.status_time,
						sendtime: message.sendtime,
					}),
				);
			}
			await Promise.all(sends);
		});
	}
}

interface Batch {
	/** The request carried a valid Bearer token (an invalid one is refused with a 401 before any item). */
	hasToken: boolean;
	now: number;
	nowText: string;
	deliveries: Array<{ message: SentMessage; sendAt: number }>;
}

function sendOne(core: Core, item: unknown, batch: Batch): Record<string, unknown> {
	const fields =
		item && typeof item === 'object' && !Array.isArray(item)
			? (item as Record<string, unknown>)
			: {};
	const checked = checkItem(core.state, fields, batch);
	if ('failure' in checked) return checked.failure;
	const { dest, known, message, sendtime, sendAt, charge } = checked;
	const state = core.state;
	state.credit -= charge;
	const record: SentMessage = {
		message_id: state.nextMessageId++,
		dest,
		sender: known.sender,
		message,
		sendtime: sendtime !== '' ? formatDateTime(new Date(sendAt)) : batch.nowText,
		total_charge: charge,
		callback_url: text(fields.callback_url).trim(),
		status: 'QUEUED',
		status_time: '',
	};
	state.messages.push(record);
	batch.deliveries.push({ message: record, sendAt });
	return {
		service: 'send_sms',
		status: OK_STATUS,
		message_id: record.message_id,
		message,
		sender: record.sender,
		dest,
		sendtime: record.sendtime,
		total_charge: charge,
	};
}

interface AcceptedItem {
	dest: string;
	known: Sender;
	message: string;
	sendtime: string;
	sendAt: number;
	charge: number;
}

/** One item's checks in the service's order: the first that fails is the item's description. */
function checkItem(
	state: State,
	fields: Record<string, unknown>,
	batch: Batch,
): AcceptedItem | { failure: Record<string, unknown> } {
	const dest = text(fields.dest).trim();
	const sender = text(fields.sender).trim();
	const message = text(fields.message);
	const fail = (description: string) => ({
		failure: { service: 'send_sms', message, sender, dest, status: ERROR_STATUS, description },
	});

	// The token is accepted in either form: the request's Bearer header, or the item's own `token` field.
	const itemToken = text(fields.token).trim();
	const missing = [
		!batch.hasToken && itemToken === '' && 'token',
		dest === '' && 'dest',
		sender === '' && 'sender',
		message === '' && 'message',
	].filter(Boolean);
	if (missing.length > 0) return fail(`Missing mandatory fields: ${missing.join(', ')}`);
	if (itemToken !== '' && itemToken !== DEFAULT_TOKENS.smsAccount)
		return fail('Invalid token: the token field is not the account token');
	const service = text(fields.service).trim();
	if (service !== '' && service !== 'send_sms')
		return fail(`Unknown service "${service}": items must have service "send_sms"`);
	if (!/^\d{7,15}$/.test(dest)) return fail('Invalid dest: the destination must be 7-15 digits');
	let sendAt = batch.now;
	const sendtime = text(fields.sendtime).trim();
	if (sendtime !== '') {
		const parsed = parseSendtime(sendtime);
		if (!parsed) return fail('Invalid sendtime: expected DD/MM/YYYY HH:mm');
		sendAt = parsed.getTime();
	}
	const known = findSender(state, sender);
	if (!known)
		return fail(`Authorization error: sender "${sender}" is not an approved sender of the account`);
	if (!known.verified) return fail(`Authorization error: phone sender "${sender}" is not verified`);
	const charge = smsSegments(message);
	if (state.credit < charge)
		return fail(`Insufficient credit: the message needs ${charge} credit(s), ${state.credit} left`);
	return { dest, known, message, sendtime, sendAt, charge };
}

// ---- sender operations ---------------------------------------------------------------------------

type SenderAnswer = Record<string, unknown> & { status: 'success' | 'error' };

const error = (description: string): SenderAnswer => ({ status: 'error', description });

type SenderCall = (
	core: Core,
	value: (name: string) => string,
	params: Record<string, string>,
) => SenderAnswer;

function senderOperation(
	core: Core,
	service: string,
	params: Record<string, string>,
): SenderAnswer {
	const value = (name: string) => (params[name] ?? '').trim();
	const operation = Object.hasOwn(SENDER_OPERATIONS, service)
		? SENDER_OPERATIONS[service]
		: undefined;
	if (operation) return operation(core, value, params);
	return error(
		service === '' ? 'The service parameter is missing' : `Unknown service "${service}"`,
	);
}

const listSenders: SenderCall = (core, value) => {
	const search = value('search');
	if (search !== '' && !/^[A-Za-z0-9]+$/.test(search))
		return error('search may contain only digits and Latin letters');
	const needle = search.toLowerCase();
	const senders = [...core.state.senders.values()].filter(
		(s) =>
			needle === '' ||
			s.sender.toLowerCase().includes(needle) ||
			s.description.toLowerCase().includes(needle),
	);
	return { status: 'success', senders: senders.map((s) => ({ ...s })) };
};

const addTextSender: SenderCall = (core, value) => {
	const state = core.state;
	const sender = value('sender');
	if (!/^[A-Za-z][A-Za-z0-9_-]{2,10}$/.test(sender)) {
		return error(
			'sender must be 3-11 characters: a Latin letter first, then letters, digits, _ or -',
		);
	}
	if (findSender(state, sender)) return error(`The sender "${sender}" already exists`);
	// Text senders are approved at once in the sandbox (the approval workflow is not in the spec).
	state.senders.set(sender.toLowerCase(), {
		sender,
		type: 'text',
		description: value('sender_description'),
		verified: true,
	});
	return { status: 'success', message: `Text sender "${sender}" added`, sender };
};

const startPhoneSender: SenderCall = (core, value) => {
	const state = core.state;
	const sender = value('sender');
	if (!/^(\d{6,15}|\*\d{4})$/.test(sender))
		return error('sender must be a phone number (digits, no dashes) or a speed dial *XXXX');
	const otpType = value('otp_type');
	if (!['sms', 'call', 'distributor'].includes(otpType))
		return error('otp_type must be sms, call or distributor');
	if (findSender(state, sender)?.verified)
		return error(`The phone sender "${sender}" is already verified`);
	const code = String(state.rng.otp.int(100000, 999999));
	state.otps.set(sender, code);
	core.log(`sms verification code for ${sender}: ${code}`);
	if (!findSender(state, sender))
		state.senders.set(sender.toLowerCase(), {
			sender,
			type: 'phone',
			description: '',
			verified: false,
		});
	return { status: 'success', message: `Verification code sent by ${otpType}`, sender };
};

const verifyPhoneSender: SenderCall = (core, value, params) => {
	const state = core.state;
	const sender = value('sender');
	if (sender === '') return error('sender is required');
	const expected = state.otps.get(sender);
	if (!expected)
		return error(
			`No verification is in progress for "${sender}": call add_sender_phone_step1 first`,
		);
	if (value('otp_key') !== expected) return error('Invalid verification code');
	state.otps.delete(sender);
	const entry = findSender(state, sender) ?? {
		sender,
		type: 'phone' as const,
		description: '',
		verified: false,
	};
	entry.verified = true;
	if (params.sender_description !== undefined) entry.description = value('sender_description');
	state.senders.set(sender.toLowerCase(), entry);
	return { status: 'success', message: `Phone sender "${sender}" verified`, sender };
};

const SENDER_OPERATIONS: Record<string, SenderCall> = {
	get_sender_list: listSenders,
	add_sender_text: addTextSender,
	add_sender_phone_step1: startPhoneSender,
	add_sender_phone_step2: verifyPhoneSender,
};

// ---- the server ----------------------------------------------------------------------------------

/** echoCallbackUrl: each result item carries its message's callback_url back (secret and all). */
function echoCallbackUrls(
	sent: unknown[],
	items: Array<Record<string, unknown>>,
): Array<Record<string, unknown>> {
	return items.map((item, index) => {
		const fields = (sent[index] ?? {}) as Record<string, unknown>;
		return { ...item, callback_url: text(fields.callback_url) };
	});
}

function operationOf(req: ParsedRequest): string | undefined {
	if (req.path === '/api/ws_json_bulk.php') return 'send_sms';
	if (req.path === '/api/ws.php') return (req.params.service ?? '').trim();
	if (req.path === '/credit' || req.path === '/api/credit' || req.path === '/api/credit.php')
		return 'credit';
	return undefined;
}

type TakenFault = ReturnType<Core['faults']['take']>;

export async function handleSms(
	core: Core,
	incoming: IncomingMessage,
	res: ServerResponse,
): Promise<void> {
	const started = Date.now();
	const req = await parseRequest(incoming);
	const operation = operationOf(req);
	if (operation === undefined) {
		sendJson(res, 404, { status: 'error', description: `Unknown path ${req.path}` });
		return;
	}
	core.record('sms', req, operation);
	const log = (status: number, extra = '') =>
		core.log(`sms ${operation || '(no service)'} ${status}${extra} ${Date.now() - started}ms`);
	const fault = core.faults.take('sms', operation);
	if (applyPreFault(res, fault, req.clientIp, core.redirectUrl, req)) {
		log(res.statusCode);
		return;
	}
	if (fault?.kind === 'slow') await delay(fault.delayMs, core.signal);

	// The bulk endpoint reports a missing token per item (spec), and takes it from the Bearer header
	// or from each item's `token` field; every other token failure, and any token failure on the
	// other endpoints, is a plain-text 401 as on the virtual number service.
	const hasToken = bearerToken(req.headers) !== undefined;
	if (hasToken || operation !== 'send_sms') {
		const auth = authenticate(core.state, 'sms', req, false);
		if (!auth.ok) {
			const observed = core.is('refusal-texts');
			const refusal = observed ? core.field.refusalStatus : 401;
			sendText(res, refusal, observed ? observedRefusal(auth.text, req.clientIp) : auth.text);
			log(refusal);
			return;
		}
	}
	const { status, answer } =
		operation === 'send_sms'
			? bulkAnswer(core, req, fault, hasToken)
			: { status: 200, answer: accountAnswer(core, req, operation, fault) };
	writeAnswer(core, res, status, answer, fault);
	if (Array.isArray(answer)) {
		const ok = answer.filter((a) => (a as { status?: string }).status === OK_STATUS).length;
		log(status, ` items=${answer.length} ok=${ok}`);
	} else log(status, (answer as { status?: string }).status === 'error' ? ' status=error' : '');
}

/** The bulk endpoint: its request checks, then one result per item (or every item failed by a fault). */
function bulkAnswer(
	core: Core,
	req: ParsedRequest,
	fault: TakenFault,
	hasToken: boolean,
): { status: number; answer: unknown } {
	if (req.method !== 'POST')
		return {
			status: 405,
			answer: {
				status: 'Error - 405 Method Not Allowed',
				description: 'Use POST with a JSON array',
			},
		};
	if (!Array.isArray(req.body))
		return {
			status: 400,
			answer: {
				status: 'Error - 400 Bad Request',
				description: 'The request body must be a JSON array of messages',
			},
		};
	if (
		fault?.kind === 'serviceError' ||
		(fault?.kind === 'echoToken' && (fault.where === 'smsItem' || fault.where === 'status'))
	)
		return { status: 200, answer: everyItemFailed(req, req.body, fault) };
	const now = Date.now();
	const batch: Batch = { hasToken, now, nowText: formatDateTime(new Date(now)), deliveries: [] };
	const sent = req.body;
	const answer = sent.map((item) => sendOne(core, item, batch));
	scheduleDeliveries(core, batch.deliveries);
	if (fault?.kind === 'echoCallbackUrl')
		return { status: 200, answer: echoCallbackUrls(sent, answer) };
	return { status: 200, answer };
}

/** Nothing is sent: every item fails with the fault's description (which may echo the tokens). */
function everyItemFailed(
	req: ParsedRequest,
	items: unknown[],
	fault: Extract<Fault, { kind: 'serviceError' | 'echoToken' }>,
): Array<Record<string, unknown>> {
	const description =
		fault.kind === 'serviceError'
			? (fault.description ?? `Service error ${fault.code}`)
			: undefined;
	const code = fault.kind === 'serviceError' ? fault.code : 401;
	return items.map((item) => {
		const fields = (item ?? {}) as Record<string, unknown>;
		const token = fields.token === undefined ? undefined : text(fields.token);
		return {
			service: 'send_sms',
			status: `Error - ${code}`,
			message: text(fields.message),
			sender: text(fields.sender),
			dest: text(fields.dest),
			// `{message}` in a serviceError's description quotes the item's message back, as some refusals do.
			description:
				description?.replace('{message}', text(fields.message)) ??
				`Invalid token: ${echoedTokens(req, token)}`,
		};
	});
}

/** ws.php and the credit path: the account token's check, then the operation. */
function accountAnswer(
	core: Core,
	req: ParsedRequest,
	operation: string,
	fault: TakenFault,
): unknown {
	const accountToken = (req.params.token ?? '').trim();
	if (fault?.kind === 'serviceError')
		return {
			status: 'error',
			code: fault.code,
			description: fault.description ?? `Service error ${fault.code}`,
		};
	if (
		fault?.kind === 'echoToken' &&
		(fault.where === 'status' || (fault.where === 'senderList' && operation === 'get_sender_list'))
	)
		return error(`Invalid account token: ${echoedTokens(req)}`);
	if (accountToken !== '' && accountToken !== DEFAULT_TOKENS.smsAccount)
		return error('Invalid account token');
	if (operation === 'credit') return { status: 'success', credit: core.state.credit };
	return senderOperation(core, operation, req.params);
}

/** The answer as JSON, or distorted by the fault taken (wrong length, long text, drip, cut, XML). */
function writeAnswer(
	core: Core,
	res: ServerResponse,
	status: number,
	given: unknown,
	fault: TakenFault,
): void {
	let answer = given;
	if (fault?.kind === 'wrongLength' && Array.isArray(answer))
		answer = distortLength(answer, fault.delta);
	if (fault?.kind === 'longText') lengthenText(answer, fault);
	if (fault?.kind === 'drip')
		dripAnswer(
			res,
			status,
			{ 'content-type': 'application/json; charset=utf-8' },
			Buffer.from(JSON.stringify(answer)),
			fault.intervalMs,
			core.signal,
		);
	else if (fault?.kind === 'truncatedJson')
		send(res, status, 'application/json; charset=utf-8', truncate(JSON.stringify(answer)));
	else if (fault?.kind === 'xml')
		send(res, status, 'application/xml; charset=utf-8', toXml('response', answer));
	else sendJson(res, status, answer);
}
