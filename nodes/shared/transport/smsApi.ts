/**
 * Transport of the SMS service: `POST {sms_base_url}/api/ws_json_bulk.php` with a JSON array,
 * `{sms_base_url}/api/ws.php?service=…` for the sender operations, and the credit operation.
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestMethods,
	INodeProperties,
} from 'n8n-workflow';

import type { InputChecks } from '../checks';
import { maskSecrets } from '../masking';

import {
	baseUrlFrom,
	decodeAnswer,
	type DecodedAnswer,
	excerpt,
	isDataObject,
	sendRequest,
	serviceError,
	type FailureContext,
	type RawAnswer,
	type RequestContext,
	isRefusal,
	knownRefusal,
	rateLimitedAnswer,
	unauthorizedFailure,
} from './http';

export const SMS_CREDENTIAL = 'virtualnumSmsApi';
export const SMS_LABEL = 'Bulk SMS';

/** One item of the batch request (spec: "SMS message"). */
export interface SmsMessage {
	service: 'send_sms';
	dest: string;
	sender: string;
	message: string;
	sendtime?: string;
	callback_url?: string;
	/** The account token, added by `sendSmsBatch` when the credential has one. */
	token?: string;
}

/** One item of the batch answer (spec: "Result item"). */
export interface SmsResult extends IDataObject {
	service: string;
	status: string;
	message_id?: number;
	message: string;
	sender: string;
	dest: string;
	sendtime?: string;
	total_charge?: number;
	description?: string;
}

export interface SmsCredentials {
	baseUrl: string;
	accountToken?: string;
	/** The credential as read, for the requests of the run (never in output or errors). */
	decrypted?: ICredentialDataDecryptedObject;
}

export async function smsCredentials(this: RequestContext): Promise<SmsCredentials> {
	const credentials = await this.getCredentials(SMS_CREDENTIAL);
	const accountToken =
		typeof credentials.accountToken === 'string' ? credentials.accountToken.trim() : '';
	const read: SmsCredentials = {
		baseUrl: baseUrlFrom(credentials.baseUrl, SMS_LABEL, this.getNode()),
		accountToken: accountToken || undefined,
	};
	// Not enumerable: a copy or a log of these settings never holds the token.
	Object.defineProperty(read, 'decrypted', { value: credentials, enumerable: false });
	return read;
}

function context(
	this: RequestContext,
	operation: string,
	itemIndex?: number,
	sideEffect = false,
): FailureContext {
	return { node: this.getNode(), serviceLabel: SMS_LABEL, operation, itemIndex, sideEffect };
}

/**
 * Sends one batch. The answer must hold exactly one result per message: any other length is an
 * error that says how many were sent, and no result is guessed. Never retried: a repeated
 * request sends and charges twice. The credential's Account Token, when set, goes in each message
 * as `token`: the contract reports a missing token per result item, as a field of each message.
 */
