import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { mp3Chunks } from '../../../../../dev/sandbox/audio.mts';
import { fileItem, promptTest, sha256 } from './promptTest.mts';

const { sandbox, run, expr, rl, requests, binaryOf, ok, refused } = promptTest();

describe('Virtual Number → Voice Prompt', () => {
	describe('Upload and Download', () => {
		test('an MP3 (no length header) also downloads byte-exact: the trailing JSON status is found and removed', async () => {
			const mp3 = Buffer.concat([...mp3Chunks(200_000)]);
			ok(
				await run({ operation: 'upload', binaryPropertyName: 'audio' }, [
					fileItem(mp3, 'jingle.mp3', 'audio/mpeg', 'audio'),
				]),
			);
			const download = await run({
				operation: 'download',
				promptName: rl('jingle', 'name'),
				binaryPropertyName: 'sound',
			});
			const { binary, bytes } = binaryOf(download, 'sound');
			assert.equal(sha256(bytes), sha256(mp3));
			assert.equal(binary.mimeType, 'audio/mpeg');
			assert.equal(binary.fileName, 'jingle.mp3');
		});

		test('a seeded prompt downloads as the exact stored bytes', async () => {
			const download = await run({ operation: 'download', promptName: rl('welcome') });
			assert.deepEqual(requests('download_prompt')[0].query, {
				service: 'download_prompt',
				format: 'json',
				prompt_name: 'welcome',
			});
			assert.equal(
				sha256(binaryOf(download).bytes),
				sha256(sandbox.control.promptData('welcome')!),
			);
		});

		test('a download of an unknown prompt explains 9012; a name with invalid characters is refused before any request', async () => {
			const result = await run({ operation: 'download', promptName: rl('nope', 'name') });
			assert.match(
				String(result.error?.message),
				/download_prompt failed: No prompt has that name \(code 9012\)/,
			);
			await refused(
				{ operation: 'download', promptName: rl(expr('my prompt!'), 'name') },
				undefined,
				/Voice Prompt: may contain English letters, digits, - and _ only/,
			);
		});
	});
});
