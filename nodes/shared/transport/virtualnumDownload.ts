/**
 * Transport of the virtual number service, file downloads (get_record_by_call_uuid,
 * download_prompt). Both follow one rule:
 *
 * - the answer is a file only if its bytes are audio (nodes/shared/audio.ts), whatever its
 *   Content-Type says; a status answer (JSON or XML) becomes the usual error naming its code, and
 *   anything else an error that quotes what came instead;
 * - the file must be complete: a WAV as long as its RIFF header announces, a body as long as its
 *   Content-Length;
 * - at most MAX_DOWNLOAD_BYTES, the upload limit (50 MB): an answer that announces more is refused
 *   before its bytes are read, one that does not is cut off when they pass the limit.
 *
 * The answer stream itself is handed on (n8n writes it through in filesystem binary mode). Community
 * nodes may import no Node module but crypto (n8n's rule), so there is no Transform to check the
 * bytes on their way: the stream's own `push` is wrapped to count what arrives and to end the
 * stream with an error instead of an oversized or short file. The first bytes are read in paused
 * mode and put back; a stream that already ended (n8n 1.x hands some over so) is read the same way.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { messageOf } from '../errors';
import { AUDIO_HEAD_BYTES, sniffAudio, wavAnnouncedLength, type AudioType } from '../audio';
import { LIMITS, MB } from '../checks';
import { SUCCESS_CODE } from '../statusCodes';
import {
	DEFAULT_TIMEOUT_MS,
	decodeAnswer,
	excerpt,
	type FailureContext,
	isDataObject,
	type RawAnswer,
	sendRequest,
	serviceError,
} from './http';
import {
	VIRTUALNUM_CREDENTIAL,
	VIRTUALNUM_LABEL,
	credentialOf,
	prepareRequest,
	readVirtualnumAnswer,
	statusFailure,
	unexpectedAnswer,
	type VirtualnumRequest,
} from './virtualnumApi';

/** The largest file either download accepts: the upload limit of the spec (upload_prompt, 50 MB). */
const MAX_DOWNLOAD_BYTES = LIMITS.promptFile.maxBytes;
/** download_prompt appends its status after the file: room for it past the file limit. */
const STATUS_TAIL_BYTES = 64 * 1024;
/** Status answers are small; an "error answer" larger than this is not read further. */
const MAX_STATUS_ANSWER_BYTES = 1024 * 1024;
/** Content types of status answers (JSON, XML, HTML, text). */
const STATUS_CONTENT_TYPE = /^\s*(application\/(json|xml|[\w.+-]+\+(json|xml))|text\/)/i;

/** What this module uses of a Node.js Readable (the answer stream), without importing node:stream. */
interface AnswerStream extends NodeJS.ReadableStream {
	push(chunk: unknown, encoding?: BufferEncoding): boolean;
	destroy(error?: Error): this;
	readonly readableLength: number;
	readonly readableEnded: boolean;
}

interface VirtualnumDownload {
	/**
	 * The answer from its first byte: the stream, as it arrives (it fails, see `failure`, when it
	 * breaks the rule), or the whole answer when it arrived with its first bytes.
	 */
	data: AnswerStream | Buffer;
	/** The audio type the first bytes show. */
	audio: AudioType;
	/** File name from Content-Disposition, when given. */
	fileName?: string;
	/** The error the stream was ended with, when it broke the rule. */
	failure: () => NodeApiError | undefined;
}

/** What passed through a stream's push: bytes, whether it ended, and what must arrive. */
interface Tally {
	received: number;
	ended: boolean;
	expected: number;
	limit: number;
	failure?: NodeApiError;
}

