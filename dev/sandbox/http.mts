// Request parsing shared by both services (query string, urlencoded, JSON and multipart bodies) and
// answer writing (JSON, XML, plain text, streamed binaries).
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import busboy from 'busboy';
import { XMLBuilder } from 'fast-xml-parser';

/** upload_prompt's limit; bigger files are hashed and counted but not kept. */
export const MAX_FILE_BYTES = 50 * 1024 * 1024;
/** Non-multipart bodies are buffered; anything bigger than this is refused. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

export interface UploadedFile {
	field: string;
	filename: string;
	contentType: string;
	size: number;
	sha256: string;
	/** The bytes, or undefined when the file was larger than MAX_FILE_BYTES. */
	data?: Buffer;
}

export interface ParsedRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string>;
	/** Parsed body: params object (urlencoded, multipart fields) or the JSON value; {} when empty. */
	body: unknown;
	/** Query and body parameters merged (body wins, as PHP's $_REQUEST does). */
	params: Record<string, string>;
	files: UploadedFile[];
	rawBodySize: number;
	clientIp: string;
	receivedAt: string;
}

export class BadRequest extends Error {
	constructor(
		message: string,
		readonly status = 400,
	) {
		super(message);
	}
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(req.headers)) {
		if (value !== undefined)
			headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
	}
	return headers;
}

function searchToObject(params: URLSearchParams): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [key, value] of params) out[key] = value;
	return out;
}

/** JSON bodies may carry numbers, booleans or objects; operations read every parameter as text. */
export function paramsFromBody(body: unknown): Record<string, string> {
	const out: Record<string, string> = {};
	if (body === null || typeof body !== 'object' || Array.isArray(body)) return out;
	for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
		if (value === null || value === undefined) out[key] = '';
		else if (typeof value === 'object') out[key] = JSON.stringify(value);
		else out[key] = String(value);
	}
	return out;
}

function readAll(req: IncomingMessage): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > MAX_BODY_BYTES) {
				reject(new BadRequest('Request body too large', 413));
				req.resume();
				return;
			}
			chunks.push(chunk);
		});
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

/** Streams a multipart body: files are hashed while read and kept only up to MAX_FILE_BYTES. */
function readMultipart(
	req: IncomingMessage,
	counter: { bytes: number },
): Promise<{ fields: Record<string, string>; files: UploadedFile[] }> {
	return new Promise((resolve, reject) => {
		let parser: busboy.Busboy;
		try {
			parser = busboy({ headers: req.headers, limits: { fieldSize: 10 * 1024 * 1024 } });
		} catch (error) {
			reject(new BadRequest(`Invalid multipart request: ${(error as Error).message}`));
			return;
		}
		const fields: Record<string, string> = {};
		const files: UploadedFile[] = [];
		const pending: Array<Promise<void>> = [];
		parser.on('field', (name, value) => {
			fields[name] = value;
		});
		parser.on('file', (field, stream, info) => {
			pending.push(
				new Promise<void>((done, fail) => {
					const hash = createHash('sha256');
					let chunks: Buffer[] | undefined = [];
					let size = 0;
					stream.on('data', (chunk: Buffer) => {
						size += chunk.length;
						hash.update(chunk);
						if (chunks && size <= MAX_FILE_BYTES) chunks.push(chunk);
						else chunks = undefined; // over the limit: only size and hash are kept
					});
					stream.on('end', () => {
						files.push({
							field,
							filename: info.filename ?? '',
							contentType: info.mimeType,
							size,
							sha256: hash.digest('hex'),
							data: chunks ? Buffer.concat(chunks, size) : undefined,
						});
						done();
					});
					stream.on('error', fail);
				}),
			);
		});
		parser.on('close', () => {
			Promise.all(pending).then(() => resolve({ fields, files }), reject);
		});
		parser.on('error', (error: Error) =>
			reject(new BadRequest(`Invalid multipart body: ${error.message}`)),
		);
		req.on('data', (chunk: Buffer) => {
			counter.bytes += chunk.length;
		});
		req.pipe(parser);
	});
}

function clientIpOf(req: IncomingMessage): string {
	const ip = req.socket.remoteAddress ?? '';
	return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}

export async function parseRequest(req: IncomingMessage): Promise<ParsedRequest> {
	const url = new URL(req.url ?? '/', 'http://sandbox.local');
	const query = searchToObject(url.searchParams);
	const headers = flatHeaders(req);
	const contentType = (headers['content-type'] ?? '').toLowerCase();
	let body: unknown = {};
	let files: UploadedFile[] = [];
	let rawBodySize = 0;
	if (contentType.startsWith('multipart/form-data')) {
		const counter = { bytes: 0 };
		const parsed = await readMultipart(req, counter);
		body = parsed.fields;
		files = parsed.files;
		rawBodySize = counter.bytes;
	} else {
		const raw = await readAll(req);
		rawBodySize = raw.length;
		const text = raw.toString('utf8');
		if (text.trim() !== '') {
			if (contentType.includes('json') || /^\s*[[{]/.test(text)) {
				try {
					body = JSON.parse(text);
				} catch {
					body = text;
				}
			} else {
				body = searchToObject(new URLSearchParams(text));
			}
		}
	}
	return {
		method: (req.method ?? 'GET').toUpperCase(),
		path: url.pathname,
		query,
		headers,
		body,
		params: { ...query, ...paramsFromBody(body) },
		files,
		rawBodySize,
		clientIp: clientIpOf(req),
		receivedAt: new Date().toISOString(),
	};
}

// ---- writing -----------------------------------------------------------------------------------

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
	send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));
}

export function sendText(
	res: ServerResponse,
	status: number,
	text: string,
	contentType = 'text/plain; charset=utf-8',
): void {
	send(res, status, contentType, text);
}

export function send(
	res: ServerResponse,
	status: number,
	contentType: string,
	body: string | Buffer,
): void {
	if (res.headersSent || res.destroyed) return;
	const buffer = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
	res.writeHead(status, { 'content-type': contentType, 'content-length': buffer.length });
	res.end(buffer);
}

const xmlBuilder = new XMLBuilder({
	format: true,
	ignoreAttributes: false,
	suppressEmptyNode: false,
});

/** XML element names cannot hold what SQL column labels may (e.g. "COUNT(*)"). */
function xmlName(key: string): string {
	let name = key.replace(/[^A-Za-z0-9_.-]/g, '_');
	if (!/^[A-Za-z_]/.test(name)) name = `_${name}`;
	return name;
}

/** Arrays become repeated <item> elements; null becomes an empty element; booleans 1/0. */
export function xmlShape(value: unknown): unknown {
	if (Array.isArray(value)) return { item: value.map((v) => xmlShape(v)) };
	if (value === null || value === undefined) return '';
	if (typeof value === 'boolean') return value ? 1 : 0;
	if (typeof value === 'object') {
		const out: Record<string, unknown> = {};
		for (const [key, inner] of Object.entries(value as Record<string, unknown>))
			out[xmlName(key)] = xmlShape(inner);
		return out;
	}
	return value;
}

export function toXml(root: string, value: unknown): string {
	return xmlBuilder.build({
		'?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
		[root]: xmlShape(value),
	}) as string;
}
