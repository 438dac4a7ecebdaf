/**
 * The HTTP step both service transports share: one authenticated request whose answer is always
 * returned (status errors included) so the transports can read the services' own words, and
 * network failures turned into errors that never carry the request (its headers hold the token).
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	IHookFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	IWebhookFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

import { messageOf, neverConnected } from '../errors';
import { credentialSecrets, maskError, maskKnown } from '../masking';
import { networkCodeOf } from '../n8nCompat';
import {
	RATE_LIMITED_CODE,
	UNAUTHORIZED_CODE,
	UNAUTHORIZED_TEXTS,
	type RefusalAdvice,
} from '../statusCodes';

export type RequestContext =
	| IExecuteFunctions
	| IExecuteSingleFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IWebhookFunctions;

export interface RawAnswer {
	statusCode: number;
	headers: Record<string, string | string[] | undefined>;
	body: unknown;
	/**
	 * Aborts when the request's Timeout has passed since it started: a streamed answer (a download)
	 * must end by then too, body included.
	 */
	deadline?: AbortSignal;
}

export const DEFAULT_TIMEOUT_MS = 60_000;

export interface FailureContext {
	node: INode;
	/** The service in the user's words, e.g. "Virtual Number". */
	serviceLabel: string;
	/** The operation in the service's words, e.g. "get_virtualnum". */
	operation: string;
	itemIndex?: number;
	/** The request changes something (a send, a call, a write): a lost answer must not invite a blind retry. */
	sideEffect?: boolean;
	/** The word the account names identifiers with, when not the contract's (virtual number service). */
	identifierWord?: string;
}

/** Builds the error every failure of both services becomes. */
export function serviceError(
	context: FailureContext,
	message: string,
	description: string,
	httpCode?: number | string,
	data?: JsonObject,
): NodeApiError {
	const error = new NodeApiError(
		context.node,
		{ message },
		{
			message,
			description,
			httpCode: httpCode === undefined ? undefined : String(httpCode),
			itemIndex: context.itemIndex,
		},
	);
	// Shown in the error's data pane; kept out of the constructor, which would read `code` as an HTTP code.
	if (data) error.context.data = data;
	return error;
}

export function baseUrlFrom(value: unknown, serviceLabel: string, node: INode): string {
	const text = typeof value === 'string' ? value.trim() : '';
	if (!/^https?:\/\/[^\s/]+/i.test(text)) {
		throw new NodeApiError(
			node,
			{ message: 'Base URL missing' },
			{
				message: `The ${serviceLabel} credential has no valid Base URL`,
				description:
					'Open the credential and enter the Base URL the provider gave you, starting with https://',
			},
		);
	}
	// Users often paste the full API address; every path is built from the bare base.
	return text.replace(/\/+$/, '').replace(/\/api$/i, '');
}

const MAYBE_DONE =
	'The request may have been carried out before the connection failed: check before running it again.';

/**
 * One request with the credential. Redirects are never followed: n8n's HTTP helper would send the
 * credential's Authorization header to the redirect target even on another host, and a 307 or 308
 * would post the whole body there again. A redirect answer becomes an error instead.
 *
 * The Timeout is a deadline for the whole request, body included (n8n's `timeout` is axios's,
 * which only bounds a silent socket: a body dripping a byte a second never ends it). A read
 * answered 429 is asked again after its Retry-After when that wait still ends within the deadline;
 * any other 429 becomes a rate-limit error saying how long to wait (in its data: `rateLimited`,
 * `retryAfterSeconds`). The credential's tokens are masked in the answer's text before anyone
 * reads it, and in every error.
 */
export async function sendRequest(
	this: RequestContext,
	credentialType: string,
	options: IHttpRequestOptions,
	context: FailureContext,
	/** The credential as the caller already read it for this run: not read again for each request. */
	credentials?: ICredentialDataDecryptedObject,
): Promise<RawAnswer> {
	const timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
	const secrets = credentialSecrets(
		(credentials ?? (await this.getCredentials(credentialType))) as Record<string, unknown>,
	);
	const deadline = AbortSignal.timeout(timeout);
	const endsAt = Date.now() + timeout;
	try {
		for (;;) {
			const raw = await attempt.call(this, credentialType, options, context, deadline, {
				timeout,
				credentials,
			});
			// A refused write is its caller's to handle (Send sends a batch again within its own cap).
			if (raw.statusCode !== RATE_LIMITED_CODE || context.sideEffect)
				return { ...maskBody(raw, secrets), deadline };
			discardBody(raw.body);
			const waitMs = retryAfterMs(headerText(raw.headers['retry-after']));
			if (waitMs === undefined || Date.now() + waitMs >= endsAt)
				throw rateLimitFailure(context, waitMs, timeout);
			await sleep(waitMs);
		}
	} catch (error) {
		throw maskError(error, secrets);
	}
}

