/**
 * scripts/scan.mjs runs n8n's scanner as n8n does: an inline `eslint-disable` does not hide a
 * violation, in the source leg or the tarball leg.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

// @ts-expect-error plain JavaScript script without types
import { scanSource, scanTarball } from '../../scripts/scan.mjs';

const PACKAGE_JSON = {
	name: 'n8n-nodes-scanfixture',
	version: '0.0.1',
	description: 'Scanner fixture',
	keywords: ['n8n-community-node-package'],
	license: 'MIT',
	homepage: 'https://github.com/n8n-nodes-virtualnum/n8n-nodes-virtualnum',
	author: { name: 'Fixture', email: 'fixture@users.noreply.github.com' },
	files: ['dist'],
	n8n: { n8nNodesApiVersion: 1, strict: true, nodes: [], credentials: [] },
	peerDependencies: { 'n8n-workflow': '*' },
};

/** A helper file that logs to the console, with the inline comment a developer would add to silence lint. */
const SILENCED = `// eslint-disable-next-line no-console\nconsole.log('debug');\nexport const x = 1;\n`;

describe('npm run scan', () => {
	let dir: string;
	before(() => {
		dir = mkdtempSync(join(tmpdir(), 'virtualnum-scan-fixture-'));
		mkdirSync(join(dir, 'nodes', 'Fixture'), { recursive: true });
		mkdirSync(join(dir, 'dist', 'nodes', 'Fixture'), { recursive: true });
		writeFileSync(join(dir, 'package.json'), JSON.stringify(PACKAGE_JSON, null, 2));
		writeFileSync(join(dir, 'nodes', 'Fixture', 'helper.ts'), SILENCED);
		writeFileSync(
			join(dir, 'dist', 'nodes', 'Fixture', 'helper.js'),
			SILENCED.replace('export const x', 'exports.x'),
		);
	});
	after(() => rmSync(dir, { recursive: true, force: true }));

	test('the source leg reports a console statement despite its eslint-disable comment', async () => {
		const result = await scanSource(dir);
		assert.equal(result.passed, false);
		assert.match(
			result.details,
			/nodes\/Fixture\/helper\.ts[\s\S]*Unexpected console statement\s+no-console/,
		);
	});

	test('the tarball leg reports it in the packed JavaScript', async () => {
		const tarball = join(dir, 'fixture.tgz');
		const packed = spawnSync(
			'tar',
			['-czf', tarball, '--transform', 's,^\\.,package,', './package.json', './dist'],
			{ cwd: dir },
		);
		assert.equal(packed.status, 0, String(packed.stderr));
		const result = await scanTarball(tarball);
		assert.equal(result.passed, false);
		assert.match(result.details, /dist\/nodes\/Fixture\/helper\.js[\s\S]*no-console/);
	});
});