/** Requests a file; fails before handing anything on when the answer is not audio. */
export async function virtualnumDownload(
	this: IExecuteFunctions,
	request: VirtualnumRequest & { statusAppended?: boolean },
): Promise<VirtualnumDownload> {
	const credentials = await credentialOf.call(this, request);
	const { context, options } = await prepareRequest.call(this, {
		...request,
		credentials,
		requestOptions: { ...request.requestOptions, encoding: 'stream' },
	});
	const raw = await sendRequest.call(this, VIRTUALNUM_CREDENTIAL, options, context, credentials);
	const stream = asStream(raw.body);
	const limit = MAX_DOWNLOAD_BYTES + (request.statusAppended ? STATUS_TAIL_BYTES : 0);
	const tally = countPushes(stream, context, limit);
	endAtDeadline(stream, tally, raw.deadline, context, options.timeout ?? DEFAULT_TIMEOUT_MS);
	const head = await readBytes(stream, 64, context);
	const ok = raw.statusCode >= 200 && raw.statusCode < 300;
	const audio = ok ? sniffAudio(head) : undefined;
	if (!audio) {
		try {
			throw looksLikeStatus(raw, head)
				? await statusInsteadOfFile(raw, head, stream, context)
				: notAudio(context, raw, head);
		} finally {
			stream.destroy();
		}
	}
	tally.expected = Math.max(
		wavAnnouncedLength(head) ?? 0,
		Number(header(raw, 'content-length')) || 0,
	);
	// A file that announces more than the limit is refused before its bytes are read.
	if (tally.expected > tally.limit) tally.failure = tooLarge(context, tally.expected);
	const early = tally.failure ?? (tally.ended ? shortOf(tally, context) : undefined);
	if (early) {
		stream.destroy();
		throw early;
	}
	// A stream that already emitted 'end' takes nothing back: the whole answer is the head then.
	const data = stream.readableEnded ? head : (stream.unshift(head), stream);
	return {
		data,
		audio,
		fileName: fileNameFromDisposition(header(raw, 'content-disposition')),
		failure: () => tally.failure,
	};
}

function asStream(body: unknown): AnswerStream {
	const stream = body as Partial<AnswerStream> | undefined;
	if (stream && typeof stream.push === 'function' && typeof stream.read === 'function')
		return stream as AnswerStream;
	throw new Error('The download did not arrive as a stream');
}

/**
 * Counts every chunk the stream's producer pushes (what was buffered before counts too) and ends
 * the stream with an error when it passes the limit, or ends short of what it announced.
 */
function countPushes(stream: AnswerStream, context: FailureContext, limit: number): Tally {
	const state = (stream as unknown as { _readableState?: { ended?: boolean } })._readableState;
	const tally: Tally = {
		received: stream.readableLength,
		ended: state?.ended === true,
		expected: 0,
		limit,
	};
	const push = stream.push.bind(stream);
	stream.push = (chunk: unknown, encoding?: BufferEncoding) => {
		if (tally.failure) return false;
		if (chunk === null) {
			tally.ended = true;
			const short = shortOf(tally, context);
			if (short) {
				stream.destroy((tally.failure = short));
				return false;
			}
			return push(null);
		}
		tally.received +=
			typeof chunk === 'string' ? Buffer.byteLength(chunk, encoding) : (chunk as Buffer).length;
		if (tally.received > tally.limit) {
			stream.destroy((tally.failure = tooLarge(context)));
			return false;
		}
		return push(chunk, encoding);
	};
	return tally;
}

/**
 * Ends the stream with a timeout error when the request's deadline passes before its last byte:
 * a service that sends the headers and then nothing, or a byte now and then, cannot keep a
 * download open past the Timeout (n8n's own timeout only bounds a silent socket).
 */
function endAtDeadline(
	stream: AnswerStream,
	tally: Tally,
	deadline: AbortSignal | undefined,
	context: FailureContext,
	timeoutMs: number,
): void {
	if (!deadline) return;
	const onDeadline = () => {
		if (tally.failure || tally.ended) return;
		const failure = (tally.failure = timedOut(context, tally.received, timeoutMs));
		// Told to the readers at once: destroying n8n 2.x's answer stream (axios's Readable.from over
		// the socket) waits for a chunk that a silent service never sends, so its own 'error' would
		// not come. Whatever the abandoned stream reports later is this same failure.
		stream.on('error', () => {});
		stream.emit('error', failure);
		stream.destroy();
	};
	if (deadline.aborted) return onDeadline();
	deadline.addEventListener('abort', onDeadline, { once: true });
	stream.once('close', () => deadline.removeEventListener('abort', onDeadline));
}

function timedOut(context: FailureContext, received: number, timeoutMs: number): NodeApiError {
	return serviceError(
		context,
		`The download from the ${VIRTUALNUM_LABEL} service (${context.operation}) did not end within ` +
			`${Math.round(timeoutMs / 1000)} s; it was stopped after ${received} bytes`,
		'The Timeout bounds the whole download, the file included. Try again, or raise the ' +
			'"Timeout" option for long recordings fetched from the archive.',
		undefined,
		{ networkCode: 'ETIMEDOUT' },
	);
}