export async function sendSmsBatch(
	this: RequestContext,
	messages: SmsMessage[],
	options: { timeoutMs?: number; credentials?: SmsCredentials } = {},
): Promise<SmsResult[]> {
	const credentials = options.credentials ?? (await smsCredentials.call(this));
	const { baseUrl, accountToken } = credentials;
	const failure = context.call(this, 'send_sms', undefined, true);
	const body = accountToken
		? messages.map((message) => ({ ...message, token: accountToken }))
		: messages;
	const raw = await sendRequest.call(
		this,
		SMS_CREDENTIAL,
		{
			method: 'POST',
			url: `${baseUrl}/api/ws_json_bulk.php`,
			// As bytes: given a JSON text, n8n's HTTP client (axios) parses it again to check it, which
			// for a batch of 1000 messages cost as much as building it (docs/benchmarks.md).
			body: Buffer.from(JSON.stringify(body), 'utf8'),
			headers: { 'Content-Type': 'application/json' },
			json: false,
			encoding: 'text',
			timeout: options.timeoutMs,
		},
		failure,
		credentials.decrypted,
	);
	if (raw.statusCode === TOO_MANY_REQUESTS) throw batchRateLimited(failure, raw, messages.length);
	const decoded = checkHttp(raw, failure);
	if (decoded.kind !== 'json' || !Array.isArray(decoded.value)) {
		throw serviceError(
			failure,
			`The ${SMS_LABEL} service answered a batch of ${messages.length} messages with ${describe(decoded)} (send_sms)`,
			`The batch may have been sent: check the notifications report before sending again. ${bodyExcerpt(decoded)}`.trim(),
			raw.statusCode,
		);
	}
	const results = decoded.value as SmsResult[];
	if (results.length !== messages.length) {
		throw serviceError(
			failure,
			`The ${SMS_LABEL} service answered ${results.length} results for a batch of ${messages.length} messages (send_sms)`,
			`All ${messages.length} messages of this batch were sent to the service ` +
				`and may have been delivered; the results cannot be matched to recipients, ` +
				`so none is reported. Check the notifications report before sending again.`,
			raw.statusCode,
			{ sent: messages.length, answered: results.length },
		);
	}
	// The results echo the messages; none may carry the account token on into the output, nor the
	// Delivery Report URL's secret (the service may echo callback_url).
	for (const result of results) {
		if (result === null || typeof result !== 'object') continue;
		if (accountToken && 'token' in result) delete result.token;
		const echoed = (result as IDataObject).callback_url;
		if (typeof echoed === 'string') (result as IDataObject).callback_url = maskSecrets(echoed);
	}
	return results;
}

// ---- a batch refused by the rate limit ----------------------------------------------------------

const TOO_MANY_REQUESTS = 429;

/** Seconds to wait when a 429 names none. */
const DEFAULT_RETRY_AFTER_SEC = 2;

