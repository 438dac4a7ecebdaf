/**
 * What n8n 2.40's web server does around a webhook's answer, for the trigger harness
 * (trigger.mts), no kinder than n8n:
 *
 * - Compression (abstract-server.js `setupCommonMiddlewares`: `app.use(compression())`, first on
 *   every route). The `compression` package n8n ships (1.8) compresses, for a client that sent
 *   Accept-Encoding (Python requests, Node fetch, PHP curl by default), every answer with a
 *   compressible Content-Type whose length it does not know when its headers go out (written with
 *   `writeHead` before `end`), and any of 1 KB or more; it sets `Content-Encoding` through
 *   `res.setHeader`. The package is taken from the e2e install (dev/e2e/node_modules), which n8n's
 *   own copy is: without that install the harness answers uncompressed and says so
 *   (`compressionStatus`).
 * - Express's `res.send` (express 5), which n8n's answers go through: a string is sent as
 *   `text/html` unless a Content-Type is set, an object as JSON, both with their Content-Length
 *   (so a short answer is never compressed).
 */
import { existsSync } from 'node:fs';
import type http from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { E2E_MODULES } from './n8nInstall.mts';

type Middleware = (
	req: http.IncomingMessage,
	res: http.ServerResponse,
	next: (error?: unknown) => void,
) => void;

/** n8n's compression middleware, or why the harness has none. */
export type Compression = { use: Middleware } | { reason: string };

let loaded: Compression | undefined;

/** The `compression` middleware as n8n configures it (defaults), from the e2e install. */
export function n8nCompression(): Compression {
	if (loaded) return loaded;
	const dir = join(E2E_MODULES, 'compression');
	if (!existsSync(join(dir, 'package.json')))
		return (loaded = { reason: `no compression package in ${E2E_MODULES} (run npm run e2e once)` });
	const factory = createRequire(join(E2E_MODULES, 'package.json'))(
		'compression',
	) as () => Middleware;
	return (loaded = { use: factory() });
}

/** Runs n8n's compression middleware on this request, when the harness has it. */
export async function compressLikeN8n(
	req: http.IncomingMessage,
	res: http.ServerResponse,
): Promise<void> {
	const compression = n8nCompression();
	if (!('use' in compression)) return;
	await new Promise<void>((resolve, reject) =>
		compression.use(req, res, (error) => (error ? reject(error) : resolve())),
	);
}

/** Express's `res.send(body)` as n8n's answers use it: a Content-Type when none is set, the length, the body. */
export function sendLikeExpress(res: http.ServerResponse, status: number, body: unknown): void {
	if (res.headersSent) return;
	res.statusCode = status;
	if (body === undefined || body === null) {
		res.end();
		return;
	}
	const text = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
	if (res.getHeader('Content-Type') === undefined)
		res.setHeader(
			'Content-Type',
			typeof body === 'string' ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8',
		);
	const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
	res.setHeader('Content-Length', String(bytes.length));
	res.end(bytes);
}
