/**
 * The file transport of the virtual number service (multipart upload, download with appended
 * status data), through Voice Prompt → Upload and Download against a server giving answers the
 * sandbox never gives: XML trailers, status-only answers, files labelled text/html, proxies' HTML
 * pages; and the upload's body read back by a multipart parser.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';

import busboy from 'busboy';

import type { INodeExecutionData } from 'n8n-workflow';

import { runWorkflow } from '../../../dev/harness/engine.mts';
import { makeWav, mp3Chunks } from '../../../dev/sandbox/audio.mts';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const JSON_TRAILER = '{"service":"download_prompt","status":{"code":200,"description":"OK"}}';
const XML_TRAILER =
	'<?xml version="1.0" encoding="UTF-8"?>\n<response><service>download_prompt</service><status><code>200</code><description>OK</description></status></response>\n';

describe('Voice Prompt → Upload and Download against unusual answers', () => {
	let server: Server;
	let url: string;
	let answer: { status?: number; headers?: Record<string, string>; body: Buffer } = {
		body: Buffer.alloc(0),
	};
	const received: Array<{ headers: Record<string, unknown>; body: Buffer }> = [];
	before(async () => {
		server = createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (chunk: Buffer) => chunks.push(chunk));
			req.on('end', () => {
				received.push({ headers: req.headers, body: Buffer.concat(chunks) });
				res.writeHead(answer.status ?? 200, { 'content-type': 'audio/wav', ...answer.headers });
				res.end(answer.body);
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	after(async () => await new Promise<void>((resolve) => server.close(() => resolve())));

	const download = () =>
		runWorkflow({
			nodes: [
				{
					name: 'VN',
					type: 'virtualNumber',
					parameters: {
						resource: 'prompt',
						operation: 'download',
						promptName: { __rl: true, mode: 'name', value: 'welcome' },
					},
				},
			],
			credentials: { virtualnumApi: { baseUrl: url, accessToken: 'file-token' } },
		});

	/** The file Download outputs, and how many status bytes it removed; fails when the run failed. */
	async function downloaded(body: Buffer) {
		answer = { body };
		const result = await download();
		assert.equal(result.error, undefined, result.error?.message);
		const [item] = result.items('VN');
		return {
			file: Buffer.from(item.binary!.data.data, 'base64'),
			removed: item.json.removed_status_bytes,
		};
	}

	const wav = makeWav(10_000, 440);
	const mp3 = Buffer.concat([...mp3Chunks(9_000)]);

	test('a WAV is cut at the length its RIFF header gives, whatever follows', async () => {
		for (const trailer of [JSON_TRAILER, XML_TRAILER, '\n']) {
			const { file, removed } = await downloaded(Buffer.concat([wav, Buffer.from(trailer)]));
			assert.equal(sha256(file), sha256(wav), JSON.stringify(trailer.slice(0, 20)));
			assert.equal(removed, trailer.length);
		}
	});

	test('other files lose a trailing JSON or XML status answer', async () => {
		for (const trailer of [JSON_TRAILER, XML_TRAILER, XML_TRAILER.replace(/^<\?xml[^>]*>\n/, '')]) {
			const { file, removed } = await downloaded(Buffer.concat([mp3, Buffer.from(trailer)]));
			assert.equal(sha256(file), sha256(mp3), trailer.slice(0, 20));
			assert.equal(removed, trailer.length);
		}
	});

	test('a file without a trailer is kept whole, even when it contains brace or tag bytes', async () => {
		const tricky = Buffer.concat([mp3, Buffer.from('{"service": not json <response> nor xml')]);
		const kept = await downloaded(tricky);
		assert.equal(sha256(kept.file), sha256(tricky));
		assert.equal(kept.removed, undefined);
		assert.equal(sha256((await downloaded(mp3)).file), sha256(mp3));
	});

	test('a WAV whose header claims more than was received, then a status, is an incomplete file', async () => {
		answer = { body: Buffer.concat([wav.subarray(0, 5000), Buffer.from(JSON_TRAILER)]) };
		const result = await download();
		assert.match(
			String(result.error?.message),
			/download_prompt\) is incomplete: \d+ of 10000 bytes arrived/,
		);
	});

	test('the upload is parsed back to the same field and byte-identical file by a multipart parser', async () => {
		const data = Buffer.concat([makeWav(4000, 300), Buffer.from('\r\n--not-a-boundary\r\n')]);
		const input: INodeExecutionData[] = [
			{
				json: {},
				binary: {
					data: { data: data.toString('base64'), mimeType: 'audio/wav', fileName: 'a "b".wav' },
				},
			},
		];
		answer = {
			headers: { 'content-type': 'application/json' },
			body: Buffer.from('{"service":"upload_prompt","status":{"code":200,"description":"OK"}}'),
		};
		received.length = 0;
		const result = await runWorkflow({
			nodes: [
				{
					name: 'VN',
					type: 'virtualNumber',
					parameters: {
						resource: 'prompt',
						operation: 'upload',
						options: { fileName: 'x "quoted" ü' },
					},
				},
			],
			input,
			credentials: { virtualnumApi: { baseUrl: url, accessToken: 'file-token' } },
		});
		assert.equal(result.error, undefined, result.error?.message);
		assert.equal(received.length, 1);
		const fields: Record<string, string> = {};
		const files: Array<{ field: string; filename: string; mime: string; data: Buffer }> = [];
		await new Promise<void>((resolve, reject) => {
			const parser = busboy({
				headers: { 'content-type': String(received[0].headers['content-type']) },
				defParamCharset: 'utf8',
			});
			parser.on('field', (name, value) => (fields[name] = value));
			parser.on('file', (field, stream, info) => {
				const chunks: Buffer[] = [];
				stream.on('data', (chunk: Buffer) => chunks.push(chunk));
				stream.on('end', () =>
					files.push({
						field,
						filename: info.filename ?? '',
						mime: info.mimeType,
						data: Buffer.concat(chunks),
					}),
				);
			});
			parser.on('close', resolve);
			parser.on('error', reject);
			parser.end(received[0].body);
		});
		assert.deepEqual(fields, { file_name: 'x "quoted" ü' });
		assert.equal(files.length, 1);
		assert.equal(files[0].field, 'prompt_file');
		assert.equal(files[0].filename, 'a %22b%22.wav');
		assert.equal(files[0].mime, 'audio/wav');
		assert.equal(sha256(files[0].data), sha256(data));
	});

	test('an MP3 labelled text/html with an XML trailer comes out byte-exact as audio/mpeg', async () => {
		const mp3 = Buffer.concat([...mp3Chunks(30_000)]);
		answer = {
			headers: { 'content-type': 'text/html; charset=UTF-8' },
			body: Buffer.concat([mp3, Buffer.from(XML_TRAILER)]),
		};
		const result = await download();
		assert.equal(result.error, undefined, result.error?.message);
		const [item] = result.items('VN');
		const bytes = Buffer.from(item.binary!.data.data, 'base64');
		assert.equal(sha256(bytes), sha256(mp3));
		assert.equal(item.binary!.data.mimeType, 'audio/mpeg');
		assert.equal(item.binary!.data.fileName, 'welcome.mp3');
		assert.equal(item.json.removed_status_bytes, XML_TRAILER.length);
	});

	test('the file name of Content-Disposition is kept', async () => {
		const wav = makeWav(3000, 440);
		answer = {
			headers: { 'content-disposition': 'attachment; filename="Welcome Message.wav"' },
			body: wav,
		};
		const result = await download();
		assert.equal(result.items('VN')[0].binary!.data.fileName, 'Welcome Message.wav');
		assert.equal(
			result.items('VN')[0].json.removed_status_bytes,
			undefined,
			'nothing removed when nothing was appended',
		);
	});

	test('a status-only answer (no file) is the error of its code, in JSON or XML', async () => {
		answer = {
			headers: { 'content-type': 'application/json' },
			body: Buffer.from(
				'{"service":"download_prompt","status":{"code":9012,"description":"not found"}}',
			),
		};
		const json = await download();
		assert.match(
			String(json.error?.message),
			/download_prompt failed: No prompt has that name \(code 9012\)/,
		);
		assert.match(String(json.error?.description), /not found/);
		answer = { body: Buffer.from(XML_TRAILER.replace('<code>200', '<code>9013')) };
		const xml = await download();
		assert.match(String(xml.error?.message), /\(code 9013\)/);
	});

	test('a success status without a file is an error, not an empty file', async () => {
		answer = { body: Buffer.from(JSON_TRAILER) };
		const result = await download();
		assert.match(
			String(result.error?.message),
			/answered download_prompt with a status instead of a file/,
		);
	});

	test('a failure status appended after the file is an error, with its description', async () => {
		const mp3 = Buffer.concat([...mp3Chunks(5_000)]);
		answer = {
			body: Buffer.concat([
				mp3,
				Buffer.from('{"service":"download_prompt","status":{"code":999,"description":"disk"}}'),
			]),
		};
		const result = await download();
		assert.match(String(result.error?.message), /Internal error of the service \(code 999\)/);
		assert.match(String(result.error?.description), /disk/);
	});

	test('an HTML page, an empty answer and HTTP errors are errors', async () => {
		answer = {
			headers: { 'content-type': 'text/html' },
			body: Buffer.from('<html><body><h1>502 Bad Gateway</h1></body></html>'),
		};
		assert.match(
			String((await download()).error?.message),
			/HTML page instead of the service answer/,
		);
		answer = { body: Buffer.alloc(0) };
		assert.match(String((await download()).error?.message), /an empty answer/);
		answer = {
			status: 401,
			headers: { 'content-type': 'text/plain' },
			body: Buffer.from('Unauthorized - Token Expired'),
		};
		assert.match(String((await download()).error?.message), /access token has expired/);
		answer = { status: 500, headers: { 'content-type': 'text/plain' }, body: Buffer.from('oops') };
		assert.match(String((await download()).error?.message), /HTTP 500/);
	});
});
