/**
 * The package installed the way an n8n admin installs it: Settings → Community Nodes → Install, i.e.
 * `POST /rest/community-packages`, from a registry. n8n's installer runs `npm pack <name>@<version>
 * --registry=<N8N_COMMUNITY_PACKAGES_REGISTRY>` into its download folder, unpacks the tarball into
 * ~/.n8n/nodes/node_modules/<name>, strips the dev and peer dependencies, runs `npm install
 * --ignore-scripts` there and loads the nodes without a restart.
 *
 * The registry is a tiny one on loopback serving the packed build (metadata + tarball). n8n uses a
 * registry other than npmjs.org only with the licence feature `feat:communityNodes:customRegistry`;
 * n8n's own test mode (`E2E_TESTS=true`) lets its `/rest/e2e/feature` switch that feature on. Nothing
 * of n8n is patched: the install path from the REST call to the loaded nodes is n8n's.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startN8n, type N8nServer } from '../../harness/n8n/server.mts';
import { ROOT_DIR } from '../../harness/n8n/install.mts';
import type { Check, Log } from '../../harness/n8n/workflows.mts';

const NAME = 'n8n-nodes-virtualnum';

export interface LocalRegistry {
	url: string;
	version: string;
	/** The requests the registry answered (method and path), for the log. */
	requests: string[];
	close(): Promise<void>;
}

interface Packed {
	file: string;
	tarball: Buffer;
	/** What a registry serves of a version: its package.json's public fields (`dist` added per request). */
	manifest: Record<string, unknown> & { version: string };
}

/** `npm pack` of the built package, read into memory. */
function packBuild(): Packed {
	const packDir = mkdtempSync(join(tmpdir(), 'virtualnum-registry-'));
	execFileSync('npm', ['pack', '--pack-destination', packDir], { cwd: ROOT_DIR, stdio: 'ignore' });
	const file = readdirSync(packDir).find((f) => f.endsWith('.tgz'))!;
	const tarball = readFileSync(join(packDir, file));
	rmSync(packDir, { recursive: true, force: true });
	const pkg = JSON.parse(readFileSync(join(ROOT_DIR, 'package.json'), 'utf8')) as Record<
		string,
		unknown
	>;
	const { description, license, engines, peerDependencies } = pkg;
	const manifest = {
		name: NAME,
		version: String(pkg.version),
		description,
		license,
		engines,
		peerDependencies,
	};
	return { file, tarball, manifest };
}

/** The registry's answers: the package document, one version's document, the tarball; 404 otherwise. */
function answer(packed: Packed, req: IncomingMessage, res: ServerResponse): void {
	const { file, tarball, manifest } = packed;
	const version = {
		...manifest,
		dist: {
			tarball: `http://${req.headers.host}/${NAME}/-/${file}`,
			shasum: createHash('sha1').update(tarball).digest('hex'),
			integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
		},
	};
	const path = decodeURIComponent((req.url ?? '/').split('?')[0]);
	const send = (type: string, body: string | Buffer, status = 200) => {
		res.writeHead(status, { 'content-type': type });
		res.end(body);
	};
	const json = 'application/json';
	if (path === `/${NAME}`) {
		const versions = { [manifest.version]: version };
		send(json, JSON.stringify({ name: NAME, 'dist-tags': { latest: manifest.version }, versions }));
	} else if (path === `/${NAME}/${manifest.version}` || path === `/${NAME}/latest`)
		send(json, JSON.stringify(version));
	else if (path === `/${NAME}/-/${file}`) send('application/octet-stream', tarball);
	else send(json, '{"error":"Not found"}', 404);
}

/** Packs the built package and serves it as the registry's only package, on 127.0.0.1. */
export async function startLocalRegistry(): Promise<LocalRegistry> {
	const packed = packBuild();
	const requests: string[] = [];
	const server: Server = createServer((req, res) => {
		requests.push(`${req.method} ${req.url}`);
		answer(packed, req, res);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	return {
		url: `http://127.0.0.1:${port}`,
		version: packed.manifest.version,
		requests,
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

/**
 * Starts the pinned n8n without the package, in n8n's test mode with the custom-registry feature on,
 * and installs the package through `POST /rest/community-packages` as the Install dialog does.
 * Answers the running n8n (with the package loaded) for the core checks.
 */
export async function installThroughN8n(
	registry: LocalRegistry,
	check: Check,
	log: Log,
): Promise<N8nServer> {
	const n8n = await startN8n(log, {
		withPackage: false,
		env: { E2E_TESTS: 'true', N8N_COMMUNITY_PACKAGES_REGISTRY: registry.url },
	});
	await fetch(`${n8n.url}/rest/e2e/feature`, {
		method: 'PATCH',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ feature: 'feat:communityNodes:customRegistry', enabled: true }),
	});
	const started = Date.now();
	const installed = await n8n.rest<{
		packageName: string;
		installedVersion: string;
		installedNodes: Array<{ type: string }>;
	}>('POST', '/community-packages', { name: NAME, version: registry.version });
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	check(
		installed.packageName === NAME &&
			installed.installedVersion === registry.version &&
			installed.installedNodes.length === 4,
		`n8n's installer installed ${NAME}@${installed.installedVersion} from the local registry in ${seconds} s, ` +
			`${installed.installedNodes.length} nodes (registry saw: ${registry.requests.join(', ')})`,
	);
	const listed = await n8n.rest<Array<{ packageName: string; failedLoading?: boolean }>>(
		'GET',
		'/community-packages',
	);
	check(
		listed.some((p) => p.packageName === NAME && !p.failedLoading),
		'Settings → Community Nodes lists the package, loaded',
	);
	return n8n;
}
