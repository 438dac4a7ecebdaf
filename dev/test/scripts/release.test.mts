/** scripts/release.mjs: when a version may be tagged, and the prepublishOnly guard of `npm publish`. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

// @ts-expect-error plain JavaScript script without types
import { changelogSection, publishRefusal, releaseProblems } from '../../scripts/release.mjs';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const CHANGELOG = `# Changelog

## [Unreleased]

## [0.2.0] - 2026-12-01

### Added
- Something new.

## [0.1.0] - 2026-11-01

### Added
- The first nodes.
`;

const ready = {
	version: '0.2.0',
	changelog: CHANGELOG,
	tags: ['0.1.0'],
	branch: 'main',
	dirty: false,
};

describe('npm run release: what stops a version from being tagged', () => {
	test('a version with its CHANGELOG section, untagged, on a clean main may be released', () => {
		assert.deepEqual(releaseProblems(ready), []);
	});

	test('the CHANGELOG section must exist, with a date and at least one entry', () => {
		assert.match(changelogSection(CHANGELOG, '0.1.0'), /The first nodes/);
		assert.equal(changelogSection(CHANGELOG, '0.3.0'), undefined);
		assert.equal(changelogSection('## [0.2.0]\n\n- Undated.\n', '0.2.0'), undefined);
		assert.equal(
			changelogSection(
				'## [0.2.0] - 2026-12-01\n\n### Added\n\n## [0.1.0] - 2026-11-01\n- Old.\n',
				'0.2.0',
			),
			undefined,
		);
		// "0.2.0" must not match "0x2x0" (the dots are literal).
		assert.equal(changelogSection('## [0x2x0] - 2026-12-01\n- Entry.\n', '0.2.0'), undefined);
		const [problem] = releaseProblems({ ...ready, version: '0.3.0', tags: ['0.1.0', '0.2.0'] });
		assert.match(problem, /CHANGELOG\.md has no "## \[0\.3\.0\] - YYYY-MM-DD" section/);
	});

	test('an existing tag, another branch, uncommitted changes and a non-semver version are each refused', () => {
		assert.deepEqual(releaseProblems({ ...ready, tags: ['0.1.0', '0.2.0'] }), [
			'the tag 0.2.0 exists already: bump the version first',
		]);
		assert.deepEqual(releaseProblems({ ...ready, branch: 'feature' }), [
			'releases are tagged on main (this is feature)',
		]);
		assert.deepEqual(releaseProblems({ ...ready, dirty: true }), [
			'the working tree has uncommitted changes',
		]);
		assert.match(releaseProblems({ ...ready, version: 'v0.2' })[0], /not x\.y\.z/);
	});
});

describe('npm publish guard (prepublishOnly)', () => {
	const tagRun = { GITHUB_ACTIONS: 'true', GITHUB_REF_TYPE: 'tag', GITHUB_REF_NAME: '0.2.0' };

	test('goes on only in the publish workflow of the matching tag, or for a dry run', () => {
		assert.equal(publishRefusal(tagRun, '0.2.0'), undefined);
		assert.equal(publishRefusal({ npm_config_dry_run: 'true' }, '0.2.0'), undefined);
		assert.match(publishRefusal({}, '0.2.0'), /only in \.github\/workflows\/publish\.yml/);
		assert.match(
			publishRefusal({ ...tagRun, GITHUB_REF_NAME: '0.1.9' }, '0.2.0'),
			/needs the tag 0\.2\.0 .*"0\.1\.9"/,
		);
		assert.match(
			publishRefusal({ ...tagRun, GITHUB_REF_TYPE: 'branch', GITHUB_REF_NAME: 'main' }, '0.2.0'),
			/needs the tag/,
		);
	});

	test('npm publish on a laptop stops before any check runs, saying how to release', () => {
		const env = { ...process.env };
		for (const key of [
			'GITHUB_ACTIONS',
			'GITHUB_REF_TYPE',
			'GITHUB_REF_NAME',
			'npm_config_dry_run',
		])
			delete env[key];
		const result = spawnSync(process.execPath, ['dev/scripts/release.mjs', '--guard'], {
			cwd: ROOT,
			env,
			encoding: 'utf8',
		});
		assert.equal(result.status, 1);
		assert.match(
			result.stderr,
			/release: npm publish runs only in \.github\/workflows\/publish\.yml .*npm run release/,
		);
		assert.doesNotMatch(result.stdout, /== npm run/);
	});
});