/** The error of a stream that ended before what it announced had arrived, if it did. */
function shortOf(tally: Tally, context: FailureContext): NodeApiError | undefined {
	if (tally.received > tally.limit) return (tally.failure = tooLarge(context));
	if (tally.received < tally.expected)
		return (tally.failure = incomplete(context, tally.received, tally.expected));
	return undefined;
}

/**
 * Reads up to `size` bytes in paused mode ('readable' + read()), fewer when the stream ends first.
 * Once the listener is gone the stream is neither flowing nor explicitly paused: whoever takes it
 * next starts it simply by listening. A stream that has already ended, buffered bytes or not, is
 * read without waiting for an 'end' that will not come again.
 */
function readBytes(stream: AnswerStream, size: number, context: FailureContext): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let length = 0;
		const cleanup = () => {
			stream.removeListener('readable', onReadable);
			stream.removeListener('end', onEnd);
			stream.removeListener('error', onError);
		};
		const onEnd = () => {
			cleanup();
			resolve(Buffer.concat(chunks));
		};
		const onError = (error: Error) => {
			cleanup();
			reject(error instanceof NodeApiError ? error : downloadFailure(context, error));
		};
		const onReadable = () => {
			let chunk: Buffer | string | null;
			while (length < size && (chunk = stream.read()) !== null) {
				const buffer = toBuffer(chunk);
				chunks.push(buffer);
				length += buffer.length;
			}
			if (length >= size || stream.readableEnded) onEnd();
		};
		if (stream.readableEnded) return resolve(Buffer.alloc(0));
		stream.on('readable', onReadable);
		stream.on('end', onEnd);
		stream.on('error', onError);
	});
}

function header(raw: RawAnswer, name: string): string {
	const value = raw.headers[name];
	return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
}