async function attempt(
	this: RequestContext,
	credentialType: string,
	options: IHttpRequestOptions,
	context: FailureContext,
	deadline: AbortSignal,
	{ timeout, credentials }: { timeout: number; credentials?: ICredentialDataDecryptedObject },
): Promise<RawAnswer> {
	let response: { statusCode: number; headers?: RawAnswer['headers']; body: unknown };
	// In n8n every read of a credential is a database query and a decryption: a run of 1,000 batches
	// reads it once, and n8n's helper authenticates each request with that copy.
	const decrypted = credentials && {
		id: '',
		name: credentialType,
		type: credentialType,
		data: credentials,
	};
	try {
		const request = this.helpers.httpRequestWithAuthentication.call(
			this,
			credentialType,
			{
				...options,
				timeout,
				disableFollowRedirect: true,
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
			},
			decrypted && { credentialsDecrypted: decrypted },
		) as Promise<typeof response>;
		response = await beforeDeadline(request, deadline);
	} catch (error) {
		throw networkError(context, error, timeout, options.url);
	}
	const raw = {
		statusCode: response.statusCode,
		headers: response.headers ?? {},
		body: response.body,
	};
	if (isRedirect(raw.statusCode)) {
		discardBody(raw.body);
		throw redirectFailure(context, raw, options.url);
	}
	return raw;
}

/**
 * The request's answer, or a timeout error once the deadline passes (an answer arriving after
 * that is discarded). The abandoned request ends with the service's answer or axios's own timeout.
 */
function beforeDeadline<T>(request: Promise<T>, deadline: AbortSignal): Promise<T> {
	return new Promise<T>((resolve, reject) => {
		const onDeadline = () =>
			reject(Object.assign(new Error('The request timed out'), { code: 'ETIMEDOUT' }));
		if (deadline.aborted) onDeadline();
		deadline.addEventListener('abort', onDeadline, { once: true });
		request.then(
			(value) => {
				deadline.removeEventListener('abort', onDeadline);
				if (deadline.aborted) discardBody((value as { body?: unknown } | undefined)?.body);
				resolve(value);
			},
			(error: unknown) => {
				deadline.removeEventListener('abort', onDeadline);
				reject(error);
			},
		);
	});
}

/** The answer with the credential's tokens masked in its text (a service or proxy may echo them). */
function maskBody(raw: RawAnswer, secrets: string[]): RawAnswer {
	if (typeof raw.body !== 'string' || secrets.length === 0) return raw;
	return { ...raw, body: maskKnown(raw.body, secrets) };
}

// ---- rate limits ---------------------------------------------------------------------------

/** Retry-After in milliseconds: seconds, or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
function retryAfterMs(value: string, now = Date.now()): number | undefined {
	const text = value.trim();
	if (text === '') return undefined;
	if (/^\d{1,9}$/.test(text)) return Number(text) * 1000;
	if (text.length > 64) return undefined;
	const date = Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The error of a 429: a rate limit, and how long the service asked to wait. */
function rateLimitFailure(
	context: FailureContext,
	waitMs: number | undefined,
	timeout = DEFAULT_TIMEOUT_MS,
): NodeApiError {
	const seconds = waitMs === undefined ? undefined : Math.ceil(waitMs / 1000);
	const wait = seconds === undefined ? 'a moment' : `${seconds} second${seconds === 1 ? '' : 's'}`;
	return serviceError(
		context,
		`The ${context.serviceLabel} service refused ${context.operation}: too many requests ` +
			`(rate limit, HTTP ${RATE_LIMITED_CODE}); it asks to wait ${wait}`,
		context.sideEffect
			? `The service did not take the request. Run it again after ${wait}.`
			: `Reads are asked again after the service's Retry-After while that still ends within the ` +
					`Timeout (${Math.round(timeout / 1000)} s); this wait did not. Run it again after ` +
					`${wait}, or space the requests out.`,
		RATE_LIMITED_CODE,
		{ rateLimited: true, ...(seconds === undefined ? {} : { retryAfterSeconds: seconds }) },
	);
}

export function isRedirect(statusCode: number): boolean {
	return statusCode >= 300 && statusCode < 400;
}

function discardBody(body: unknown): void {
	const stream = body as { destroy?: () => void } | undefined;
	if (stream && typeof stream === 'object' && typeof stream.destroy === 'function')
		stream.destroy();
}

