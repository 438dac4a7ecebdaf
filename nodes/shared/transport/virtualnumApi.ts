/**
 * Transport of the virtual number service: every call goes to `{base_url}/api/` with
 * `service=<name>` and always `format=json`, and every answer becomes either the parsed answer
 * or a NodeApiError naming the operation, the status code, its meaning and the service's words.
 */
import type { IDataObject, IHttpRequestMethods, IHttpRequestOptions, JsonObject } from 'n8n-workflow';

import { NO_RESULT_CODES, SUCCESS_CODE, describeStatusCode } from '../statusCodes';
import { decodeAnswer, excerpt, isDataObject, type DecodedAnswer } from './answer';
import {
	baseUrlFrom,
	sendRequest,
	serviceError,
	type FailureContext,
	type RawAnswer,
	type RequestContext,
} from './http';
import { unauthorizedFailure } from './unauthorized';

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
	/** Answer an empty result instead of failing on the operation's "no results" code. */
	noResultsAsEmpty?: boolean;
	sideEffect?: boolean;
	/** Extra request options, e.g. a multipart body for uploads. */
	requestOptions?: Partial<IHttpRequestOptions>;
}

export async function virtualnumBaseUrl(this: RequestContext): Promise<string> {
	const credentials = await this.getCredentials(VIRTUALNUM_CREDENTIAL);
	return baseUrlFrom(credentials.baseUrl, VIRTUALNUM_LABEL, this.getNode());
}

/** Parameters as the service wants them: no empty values, everything as text. */
export function cleanParams(params: IDataObject = {}): Record<string, string> {
	const clean: Record<string, string> = {};
	for (const [key, value] of Object.entries(params)) {
		if (value === undefined || value === null || value === '') continue;
		clean[key] = typeof value === 'object' ? JSON.stringify(value) : String(value);
	}
	return clean;
}

export function buildVirtualnumRequest(baseUrl: string, request: VirtualnumRequest): IHttpRequestOptions {
	const method = request.method ?? 'GET';
	const params = cleanParams(request.params);
	const qs: IDataObject = { service: request.service, format: 'json' };
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
	const baseUrl = await virtualnumBaseUrl.call(this);
	const context: FailureContext = {
		node: this.getNode(),
		serviceLabel: VIRTUALNUM_LABEL,
		operation: request.service,
		itemIndex: request.itemIndex,
		sideEffect: request.sideEffect,
	};
	const raw = await sendRequest.call(this, VIRTUALNUM_CREDENTIAL, buildVirtualnumRequest(baseUrl, request), context);
	return readVirtualnumAnswer(raw, context, request.noResultsAsEmpty === true);
}

/** Interprets one answer; shared by the node operations, the trigger and the credential test. */
export function readVirtualnumAnswer(
	raw: RawAnswer,
	context: FailureContext,
	noResultsAsEmpty = false,
): VirtualnumAnswer {
	const decoded = decodeAnswer(raw.body);
	if (raw.statusCode === 401) throw unauthorizedFailure(context, decoded);
	if (raw.statusCode < 200 || raw.statusCode >= 300) throw httpFailure(context, raw.statusCode, decoded);

	const answer = asAnswerObject(context, decoded);
	const status = answer.status as VirtualnumAnswer['status'];
	const code = Number(status.code);
	if (code === SUCCESS_CODE) {
		return { service: String(answer.service ?? context.operation), status, result: answer.result, answer };
	}
	if (noResultsAsEmpty && NO_RESULT_CODES[context.operation] === code) {
		return { service: String(answer.service ?? context.operation), status, result: [], answer };
	}
	throw statusFailure(context, code, String(status.description ?? ''), answer);
}

