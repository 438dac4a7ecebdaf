/**
 * Issue 13/16: both downloads (Download Recording, Voice Prompt → Download) follow one rule: an
 * answer is a file only if its bytes are audio and it arrived whole, and at most 50 MB (the upload
 * limit). Also: n8n 1.x hands over a stream that has already ended, which must not hang.
 */
import assert from 'node:assert/strict';
import { PassThrough, Readable } from 'node:stream';
import { after, before, beforeEach, describe, test } from 'node:test';

import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';

import { runWorkflow, type RunResult } from '../../../../dev/harness/engine.mts';
import { startSandbox, type Fault, type Sandbox } from '../../../../dev/sandbox/index.mts';
import { virtualnumDownload } from '../../../../nodes/shared/transport/virtualnumDownload.ts';

const MB = 1024 * 1024;

describe(
	'Downloads: audio only if the bytes say so, whole, and at most 50 MB',
	{ concurrency: 1 },
	() => {
		let sandbox: Sandbox;
		before(async () => {
			sandbox = await startSandbox();
		});
		after(async () => await sandbox.close());
		beforeEach(() => sandbox.control.reset());

		const DOWNLOADS = [
			{
				label: 'Download Recording',
				operation: 'get_record_by_call_uuid',
				parameters: (s: Sandbox): IDataObject => ({
					resource: 'cdr',
					operation: 'downloadRecording',
					callUuid: s.control.cdrs({ hasRecording: true })[0].cdr_uniqueid,
				}),
			},
			{
				label: 'Voice Prompt → Download',
				operation: 'download_prompt',
				parameters: (): IDataObject => ({
					resource: 'prompt',
					operation: 'download',
					promptName: { __rl: true, mode: 'name', value: 'welcome' },
				}),
			},
		];

		const run = (parameters: IDataObject, fault?: Fault): Promise<RunResult> => {
			if (fault) sandbox.control.injectFaults(fault);
			return runWorkflow({
				nodes: [{ name: 'Node', type: 'virtualNumber', parameters }],
				credentials: { virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn } },
			});
		};

		for (const download of DOWNLOADS) {
			test(`${download.label}: a WAV whose header announces more bytes than arrived is an error, not a file`, async () => {
				// The first half of the file, with a Content-Length of that half: a clean but short answer.
				const result = await run(download.parameters(sandbox), {
					kind: 'truncatedJson',
					server: 'vn',
					operation: download.operation,
				});
				assert.ok(result.error, 'the node fails');
				assert.match(
					result.error.message,
					new RegExp(
						`The file from the Virtual Number service \\(${download.operation}\\) is incomplete: \\d+ of \\d+ bytes arrived`,
					),
				);
			});

			test(`${download.label}: a text answer served as audio/wav is an error that quotes it`, async () => {
				const result = await run(download.parameters(sandbox), {
					kind: 'notAudio',
					server: 'vn',
					operation: download.operation,
					text: 'Recording not found',
				});
				assert.ok(result.error, 'the node fails');
				assert.match(
					result.error.message,
					/answered \w+ with something that is not an audio file \(although labelled audio\/wav\)/,
				);
				assert.match(String(result.error.description), /"Recording not found"/);
			});

			test(`${download.label}: a 400 MB answer stops at 50 MB with a clear error`, async () => {
				const result = await run(download.parameters(sandbox), {
					kind: 'largeFile',
					bytes: 400 * MB,
					server: 'vn',
					operation: download.operation,
				});
				assert.ok(result.error, 'the node fails');
				assert.match(result.error.message, /is larger than 50 MB; the download was stopped/);
				assert.match(
					String(result.error.description),
					/limited to 50 MB, the service's own limit for uploads/,
				);
				assert.doesNotMatch(`${result.error.message}`, /RangeError/);
			});

			test(`${download.label}: a whole file of just under 50 MB is kept`, async () => {
				const result = await run(download.parameters(sandbox), {
					kind: 'largeFile',
					bytes: 50 * MB - 64 * 1024,
					server: 'vn',
					operation: download.operation,
				});
				assert.equal(result.error, undefined, result.error?.message);
				const [item] = result.items('Node');
				assert.equal(item.binary?.data.mimeType, 'audio/wav');
			});
		}
	},
);

describe('A stream that has already ended (as n8n 1.x hands some over) is read, never waited on', () => {
	const node = {
		id: '1',
		name: 'Node',
		type: 'n8n-nodes-virtualnum.virtualNumber',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	} as INode;
	const context = (body: Readable, contentType: string) =>
		({
			getNode: () => node,
			getCredentials: async () => ({ baseUrl: 'http://127.0.0.1:9', accessToken: 't' }),
			helpers: {
				httpRequestWithAuthentication: async () => ({
					statusCode: 200,
					headers: { 'content-type': contentType },
					body,
				}),
			},
		}) as unknown as IExecuteFunctions;
	const download = (body: Readable, contentType = 'application/json') =>
		virtualnumDownload.call(context(body, contentType), {
			service: 'get_record_by_call_uuid',
			params: { call_uuid: '1.2' },
		});

	/** A stream that ended, its answer still buffered in it. */
	function ended(text: string): Readable {
		const stream = new PassThrough();
		stream.end(Buffer.from(text));
		return stream;
	}

	test(
		'a status answer in a stream that already ended is the error of its code',
		{ timeout: 5000 },
		async () => {
			const body = ended(
				JSON.stringify({
					service: 'get_record_by_call_uuid',
					status: { code: 3002, description: 'No recording' },
				}),
			);
			await new Promise((resolve) => setImmediate(resolve));
			await assert.rejects(download(body), /No recording exists for this call \(code 3002\)/);
		},
	);

	test(
		'a status answer longer than the first bytes, already ended, is read whole',
		{ timeout: 5000 },
		async () => {
			const description = 'x'.repeat(500);
			const body = ended(
				JSON.stringify({ service: 'get_record_by_call_uuid', status: { code: 3002, description } }),
			);
			await assert.rejects(download(body), (error: Error & { description?: string }) => {
				assert.match(error.message, /code 3002/);
				assert.ok(String(error.description).includes(description));
				return true;
			});
		},
	);

	test(
		'a stream already read to its end is an empty answer, not a hang',
		{ timeout: 5000 },
		async () => {
			const body = ended('{}');
			body.resume();
			await new Promise((resolve) => body.once('end', resolve));
			await assert.rejects(download(body, 'audio/wav'), /an empty answer/);
		},
	);

	test(
		'a whole WAV in a stream that already ended comes out whole',
		{ timeout: 5000 },
		async () => {
			const wav = Buffer.concat([
				Buffer.from('RIFF'),
				Buffer.alloc(4),
				Buffer.from('WAVE'),
				Buffer.alloc(200, 7),
			]);
			wav.writeUInt32LE(wav.length - 8, 4);
			const body = new PassThrough();
			body.end(wav);
			const file = await download(body, 'audio/wav');
			const chunks: Buffer[] = [];
			if (Buffer.isBuffer(file.data)) chunks.push(file.data);
			else for await (const chunk of file.data) chunks.push(chunk as Buffer);
			assert.deepEqual(Buffer.concat(chunks), wav);
			assert.equal(file.audio.format, 'wav');
		},
	);
});
