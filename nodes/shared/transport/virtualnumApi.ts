/**
 * Transport of the virtual number service, requests: every call goes to `{base_url}/api/` with
 * `service=<name>` and always `format=json`, and every answer becomes either the parsed answer
 * or a NodeApiError naming the operation, the status code, its meaning and the service's words.
 * Uploads (multipart) are in virtualnumUpload.ts, file downloads in virtualnumDownload.ts.
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
	JsonObject,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	describeStatusCode,
	INTERNAL_ERROR_CODE,
	NO_RESULT_CODES,
	SUCCESS_CODE,
	UNAUTHORIZED_CODE,
} from '../statusCodes';
import {
	baseUrlFrom,
	decodeAnswer,
	type DecodedAnswer,
	excerpt,
	type FailureContext,
	isDataObject,
	type RawAnswer,
	type RequestContext,
	sendRequest,
	serviceError,
	isRefusal,
	rateLimitedAnswer,
	unauthorizedFailure,
} from './http';

export const VIRTUALNUM_CREDENTIAL = 'virtualnumApi';
export const VIRTUALNUM_LABEL = 'Virtual Number';

export interface VirtualnumAnswer {
	service: string;
	status: { code: number; description: string } & IDataObject;
	result: unknown;
	/** The whole answer object, for operations that answer keys beside `result`. */
	answer: IDataObject;
}

export interface VirtualnumRequest {
	service: string;
	params?: IDataObject;
	/** Reads go as GET; writes as POST so values (passwords, notes) stay out of URLs and logs. */
	method?: IHttpRequestMethods;
	itemIndex?: number;
	timeoutMs?: number;
	/**
	 * The one way an operation says that "no results" is an empty result, not a failure: `true`
	 * for the operation's no-results codes of the catalogue (NO_RESULT_CODES), or a function that
	 * decides on the status for a code that also means something else (cdr_query's 1013).
	 */
	noResultsAsEmpty?: boolean | ((status: { code: number; description: string }) => boolean);
	sideEffect?: boolean;
	/** Parameters sent even when empty (an empty callback_url clears a number's callback). */
	sendEmpty?: string[];
	/** Extra request options, e.g. a multipart body for uploads. */
	requestOptions?: Partial<IHttpRequestOptions>;
	/**
	 * The credential as the caller already read it for this run, not read again for this request:
	 * n8n 2.x resolves a trigger's credential in a new expression isolate at every read: 300 for a
	 * poll of 100 recordings, which made it about 4 times slower.
	 */
	credentials?: ICredentialDataDecryptedObject;
}

/** The word the contract names identifiers with; an account may use another (the credential's Identifier Word). */
export const IDENTIFIER_WORD = 'virtualnum';

/** The credential's Identifier Word, the contract's when empty. */
export function identifierWordOf(credentials: IDataObject): string {
	return String(credentials.identifierWord ?? '').trim() || IDENTIFIER_WORD;
}

/** Letters and digits only: the word is placed into names and into a pattern. */
export function isIdentifierWord(word: string): boolean {
	return /^[a-z][a-z0-9]{0,31}$/i.test(word);
}

async function virtualnumCredential(
	this: RequestContext,
	read?: ICredentialDataDecryptedObject,
): Promise<{ baseUrl: string; word: string }> {
	const credentials: ICredentialDataDecryptedObject =
		read ?? (await this.getCredentials(VIRTUALNUM_CREDENTIAL));
	const baseUrl = baseUrlFrom(credentials.baseUrl, VIRTUALNUM_LABEL, this.getNode());
	const word = identifierWordOf(credentials);
	if (!isIdentifierWord(word)) {
		throw new NodeOperationError(
			this.getNode(),
			`The Virtual Number credential's Identifier Word "${word.slice(0, 40)}" is not a word`,
			{
				description:
					'Enter the word your provider names numbers with (letters and digits, e.g. did), ' +
					`or leave it empty for "${IDENTIFIER_WORD}".`,
			},
		);
	}
	return { baseUrl, word };
}

/**
 * A service, parameter or answer key named with one identifier word, named with another: the word
 * as a whole part of the name (`get_virtualnum`, `virtualnum1`, `virtualnum_old`, `new_virtualnum`).
 */
function renameWord(name: string, from: string, to: string): string {
	if (from === to || !name.toLowerCase().includes(from.toLowerCase())) return name;
	const part = new RegExp(`(^|_)${from}(?=$|_|\\d)`, 'gi');
	return name.replace(part, `$1${to}`);
}

/** An answer (or a callback) with every key, and the `service` it names, in the contract's word again. */
export function withContractWord(value: unknown, word: string): unknown {
	if (word === IDENTIFIER_WORD) return value;
	if (Array.isArray(value)) return value.map((entry) => withContractWord(entry, word));
	if (!isDataObject(value)) return value;
	const renamed: IDataObject = {};
	for (const [key, entry] of Object.entries(value)) {
		const name = renameWord(key, word, IDENTIFIER_WORD);
		const value =
			key === 'service' && typeof entry === 'string'
				? renameWord(entry, word, IDENTIFIER_WORD)
				: withContractWord(entry, word);
		// defineProperty: a key named __proto__ (a callback can carry one) stays a plain key.
		Object.defineProperty(renamed, name, {
			value,
			enumerable: true,
			writable: true,
			configurable: true,
		});
	}
	return renamed;
}

