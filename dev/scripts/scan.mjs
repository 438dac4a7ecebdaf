// `npm run scan`: n8n's community package scanner (@n8n/scan-community-package, pinned) run offline on
// this repository, the way `npx @n8n/scan-community-package n8n-nodes-virtualnum` runs on a published
// version: its own analysis (analyzePackage, with the ESLint configuration it builds and inline
// `eslint-disable` comments ignored) on the source files it lints and on the `npm pack` tarball.
// Its third leg, the npm provenance check, needs the published version's registry metadata: it cannot
// run before publishing, and this script says so instead of pretending.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import {
	SOURCE_FILE_PATTERNS,
	analyzePackage,
} from '@n8n/scan-community-package/scanner/scanner.mjs';

const ROOT = new URL('../..', import.meta.url).pathname;
/** What the scanner lints in the tarball it downloads (scanner.mjs, analyzePackageByName). */
export const TARBALL_FILE_PATTERNS = ['**/*.js', 'package.json'];

/** The scanner's source leg: package.json and nodes/credentials sources, as in the attested checkout. */
export async function scanSource(dir) {
	return await analyzePackage(dir, SOURCE_FILE_PATTERNS);
}

/** The scanner's tarball leg: a packed .tgz unpacked as the scanner unpacks it, then linted. */
export async function scanTarball(tarball) {
	const dir = mkdtempSync(join(tmpdir(), 'virtualnum-scan-'));
	try {
		const unpack = spawnSync('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1'], {
			encoding: 'utf8',
		});
		if (unpack.status !== 0) throw new Error(`tar could not unpack ${tarball}: ${unpack.stderr}`);
		return await analyzePackage(dir, TARBALL_FILE_PATTERNS);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/** `npm pack` of the project into a fresh folder (dist/ must be built): the .tgz path. */
export function pack(projectDir) {
	const destination = mkdtempSync(join(tmpdir(), 'virtualnum-pack-'));
	const result = spawnSync('npm', ['pack', '--json', '--pack-destination', destination], {
		cwd: projectDir,
		encoding: 'utf8',
	});
	if (result.status !== 0) throw new Error(`npm pack failed: ${result.stderr}`);
	const [{ filename }] = JSON.parse(result.stdout);
	return join(destination, filename);
}

function report(leg, result) {
	console.log(
		`${result.passed ? 'passed' : 'FAILED'}: ${leg}${result.message ? ` (${result.message})` : ''}`,
	);
	if (result.details) console.log(result.details);
	return result.passed;
}

async function main() {
	const { name, version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
	console.log(
		`n8n community package scan of ${name}@${version} (offline, inline eslint-disable comments ignored)`,
	);
	const sourceOk = report('source (package.json, nodes/, credentials/)', await scanSource(ROOT));
	const tarball = pack(ROOT);
	let tarballOk;
	try {
		tarballOk = report(
			`tarball (${tarball.split('/').pop()}: **/*.js, package.json)`,
			await scanTarball(tarball),
		);
	} finally {
		rmSync(join(tarball, '..'), { recursive: true, force: true });
	}
	console.log(
		'not run: provenance (dist.attestations.provenance of the published version). It exists only after ' +
			'publish.yml has published a version tag; then run `npx @n8n/scan-community-package ' +
			`${name}@<version>\` for all three legs.`,
	);
	if (!sourceOk || !tarballOk) process.exit(1);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
