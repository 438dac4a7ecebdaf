import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { makeWav, mp3Chunks } from '../../../../../dev/sandbox/audio.mts';
import { fileItem, MB, promptTest, sha256 } from './promptTest.mts';

const { sandbox, run, rl, requests, binaryOf, ok, refused } = promptTest();

describe('Virtual Number → Voice Prompt', () => {
	describe('Upload and Download', () => {
		test('a 3 MB WAV from the previous node arrives byte-identical, and downloads byte-identical despite the appended status data', async () => {
			const wav = makeWav(3 * MB, 440);
			assert.ok(wav.length >= 3 * MB - 2);
			const upload = await run({ operation: 'upload' }, [
				fileItem(wav, 'Welcome-3MB.wav', 'audio/wav'),
			]);
			const [output] = ok(upload);
			const [request] = requests('upload_prompt');
			assert.equal(request.method, 'POST');
			assert.match(request.headers['content-type'], /^multipart\/form-data; boundary=/);
			assert.deepEqual(request.query, { service: 'upload_prompt', format: 'json' });
			assert.deepEqual(request.files, [
				{
					field: 'prompt_file',
					filename: 'Welcome-3MB.wav',
					contentType: 'audio/wav',
					size: wav.length,
					sha256: sha256(wav),
				},
			]);
			assert.deepEqual(output, {
				success: true,
				prompt_name: 'welcome-3mb',
				file_name: 'Welcome-3MB.wav',
				mime_type: 'audio/wav',
				size: wav.length,
				statusDescription: 'Prompt uploaded',
			});
			assert.equal(sha256(sandbox.control.promptData('welcome-3mb')!), sha256(wav));

			// The service answers the file followed by its status data…
			const raw = Buffer.from(
				await (
					await fetch(
						`${sandbox.vnUrl}/api/?service=download_prompt&format=json&prompt_name=welcome-3mb`,
						{
							headers: { authorization: `Bearer ${sandbox.tokens.vn}` },
						},
					)
				).arrayBuffer(),
			);
			assert.ok(raw.length > wav.length, 'the raw answer is longer than the file');
			assert.match(
				raw.subarray(wav.length).toString('utf8'),
				/^\{"service":"download_prompt","status":\{"code":200/,
			);
			// …and the node outputs exactly the file.
			const download = await run({ operation: 'download', promptName: rl('welcome-3mb') });
			const [info] = ok(download);
			const { binary, bytes } = binaryOf(download);
			assert.equal(bytes.length, wav.length);
			assert.equal(sha256(bytes), sha256(wav));
			assert.equal(binary.mimeType, 'audio/wav');
			assert.equal(binary.fileName, 'welcome-3mb.wav');
			assert.deepEqual(info, {
				prompt_name: 'welcome-3mb',
				file_name: 'welcome-3mb.wav',
				mime_type: 'audio/wav',
				size: wav.length,
				removed_status_bytes: raw.length - wav.length,
			});
		});

		test('Prompt Name sets the name the file is sent under; Name to Check is sent as file_name', async () => {
			const wav = makeWav(20_000, 300);
			const [output] = ok(
				await run(
					{
						operation: 'upload',
						options: { promptName: 'Greeting_2025', fileName: 'greeting_2025' },
					},
					[fileItem(wav, 'whatever.v2.wav', 'audio/wav')],
				),
			);
			const [request] = requests('upload_prompt');
			assert.equal(request.files?.[0].filename, 'Greeting_2025.wav');
			assert.deepEqual(request.body, { file_name: 'greeting_2025' });
			assert.equal(output.prompt_name, 'greeting_2025');
			assert.ok(sandbox.control.prompts().some((p) => p.name === 'greeting_2025'));
		});

		test('the stored name is the part before the first dot, shown in the output', async () => {
			const [output] = ok(
				await run({ operation: 'upload' }, [
					fileItem(makeWav(5000, 300), 'Promo.Final.wav', 'audio/wav'),
				]),
			);
			assert.equal(output.prompt_name, 'promo');
			assert.equal(output.file_name, 'Promo.Final.wav');
		});

		test('a file without an extension is accepted by its MIME type', async () => {
			const mp3 = Buffer.concat([...mp3Chunks(10_000)]);
			const [output] = ok(
				await run({ operation: 'upload' }, [fileItem(mp3, 'voicemail', 'audio/mpeg')]),
			);
			assert.equal(output.prompt_name, 'voicemail');
		});

		test('a name that exists explains 9022: a prompt with this name exists', async () => {
			const result = await run({ operation: 'upload' }, [
				fileItem(makeWav(5000, 300), 'welcome.wav', 'audio/wav'),
			]);
			assert.ok(result.error);
			assert.match(
				result.error.message,
				/upload_prompt failed: A prompt with this name exists \(code 9022\)/,
			);
			assert.match(
				String(result.error.description),
				/Rename the file \(the name is the part before the first dot\) or delete the old prompt/,
			);
			const checked = await run({ operation: 'upload', options: { fileName: 'after_hours' } }, [
				fileItem(makeWav(5000, 300), 'fresh.wav', 'audio/wav'),
			]);
			assert.match(
				String(checked.error?.message),
				/\(code 9022\)/,
				'the Name to Check is checked by the service',
			);
		});

		test('a file over 50 MB is refused before any request', async () => {
			const big = Buffer.alloc(50 * MB + 1);
			big.write('RIFF', 0, 'latin1');
			const result = await refused(
				{ operation: 'upload' },
				[fileItem(big, 'huge.wav', 'audio/wav')],
				/the file must be at most 50 MB \(52428800 bytes\)/,
			);
			assert.match(result.error!.message, /got "52428801 bytes"/);
		});

		test('a file whose size is known to be over 50 MB is refused before it is read', async () => {
			const item = fileItem(makeWav(1000, 300), 'huge.wav', 'audio/wav');
			item.binary!.data.bytes = 60 * MB;
			await refused({ operation: 'upload' }, [item], /at most 50 MB/);
		});

		test('an unsupported type is refused before any request', async () => {
			await refused(
				{ operation: 'upload' },
				[fileItem(Buffer.from('hello'), 'notes.txt', 'text/plain')],
				/the file must be one of the supported audio formats \(WAV, MP3, AAC, FLAC, OGG, M4A, AMR, OPUS\).*notes\.txt \(text\/plain\)/,
			);
			await refused(
				{ operation: 'upload' },
				[fileItem(Buffer.from('x'), 'clip', 'video/mp4')],
				/supported audio formats/,
			);
		});

		test('an empty file, a missing binary field, or a name with no usable characters is refused before any request', async () => {
			await refused(
				{ operation: 'upload' },
				[fileItem(Buffer.alloc(0), 'empty.wav', 'audio/wav')],
				/the file is empty/,
			);
			await refused(
				{ operation: 'upload', binaryPropertyName: 'audio' },
				[fileItem(makeWav(100, 300), 'a.wav', 'audio/wav')],
				/audio/,
			);
			await refused(
				{ operation: 'upload' },
				[fileItem(makeWav(1000, 300), 'שלום.wav', 'audio/wav')],
				/gives an empty prompt name.*Set the Prompt Name option/,
			);
		});
	});
});