/** Parameters as the service wants them: no empty values (but those in `sendEmpty`), everything as text. */
export function cleanParams(
	params: IDataObject = {},
	sendEmpty: string[] = [],
): Record<string, string> {
	const clean: Record<string, string> = {};
	for (const [key, value] of Object.entries(params)) {
		if (value === undefined || value === null) continue;
		if (value === '' && !sendEmpty.includes(key)) continue;
		clean[key] = typeof value === 'object' ? JSON.stringify(value) : String(value);
	}
	return clean;
}

function buildVirtualnumRequest(
	baseUrl: string,
	request: VirtualnumRequest,
	word: string,
): IHttpRequestOptions {
	const method = request.method ?? 'GET';
	const params = Object.fromEntries(
		Object.entries(cleanParams(request.params, request.sendEmpty)).map(([key, value]) => [
			renameWord(key, IDENTIFIER_WORD, word),
			value,
		]),
	);
	const qs: IDataObject = {
		service: renameWord(request.service, IDENTIFIER_WORD, word),
		format: 'json',
	};
	const options: IHttpRequestOptions = {
		method,
		url: `${baseUrl}/api/`,
		qs,
		json: false,
		encoding: 'text',
		timeout: request.timeoutMs,
		...request.requestOptions,
	};
	if (request.requestOptions?.body !== undefined) return options;
	if (method === 'GET') {
		Object.assign(qs, params);
	} else {
		options.body = new URLSearchParams(params).toString();
		options.headers = { 'Content-Type': 'application/x-www-form-urlencoded' };
	}
	return options;
}

export async function virtualnumRequest(
	this: RequestContext,
	request: VirtualnumRequest,
): Promise<VirtualnumAnswer> {
	const credentials = await credentialOf.call(this, request);
	const { context, options } = await prepareRequest.call(this, { ...request, credentials });
	const raw = await sendRequest.call(this, VIRTUALNUM_CREDENTIAL, options, context, credentials);
	return readVirtualnumAnswer(raw, context, request.noResultsAsEmpty);
}

/**
 * The credential the caller read for its run (a poll reads it once), else read here once for the
 * request: n8n queries and decrypts it at every read, and the request needs it three times (the Base
 * URL, the tokens to mask, the authentication).
 */
export async function credentialOf(
	this: RequestContext,
	request: Pick<VirtualnumRequest, 'credentials'>,
): Promise<ICredentialDataDecryptedObject> {
	return request.credentials ?? (await this.getCredentials(VIRTUALNUM_CREDENTIAL));
}

/** The HTTP options of a request and the context its failures are reported in (also for uploads and downloads). */
export async function prepareRequest(
	this: RequestContext,
	request: VirtualnumRequest,
): Promise<{ context: FailureContext; options: IHttpRequestOptions }> {
	const { baseUrl, word } = await virtualnumCredential.call(this, request.credentials);
	const context: FailureContext = {
		node: this.getNode(),
		serviceLabel: VIRTUALNUM_LABEL,
		operation: request.service,
		itemIndex: request.itemIndex,
		sideEffect: request.sideEffect,
		identifierWord: word,
	};
	return { context, options: buildVirtualnumRequest(baseUrl, request, word) };
}

/** Interprets one answer; shared by the node operations, the trigger and the credential test. */
export function readVirtualnumAnswer(
	raw: RawAnswer,
	context: FailureContext,
	noResultsAsEmpty: VirtualnumRequest['noResultsAsEmpty'] = false,
): VirtualnumAnswer {
	const decoded = inContractWord(decodeAnswer(raw.body), context.identifierWord);
	if (isRefusal(raw, decoded)) throw unauthorizedFailure(context, decoded);
	const rateLimited = rateLimitedAnswer(context, raw);
	if (rateLimited) throw rateLimited;
	if (raw.statusCode < 200 || raw.statusCode >= 300)
		throw httpFailure(context, raw.statusCode, decoded);

	const answer = asAnswerObject(context, decoded);
	const status = answer.status as VirtualnumAnswer['status'];
	const code = Number(status.code);
	if (code === SUCCESS_CODE) {
		return {
			service: String(answer.service ?? context.operation),
			status,
			result: answer.result,
			answer,
		};
	}
	if (
		isNoResults(
			context.operation,
			{ code, description: String(status.description ?? '') },
			noResultsAsEmpty,
		)
	) {
		return { service: String(answer.service ?? context.operation), status, result: [], answer };
	}
	throw statusFailure(context, code, String(status.description ?? ''), answer);
}

