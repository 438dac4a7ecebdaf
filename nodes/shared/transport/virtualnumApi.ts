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
	const { context, options } = await prepareRequest.call(this, request);
	const raw = await sendRequest.call(this, VIRTUALNUM_CREDENTIAL, options, context);
	return readVirtualnumAnswer(raw, context, request.noResultsAsEmpty === true);
}

/** The HTTP options of a request and the context its failures are reported in. */
async function prepareRequest(
	this: RequestContext,
	request: VirtualnumRequest,
): Promise<{ context: FailureContext; options: IHttpRequestOptions }> {
	const baseUrl = await virtualnumBaseUrl.call(this);
	const context: FailureContext = {
		node: this.getNode(),
		serviceLabel: VIRTUALNUM_LABEL,
		operation: request.service,
		itemIndex: request.itemIndex,
		sideEffect: request.sideEffect,
	};
	return { context, options: buildVirtualnumRequest(baseUrl, request) };
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


// ---- files: multipart upload (upload_prompt) and file downloads with appended status data ----

/** One file part of a multipart/form-data request. */
export interface MultipartFile {
	field: string;
	fileName: string;
	contentType: string;
	data: Buffer;
}

/**
 * A multipart/form-data body built by hand as one Buffer: the package may add no runtime
 * dependency (no `form-data`), and a Buffer body goes through n8n's request helper byte for byte.
 */
export function buildMultipartBody(
	fields: Record<string, string>,
	files: MultipartFile[],
): { body: Buffer; contentType: string } {
	let boundary = '';
	// The boundary must not occur in any part; a random one almost never does, but it is checked.
	do {
		boundary = `----n8nVirtualnum${Date.now().toString(16)}${Math.random().toString(16).slice(2)}`;
	} while (files.some((file) => file.data.includes(boundary)) || Object.values(fields).some((v) => v.includes(boundary)));
	const quote = (text: string) => text.replace(/[\r\n]+/g, ' ').replace(/"/g, '%22');
	const parts: Buffer[] = [];
	for (const [name, value] of Object.entries(fields)) {
		parts.push(
			Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${value}\r\n`, 'utf8'),
		);
	}
	for (const file of files) {
		parts.push(
			Buffer.from(
				`--${boundary}\r\nContent-Disposition: form-data; name="${quote(file.field)}"; filename="${quote(file.fileName)}"\r\n` +
					`Content-Type: ${file.contentType || 'application/octet-stream'}\r\n\r\n`,
				'utf8',
			),
			file.data,
			Buffer.from('\r\n', 'utf8'),
		);
	}
	parts.push(Buffer.from(`--${boundary}--\r\n`, 'utf8'));
	return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** An operation that takes files (upload_prompt): `service` and `format` in the URL, the rest as multipart fields. */
export async function virtualnumUpload(
	this: RequestContext,
	request: VirtualnumRequest & { files: MultipartFile[] },
): Promise<VirtualnumAnswer> {
	const { body, contentType } = buildMultipartBody(cleanParams(request.params), request.files);
	return await virtualnumRequest.call(this, {
		...request,
		params: {},
		method: 'POST',
		requestOptions: { ...request.requestOptions, body, headers: { 'Content-Type': contentType } },
	});
}

export interface VirtualnumFile {
	/** The file, without any status data the service appended. */
	data: Buffer;
	/** Content-Type of the answer, when it names a file type. */
	contentType?: string;
	/** File name from Content-Disposition, when given. */
	fileName?: string;
	/** The status the service appended after the file, when it did. */
	appendedStatus?: { code: number; description: string };
	/** Bytes of appended status data removed from the end of the answer. */
	strippedBytes: number;
}

/**
 * An operation that answers a file (download_prompt): the file bytes, followed by status data
 * (JSON or XML) which is removed so the file is byte-exact. An answer that is a status only
 * (no file) becomes the usual error naming the code.
 */
export async function virtualnumBufferedDownload(this: RequestContext, request: VirtualnumRequest): Promise<VirtualnumFile> {
	const { context, options } = await prepareRequest.call(this, {
		...request,
		requestOptions: { ...request.requestOptions, encoding: 'arraybuffer' },
	});
	const raw = await sendRequest.call(this, VIRTUALNUM_CREDENTIAL, options, context);
	const bytes = toBuffer(raw.body);
	const asText = (): RawAnswer => ({ ...raw, body: bytes.toString('utf8') });
	if (raw.statusCode < 200 || raw.statusCode >= 300) {
		readVirtualnumAnswer(asText(), context);
		throw unexpectedAnswer(context, decodeAnswer(bytes.toString('utf8')));
	}
	const contentType = headerValue(raw.headers['content-type']);
	// The body decides, not the Content-Type: PHP services often label files text/html.
	if (isStatusOnly(bytes) || /^\s*(<!doctype html|<html)/i.test(bytes.subarray(0, 256).toString('latin1'))) {
		// A status answer instead of a file: an error code throws here with its meaning.
		const answer = readVirtualnumAnswer(asText(), context);
		throw serviceError(
			context,
			`The ${VIRTUALNUM_LABEL} service answered ${context.operation} with a status but no file`,
			`The service said: "${answer.status.description}" (code ${answer.status.code}). Try again; if it persists, contact the provider.`,
		);
	}
	if (bytes.length === 0) throw unexpectedAnswer(context, { kind: 'empty' });
	const { file, status } = splitAppendedStatus(bytes);
	if (status && status.code !== SUCCESS_CODE) throw statusFailure(context, status.code, status.description);
	if (file.length === 0) throw unexpectedAnswer(context, { kind: 'empty' });
	return {
		data: file,
		contentType: contentType && !/json|xml|text\//i.test(contentType) ? contentType : undefined,
		fileName: fileNameFromDisposition(headerValue(raw.headers['content-disposition'])),
		appendedStatus: status,
		strippedBytes: bytes.length - file.length,
	};
}

function toBuffer(body: unknown): Buffer {
	if (Buffer.isBuffer(body)) return body;
	if (body instanceof ArrayBuffer) return Buffer.from(body);
	if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
	if (typeof body === 'string') return Buffer.from(body, 'utf8');
	if (body === undefined || body === null) return Buffer.alloc(0);
	return Buffer.from(JSON.stringify(body), 'utf8');
}

/** The whole answer is a status answer (JSON or XML) and carries no file. */
function isStatusOnly(bytes: Buffer): boolean {
	const head = bytes.subarray(0, 64).toString('latin1').replace(/^\uFEFF|^\xEF\xBB\xBF/, '').trimStart();
	if (!head.startsWith('{') && !head.startsWith('<')) return false;
	return readStatusData(bytes) !== undefined;
}

/** Status data answered as a whole: `{"service":…,"status":{…}}` or `<response>…<status>…</status>…</response>`. */
function readStatusData(bytes: Buffer): { code: number; description: string } | undefined {
	const text = bytes.toString('utf8').trim();
	if (text === '') return undefined;
	const decoded = decodeAnswer(text);
	if (decoded.kind === 'json' && isDataObject(decoded.value) && isDataObject(decoded.value.status)) {
		const code = Number(decoded.value.status.code);
		if (!Number.isFinite(code)) return undefined;
		return { code, description: String(decoded.value.status.description ?? '') };
	}
	if (decoded.kind === 'xml' && decoded.status && /<\/response>$/i.test(text)) return decoded.status;
	return undefined;
}

/** How far back from the end appended status data is looked for. */
const STATUS_TAIL_BYTES = 64 * 1024;

/**
 * Splits an answer into the file and the status data the service appended after it. A WAV file
 * tells its own length (the RIFF header); otherwise the last `{"service"…}` JSON object or
 * `<?xml…`/`<response>` XML block that reads as a complete status answer up to the end is the
 * appended data. Anything else stays part of the file.
 */
export function splitAppendedStatus(bytes: Buffer): { file: Buffer; status?: { code: number; description: string } } {
	if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WAVE') {
		const end = 8 + bytes.readUInt32LE(4);
		if (end <= bytes.length) {
			const rest = bytes.subarray(end);
			const status = readStatusData(rest);
			if (status || rest.toString('latin1').trim() === '') return { file: bytes.subarray(0, end), status };
		}
	}
	const offset = Math.max(0, bytes.length - STATUS_TAIL_BYTES);
	// latin1 maps every byte to one character, so string positions are byte positions.
	const tail = bytes.toString('latin1', offset);
	const candidates = [/\{\s*"(?:service|status)"\s*:/g, /<\?xml\b/g, /<response\b/g];
	for (const pattern of candidates) {
		const positions = [...tail.matchAll(pattern)].map((match) => offset + (match.index ?? 0)).reverse();
		for (const position of positions) {
			const status = readStatusData(bytes.subarray(position));
			if (status) return { file: bytes.subarray(0, position), status };
		}
	}
	return { file: bytes };
}

function fileNameFromDisposition(disposition: string | undefined): string | undefined {
	if (!disposition) return undefined;
	const encoded = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition)?.[1];
	if (encoded) {
		try {
			return decodeURIComponent(encoded.trim());
		} catch {
			// fall through to the plain parameter
		}
	}
	const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;\s]+)/.exec(disposition);
	const name = (plain?.[1] ?? plain?.[2] ?? '').trim();
	return name === '' ? undefined : name;
}

// ---- binary downloads (call recordings) ----------------------------------------------------------

/** A file the service sent instead of a status answer. */
export interface VirtualnumStream {
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
export async function virtualnumStreamDownload(
	this: RequestContext,
	request: VirtualnumRequest,
): Promise<VirtualnumStream> {
	const { context, options } = await prepareRequest.call(this, {
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
		{ networkCode: (error as { code?: string }).code ?? 'DOWNLOAD_FAILED' },
	);
}

function headerValue(value: string | string[] | undefined): string {
	return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
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