/** `Retry-After` in seconds: a number of seconds or an HTTP date (RFC 9110 10.2.3). */
function retryAfterSec(header: string | string[] | undefined): number {
	const value = String(Array.isArray(header) ? header[0] : (header ?? '')).trim();
	if (/^\d+$/.test(value)) return Number(value);
	const date = Date.parse(value);
	if (Number.isNaN(date)) return DEFAULT_RETRY_AFTER_SEC;
	return Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/**
 * HTTP 429 to a batch: the service refused it before reading it, so none of its messages was
 * sent, and it may be sent again after `Retry-After` (kept in the error's data as retryAfterSec).
 */
function batchRateLimited(failure: FailureContext, raw: RawAnswer, size: number) {
	const wait = retryAfterSec(raw.headers['retry-after']);
	return serviceError(
		failure,
		`The ${SMS_LABEL} service refused a batch of ${size} messages with HTTP 429 (too many ` +
			`requests): none of them was sent`,
		`The service asked to wait ${wait} s before sending again (Retry-After). Send with fewer ` +
			'Batches in Flight, or later.',
		TOO_MANY_REQUESTS,
		{ rateLimited: true, retryAfterSec: wait },
	);
}

/** The seconds a batch's failure asks to wait before it is sent again; undefined when it was no 429. */
export function batchRetryAfterSec(error: unknown): number | undefined {
	const data = (
		error as { context?: { data?: { rateLimited?: unknown; retryAfterSec?: unknown } } }
	)?.context?.data;
	return data?.rateLimited === true && typeof data.retryAfterSec === 'number'
		? data.retryAfterSec
		: undefined;
}

/** A sender operation on ws.php; fails with the service's words unless `status` is `success`. */
export async function smsSenderRequest(
	this: RequestContext,
	service: string,
	params: IDataObject,
	options: { method?: IHttpRequestMethods; itemIndex?: number } = {},
): Promise<IDataObject> {
	const { baseUrl, accountToken } = await smsCredentials.call(this);
	const failure = context.call(this, service, options.itemIndex, service !== 'get_sender_list');
	const qs: IDataObject = { service, ...params };
	if (accountToken) qs.token = accountToken;
	const raw = await sendRequest.call(
		this,
		SMS_CREDENTIAL,
		{
			method: options.method ?? 'GET',
			url: `${baseUrl}/api/ws.php`,
			qs,
			json: false,
			encoding: 'text',
		},
		failure,
	);
	return readSenderAnswer(raw, failure);
}

export function readSenderAnswer(raw: RawAnswer, failure: FailureContext): IDataObject {
	const decoded = checkHttp(raw, failure);
	if (decoded.kind !== 'json' || !isDataObject(decoded.value)) {
		throw serviceError(
			failure,
			`The ${SMS_LABEL} service answered ${failure.operation} with ${describe(decoded)}`,
			bodyExcerpt(decoded) || "Check the credential's Base URL.",
			raw.statusCode,
		);
	}
	const answer = decoded.value;
	if (String(answer.status ?? '').toLowerCase() !== 'success') {
		const words = serviceWords(answer);
		throw serviceError(
			failure,
			`${SMS_LABEL} ${failure.operation} failed${words ? `: ${words}` : ''}`,
			`The service answered status "${String(answer.status ?? '(none)')}".`,
			raw.statusCode,
			answer.code === undefined
				? { answer: answer as never }
				: { answer: answer as never, code: answer.code as never },
		);
	}
	return answer;
}

// ---- the credit operation ---------------------------------------------------------------------

/** The spec names a `/credit` operation but shows neither its path nor its answer. */
const DEFAULT_CREDIT_PATH = '/credit';

/** A path on the SMS service's Base URL: never a full URL, so the token only goes to that host. */
const CREDIT_PATH_PATTERN = /^\/?[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*\/?$/;

/** The Credit Path option; `usedBy` says which setting reads it, when it is not the operation itself. */
export function creditPathOption(usedBy?: string): INodeProperties {
	return {
		displayName: 'Credit Path',
		name: 'creditPath',
		type: 'string',
		default: DEFAULT_CREDIT_PATH,
		description:
			`${usedBy ? `Used by ${usedBy}: path` : 'Path'} of the balance operation ` +
			`on the SMS Base URL. The service contract names a /credit operation without ` +
			`showing its address; change this only if your provider gave you another ` +
			`one.`,
	};
}

export function readCreditPath(check: InputChecks, value: unknown): string {
	const path = String(value ?? '').trim() || DEFAULT_CREDIT_PATH;
	check.pattern(
		'Credit Path',
		path,
		CREDIT_PATH_PATTERN,
		'must be a path on the SMS service, such as /credit (letters, digits, . _ ~ - and /; not a full URL)',
	);
	return path.startsWith('/') ? path : `/${path}`;
}

/** GET of the credit operation, whose path the spec does not show (default `/credit`). */
export async function smsCreditRequest(
	this: RequestContext,
	path: string,
	itemIndex?: number,
): Promise<IDataObject> {
	const { baseUrl } = await smsCredentials.call(this);
	const failure = context.call(this, 'credit', itemIndex);
	const cleanPath = `/${path.trim().replace(/^\/+/, '')}`;
	const raw = await sendRequest.call(
		this,
		SMS_CREDENTIAL,
		{ method: 'GET', url: `${baseUrl}${cleanPath}`, json: false, encoding: 'text' },
		failure,
	);
	const decoded = checkHttp(raw, failure);
	if (decoded.kind === 'json' && isDataObject(decoded.value)) {
		// The answer's shape is not shown; a status other than success (the sender operations'
		// {status:"error", description}) is a failure, never a balance.
		const status = decoded.value.status;
		if (
			typeof status === 'string' &&
			status.trim() !== '' &&
			status.trim().toLowerCase() !== 'success'
		) {
			const words = serviceWords(decoded.value);
			throw serviceError(
				failure,
				`${SMS_LABEL} credit failed${words ? `: ${words}` : ''}`,
				`The service answered status "${status}" to the credit request.`,
				raw.statusCode,
				{ answer: decoded.value as never },
			);
		}
		return decoded.value;
	}
	if (decoded.kind === 'text' && /^\s*-?\d+(\.\d+)?\s*$/.test(decoded.text))
		return { credit: Number(decoded.text) };
	throw serviceError(
		failure,
		`The ${SMS_LABEL} service answered the credit request with ${describe(decoded)}`,
		(
			`${bodyExcerpt(decoded)} Check the Credit Path option (the spec does not ` +
			'show the path; the default is /credit).'
		).trim(),
		raw.statusCode,
	);
}

/** A numeric balance from a credit answer, if it holds one under a usual key. */
export function creditBalance(answer: IDataObject): number | undefined {
	for (const key of ['credit', 'balance', 'sms_credit', 'credits', 'result']) {
		const value = answer[key];
		if (typeof value === 'number' && Number.isFinite(value)) return value;
		if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
	}
	return undefined;
}

/**
 * The SMS service also checks the caller's IP against the account's allowed list (its public
 * documentation says so; the contract does not), and may refuse in any form (a token text, a 403,
 * a page, a dropped connection): every failure names the list, except a refusal that names its one
 * cause (the IP list itself; a suspended account, where "the token and the IP are not the problem").
 */
const SMS_IP_HINT =
	'The SMS service also checks the IP address n8n calls from: the public ' +
	"IP of your n8n server must be on the account's allowed IP list.";

/** A failure's text with SMS_IP_HINT after it, unless it already names the allowed IP list. */
export function withSmsIpHint(text: string): string {
	return /allowed IP list/i.test(text) ? text : [text, SMS_IP_HINT].filter(Boolean).join(' ');
}

function withIpHint<T extends { description: string | null | undefined }>(error: T): T {
	error.description = withSmsIpHint(error.description ?? '');
	return error;
}

function checkHttp(raw: RawAnswer, failure: FailureContext): DecodedAnswer {
	const decoded = decodeAnswer(raw.body);
	if (isRefusal(raw, decoded)) {
		const error = unauthorizedFailure(failure, decoded);
		throw knownRefusal(decoded)?.soleCause ? error : withIpHint(error);
	}
	const rateLimited = rateLimitedAnswer(failure, raw);
	if (rateLimited) throw rateLimited;
	if (raw.statusCode < 200 || raw.statusCode >= 300) {
		const words =
			decoded.kind === 'json' && isDataObject(decoded.value) ? serviceWords(decoded.value) : '';
		const server = raw.statusCode >= 500;
		const error = serviceError(
			failure,
			`The ${SMS_LABEL} service answered ${failure.operation} with HTTP ${raw.statusCode}${words ? `: ${words}` : ''}`,
			[
				bodyExcerpt(decoded),
				server && failure.sideEffect
					? 'The request may have been carried out before the failure: check before running it again.'
					: server
						? 'Try again later.'
						: "Check the credential's Base URL and token.",
			]
				.filter(Boolean)
				.join(' '),
			raw.statusCode,
		);
		throw raw.statusCode === 403 ? withIpHint(error) : error;
	}
	return decoded;
}

function serviceWords(answer: IDataObject): string {
	for (const key of ['description', 'message', 'error', 'msg', 'reason']) {
		if (typeof answer[key] === 'string' && answer[key] !== '') return answer[key] as string;
	}
	return '';
}

function describe(decoded: DecodedAnswer): string {
	const what: Record<DecodedAnswer['kind'], string> = {
		json: 'an unexpected JSON value',
		xml: 'XML instead of JSON',
		html: 'an HTML page instead of the service answer',
		text: 'an answer that is not valid JSON (it may have been cut off)',
		empty: 'an empty answer',
	};
	return what[decoded.kind];
}

function bodyExcerpt(decoded: DecodedAnswer): string {
	if ('text' in decoded) return `Answer: "${excerpt(decoded.text)}".`;
	if (decoded.kind === 'json') return `Answer: "${excerpt(JSON.stringify(decoded.value))}".`;
	return '';
}

/**
 * Whether a result item reports a message the service accepted. The spec shows one success
 * status (`Message in Action`) and says `message_id` is present on success only; other status
 * texts are not shown, so a result counts as sent when it has a message id and its status is
 * not an error text.
 */
export function isSmsSent(result: IDataObject): boolean {
	const id = result.message_id;
	const hasId =
		(typeof id === 'number' && Number.isFinite(id)) || (typeof id === 'string' && id.trim() !== '');
	return hasId && !/^\s*error\b/i.test(String(result.status ?? ''));
}