/** The decoded answer named in the contract's word, whatever word the account uses. */
function inContractWord(decoded: DecodedAnswer, word = IDENTIFIER_WORD): DecodedAnswer {
	return decoded.kind === 'json' && word !== IDENTIFIER_WORD
		? { kind: 'json', value: withContractWord(decoded.value, word) }
		: decoded;
}

function isNoResults(
	operation: string,
	status: { code: number; description: string },
	noResultsAsEmpty: VirtualnumRequest['noResultsAsEmpty'],
): boolean {
	if (!noResultsAsEmpty || !(NO_RESULT_CODES[operation] ?? []).includes(status.code)) return false;
	return noResultsAsEmpty === true || noResultsAsEmpty(status);
}

function asAnswerObject(context: FailureContext, decoded: DecodedAnswer): IDataObject {
	if (
		decoded.kind === 'json' &&
		isDataObject(decoded.value) &&
		isDataObject(decoded.value.status)
	) {
		const status = decoded.value.status;
		if (status.code !== undefined && Number.isFinite(Number(status.code))) return decoded.value;
	}
	if (decoded.kind === 'xml' && decoded.status) {
		if (decoded.status.code !== SUCCESS_CODE) {
			throw statusFailure(context, decoded.status.code, decoded.status.description);
		}
		throw serviceError(
			context,
			`The ${VIRTUALNUM_LABEL} service answered ${context.operation} in XML instead of JSON`,
			'The service reported success, but ignored format=json, so the result cannot be read. ' +
				(context.sideEffect ? 'The change was made. ' : '') +
				'Try again; if it persists, tell the provider that format=json is ignored.',
			undefined,
			{ code: decoded.status.code },
		);
	}
	throw unexpectedAnswer(context, decoded);
}

export function statusFailure(
	context: FailureContext,
	code: number,
	description: string,
	answer?: IDataObject,
) {
	const info = describeStatusCode(context.operation, code);
	const meaning = info?.meaning ?? 'Unknown status code';
	const parts = [
		description ? `The service said: "${description}".` : '',
		info?.hint ? `${info.hint}.` : '',
		info?.assumed
			? '(The spec lists no codes for this operation; the meaning is the one this package assumes.)'
			: '',
		info?.reported
			? '(The spec lists no codes for this operation; public integrations with the service report this one.)'
			: '',
		code === INTERNAL_ERROR_CODE && context.sideEffect
			? 'The change may or may not have been made: check before repeating it.'
			: '',
	].filter(Boolean);
	return serviceError(
		context,
		`${VIRTUALNUM_LABEL} ${context.operation} failed: ${meaning} (code ${code})`,
		parts.join(' ') || `Status code ${code}.`,
		code === UNAUTHORIZED_CODE ? UNAUTHORIZED_CODE : undefined,
		{ code, description, ...(answer ? { answer: answer as JsonObject } : {}) },
	);
}

function httpFailure(context: FailureContext, statusCode: number, decoded: DecodedAnswer) {
	if (
		decoded.kind === 'json' &&
		isDataObject(decoded.value) &&
		isDataObject(decoded.value.status)
	) {
		const status = decoded.value.status;
		return statusFailure(
			context,
			Number(status.code),
			String(status.description ?? ''),
			decoded.value,
		);
	}
	const body = 'text' in decoded ? excerpt(decoded.text) : '';
	const server = statusCode >= 500;
	return serviceError(
		context,
		`The ${VIRTUALNUM_LABEL} service answered ${context.operation} with HTTP ` +
			`${statusCode}${server ? ' (server error)' : ''}`,
		[
			body ? `Answer: "${body}".` : 'The answer was empty.',
			server && context.sideEffect
				? 'The request may have been carried out before the failure: check before running it again.'
				: server
					? 'Try again later.'
					: "Check the credential's Base URL.",
		].join(' '),
		statusCode,
	);
}

export function unexpectedAnswer(context: FailureContext, decoded: DecodedAnswer) {
	const what: Record<DecodedAnswer['kind'], string> = {
		json: 'a JSON answer without a status',
		xml: 'an XML answer without a status',
		html: 'an HTML page instead of the service answer',
		text: 'an answer that is not valid JSON (it may have been cut off)',
		empty: 'an empty answer',
	};
	const body =
		'text' in decoded
			? excerpt(decoded.text)
			: decoded.kind === 'json'
				? excerpt(JSON.stringify(decoded.value))
				: '';
	return serviceError(
		context,
		`The ${VIRTUALNUM_LABEL} service answered ${context.operation} with ${what[decoded.kind]}`,
		[
			body ? `Answer: "${body}".` : '',
			decoded.kind === 'html'
				? "A proxy or a wrong Base URL is the usual cause: check the credential's Base URL."
				: context.sideEffect
					? 'The request may have been carried out: check before running it again.'
					: 'Try again; if it persists, check the Base URL.',
		]
			.filter(Boolean)
			.join(' '),
	);
}
