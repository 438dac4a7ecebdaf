import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, beforeEach, describe, test } from 'node:test';

import type {
	IBinaryData,
	IDataObject,
	INodeExecutionData,
	INodeListSearchResult,
	INodeType,
} from 'n8n-workflow';

import { loadPackage, runWorkflow, type RunResult } from '../../../dev/harness/engine.mts';
import { callNodeMethod } from '../../../dev/harness/methods.mts';
import { jsons, refusedBeforeAnyRequest } from './vnRun.mts';
import { makeWav, mp3Chunks } from '../../../dev/sandbox/audio.mts';
import { startSandbox, type Sandbox } from '../../../dev/sandbox/index.mts';

const MB = 1024 * 1024;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** An input item carrying a file in a binary field, as a previous node (e.g. Read File) hands it over. */
function fileItem(
	data: Buffer,
	fileName: string | undefined,
	mimeType: string,
	field = 'data',
): INodeExecutionData {
	const binary: IBinaryData = {
		data: data.toString('base64'),
		mimeType,
		...(fileName !== undefined ? { fileName } : {}),
	};
	return { json: { source: 'previous node' }, binary: { [field]: binary } };
}

describe('Virtual Number → Voice Prompt', () => {
	let sandbox: Sandbox;
	before(async () => {
		sandbox = await startSandbox();
	});
	after(async () => await sandbox.close());
	beforeEach(() => sandbox.control.reset());

	const credentials = () => ({
		virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn },
	});
	const run = (parameters: IDataObject, input?: INodeExecutionData[]) =>
		runWorkflow({
			nodes: [
				{ name: 'VN', type: 'virtualNumber', parameters: { resource: 'prompt', ...parameters } },
			],
			input,
			credentials: credentials(),
		});
	const expr = (value: string) => `={{ ${JSON.stringify(value)} }}`;
	const rl = (value: string, mode = 'list') => ({ __rl: true, mode, value });
	const requests = (operation?: string) =>
		sandbox.control.requests({ service: 'vn', ...(operation ? { operation } : {}) });
	const binaryOf = (result: RunResult, field = 'data') => {
		const binary = result.items('VN')[0].binary?.[field];
		assert.ok(binary, `the item has the binary field ${field}`);
		return { binary, bytes: Buffer.from(binary.data, 'base64') };
	};

	const ok = (result: RunResult) => jsons(result);

	async function refused(
		parameters: IDataObject,
		input: INodeExecutionData[] | undefined,
		message: RegExp,
	) {
		return await refusedBeforeAnyRequest(sandbox, () => run(parameters, input), message);
	}

	describe('Get Many', () => {
		test('sends get_prompts_list and outputs one item per prompt', async () => {
			const items = ok(await run({ operation: 'getAll', returnAll: true }));
			assert.deepEqual(requests('get_prompts_list')[0].query, {
				service: 'get_prompts_list',
				format: 'json',
			});
			assert.deepEqual(
				items.map((p) => p.name),
				['welcome', 'after_hours', 'hold_music'],
			);
			assert.deepEqual(Object.keys(items[0]).sort(), ['create_date', 'length', 'name', 'size']);
			assert.equal(ok(await run({ operation: 'getAll', returnAll: false, limit: 1 })).length, 1);
		});

		test('an account without prompts gives no items (9041)', async () => {
			for (const name of ['welcome', 'after_hours', 'hold_music'])
				ok(await run({ operation: 'delete', promptName: rl(name) }));
			assert.equal(ok(await run({ operation: 'getAll', returnAll: true })).length, 0);
		});

		test('the prompt list of the resource locator filters by name', async () => {
			assert.deepEqual(
				(await listSearch('searchPrompts')).results.map((r) => r.value),
				['welcome', 'after_hours', 'hold_music'],
			);
			assert.deepEqual((await listSearch('searchPrompts', 'HOLD')).results, [
				{ name: 'hold_music', value: 'hold_music' },
			]);
		});
	});

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

	describe('Delete', () => {
		test('sends delete_prompt as a POST and the prompt is gone; the field warns about active IVRs', async () => {
			const [output] = ok(await run({ operation: 'delete', promptName: rl('after_hours') }));
			const [request] = requests('delete_prompt');
			assert.equal(request.method, 'POST');
			assert.deepEqual(request.body, { prompt_name: 'after_hours' });
			assert.equal(output.deleted, true);
			assert.equal(output.prompt_name, 'after_hours');
			assert.ok(!sandbox.control.prompts().some((p) => p.name === 'after_hours'));
			const loader = await loadPackage();
			const notice = (
				loader.getNode('virtualNumber').type as INodeType
			).description.properties.find(
				(p) =>
					p.type === 'notice' &&
					p.displayOptions?.show?.resource?.includes('prompt') &&
					p.displayOptions?.show?.operation?.includes('delete'),
			);
			assert.match(
				String(notice?.displayName),
				/active IVR uses makes the calls through that IVR fail/,
			);
		});

		test('an unknown prompt explains 9032', async () => {
			const result = await run({ operation: 'delete', promptName: rl('gone', 'name') });
			assert.match(
				String(result.error?.message),
				/delete_prompt failed: The prompt does not exist \(code 9032\)/,
			);
		});
	});

	describe('Record by Phone', () => {
		test('sends recording_studio with the destination and outputs what the service answered', async () => {
			const [output] = ok(await run({ operation: 'record', destination: '050-123-4567' }));
			const [request] = requests('recording_studio');
			assert.equal(request.method, 'POST');
			assert.deepEqual(
				request.body,
				{ destination: '0501234567' },
				'sent as digits (docs/inputs.md)',
			);
			assert.equal(output.success, true);
			assert.equal(output.destination, '0501234567', "the service's normalised number");
			assert.match(String(output.prompt_name), /^studio_\d+$/);
			await sandbox.control.flushScheduled();
		});

		test('a destination the service rejects explains 9026; one with letters is refused before any request', async () => {
			const result = await run({ operation: 'record', destination: '123' });
			assert.match(
				String(result.error?.message),
				/recording_studio failed: The destination is empty or invalid \(code 9026\)/,
			);
			await refused(
				{ operation: 'record', destination: 'my phone' },
				undefined,
				/Phone Number: must be a phone number/,
			);
			await refused(
				{ operation: 'record', destination: expr('') },
				undefined,
				/Phone Number: is required/,
			);
		});
	});

	function listSearch(method: string, filter?: string): Promise<INodeListSearchResult> {
		return callNodeMethod<INodeListSearchResult>({
			nodeType: 'virtualNumber',
			kind: 'listSearch',
			method,
			credentials: credentials(),
			args: [filter],
		});
	}
});