/**
 * A redirect answer, naming the status and the target's origin (never its path or query string,
 * which may carry anything).
 */
export function redirectFailure(
	context: FailureContext,
	raw: RawAnswer,
	requestUrl: string,
): NodeApiError {
	const location = headerText(raw.headers.location);
	const target = location ? safeOrigin(location, requestUrl) : undefined;
	return serviceError(
		context,
		`The ${context.serviceLabel} service answered ${context.operation} with ` +
			`a redirect (HTTP ${raw.statusCode})${target ? ` to ${target}` : ''}; it ` +
			`was not followed`,
		[
			'Redirects are not followed, so that the access token and the request never go to another address.',
			target && target !== safeOrigin(requestUrl)
				? `Check the credential's Base URL: if ${target} is the service's own address ` +
					`(for example https:// instead of http://, or another host name the provider ` +
					`gave), enter it as the Base URL.`
				: "Check the credential's Base URL: enter the exact address the provider " +
					'gave (with https:// and without a path beyond /api/).',
		].join(' '),
		raw.statusCode,
		{ redirectStatus: raw.statusCode, ...(target ? { redirectTo: target } : {}) },
	);
}

function headerText(value: string | string[] | undefined): string {
	return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
}

function networkError(
	context: FailureContext,
	error: unknown,
	timeoutMs: number,
	url: string,
): NodeApiError {
	const message = messageOf(error);
	const code = networkCodeOf(error);
	const origin = safeOrigin(url);
	const timedOut =
		code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout|timed out/i.test(message);
	if (timedOut) {
		return serviceError(
			context,
			`The ${context.serviceLabel} service did not answer ${context.operation} within ${Math.round(timeoutMs / 1000)} s`,
			context.sideEffect
				? MAYBE_DONE
				: 'Try again later, or raise the node\'s "Timeout" option for heavy requests.',
			undefined,
			{ networkCode: code || 'TIMEOUT' },
		);
	}
	const reason: Record<string, string> = {
		ECONNREFUSED: 'the connection was refused',
		ENOTFOUND: 'the host name was not found',
		ECONNRESET: 'the connection was reset',
		EAI_AGAIN: 'the host name could not be resolved',
	};
	return serviceError(
		context,
		`Could not reach the ${context.serviceLabel} service at ${origin}: ${reason[code] ?? (message || 'network error')}`,
		// A refused or unresolved connection never reached the service; a reset one may have.
		context.sideEffect && !neverConnected(code)
			? MAYBE_DONE
			: "Check the credential's Base URL and that n8n can reach that host.",
		undefined,
		{ networkCode: code || 'NETWORK' },
	);
}

/** The origin of `url` (resolved against `base` when relative): scheme, host and port only. */
function safeOrigin(url: string, base?: string): string {
	try {
		return new URL(url, base).origin;
	} catch {
		return 'the configured Base URL';
	}
}

// ---- reading an answer ---------------------------------------------------------------------

/**
 * Turns a raw HTTP answer of either service into what it is: a JSON value, a status from an
 * XML answer (the virtual number service answers XML when it ignores `format=json`), a plain
 * text (the 401s), an HTML page or an empty body (proxies). Pure functions, no dependencies, so
 * the nodes, the trigger and the credential tests read answers the same way.
 */
export type DecodedAnswer =
	| { kind: 'json'; value: unknown }
	| { kind: 'xml'; status?: { code: number; description: string }; text: string }
	| { kind: 'html'; text: string }
	| { kind: 'text'; text: string }
	| { kind: 'empty' };

function bodyToText(body: unknown): string {
	if (body === undefined || body === null) return '';
	if (typeof body === 'string') return body;
	if (Buffer.isBuffer(body)) return body.toString('utf8');
	if (body instanceof ArrayBuffer) return Buffer.from(body).toString('utf8');
	return JSON.stringify(body);
}

