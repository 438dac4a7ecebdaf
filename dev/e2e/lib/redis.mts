/**
 * A throw-away Redis for n8n's queue: Debian's redis-server (installed with apt when missing), its
 * own port on 127.0.0.1, no persistence, stopped by its process id.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';

import { freePort } from '../../harness/n8n/server.mts';
import { spawnTracked, type Tracked } from '../../harness/n8n/processes.mts';
import { ensureAptPackages } from '../../harness/n8n/install.mts';

const REDIS_SERVER = '/usr/bin/redis-server';

export interface Redis {
	host: string;
	port: number;
	process: Tracked;
	/** One command; answers an integer or text reply as text (enough for LLEN, ZCARD, HGET, PING). */
	command(...args: string[]): Promise<string>;
	stop(): Promise<void>;
}

/** Sends one command in Redis's protocol and reads its reply (integer, status, or one bulk string). */
function command(port: number, args: string[]): Promise<string> {
	return new Promise((resolve, reject) => {
		const socket = createConnection({ host: '127.0.0.1', port });
		let reply = Buffer.alloc(0);
		socket.setTimeout(5000, () => socket.destroy(new Error('no answer')));
		socket.once('error', reject);
		socket.once('connect', () =>
			socket.write(
				`*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`,
			),
		);
		socket.on('data', (chunk: Buffer) => {
			reply = Buffer.concat([reply, chunk]);
			const text = reply.toString('utf8');
			const end = text.indexOf('\r\n');
			if (end < 0) return;
			const head = text.slice(0, end);
			if (head.startsWith('-')) reject(new Error(`redis: ${head.slice(1)}`));
			else if (head.startsWith('$')) {
				const length = Number(head.slice(1));
				if (length < 0) resolve('');
				else if (reply.length >= end + 2 + length + 2)
					resolve(reply.subarray(end + 2, end + 2 + length).toString('utf8'));
				else return;
			} else resolve(head.slice(1));
			socket.end();
		});
	});
}

export async function startRedis(baseDir: string, log: (line: string) => void): Promise<Redis> {
	ensureAptPackages(log, [{ pkg: 'redis-server', present: () => existsSync(REDIS_SERVER) }]);
	const dir = join(baseDir, 'redis');
	mkdirSync(dir, { recursive: true });
	const port = await freePort();
	const server = spawnTracked(
		'redis',
		REDIS_SERVER,
		[
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--save',
			'',
			'--appendonly',
			'no',
			'--daemonize',
			'no',
			'--dir',
			dir,
			'--loglevel',
			'warning',
		],
		{ cwd: dir },
	);
	const deadline = Date.now() + 30_000;
	for (;;) {
		if (!server.alive())
			throw new Error(`redis-server exited:\n${server.logs.slice(-20).join('\n')}`);
		const answer = await command(port, ['PING']).catch(() => '');
		if (answer === 'PONG') break;
		if (Date.now() > deadline)
			throw new Error(
				`redis-server did not answer PING in 30 s:\n${server.logs.slice(-20).join('\n')}`,
			);
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	log(`redis on 127.0.0.1:${port} (pid ${server.pid})`);
	return {
		host: '127.0.0.1',
		port,
		process: server,
		command: async (...args) => await command(port, args),
		async stop() {
			await server.stop('SIGTERM', 10_000);
			rmSync(dir, { recursive: true, force: true });
		},
	};
}
