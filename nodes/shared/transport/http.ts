/**
 * The HTTP step both service transports share: one authenticated request whose answer is always
 * returned (status errors included) so the transports can read the services' own words, and
 * network failures turned into errors that never carry the request (its headers hold the token).
 */
import type {
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
import { NodeApiError } from 'n8n-workflow';

import { messageOf } from '../errors';
import { networkCodeOf } from '../n8nCompat';
import { UNAUTHORIZED_CODE, UNAUTHORIZED_TEXTS } from '../statusCodes';

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
}

const DEFAULT_TIMEOUT_MS = 60_000;

export interface FailureContext {
	node: INode;
	/** The service in the user's words, e.g. "Virtual Number". */
	serviceLabel: string;
	/** The operation in the service's words, e.g. "get_virtualnum". */
	operation: string;
	itemIndex?: number;
	/** The request changes something (a send, a call, a write): a lost answer must not invite a blind retry. */
	sideEffect?: boolean;
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

/**
 * The status code (virtual number service) or status text (SMS service) the service answered, when
 * the error is a service's refusal: `code` of the error's data, which only service answers set
 * (network failures keep theirs as `networkCode`). The one reader of that field.
 */
export function serviceCodeOf(error: unknown): number | string | undefined {
	const data = (error as { context?: { data?: { code?: unknown } } } | undefined)?.context?.data;
	const code = data?.code;
	if (typeof code === 'number' && Number.isFinite(code)) return code;
	if (typeof code === 'string' && code.trim() !== '')
		return /^\d+$/.test(code.trim()) ? Number(code) : code.trim();
	return undefined;
}

/** The network code (ECONNREFUSED, ETIMEDOUT, …) of a failure that got no answer, as networkError records it. */
export function networkCodeOfFailure(error: unknown): string | undefined {
	const code = (error as { context?: { data?: { networkCode?: unknown } } } | undefined)?.context
		?.data?.networkCode;
	return typeof code === 'string' && code !== '' ? code : undefined;
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

/** Network failures in which the connection was never made (refused, or the host unknown). */
const NEVER_SENT = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'];

/**
 * The one list of failures that certainly never reached the service, so that sending the request
 * again cannot do anything twice: the connection was never made, or the service refused the
 * caller (HTTP 401, which both services answer before reading the request). Any other failure may
 * have come after the service took the request.
 */
export function neverReachedService(error: unknown): boolean {
	const failure = error as { httpCode?: unknown; context?: { data?: { networkCode?: unknown } } };
	const code = failure?.context?.data?.networkCode;
	return (
		(typeof code === 'string' && NEVER_SENT.includes(code)) ||
		String(failure?.httpCode) === String(UNAUTHORIZED_CODE)
	);
}

const MAYBE_DONE =
	'The request may have been carried out before the connection failed: check before running it again.';

/**
 * One request with the credential. Redirects are never followed: n8n's HTTP helper would send the
 * credential's Authorization header to the redirect target even on another host, and a 307 or 308
 * would post the whole body there again. A redirect answer becomes an error instead.
 */
export async function sendRequest(
	this: RequestContext,
	credentialType: string,
	options: IHttpRequestOptions,
	context: FailureContext,
): Promise<RawAnswer> {
	const timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
	let response: { statusCode: number; headers?: RawAnswer['headers']; body: unknown };
	try {
		response = (await this.helpers.httpRequestWithAuthentication.call(this, credentialType, {
			...options,
			timeout,
			disableFollowRedirect: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		})) as typeof response;
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
		context.sideEffect && !NEVER_SENT.includes(code)
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
 */
function readXmlStatus(xml: string): { code: number; description: string } | undefined {
	const status = /<status\b[^>]*>([\s\S]*?)<\/status>/i.exec(xml)?.[1] ?? xml;
	const code = /<code\b[^>]*>\s*(\d+)\s*<\/code>/i.exec(status)?.[1];
	if (code === undefined) return undefined;
	const description = /<description\b[^>]*>([\s\S]*?)<\/description>/i.exec(status)?.[1] ?? '';
	return { code: Number(code), description: decodeXmlText(description.trim()) };
}

function decodeXmlText(text: string): string {
	return text
		.replace(/^<!\[CDATA\[([\s\S]*)\]\]>$/, '$1')
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&quot;/g, '"')
		.replace(/&apos;/g, "'")
		.replace(/&amp;/g, '&');
}

/** A short, safe excerpt of an unexpected body for an error description. */
export function excerpt(text: string, max = 200): string {
	const flat = text
		.replace(/<[^>]+>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();
	return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

export function isDataObject(value: unknown): value is IDataObject {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

// ---- the 401 plain-text answers of both services, each turned into what to do ----------------

export function unauthorizedFailure(context: FailureContext, decoded: DecodedAnswer) {
	const text = 'text' in decoded ? decoded.text.trim() : '';
	const known = UNAUTHORIZED_TEXTS.find(({ pattern }) => pattern.test(text));
	if (known) {
		return serviceError(
			context,
			`${context.serviceLabel} refused ${context.operation}: ${known.meaning}`,
			`${known.hint}. The service said: "${excerpt(text, 120)}".`,
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