export function decodeAnswer(body: unknown): DecodedAnswer {
	if (
		body !== null &&
		typeof body === 'object' &&
		!Buffer.isBuffer(body) &&
		!(body instanceof ArrayBuffer)
	) {
		return { kind: 'json', value: body };
	}
	const text = bodyToText(body).replace(/^\uFEFF/, '');
	const trimmed = text.trim();
	if (trimmed === '') return { kind: 'empty' };
	if (/^[[{]/.test(trimmed)) {
		try {
			return { kind: 'json', value: JSON.parse(trimmed) };
		} catch {
			return { kind: 'text', text };
		}
	}
	if (/^<!doctype html|^<html|<body[\s>]/i.test(trimmed)) return { kind: 'html', text };
	if (trimmed.startsWith('<')) return { kind: 'xml', status: readXmlStatus(trimmed), text };
	return { kind: 'text', text };
}

/**
 * Reads `<status><code>…</code><description>…</description></status>` without an XML library:
 * hand-written because the package may add no runtime dependency, and n8n-workflow has no XML reader.
 * With indexOf only, so that its time is linear in the answer whatever the answer holds.
 */
function readXmlStatus(xml: string): { code: number; description: string } | undefined {
	const status = elementText(xml, 'status') ?? xml;
	const code = /^\s*(\d{1,9})\s*$/.exec(elementText(status, 'code') ?? '')?.[1];
	if (code === undefined) return undefined;
	const description = elementText(status, 'description') ?? '';
	return { code: Number(code), description: decodeXmlText(description.trim()) };
}

/** The text of the first `<name …>…</name>` element in `xml` (case-insensitive), if there is one. */
function elementText(xml: string, name: string): string | undefined {
	const lower = xml.toLowerCase();
	let at = lower.indexOf(`<${name}`);
	while (at !== -1 && !/[\s>/]/.test(lower.charAt(at + name.length + 1)))
		at = lower.indexOf(`<${name}`, at + 1);
	if (at === -1) return undefined;
	const open = lower.indexOf('>', at);
	if (open === -1) return undefined;
	const close = lower.indexOf(`</${name}>`, open);
	return close === -1 ? undefined : xml.slice(open + 1, close);
}

function decodeXmlText(text: string): string {
	const cdata = text.startsWith('<![CDATA[') && text.endsWith(']]>') ? text.slice(9, -3) : text;
	return cdata
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&quot;/g, '"')
		.replace(/&apos;/g, "'")
		.replace(/&amp;/g, '&');
}

/** How much of an answer an excerpt reads: a quote needs its start only, whatever the answer's size. */
const EXCERPT_READ = 16 * 1024;

/**
 * A short, safe excerpt of an unexpected body for an error description. Tags are dropped with a
 * pattern that cannot span a `<` (so a run of `<` is read once, not once per `<`).
 */
export function excerpt(text: string, max = 200): string {
	const flat = text
		.slice(0, EXCERPT_READ)
		.replace(/<[^<>]*>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();
	return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

export function isDataObject(value: unknown): value is IDataObject {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

// ---- the 401 plain-text answers of both services, each turned into what to do ----------------

/** The refusal text the answer is, if it is one (the texts of UNAUTHORIZED_TEXTS), whatever the HTTP status. */
export function knownRefusal(decoded: DecodedAnswer): RefusalAdvice | undefined {
	if (decoded.kind !== 'text') return undefined;
	const text = decoded.text.slice(0, 512).trim();
	return UNAUTHORIZED_TEXTS.find(({ pattern }) => pattern.test(text));
}

/**
 * Whether an answer refuses the caller: HTTP 401, or one of the refusal texts, which the services
 * also answer as plain text with HTTP 200 (seen in the field) or any other status.
 */
/** The rate-limit error of a 429 answer (one the transport did not ask again: a write's). */
export function rateLimitedAnswer(
	context: FailureContext,
	raw: RawAnswer,
): NodeApiError | undefined {
	if (raw.statusCode !== RATE_LIMITED_CODE) return undefined;
	return rateLimitFailure(context, retryAfterMs(headerText(raw.headers['retry-after'])));
}

export function isRefusal(raw: RawAnswer, decoded: DecodedAnswer): boolean {
	return raw.statusCode === UNAUTHORIZED_CODE || knownRefusal(decoded) !== undefined;
}

export function unauthorizedFailure(context: FailureContext, decoded: DecodedAnswer) {
	const text = 'text' in decoded ? decoded.text.trim() : '';
	const known = knownRefusal(decoded);
	if (known) {
		// Only where the advice is to fix the token (not for a suspended account or the IP list).
		const which = /Access Token/.test(known.hint)
			? ` The token to check is the Access Token of the ${context.serviceLabel} credential.`
			: '';
		return serviceError(
			context,
			`${context.serviceLabel} refused ${context.operation}: ${known.meaning}`,
			`${known.hint}.${which} The service said: "${excerpt(text, 120)}".`,
			UNAUTHORIZED_CODE,
		);
	}
	return serviceError(
		context,
		`${context.serviceLabel} refused ${context.operation}: not authorized (HTTP ${UNAUTHORIZED_CODE})`,
		`${text ? `The service said: "${excerpt(text, 120)}". ` : ''}Check the ` +
			`credential's access token and that the IP of your n8n server is in the ` +
			`account's allowed IP list.`,
		UNAUTHORIZED_CODE,
	);
}