function asAnswerObject(context: FailureContext, decoded: DecodedAnswer): IDataObject {
	if (decoded.kind === 'json' && isDataObject(decoded.value) && isDataObject(decoded.value.status)) {
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
		info?.assumed ? '(The spec lists no codes for this operation; the meaning is the one this package assumes.)' : '',
		code === 999 && context.sideEffect ? 'The change may or may not have been made: check before repeating it.' : '',
	].filter(Boolean);
	return serviceError(
		context,
		`${VIRTUALNUM_LABEL} ${context.operation} failed: ${meaning} (code ${code})`,
		parts.join(' ') || `Status code ${code}.`,
		code === 401 ? 401 : undefined,
		{ code, description, ...(answer ? { answer: answer as JsonObject } : {}) },
	);
}

function httpFailure(context: FailureContext, statusCode: number, decoded: DecodedAnswer) {
	if (decoded.kind === 'json' && isDataObject(decoded.value) && isDataObject(decoded.value.status)) {
		const status = decoded.value.status;
		return statusFailure(context, Number(status.code), String(status.description ?? ''), decoded.value);
	}
	const body = 'text' in decoded ? excerpt(decoded.text) : '';
	const server = statusCode >= 500;
	return serviceError(
		context,
		`The ${VIRTUALNUM_LABEL} service answered ${context.operation} with HTTP ${statusCode}${server ? ' (server error)' : ''}`,
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
	const body = 'text' in decoded ? excerpt(decoded.text) : decoded.kind === 'json' ? excerpt(JSON.stringify(decoded.value)) : '';
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


// ---- binary downloads (call recordings) ----------------------------------------------------------

/** A file the service sent instead of a status answer. */
export interface VirtualnumFile {
	/**
	 * The bytes: the response stream, still unread past `head`, so n8n's binary helpers take it
	 * as it arrives (no second copy in memory); or a buffer when the whole file arrived with `head`.
	 */
	data: Buffer | NodeJS.ReadableStream;
	/** The first bytes, for type detection. */
	head: Buffer;
	contentType: string;
	/** An error the stream raised after it was handed over, if any (set once the stream failed). */
	streamError: () => Error | undefined;
}

const FILE_HEAD_BYTES = 64;
/** Status answers are small; an "error answer" larger than this is not read further. */
const MAX_STATUS_ANSWER_BYTES = 1024 * 1024;
/** Content types of status answers (JSON, XML, HTML, text): never a file. */
const STATUS_CONTENT_TYPE = /^\s*(application\/(json|xml|[\w.+-]+\+(json|xml))|text\/)/i;

/**
 * Requests an operation that answers a file on success and a JSON or XML status answer on error
 * (get_record_by_call_uuid). The status answer is recognised by the HTTP status, the content type
 * and the first bytes (a file never starts with `{` or `<`), and becomes the usual error: an error
 * answer never reaches the caller as a file.
 */
export async function virtualnumDownload(this: RequestContext, request: VirtualnumRequest): Promise<VirtualnumFile> {
	const baseUrl = await virtualnumBaseUrl.call(this);
	const context: FailureContext = {
		node: this.getNode(),
		serviceLabel: VIRTUALNUM_LABEL,
		operation: request.service,
		itemIndex: request.itemIndex,
		sideEffect: request.sideEffect,
	};
	const options = buildVirtualnumRequest(baseUrl, {
		...request,
		requestOptions: { ...request.requestOptions, encoding: 'stream' },
	});
	const raw = await sendRequest.call(this, VIRTUALNUM_CREDENTIAL, options, context);
	const contentType = headerValue(raw.headers['content-type']);
	const stream = raw.body as NodeJS.ReadableStream;
	const failure: { error?: Error } = {};
	// Keeps a late stream error (connection lost mid-file) from becoming an uncaught exception;
	// whoever reads the stream gets it too.
	stream.on('error', (error: Error) => {
		failure.error = error;
	});
	let head: Buffer;
	let ended: boolean;
	try {
		({ head, ended } = await readHead(stream, FILE_HEAD_BYTES));
	} catch (error) {
		throw downloadFailure(context, error as Error);
	}
	const statusAnswer =
		raw.statusCode < 200 ||
		raw.statusCode >= 300 ||
		STATUS_CONTENT_TYPE.test(contentType) ||
		/^(\uFEFF)?\s*[{<[]/.test(head.toString('utf8'));
	if (statusAnswer || head.length === 0) {
		let body = head;
		if (!ended) {
			try {
				body = Buffer.concat([head, await readRest(stream, MAX_STATUS_ANSWER_BYTES - head.length)]);
			} catch (error) {
				throw downloadFailure(context, error as Error);
			}
		}
		// Throws the status failure (or "empty answer", "HTML page", ...) for every non-success answer.
		const answer = readVirtualnumAnswer({ ...raw, body: body.toString('utf8') }, context);
		throw serviceError(
			context,
			`The ${VIRTUALNUM_LABEL} service answered ${context.operation} with a status instead of a file`,
			`The status said: "${answer.status.description || answer.status.code}". No file was produced. Try again; if it persists, contact the provider.`,
			undefined,
			{ code: answer.status.code },
		);
	}
	if (ended) return { data: head, head, contentType, streamError: () => failure.error };
	stream.unshift(head);
	return { data: stream, head, contentType, streamError: () => failure.error };
}

/** The error of a download that broke off while the answer was being read. */
export function downloadFailure(context: FailureContext, error: Error) {
	return serviceError(
		context,
		`The download from the ${VIRTUALNUM_LABEL} service (${context.operation}) broke off: ${error.message}`,
		'The connection was lost or timed out while the file arrived. Try again, or raise the "Timeout" option for files fetched from the archive.',
		undefined,
		{ code: (error as { code?: string }).code ?? 'DOWNLOAD_FAILED' },
	);
}

function headerValue(value: string | string[] | undefined): string {
	return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
}

function toBuffer(chunk: Buffer | string): Buffer {
	return typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
}

/**
 * Reads at least `size` bytes (or up to the end) in paused mode ('readable' + read()), so that
 * once the listener is gone the stream is neither flowing nor explicitly paused: whoever takes it
 * next starts it simply by listening (an explicit pause() would leave it stuck).
 */
function readHead(stream: NodeJS.ReadableStream, size: number): Promise<{ head: Buffer; ended: boolean }> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let length = 0;
		const cleanup = () => {
			stream.removeListener('readable', onReadable);
			stream.removeListener('end', onEnd);
			stream.removeListener('error', onError);
		};
		const onReadable = () => {
			let chunk: Buffer | string | null;
			while (length < size && (chunk = stream.read()) !== null) {
				const buffer = toBuffer(chunk);
				chunks.push(buffer);
				length += buffer.length;
			}
			if (length >= size) {
				cleanup();
				resolve({ head: Buffer.concat(chunks), ended: false });
			}
		};
		const onEnd = () => {
			cleanup();
			resolve({ head: Buffer.concat(chunks), ended: true });
		};
		const onError = (error: Error) => {
			cleanup();
			reject(error);
		};
		stream.on('readable', onReadable);
		stream.on('end', onEnd);
		stream.on('error', onError);
	});
}

/** Reads the rest of a (status) answer, at most `max` bytes; the connection is dropped beyond. */
function readRest(stream: NodeJS.ReadableStream, max: number): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let length = 0;
		const finish = () => {
			stream.removeListener('data', onData);
			stream.removeListener('end', finish);
			stream.removeListener('error', onError);
			resolve(Buffer.concat(chunks));
		};
		const onData = (chunk: Buffer | string) => {
			const buffer = toBuffer(chunk);
			chunks.push(buffer.subarray(0, Math.max(0, max - length)));
			length += buffer.length;
			if (length >= max) {
				(stream as { destroy?: () => void }).destroy?.();
				finish();
			}
		};
		const onError = (error: Error) => {
			stream.removeListener('data', onData);
			stream.removeListener('end', finish);
			reject(error);
		};
		stream.on('data', onData);
		stream.on('end', finish);
		stream.on('error', onError);
		stream.resume();
	});
}
