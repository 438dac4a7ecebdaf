/**
 * A pass-through HTTP proxy for tests and the e2e run: stands between a client (a node, n8n) and
 * a service (the sandbox) and lets the caller act at an exact point of a sequence.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

function readBody(req: http.IncomingMessage): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

export interface ProxiedRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	/** Form or query parameters of the request. */
	params: Record<string, string>;
}

/**
 * A pass-through HTTP proxy in front of a service, which lets a test act at an exact point of a
 * sequence (e.g. inject a fault just before the 3rd update reaches the sandbox). Requests are
 * forwarded one at a time in arrival order, so "the 3rd" is the 3rd the service sees.
 */
export async function startProxy(
	target: string,
	beforeForward: (request: ProxiedRequest) => void | Promise<void>,
): Promise<{ url: string; requests: ProxiedRequest[]; close(): Promise<void> }> {
	const requests: ProxiedRequest[] = [];
	let queue: Promise<unknown> = Promise.resolve();
	const server = http.createServer((req, res) => {
		const bodyPromise = readBody(req);
		const turn = queue.then(async () => {
			const raw = await bodyPromise;
			const url = new URL(req.url ?? '/', target);
			const query = Object.fromEntries(url.searchParams);
			const form = (req.headers['content-type'] ?? '').includes('x-www-form-urlencoded')
				? Object.fromEntries(new URLSearchParams(raw.toString('utf8')))
				: {};
			const request: ProxiedRequest = {
				method: req.method ?? 'GET',
				path: url.pathname,
				query,
				params: { ...query, ...form },
			};
			requests.push(request);
			await beforeForward(request);
			const headers = { ...req.headers };
			delete headers.host;
			const answer = await fetch(url, {
				method: req.method,
				headers: headers as Record<string, string>,
				body: raw.length > 0 ? raw : undefined,
			});
			const bytes = Buffer.from(await answer.arrayBuffer());
			res.writeHead(answer.status, {
				'Content-Type': answer.headers.get('content-type') ?? 'text/plain',
			});
			res.end(bytes);
		});
		queue = turn.catch((error: unknown) => {
			if (!res.headersSent) res.writeHead(502).end(String(error));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		requests,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
