/**
 * The recording download: Call Record → Download Recording of a 50 MB WAV in n8n's binary data
 * modes, against n8n's HTTP Request node downloading the same file as a file in the same mode, and
 * a plain fetch (into memory, or streamed to a file).
 */
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import type { RunOptions } from '../../harness/engine.mts';
import { measure, type Measurement } from '../measure.mts';
import { HTTP_REQUEST, benchNodeTypes, defaultVersion } from '../n8n.mts';

export type BinaryMode = 'default' | 'filesystem';

export type RecordingTask =
	| {
			kind: 'recordingNode' | 'recordingHttpNode';
			vnUrl: string;
			token: string;
			callUuid: string;
			binaryMode: BinaryMode;
	  }
	| {
			kind: 'recordingFetch';
			vnUrl: string;
			token: string;
			callUuid: string;
			into: 'memory' | 'file';
	  };

const recordingUrl = (baseUrl: string, callUuid: string) =>
	`${baseUrl}/api/?service=get_record_by_call_uuid&format=json&type=wav&call_uuid=${encodeURIComponent(callUuid)}`;

/**
 * A loopback server in this process that answers every request with a small WAV (256 KB), for the
 * warm-up: the same code path as the measured download, without a 50 MB peak before the run.
 */
async function smallRecordingServer(): Promise<{ url: string; close(): Promise<void> }> {
	const bytes = Buffer.alloc(256 * 1024, 0x80);
	bytes.write('RIFF', 0, 'latin1');
	bytes.writeUInt32LE(bytes.length - 8, 4);
	bytes.write('WAVE', 8, 'latin1');
	const server = createServer((_req, res) => {
		res.writeHead(200, { 'Content-Type': 'audio/wav', 'Content-Length': bytes.length });
		res.end(bytes);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

/** The workflow of one download: this package's node, or n8n's HTTP Request node set to save the answer as a file. */
async function downloadWorkflow(
	task: Extract<RecordingTask, { kind: 'recordingNode' | 'recordingHttpNode' }>,
	baseUrl: string,
): Promise<RunOptions> {
	if (task.kind === 'recordingNode') {
		return {
			nodes: [
				{
					name: 'Download',
					type: 'virtualNumber',
					parameters: { resource: 'cdr', operation: 'downloadRecording', callUuid: task.callUuid },
				},
			],
			credentials: { virtualnumApi: { baseUrl, accessToken: task.token } },
		};
	}
	return {
		nodes: [
			{
				name: 'Download',
				type: HTTP_REQUEST,
				typeVersion: defaultVersion(HTTP_REQUEST),
				parameters: {
					method: 'GET',
					url: recordingUrl(baseUrl, task.callUuid),
					authentication: 'genericCredentialType',
					genericAuthType: 'httpHeaderAuth',
					options: { response: { response: { responseFormat: 'file' } } },
				},
				credentials: { httpHeaderAuth: { id: 'header-auth', name: 'Virtual Number token' } },
			},
		],
		nodeTypes: await benchNodeTypes({ base: true }),
		credentials: { httpHeaderAuth: { name: 'Authorization', value: `Bearer ${task.token}` } },
	};
}

export async function recordingNode(
	task: Extract<RecordingTask, { kind: 'recordingNode' | 'recordingHttpNode' }>,
): Promise<Measurement> {
	// n8n reads the mode from the environment when the binary data service is first built.
	const storage = mkdtempSync(join(tmpdir(), 'bench-binary-'));
	process.env.N8N_DEFAULT_BINARY_DATA_MODE = task.binaryMode;
	process.env.N8N_BINARY_DATA_STORAGE_PATH = storage;
	const { runWorkflow } = await import('../../harness/engine.mts');
	const { Container } = await import('@n8n/di');
	const { BinaryDataService } = await import('n8n-core');
	await Container.get(BinaryDataService).init();
	const small = await smallRecordingServer();
	const download = async (baseUrl: string) => {
		const result = await runWorkflow(await downloadWorkflow(task, baseUrl));
		if (result.error) throw new Error(`the download failed: ${result.error.message}`);
		const binary = result.items('Download')[0].binary!.data;
		return {
			bytes: Number(binary.bytes ?? Buffer.byteLength(binary.data, 'base64')),
			stored: binary.id ? 'file' : 'item',
		};
	};
	try {
		return await measure(
			() => download(small.url),
			async () => {
				const { bytes, stored } = await download(task.vnUrl);
				return { produced: bytes, extra: { stored } };
			},
			{ breakdown: true },
		);
	} finally {
		await small.close();
		rmSync(storage, { recursive: true, force: true });
	}
}

/** The plain client: fetch the same file whole into memory, or stream it to a file. */
export async function recordingFetch(
	task: Extract<RecordingTask, { kind: 'recordingFetch' }>,
): Promise<Measurement> {
	const dir = mkdtempSync(join(tmpdir(), 'bench-fetch-'));
	const small = await smallRecordingServer();
	const get = async (baseUrl: string) => {
		const response = await fetch(recordingUrl(baseUrl, task.callUuid), {
			headers: { Authorization: `Bearer ${task.token}` },
		});
		if (task.into === 'memory') return Buffer.from(await response.arrayBuffer()).length;
		const file = join(dir, 'recording.wav');
		await pipeline(Readable.fromWeb(response.body as never), createWriteStream(file));
		return Number(response.headers.get('content-length') ?? 0);
	};
	try {
		return await measure(
			() => get(small.url),
			async () => ({ produced: await get(task.vnUrl) }),
			{ breakdown: true },
		);
	} finally {
		await small.close();
		rmSync(dir, { recursive: true, force: true });
	}
}
