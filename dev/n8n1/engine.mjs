/** What the 1.x run redirects, and from where: shared by register.mjs (CommonJS) and hooks.mjs (ESM). */
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ENGINE_DIR = fileURLToPath(new URL('.', import.meta.url)).replace(/[\\/]$/, '');
export const PROJECT_ROOT = join(ENGINE_DIR, '..', '..');

/** The packages n8n itself provides to a community package, plus the engine the harness runs on. */
export const ENGINE_PACKAGES = ['n8n-core', 'n8n-workflow', '@n8n/di', '@n8n/backend-common'];

export function isRedirected(specifier) {
	return ENGINE_PACKAGES.some((name) => specifier === name || specifier.startsWith(`${name}/`));
}

/** A file of this project outside every node_modules folder and outside n8n1/ itself. */
export function isProjectFile(filename) {
	if (!filename || !filename.startsWith(PROJECT_ROOT + sep)) return false;
	if (filename.startsWith(ENGINE_DIR + sep)) return false;
	return !filename.includes(`${sep}node_modules${sep}`);
}
