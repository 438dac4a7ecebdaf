import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';

import type { IBinaryData } from 'n8n-workflow';

import { runWorkflow } from '../../../../../dev/harness/engine.mts';
import { startRecorder, type Recorder } from '../../../../../dev/harness/recorder.mts';
import { sandboxPerFile } from '../../../../../dev/harness/nodeTest.mts';
import { NODE, expr, failure, jsons, vnRequests, vnRunner } from '../../vnRun.mts';

const sandbox = sandboxPerFile();
const run = vnRunner(() => sandbox);

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** The bytes of an output binary (n8n's default binary mode keeps them base64 in the item). */
async function bytesOf(binary: IBinaryData): Promise<Buffer> {
	if (binary.id) {
		const { Container } = await import('@n8n/di');
		const { BinaryDataService } = await import('n8n-core');
		return await Container.get(BinaryDataService).getAsBuffer(binary);
	}
	return Buffer.from(binary.data, 'base64');
}

/** The file exactly as the service serves it, fetched directly (the reference for byte identity). */
async function direct(
	callUuid: string,
	type: 'wav' | 'mp3',
): Promise<{ bytes: Buffer; contentType: string }> {
	const url = `${sandbox.vnUrl}/api/?service=get_record_by_call_uuid&format=json&call_uuid=${encodeURIComponent(callUuid)}&type=${type}`;
	const response = await fetch(url, { headers: { Authorization: `Bearer ${sandbox.tokens.vn}` } });
	return {
		bytes: Buffer.from(await response.arrayBuffer()),
		contentType: response.headers.get('content-type') ?? '',
	};
}

function recordedCall(): string {
	const call = sandbox.control.cdrs({ hasRecording: true })[0];
	assert.ok(call, 'the sandbox has a recorded call');
	return call.cdr_uniqueid;
}

function unrecordedCall(): string {
	const call = sandbox.control.cdrs().find((row) => !row.has_recording);
	assert.ok(call, 'the sandbox has a call without recording');
	return call.cdr_uniqueid;
}

const download = (
	callUuid: string,
	parameters: Record<string, unknown> = {},
	continueOnFail = false,
) =>
	run(
		{ resource: 'cdr', operation: 'downloadRecording', callUuid, ...parameters },
		{ continueOnFail },
	);

describe('Virtual Number → Call Record → Download Recording', () => {
	test('the WAV recording arrives as binary data named <call ID>.wav, byte-identical, with the callId', async () => {
		const callUuid = recordedCall();
		const result = await download(callUuid);
		const [item] = result.items(NODE);
		assert.deepEqual(item.json, {
			callId: callUuid,
			format: 'wav',
			file_name: `${callUuid}.wav`,
			mime_type: 'audio/wav',
		});
		const binary = item.binary?.data;
		assert.ok(binary, 'binary data in the "data" field');
		assert.equal(binary.mimeType, 'audio/wav');
		assert.equal(binary.fileName, `${callUuid}.wav`);
		assert.equal(binary.fileExtension, 'wav');
		const reference = await direct(callUuid, 'wav');
		const bytes = await bytesOf(binary);
		assert.equal(bytes.length, reference.bytes.length);
		assert.equal(sha256(bytes), sha256(reference.bytes));
		assert.equal(bytes.toString('latin1', 0, 4), 'RIFF');
		const [request] = vnRequests(sandbox, 'get_record_by_call_uuid');
		assert.deepEqual(
			{
				call_uuid: request.query.call_uuid,
				type: request.query.type,
				format: request.query.format,
			},
			{ call_uuid: callUuid, type: 'wav', format: 'json' },
		);
	});

	test('a 5 MB recording arrives byte-identical', async () => {
		sandbox.control.reset({ recordingBytes: 5 * 1024 * 1024 });
		const callUuid = recordedCall();
		const result = await download(callUuid);
		const bytes = await bytesOf(result.items(NODE)[0].binary!.data);
		const reference = await direct(callUuid, 'wav');
		assert.ok(
			reference.bytes.length >= 5 * 1024 * 1024 - 2,
			`the reference is 5 MB (${reference.bytes.length})`,
		);
		assert.equal(bytes.length, reference.bytes.length);
		assert.equal(sha256(bytes), sha256(reference.bytes));
	});

	test('MP3: type=mp3 is requested, the file is audio/mpeg named <call ID>.mp3', async () => {
		const callUuid = recordedCall();
		const result = await download(callUuid, {
			fileFormat: 'mp3',
			binaryPropertyName: 'recording',
			options: { timeout: 30 },
		});
		const [item] = result.items(NODE);
		assert.equal(vnRequests(sandbox, 'get_record_by_call_uuid')[0].query.type, 'mp3');
		const binary = item.binary?.recording;
		assert.ok(binary, 'binary data in the chosen field');
		assert.equal(binary.mimeType, 'audio/mpeg');
		assert.equal(binary.fileName, `${callUuid}.mp3`);
		assert.equal(item.json.format, 'mp3');
		assert.equal(sha256(await bytesOf(binary)), sha256((await direct(callUuid, 'mp3')).bytes));
	});

	test('the File Name option names the file', async () => {
		const result = await download(recordedCall(), { options: { fileName: 'call-17.wav' } });
		assert.equal(result.items(NODE)[0].binary?.data.fileName, 'call-17.wav');
	});

	test('a JSON error answer (3002: no recording) is an error, never a file', async () => {
		const error = failure(await download(unrecordedCall()));
		assert.match(error.message, /No recording exists for this call \(code 3002\)/);
	});

	test('an XML error answer is an error, never a file', async () => {
		sandbox.control.injectFaults({ kind: 'xml', operation: 'get_record_by_call_uuid' });
		const error = failure(await download(unrecordedCall()));
		assert.match(error.message, /code 3002/);
	});

	test('a status answer for a recorded call (service error) is an error', async () => {
		sandbox.control.injectFaults({
			kind: 'serviceError',
			code: 999,
			description: 'archive offline',
			operation: 'get_record_by_call_uuid',
		});
		const error = failure(await download(recordedCall()));
		assert.match(error.message, /Internal error of the service \(code 999\)/);
		assert.match(String(error.description), /archive offline/);
	});

	test('with Continue On Fail a failed download is an error item without binary data', async () => {
		const result = await download(unrecordedCall(), {}, true);
		const [item] = result.items(NODE);
		assert.match(String(item.json.error), /code 3002/);
		assert.equal(item.binary, undefined);
	});

	test('the Timeout option bounds the wait', async () => {
		sandbox.control.injectFaults({ kind: 'hang', operation: 'get_record_by_call_uuid' });
		const started = Date.now();
		const error = failure(await download(recordedCall(), { options: { timeout: 1 } }));
		assert.match(error.message, /did not answer get_record_by_call_uuid within 1 s/);
		assert.ok(Date.now() - started < 10_000);
	});

	test('bad inputs are refused before any request', async () => {
		for (const [parameters, expected] of [
			[{ callUuid: expr('') }, /^Call ID: is required/],
			[
				{ callUuid: '1.2', options: { timeout: 0 } },
				/^Timeout \(Seconds\): must be a whole number from 1 to 3600/,
			],
			[{ callUuid: '1.2', options: { timeout: 3601 } }, /^Timeout \(Seconds\): /],
			[
				{ callUuid: '1.2', binaryPropertyName: expr(' ') },
				/^Put Output File in Field: is required/,
			],
			[{ callUuid: '1.2', fileFormat: expr('ogg') }, /^File Format: must be one of wav, mp3/],
		] as Array<[Record<string, unknown>, RegExp]>) {
			sandbox.control.clearRequests();
			const error = failure(
				await run({ resource: 'cdr', operation: 'downloadRecording', ...parameters }),
			);
			assert.match(error.message, expected);
			assert.deepEqual(vnRequests(sandbox), []);
		}
	});
});

describe('Download Recording: answers the sandbox never gives', () => {
	let server: Recorder;
	before(async () => {
		server = await startRecorder();
	});
	after(async () => await server.close());

	const downloadFrom = (baseUrl: string) =>
		runWorkflow({
			nodes: [
				{
					name: NODE,
					type: 'virtualNumber',
					parameters: { resource: 'cdr', operation: 'downloadRecording', callUuid: '1.1' },
				},
			],
			credentials: { virtualnumApi: { baseUrl, accessToken: 'token-abc' } },
		});

	const cases: Array<[string, Parameters<Recorder['answer']>[0], RegExp]> = [
		[
			'a JSON status sent as audio/wav',
			{
				headers: { 'Content-Type': 'audio/wav' },
				body: '{"service":"get_record_by_call_uuid","status":{"code":3002,"description":"no file"}}',
			},
			/code 3002/,
		],
		[
			'an XML status sent as application/octet-stream',
			{
				headers: { 'Content-Type': 'application/octet-stream' },
				body: '<?xml version="1.0"?><response><status><code>3001</code><description>call_uuid missing</description></status></response>',
			},
			/The call ID is missing \(code 3001\)/,
		],
		[
			'a success status instead of the file',
			{ body: { service: 'get_record_by_call_uuid', status: { code: 200, description: 'OK' } } },
			/answered get_record_by_call_uuid with a status instead of a file/,
		],
		[
			'an HTML proxy page',
			{
				status: 502,
				headers: { 'Content-Type': 'text/html' },
				body: '<html><body>Bad Gateway</body></html>',
			},
			/HTTP 502/,
		],
		['an empty body', { headers: { 'Content-Type': 'audio/wav' }, body: '' }, /an empty answer/],
		['a 401 text', { status: 401, body: 'Unauthorized - Token Expired' }, /Unauthorized|expired/i],
	];
	for (const [name, answer, expected] of cases) {
		test(`${name} is an error, never a file`, async () => {
			server.answer(answer);
			const result = await downloadFrom(server.url);
			assert.match(failure(result).message, expected);
			assert.ok(!JSON.stringify(result.run).includes('token-abc'), 'the token never appears');
		});
	}

	test('a file that breaks off before its announced length is an error, not a short file', async () => {
		const cut: Server = createServer((_req, res) => {
			res.writeHead(200, { 'Content-Type': 'audio/wav', 'Content-Length': 200_000 });
			const header = Buffer.alloc(44);
			header.write('RIFF', 0, 'latin1');
			header.write('WAVE', 8, 'latin1');
			res.write(Buffer.concat([header, Buffer.alloc(50_000, 1)]));
			setTimeout(() => res.socket?.destroy(), 50);
		});
		await new Promise<void>((resolve) => cut.listen(0, '127.0.0.1', resolve));
		try {
			const { port } = cut.address() as AddressInfo;
			const result = await downloadFrom(`http://127.0.0.1:${port}`);
			assert.match(failure(result).message, /download .* broke off/);
		} finally {
			await new Promise<void>((resolve) => cut.close(() => resolve()));
		}
	});

	test('a small file that arrives whole with its first bytes is kept as it is', async () => {
		const wav = Buffer.concat([
			Buffer.from('RIFF'),
			Buffer.alloc(4),
			Buffer.from('WAVE'),
			Buffer.from('tiny'),
		]);
		const tiny: Server = createServer((_req, res) => {
			res.writeHead(200, { 'Content-Type': 'audio/wav', 'Content-Length': wav.length });
			res.end(wav);
		});
		await new Promise<void>((resolve) => tiny.listen(0, '127.0.0.1', resolve));
		try {
			const { port } = tiny.address() as AddressInfo;
			const result = await downloadFrom(`http://127.0.0.1:${port}`);
			const items = jsons(result);
			assert.equal(items[0].format, 'wav');
			assert.deepEqual(await bytesOf(result.items(NODE)[0].binary!.data), wav);
		} finally {
			await new Promise<void>((resolve) => tiny.close(() => resolve()));
		}
	});
});