function looksLikeStatus(raw: RawAnswer, head: Buffer): boolean {
	if (raw.statusCode < 200 || raw.statusCode >= 300 || head.length === 0) return true;
	return (
		STATUS_CONTENT_TYPE.test(header(raw, 'content-type')) ||
		/^(\uFEFF)?\s*[{<[]/.test(head.toString('utf8'))
	);
}

/** The error of a status answer (or of a success that brought no file). */
async function statusInsteadOfFile(
	raw: RawAnswer,
	head: Buffer,
	stream: AnswerStream,
	context: FailureContext,
): Promise<NodeApiError> {
	const rest = await readBytes(stream, MAX_STATUS_ANSWER_BYTES - head.length, context);
	const answer = readVirtualnumAnswer(
		{ ...raw, body: Buffer.concat([head, rest]).toString('utf8') },
		context,
	);
	return serviceError(
		context,
		`The ${VIRTUALNUM_LABEL} service answered ${context.operation} with a status instead of a file`,
		`The status said: "${answer.status.description || answer.status.code}". ` +
			`No file was produced. Try again; if it persists, contact the provider.`,
		undefined,
		{ code: answer.status.code },
	);
}

function notAudio(context: FailureContext, raw: RawAnswer, head: Buffer): NodeApiError {
	const type = header(raw, 'content-type');
	const printable = /^[\t\n\r\x20-\x7e\u00a0-\uffff]*$/.test(head.toString('utf8'));
	const shown = printable
		? `"${excerpt(head.toString('utf8'), 60)}"`
		: `bytes ${head.subarray(0, 8).toString('hex').replace(/(..)/g, '$1 ').trim()}`;
	return serviceError(
		context,
		`The ${VIRTUALNUM_LABEL} service answered ${context.operation} with something ` +
			`that is not an audio file${type ? ` (although labelled ${type})` : ''}`,
		`The answer starts with ${shown}. No file was saved. Try again; if it persists, contact the provider.`,
	);
}

/**
 * `announcedBytes`: the size the answer announced (RIFF header or Content-Length), when it did; in
 * the error's data (`maxBytes`, `announcedBytes`) for a caller that reports the size.
 */
function tooLarge(context: FailureContext, announcedBytes?: number): NodeApiError {
	const announced =
		announcedBytes === undefined ? '' : `The answer announced ${announcedBytes} bytes. `;
	return serviceError(
		context,
		`The file from the ${VIRTUALNUM_LABEL} service (${context.operation}) is ` +
			`larger than ${MAX_DOWNLOAD_BYTES / MB} MB; the download was stopped`,
		`${announced}Downloads are limited to ${MAX_DOWNLOAD_BYTES / MB} MB, the service's ` +
			`own limit for uploads. For a long call recording choose the MP3 format ` +
			`(a WAV recording reaches the limit after about 54 minutes).`,
		undefined,
		{ maxBytes: MAX_DOWNLOAD_BYTES, ...(announcedBytes === undefined ? {} : { announcedBytes }) },
	);
}

function incomplete(context: FailureContext, received: number, expected: number): NodeApiError {
	return serviceError(
		context,
		`The file from the ${VIRTUALNUM_LABEL} service (${context.operation}) is ` +
			`incomplete: ${received} of ${expected} bytes arrived`,
		'The connection broke off, or the service sent less than the file announces. No file was saved. Try again.',
		undefined,
		{ networkCode: 'INCOMPLETE' },
	);
}

/** The error of a download that broke off while the answer was being read. */
export function downloadFailure(context: FailureContext, error: Error): NodeApiError {
	return serviceError(
		context,
		`The download from the ${VIRTUALNUM_LABEL} service (${context.operation}) broke off: ${messageOf(error)}`,
		'The connection was lost or timed out while the file arrived. Try again, ' +
			'or raise the "Timeout" option for files fetched from the archive.',
		undefined,
		{ networkCode: (error as { code?: string }).code ?? 'DOWNLOAD_FAILED' },
	);
}

function toBuffer(body: unknown): Buffer {
	if (Buffer.isBuffer(body)) return body;
	if (body instanceof ArrayBuffer) return Buffer.from(body);
	if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
	if (typeof body === 'string') return Buffer.from(body, 'utf8');
	if (body === undefined || body === null) return Buffer.alloc(0);
	return Buffer.from(JSON.stringify(body), 'utf8');
}

// ---- download_prompt: the file followed by status data --------------------------------------------

/** Status data answered as a whole: `{"service":…,"status":{…}}` or `<response>…<status>…</status>…</response>`. */
function readStatusData(bytes: Buffer): { code: number; description: string } | undefined {
	const text = bytes.toString('utf8').trim();
	if (text === '') return undefined;
	const decoded = decodeAnswer(text);
	if (
		decoded.kind === 'json' &&
		isDataObject(decoded.value) &&
		isDataObject(decoded.value.status)
	) {
		const code = Number(decoded.value.status.code);
		if (!Number.isFinite(code)) return undefined;
		return { code, description: String(decoded.value.status.description ?? '') };
	}
	if (decoded.kind === 'xml' && decoded.status && /<\/response>$/i.test(text))
		return decoded.status;
	return undefined;
}

/**
 * Splits an answer into the file and the status data the service appended after it. A WAV file
 * tells its own length (the RIFF header); otherwise the last `{"service"…}` JSON object or
 * `<?xml…`/`<response>` XML block that reads as a complete status answer up to the end is the
 * appended data. Anything else stays part of the file.
 */
function splitAppendedStatus(bytes: Buffer): {
	file: Buffer;
	status?: { code: number; description: string };
} {
	const end = wavAnnouncedLength(bytes.subarray(0, AUDIO_HEAD_BYTES));
	if (end !== undefined && end <= bytes.length) {
		const rest = bytes.subarray(end);
		const status = readStatusData(rest);
		if (status || rest.toString('latin1').trim() === '')
			return { file: bytes.subarray(0, end), status };
	}
	const offset = Math.max(0, bytes.length - STATUS_TAIL_BYTES);
	// latin1 maps every byte to one character, so string positions are byte positions.
	const tail = bytes.toString('latin1', offset);
	for (const pattern of [/\{\s*"(?:service|status)"\s*:/g, /<\?xml\b/g, /<response\b/g]) {
		const positions = [...tail.matchAll(pattern)]
			.map((match) => offset + (match.index ?? 0))
			.reverse();
		for (const position of positions) {
			const status = readStatusData(bytes.subarray(position));
			if (status) return { file: bytes.subarray(0, position), status };
		}
	}
	return { file: bytes };
}

/** The file of a download_prompt answer: the bytes without the appended status, which must say success. */
export function promptFileOf(
	bytes: Buffer,
	context: FailureContext,
): { file: Buffer; strippedBytes: number } {
	const { file, status } = splitAppendedStatus(bytes);
	if (status && status.code !== SUCCESS_CODE)
		throw statusFailure(context, status.code, status.description);
	if (file.length === 0) throw unexpectedAnswer(context, { kind: 'empty' });
	if (file.length > MAX_DOWNLOAD_BYTES) throw tooLarge(context);
	return { file, strippedBytes: bytes.length - file.length };
}

function fileNameFromDisposition(disposition: string): string | undefined {
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
