/**
 * A tiny HTTP server that records what it receives and answers what the test scripted.
 * For answers the sandbox would never give (exotic bodies, odd status codes).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string>;
	body: string;
}

export interface ScriptedAnswer {
	status?: number;
	headers?: Record<string, string>;
	body?: string | object;
}

export interface Recorder {
	url: string;
	requests: RecordedRequest[];
	/** Answers, used in order; the last one repeats. */
	answer(...answers: Array<ScriptedAnswer | ((request: RecordedRequest) => ScriptedAnswer)>): void;
	close(): Promise<void>;
}

export async function startRecorder(): Promise<Recorder> {
	const requests: RecordedRequest[] = [];
	let answers: Array<ScriptedAnswer | ((request: RecordedRequest) => ScriptedAnswer)> = [
		{ status: 200, body: {} },
	];
	const server: Server = createServer(async (req, res) => {
		const recorded = await record(req);
		requests.push(recorded);
		const next = answers.length > 1 ? answers.shift()! : answers[0];
		const answer = typeof next === 'function' ? next(recorded) : next;
		const body = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? {});
		res.writeHead(answer.status ?? 200, {
			'Content-Type': typeof answer.body === 'string' ? 'text/plain' : 'application/json',
			...answer.headers,
		});
		res.end(body);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		answer: (...next) => {
			answers = next;
		},
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

async function record(req: IncomingMessage): Promise<RecordedRequest> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	const url = new URL(req.url ?? '/', 'http://localhost');
	return {
		method: req.method ?? 'GET',
		path: url.pathname,
		query: Object.fromEntries(url.searchParams),
		headers: Object.fromEntries(
			Object.entries(req.headers).map(([key, value]) => [
				key,
				Array.isArray(value) ? value.join(', ') : String(value),
			]),
		),
		body: Buffer.concat(chunks).toString('utf8'),
	};
}
